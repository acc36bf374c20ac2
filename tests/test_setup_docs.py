"""The setup a newcomer meets: `make run` installs only what the bot needs, and the README points only at files
a clone has (issue 27 point 12)."""

import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _dry_run(target: str, venv: Path) -> str:
    """The commands `make TARGET` would run on a machine with no virtual environment yet."""
    out = subprocess.run(
        ["make", "-n", "-C", str(ROOT), f"VENV={venv}", target], capture_output=True, text=True, check=True
    )
    return out.stdout


@pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")
def test_make_run_installs_the_runtime_only_and_make_test_the_test_tools(tmp_path):
    run = _dry_run("run", tmp_path / "venv")
    assert "pip install --quiet -e ." in run and "[dev]" not in run
    assert "-m bot" in run
    test = _dry_run("test", tmp_path / "venv")
    assert "pip install --quiet -e '.[dev]'" in test and "pytest" in test


def test_the_readme_names_only_files_a_clone_has():
    readme = (ROOT / "README.md").read_text()
    named = set(re.findall(r"`([\w./-]+\.(?:md|py|yaml|toml|json))`", readme))
    named |= set(re.findall(r"\]\(([^)#:]+)\)", readme))
    assert "docs/rules-thousand.md" in named  # the rules are pointed at inside the repository
    missing = sorted(p for p in named if ".." in Path(p).parts or not (ROOT / p).exists())
    assert missing == []
