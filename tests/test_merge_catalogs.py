"""tools.merge_catalogs settles a real git conflict between two branches that each added a translated string."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from babel.messages.pofile import read_po, write_po

from tools import merge_catalogs

ROOT = Path(__file__).resolve().parent.parent
TRANSLATED = {"Zz one {n}": ("Зз один {n}", "Зз один {n}"), "Zz two {n}": ("Зз два {n}", "Зз два {n}")}


def _git(repo: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", "-c", "user.email=t@t", "-c", "user.name=t", *args], cwd=repo, capture_output=True, text=True
    )
    return done.stdout + done.stderr


def _add_string(repo: Path, name: str, msgid: str) -> None:
    (repo / "core" / "i18n" / f"{name}.py").write_text(f'from core.i18n import t\n\nX = t("ru", "{msgid}", n=1)\n')
    merge_catalogs._messages(repo)
    for lang, text in zip(("ru", "uk"), TRANSLATED[msgid]):
        path = repo / "core/i18n/locale" / lang / "LC_MESSAGES/tablebot.po"
        with path.open("rb") as fh:
            catalog = read_po(fh, locale=lang)
        catalog[msgid].string = text
        catalog[msgid].flags.discard("fuzzy")  # pybabel update may have guessed from a similar msgid
        with path.open("wb") as fh:
            write_po(fh, catalog, width=0, sort_output=True, no_location=True, ignore_obsolete=True)
    _git(repo, "add", "-A")
    _git(repo, "commit", "-qm", name)


def test_both_sides_translations_survive_a_conflicted_merge(tmp_path):
    repo = tmp_path / "repo"
    shutil.copytree(ROOT / "core" / "i18n", repo / "core" / "i18n", ignore=shutil.ignore_patterns("__pycache__"))
    for folder in ("renderers", "bot"):
        (repo / folder).mkdir()
        (repo / folder / "__init__.py").write_text("")
    for name in ("Makefile", "babel.cfg"):
        shutil.copy(ROOT / name, repo / name)
    _git(repo, "init", "-q", "-b", "main")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-qm", "base")
    _git(repo, "checkout", "-qb", "one")
    _add_string(repo, "one", "Zz one {n}")
    _git(repo, "checkout", "-q", "main")
    _add_string(repo, "two", "Zz two {n}")
    assert "CONFLICT" in _git(repo, "merge", "one")

    assert merge_catalogs.main(repo) == 0
    assert _git(repo, "diff", "--name-only", "--diff-filter=U") == ""
    for lang, index in (("ru", 0), ("uk", 1)):
        text = (repo / "core/i18n/locale" / lang / "LC_MESSAGES/tablebot.po").read_text()
        assert "<<<<<<<" not in text and "=======" not in text
        with (repo / "core/i18n/locale" / lang / "LC_MESSAGES/tablebot.po").open("rb") as fh:
            catalog = read_po(fh, locale=lang)
        assert {m: catalog[m].string for m in TRANSLATED} == {m: TRANSLATED[m][index] for m in TRANSLATED}
    assert "Zz one {n}" in (repo / "core/i18n/locale/tablebot.pot").read_text()
