"""The setup a newcomer meets: `make run` installs only what the bot needs (without setuptools' editable-install
warning box), and the README and every page of docs/ point only at files a clone has (issue 27 point 12, issue 32
point 7)."""

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
    assert "pip install --quiet ." in run and "-e ." not in run and "[dev]" not in run  # no editable-install box
    assert "-m bot" in run
    test = _dry_run("test", tmp_path / "venv")
    # the test tools and every dependency at the locked, hash-checked versions (CI runs make test), then the checkout
    assert "pip install --quiet -r requirements-dev.lock" in test and "--no-deps -e ." in test and "pytest" in test


def test_the_readme_names_only_files_a_clone_has():
    readme = (ROOT / "README.md").read_text()
    named = set(re.findall(r"`([\w./-]+\.(?:md|py|yaml|toml|json))`", readme))
    named |= set(re.findall(r"\]\(([^)#:]+)\)", readme))
    assert "docs/rules-thousand.md" in named  # the rules are pointed at inside the repository
    missing = sorted(p for p in named if ".." in Path(p).parts or not (ROOT / p).exists())
    assert missing == []


DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
# a path written in prose: a top folder of the repository, then a path; a `*` or `<…>` after it is a pattern
PATH_IN_PROSE = re.compile(
    r"(?<![\w/.])((?:bot|core|renderers|tests|testkit|bench|tools|deploy|docs|assets)/[\w./-]*[\w/])(?![*<\w-])"
)
EXAMPLES = {"core/i18n/locale/pl/LC_MESSAGES/tablebot.po"}  # docs/i18n.md: what `make language NEW_LANG=pl` makes


def test_no_doc_names_a_file_the_repository_lacks():
    missing = []
    for page in DOCS:
        for path in set(PATH_IN_PROSE.findall(page.read_text())):
            if path not in EXAMPLES and not (ROOT / path).exists():
                missing.append(f"{page.relative_to(ROOT)}: {path}")
    assert sorted(missing) == []


def test_no_text_cites_the_rules_digest_or_its_seeds_a_clone_does_not_have():
    """The rules a clone has are docs/rules-*.md and the record format docs/records.md."""
    outside = re.compile(r"RULES\.md|SCENARIOS\.md|\bseeds? 00\d")
    texts = [*DOCS]
    for folder in ("core", "bot", "renderers", "tests", "testkit", "bench", "tools"):
        texts += [p for p in (ROOT / folder).rglob("*") if p.suffix in (".py", ".md")]
    cited = sorted(str(p.relative_to(ROOT)) for p in texts if outside.search(p.read_text(encoding="utf-8")))
    assert cited == []


def test_the_readme_links_the_house_plan_and_the_plan_draws_the_web_table():
    readme = (ROOT / "README.md").read_text()
    assert "docs/architecture.md" in readme
    drawing = (ROOT / "docs" / "architecture.md").read_text().split("```")[1]
    assert "bot/webapp" in drawing


def test_the_readme_writes_commands_as_a_group_chat_needs_them():
    """In a group (and the playground's group box) a command starts with `/`; plain words are table talk."""
    readme = (ROOT / "README.md").read_text()
    playing = readme.split("## Playing", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in playing.splitlines() if line.startswith("| `")]
    assert rows and all(line.startswith("| `/") for line in rows)
    assert "without the `/`" in playing
