"""``python -m tools.merge_catalogs``: settle a git merge conflict in the message catalogs, keeping both sides.

Two branches that each ran ``make messages`` conflict in ``core/i18n/locale`` (new entries next to each other,
the template's date). Run this in the middle of the merge, once the code conflicts are settled: it takes every
finished translation from both sides of each conflicted ``.po`` (ours wins where both translated one msgid
differently, and it says so), re-extracts the template from the merged code (``make messages``), puts the
translations back, and ``git add``s the catalogs. Anything still untranslated is listed; the catalog tests fail
on it until it is translated.
"""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po, write_po

from core.i18n.catalogs import DOMAIN, LANGS, LOCALE_DIR, SOURCE_LANG

ROOT = Path(__file__).resolve().parent.parent


def _git(root: Path, *args: str) -> bytes:
    return subprocess.run(["git", *args], cwd=root, capture_output=True, check=True).stdout


def _done(message) -> bool:
    forms = message.string if isinstance(message.string, tuple) else (message.string,)
    return bool(message.id) and all(forms) and not message.fuzzy


def _key(message) -> str:
    return message.id if isinstance(message.id, str) else message.id[0]


def _side(root: Path, path: str, stage: int, lang: str) -> Catalog | None:
    try:
        return read_po(io.BytesIO(_git(root, "show", f":{stage}:{path}")), locale=lang, domain=DOMAIN)
    except subprocess.CalledProcessError:  # the file is new on one side
        return None


def collect(root: Path, path: str, lang: str) -> tuple[dict, list[str]]:
    """Finished translations of both sides of a conflicted catalog; msgids the two sides translate differently."""
    ours, theirs = _side(root, path, 2, lang), _side(root, path, 3, lang)
    found: dict = {}
    clashes = []
    for catalog in (ours, theirs):
        for message in catalog or ():
            if not _done(message):
                continue
            key = _key(message)
            if key in found and found[key] != message.string:
                clashes.append(key)
                continue
            found.setdefault(key, message.string)
    return found, clashes


def _messages(root: Path) -> None:
    """``make messages`` in ``root`` with this interpreter's environment."""
    venv = Path(sys.prefix)
    subprocess.run(
        ["make", "-o", str(venv / ".installed"), "messages", f"VENV={venv}"], cwd=root, check=True, capture_output=True
    )


def main(root: Path = ROOT) -> int:
    conflicted = set(_git(root, "diff", "--name-only", "--diff-filter=U").decode().split())
    relative = LOCALE_DIR.relative_to(ROOT).as_posix()
    catalogs = {lang: f"{relative}/{lang}/LC_MESSAGES/{DOMAIN}.po" for lang in LANGS}
    template = f"{relative}/{DOMAIN}.pot"
    if not conflicted & {*catalogs.values(), template}:
        print("no conflict in the message catalogs")
        return 0
    if conflicted - {*catalogs.values(), template}:
        print("settle the other conflicts first:", " ".join(sorted(conflicted - {*catalogs.values(), template})))
        return 2
    kept = {}
    for lang, path in catalogs.items():
        if path in conflicted:
            kept[lang], clashes = collect(root, path, lang)
            for key in clashes:
                print(f"{lang}: both sides translate {key!r}; ours is kept")
    for path in conflicted:
        _git(root, "checkout", "--ours", "--", path)
    _messages(root)
    missing = 0
    for lang, path in catalogs.items():
        with (root / path).open("rb") as fh:
            catalog = read_po(fh, locale=lang, domain=DOMAIN)
        for message in list(catalog)[1:]:
            if lang != SOURCE_LANG and not _done(message) and _key(message) in kept.get(lang, {}):
                message.string = kept[lang][_key(message)]
                message.flags.discard("fuzzy")
            if lang != SOURCE_LANG and not _done(message):
                missing += 1
                print(f"{lang}: still to translate: {_key(message)!r}")
        with (root / path).open("wb") as fh:
            write_po(fh, catalog, width=0, sort_output=True, no_location=True, ignore_obsolete=True)
    _messages(root)
    _git(root, "add", "--", template, *catalogs.values())
    print(f"catalogs merged and added; {missing} entries still to translate")
    return 0


if __name__ == "__main__":
    sys.exit(main())
