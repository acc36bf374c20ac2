"""The catalogs are complete: every message of the code is in the template and translated in every language.

A new ``t``/``tn``/``N_`` string in core, renderers or bot fails here until ``make messages`` has been run and the
Russian and Ukrainian ``.po`` files translate it with the same placeholders and every plural form.
"""

from __future__ import annotations

import ast
import re
import string
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po

from core.i18n import LANGS, LOCALE_DIR
from core.i18n.catalogs import read_catalog
from core.i18n.glossary import TERMS

ROOT = Path(__file__).resolve().parent.parent
KEYWORDS = {"t": (2,), "tn": (2, 3), "N_": None}
TRANSLATED = [lang for lang in LANGS if lang != "en"]


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


def _has_words(text: str) -> bool:
    """Whether a message has anything to translate besides placeholders, numbers and signs."""
    return bool(re.search(r"[^\W\d_]", re.sub(r"\{[^}]*\}", "", text)))


def _template() -> dict[str, tuple[str, ...]]:
    with (LOCALE_DIR / "tablebot.pot").open("rb") as fh:
        pot = read_po(fh)
    return {m.id if isinstance(m.id, str) else m.id[0]: (m.id,) if isinstance(m.id, str) else m.id for m in pot if m.id}


def _in_code() -> set[str]:
    found: set[str] = set()
    for folder in ("core", "renderers", "bot"):
        for _, _, message, _, _ in extract_from_dir(
            ROOT / folder, method_map=[("**.py", "python")], keywords=KEYWORDS, comment_tags=()
        ):
            found.add(message if isinstance(message, str) else message[0])
    return found


def test_template_holds_exactly_the_messages_of_the_code():
    in_code, template = _in_code(), set(_template())
    assert in_code - template == set(), "new messages: run `make messages` and translate them"
    assert template - in_code == set(), "messages no code uses any more: run `make messages`"


@pytest.mark.parametrize("lang", LANGS)
def test_every_catalog_has_every_template_message(lang):
    catalog = read_catalog(lang)
    ids = {m.id if isinstance(m.id, str) else m.id[0] for m in catalog if m.id}
    assert ids == set(_template()), "run `make messages`"


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_message_is_translated_with_the_same_placeholders_and_all_plural_forms(lang):
    catalog = read_catalog(lang)
    assert catalog.num_plurals == 3 if lang in ("ru", "uk") else catalog.num_plurals >= 1
    gaps = []
    for message in catalog:
        if not message.id:
            continue
        ids = (message.id,) if isinstance(message.id, str) else message.id
        forms = (message.string,) if isinstance(message.string, str) else message.string
        if message.fuzzy:
            gaps.append((ids[0], "fuzzy: check the translation and remove the flag"))
            continue
        if isinstance(message.id, tuple) and len(forms) != catalog.num_plurals:
            gaps.append((ids[0], f"{len(forms)} plural forms, the language needs {catalog.num_plurals}"))
        for form in forms:
            if not form.strip():
                gaps.append((ids[0], "not translated"))
            elif _fields(form) - set().union(*map(_fields, ids)) or _fields(ids[0]) - _fields(form) - {"n"}:
                gaps.append((ids[0], f"placeholders differ: {form!r}"))
            elif _has_words(ids[0]) and form in ids:
                gaps.append((ids[0], "left in English"))
    assert gaps == []


def test_english_catalog_is_the_source_language():
    catalog = read_catalog("en")
    assert catalog.num_plurals == 2
    assert all(not any(m.string) if isinstance(m.string, tuple) else not m.string for m in list(catalog)[1:])


@pytest.mark.parametrize("lang", ["ru", "uk"])
def test_translations_use_the_glossary_terms(lang):
    """A msgid naming a game term ("barrel", "tile", "bait", ...) is translated with that language's term."""
    misses = []
    for message in read_catalog(lang):
        if not message.id:
            continue
        ids = (message.id,) if isinstance(message.id, str) else message.id
        forms = (message.string,) if isinstance(message.string, str) else message.string
        words = re.sub(r"\{[^}]*\}", " ", ids[0])
        for term in TERMS:
            if re.search(r"(?<![a-z])" + re.escape(term.en), words, re.IGNORECASE):
                stems = term.ru_stems if lang == "ru" else term.uk_stems
                misses += [(term.en, form) for form in forms if not any(s in form.lower() for s in stems)]
    assert misses == []


def test_glossary_page_lists_every_term():
    page = (ROOT / "docs" / "glossary.md").read_text(encoding="utf-8")
    assert [t.en for t in TERMS if f"| {t.en} |" not in page] == []
    assert [t for t in TERMS if t.ru not in page or t.uk not in page] == []


