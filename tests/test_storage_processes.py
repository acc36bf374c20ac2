"""Across processes, on SQLite and PostgreSQL: two workers writing the same table at the same version store one
move; a worker SIGKILLed in the middle of a stream of moves loses no committed move and the game plays on;
two workers polling timers fire each deadline once."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

from bot.storage import FINISHED, Storage
from core import games
from core.rng import stream
from tests import storage_support
from tests.storage_support import next_move, play, setup_table

db_url = storage_support.db_url
ROOT = Path(__file__).resolve().parents[1]


def worker(url: str, *args: str) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen(
        [sys.executable, "-m", "tests.storage_worker", url, *args],
        cwd=ROOT,
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        bufsize=1,
    )


def ask_both(procs: list[subprocess.Popen], request: dict) -> list[str]:
    line = json.dumps(request) + "\n"
    for p in procs:  # both get the request before either answers
        p.stdin.write(line)
        p.stdin.flush()
    return [p.stdout.readline().strip() for p in procs]


def stop(procs: list[subprocess.Popen]) -> None:
    for p in procs:
        p.stdin.close()
    for p in procs:
        assert p.wait(timeout=60) == 0


async def test_two_processes_same_version_store_exactly_one_move(db_url: str):
    st = await Storage.open(db_url)
    try:
        table, state = await setup_table(st, "deberts", 2, seed="race")
        procs = [worker(db_url, "serve") for _ in range(2)]
        try:
            assert [p.stdout.readline().strip() for p in procs] == ["ready", "ready"]
            rng = stream(11)
            for version in range(5):
                state, action = next_move(state, rng)
                state, _ = state.apply(action)
                answers = ask_both(
                    procs,
                    {
                        "op": "commit",
                        "table": table.id,
                        "version": version,
                        "seat": action.seat,
                        "action": action.to_json(),
                        "state": state.to_json(),
                    },
                )
                assert sorted(answers) == ["conflict", "ok"], answers
        finally:
            stop(procs)
        table = await st.table(table.id)
        assert table.version == 5 and [m.seq for m in await st.moves(table.id)] == list(range(1, 6))
        assert (await st.verify(table.id)).state == state.to_json()
    finally:
        await st.close()


async def test_two_processes_claim_each_deadline_once(db_url: str):
    st = await Storage.open(db_url)
    try:
        now = datetime(2031, 5, 1, tzinfo=UTC)
        ids = []
        for i in range(6):
            table, _ = await setup_table(st, "kozel", 2, chat=f"-{i}")
            await st.set_deadline(table.id, 0, now - timedelta(seconds=i), "turn")
            ids.append(table.id)
        procs = [worker(db_url, "serve") for _ in range(2)]
        try:
            assert [p.stdout.readline().strip() for p in procs] == ["ready", "ready"]
            claimed: list[int] = []
            for _ in range(3):
                for answer in ask_both(procs, {"op": "claim", "now": now.isoformat()}):
                    claimed += json.loads(answer)
        finally:
            stop(procs)
        assert sorted(claimed) == sorted(ids)  # every deadline fired, none twice
    finally:
        await st.close()


async def test_a_worker_killed_mid_stream_keeps_every_committed_move(db_url: str):
    st = await Storage.open(db_url)
    try:
        table, state = await setup_table(st, "deberts", 2, seed="kill")
    finally:
        await st.close()
    proc = worker(db_url, "stream", str(table.id))
    last = 0
    while last < 25:
        line = proc.stdout.readline()
        assert line.startswith("committed "), line
        last = int(line.split()[1])
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=30)
    assert proc.returncode == -signal.SIGKILL

    st = await Storage.open(db_url)  # the restart
    try:
        table = await st.table(table.id)
        assert table.version >= last and table.broken is None  # every move it reported is there
        assert [m.seq for m in await st.moves(table.id)] == list(range(1, table.version + 1))
        assert await st.verify_open_tables() == []  # state equals the replayed log
        state = games.get("deberts").from_json(table.state)
        table, state = await play(st, table, state)  # and the game plays on to its end
        assert table.status == FINISHED and state.finished
        assert (await st.verify(table.id)).status == FINISHED
    finally:
        await st.close()
