"""core.i18n: languages, gettext lookups with named placeholders, plural forms, numbers and dates."""

from __future__ import annotations

import tomllib
from datetime import UTC, datetime
from fnmatch import fnmatch
from pathlib import Path

import pytest

from core.i18n import LANGS, LOCALE_DIR, N_, normalize, number, t, tn, translations, when
from core.i18n.counts import COUNTED
from renderers.labels import word

COUNTS = (0, 1, 2, 5, 11, 21, 22, 25, 101, 111)
# the word each count above needs: one / few / many (ru and uk have three forms)
FORMS = {
    "ru": {
        "points": ("очко", "очка", "очков"),
        "tricks": ("взятка", "взятки", "взяток"),
        "tiles": ("кость", "кости", "костей"),
        "rounds": ("раздача", "раздачи", "раздач"),
        "cards": ("карта", "карты", "карт"),
    },
    "uk": {
        "points": ("очко", "очки", "очок"),
        "tricks": ("взятка", "взятки", "взяток"),
        "tiles": ("кістка", "кістки", "кісток"),
        "rounds": ("роздача", "роздачі", "роздач"),
        "cards": ("карта", "карти", "карт"),
    },
}
# 0 many, 1 one, 2 few, 5 many, 11 many, 21 one, 22 few, 25 many, 101 one, 111 many
SLOT = (2, 0, 1, 2, 2, 0, 1, 2, 0, 2)


def test_languages_and_normalize():
    assert LANGS[0] == "en" and {"ru", "uk"} <= set(LANGS)  # a new catalog directory adds a language
    assert [normalize(x) for x in ("ru-RU", "uk_UA", "en-US", "RU", "uk_UA.UTF-8", None, "", "de", "xx-YY")] == [
        "ru",
        "uk",
        "en",
        "ru",
        "uk",
        "en",
        "en",
        "en",
        "en",
    ]


@pytest.mark.parametrize("lang", ["ru", "uk"])
@pytest.mark.parametrize("noun", sorted(COUNTED))
def test_plural_forms_of_counted_nouns(lang, noun):
    said = [COUNTED[noun](lang, n) for n in COUNTS]
    assert said == [f"{n} {FORMS[lang][noun][slot]}" for n, slot in zip(COUNTS, SLOT)]


def test_english_plurals():
    assert [COUNTED["points"]("en", n) for n in (0, 1, 2, 21)] == ["0 points", "1 point", "2 points", "21 points"]
    assert COUNTED["tiles"]("en", 1) == "1 tile" and COUNTED["cards"]("xx", 3) == "3 cards"


def test_t_translates_and_formats_by_name():
    assert t("ru", "Seat {n}", n=3) == "Игрок 3"
    assert t("uk-UA", "Seat {n}", n=3) == "Гравець 3"
    assert t("en", "Seat {n}", n=3) == "Seat 3"
    assert t("fr", "Seat {n}", n=3) == "Seat 3"  # unknown language: English
    assert t(None, "Trump") == "Trump"


def test_t_without_params_returns_the_text_as_is_and_unknown_ids_stay_english():
    assert t("ru", "A sentence nobody translated {x}") == "A sentence nobody translated {x}"
    assert t("ru", "A sentence nobody translated {x}", x=1) == "A sentence nobody translated 1"


def test_tn_gives_n_and_other_params():
    assert tn("ru", "{n} point", "{n} points", 22) == "22 очка"
    assert tn("uk", "{n} point", "{n} points", 22) == "22 очки"
    assert tn("en", "{n} point", "{n} points", 1) == "1 point"


def test_n_marks_only():
    assert N_("Trump") == "Trump"


def test_catalogs_compile_once_per_language():
    assert translations("ru") is translations("ru")
    assert translations("ru") is not translations("uk")
    assert translations("ru-RU") is translations("ru") and translations("zz") is translations("en")
    assert translations("zz").gettext("Trump") == "Trump"


def test_picture_words_come_from_the_catalogs():
    assert word("bazaar", "uk") == "Базар" and word("made", "ru") == "сыграно"
    assert word("circle", "uk-UA", n=2) == "Коло 2" and word("target", "xx", n=301) == "to 301"
    with pytest.raises(KeyError):
        word("no_such_word", "ru")


def test_catalog_sources_ship_as_package_data():
    """A non-editable ``pip install .`` (the Dockerfile) must carry every catalog: pyproject's globs cover them."""
    root = Path(__file__).resolve().parent.parent
    data = tomllib.loads((root / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]["core.i18n"]
    files = [p.relative_to(LOCALE_DIR.parent).as_posix() for p in LOCALE_DIR.rglob("*") if p.is_file()]
    assert len(files) == len(LANGS) + 1
    assert [f for f in files if not any(fnmatch(f, pattern) for pattern in data)] == []


def test_numbers_follow_each_language():
    assert number("en", 1234567) == "1,234,567"
    assert number("ru", 1234567).replace("\u00a0", " ") == "1 234 567"
    assert number("uk", 1234.5).replace("\u00a0", " ") == "1 234,5"
    assert number("xx", -1000) == "-1,000"


def test_dates_in_short_form():
    moment = datetime(2026, 11, 23, 21, 5, tzinfo=UTC)
    assert when("en", moment).replace("\u202f", " ") == "11/23/26, 9:05 PM"
    assert when("ru", moment) == "23.11.2026, 21:05"
    assert when("uk", moment) == "23.11.26, 21:05"
