"""Every benchmark runs in CI: ``python -m bench.<name> --quick`` for each module of ``bench/`` that is a program,
in its own process as a developer runs it, must exit 0 and end with one JSON object (``bench/__init__.py``).
So a benchmark broken by a change elsewhere fails here, not on the day its figures are needed."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.storage_support import PG_SKIP, PG_URL

ROOT = Path(__file__).resolve().parent.parent
BENCHES = sorted(
    p.stem for p in (ROOT / "bench").glob("*.py") if 'if __name__ == "__main__":' in p.read_text(encoding="utf-8")
)
NEEDS_SERVERS = {"cluster"}  # real python -m bot workers on PostgreSQL and Redis
TIMEOUT = 240  # seconds: a hung benchmark fails instead of holding CI


def test_every_benchmark_is_found() -> None:
    assert {"telegram", "discord", "app", "storage", "render", "engine", "cluster", "webapp"} <= set(BENCHES)


@pytest.mark.parametrize("name", BENCHES)
def test_quick_mode_runs_and_ends_with_json(name: str, tmp_path: Path) -> None:
    if name in NEEDS_SERVERS:
        if not PG_URL:
            pytest.skip(PG_SKIP)
        from testkit.cluster_support import redis_available

        if not asyncio.run(redis_available()):
            pytest.skip("no Redis (REDIS_URL, default redis://127.0.0.1:6379/0)")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    if PG_URL:
        env["TEST_DATABASE_URL"] = PG_URL
    done = subprocess.run(
        [sys.executable, "-m", f"bench.{name}", "--quick"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
    )
    assert done.returncode == 0, f"bench.{name} --quick failed:\n{done.stdout[-2000:]}\n{done.stderr[-4000:]}"
    lines = done.stdout.strip().splitlines()
    assert len(lines) >= 2, f"bench.{name} printed no table before its JSON line:\n{done.stdout}"
    figures = json.loads(lines[-1])
    assert isinstance(figures, dict) and figures, f"bench.{name}'s last line is not a JSON object: {lines[-1]!r}"
    if name == "cluster":  # issue 40: Redis commands and table reads per move, counted in the workers
        for run in figures["runs"]:
            for figure in ("redis_commands_per_move", "redis_round_trips_per_move", "table_reads_per_move"):
                assert (run[figure] or 0) > 0, f"bench.cluster's {figure} is {run[figure]!r}: {run}"
            assert run["redis_scripts_per_move"] is not None and run["load"] is not None, run