def _literal_msgids(folder: Path) -> dict[str, str]:
    """Every literal msgid of a ``t``/``tn``/``N_`` call in the folder's code, read with Python's own parser: also
    the calls inside f-strings, which Babel's extractor does not see (so such a text was never translated)."""
    found: dict[str, str] = {}
    for path in folder.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
            index = {"t": 1, "tn": 1, "N_": 0}.get(name or "")
            if index is None or len(node.args) <= index:
                continue
            arg = node.args[index]
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                found.setdefault(arg.value, f"{path.relative_to(ROOT)}:{node.lineno}")
    return found


def test_every_message_written_in_the_code_is_in_the_template_even_inside_an_f_string():
    template = set(_template())
    found = {}
    for folder in ("core", "renderers", "bot"):
        found.update(_literal_msgids(ROOT / folder))
    assert "Turn timer" in found and "computer plays" in found  # the lobby's words, once only in f-strings
    assert {msgid: where for msgid, where in found.items() if msgid not in template} == {}


class _Missing:
    """Records every message looked up in a language whose catalog does not translate it."""

    def __init__(self) -> None:
        self.seen: set[tuple[str, str]] = set()

    def wrap(self, lang, inner):
        seen = self.seen

        class Recording:
            def gettext(self, msgid):
                text = inner.gettext(msgid)
                if text == msgid and _has_words(msgid):
                    seen.add((str(lang), msgid))
                return text

            def ngettext(self, singular, plural, n):
                text = inner.ngettext(singular, plural, n)
                if text in (singular, plural) and _has_words(singular):
                    seen.add((str(lang), singular))
                return text

        return Recording()


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_lobby_rules_help_and_prompts_speak_the_language_whole(lang, monkeypatch):
    """What a player reads around a game — the lobby (both pages), the rules, the help, a hand's prompts — in
    Russian and Ukrainian has no English left: every text looked up has a translation."""
    import core.i18n.messages as messages_module
    from bot import prompts, texts
    from bot.messages import LobbyView, SeatInfo, lobby_message
    from core import games
    from core.i18n.catalogs import translations

    missing = _Missing()
    monkeypatch.setattr(messages_module, "translations", lambda code: missing.wrap(code, translations(code)))
    for game in ("thousand", "deberts", "kozel"):
        rules = games.get(game)
        players = texts.DEFAULT_SEATS[game]
        seats = [SeatInfo(0, "Ann"), SeatInfo(1, "Bob", computer="normal"), SeatInfo(2, "Cid", taken_over=True)]
        for page in ("main", "set"):
            for timer in texts.TIMER_CHOICES:
                lobby = LobbyView(1, 1, rules, players, tuple(seats[:players]), "Ann", {}, timer, page)
                lobby_message(lobby, lang)
        for row in texts.option_rows(game, players):
            for value in row.get("choices") or [row["default"]]:
                texts.option_line(row["name"], value, lang)
        texts.rules_text(game, players, {}, texts.DEFAULT_TIMER, lang)
        state = rules.new_game(players, seed=1)
        seat = state.to_act
        view = state.view(seat)
        prompts.what(game, view, lang, ["Ann", "Bob", "Cid", "Dan"][:players])
        prompts.why(game, view, lang)
    texts.help_text(lang)
    assert sorted(missing.seen) == []


# Ukrainian has one apostrophe everywhere: the modifier letter ʼ (U+02BC) of the catalogs, never ' or ’ (issue 32)
UKRAINIAN_APOSTROPHE = "\u02bc"
OTHER_APOSTROPHE = re.compile(r"(?<=[а-яіїєґА-ЯІЇЄҐ])['\u2019\u2018`\u00b4](?=[а-яіїєґА-ЯІЇЄҐ])")


def test_ukrainian_uses_one_apostrophe_in_the_catalog_the_pages_and_the_glossary():
    with (LOCALE_DIR / "uk" / "LC_MESSAGES" / "tablebot.po").open("rb") as fh:
        catalog = read_po(fh)
    texts = {f"uk.po: {m.id!r}": " ".join(m.string) if isinstance(m.string, tuple) else m.string for m in catalog}
    texts.update({f"glossary: {term.en}": f"{term.uk} {term.uk_stems}" for term in TERMS})
    for page in ("bot/playground/static/app.js", "bot/webapp/static/table.js", "docs/glossary.md"):
        texts[page] = (ROOT / page).read_text(encoding="utf-8")
    wrong = sorted(where for where, text in texts.items() if OTHER_APOSTROPHE.search(text or ""))
    assert wrong == []
    assert "компʼютер" in " ".join(texts.values())  # the word the players meet most, with the chosen sign
