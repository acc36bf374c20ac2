"""Every event type of every game reads as a finished sentence in every language, in that language's words."""

from __future__ import annotations

import re

import pytest

from core.base import Event
from core.games import NAMES as GAMES
from core.i18n import LANGS, describe
from core.i18n.events import event_types
from testkit.event_samples import SAMPLES

NAMES = {
    "en": ["Ann", "Bob", "Cat", "Dee"],
    "ru": ["Аня", "Боря", "Катя", "Дима"],
    "uk": ["Ганна", "Богдан", "Оля", "Денис"],
}
LATIN_WORD = re.compile(r"[A-Za-z]{2,}")  # single letters are card ranks (K♥) or the ends of the chain


def test_samples_cover_every_event_type():
    for game in GAMES:
        assert {e.type for e in SAMPLES[game]} == set(event_types(game)), game


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("named", [True, False])
def test_every_event_is_a_finished_sentence_in_the_language(game, lang, named):
    names = NAMES.get(lang) if named else None
    for event in SAMPLES[game]:
        text = describe(game, event, lang, names)
        assert text and text == text.strip() and not re.search(r"[{}]", text), (event, text)
        assert text[-1] in ".!", text
        if lang == "en":
            assert not re.search(r"[А-яЁёІіЇїЄєҐґ]", text), text
        else:
            assert not LATIN_WORD.findall(text), (event, text)


def test_variants_of_one_event_read_differently():
    for game in GAMES:
        for lang in LANGS:
            said: dict[str, set[str]] = {}
            for event in SAMPLES[game]:
                said.setdefault(event.type, set()).add(describe(game, event, lang))
            counts = {kind: len(texts) for kind, texts in said.items()}
            wanted = {kind: sum(e.type == kind for e in SAMPLES[game]) for kind in said}
            assert counts == wanted, (game, lang)


def test_sentences_in_each_language():
    marriage = Event("marriage", 1, {"suit": "H", "points": 100, "trump": "H", "ace": False})
    assert describe("thousand", marriage, "uk-UA", NAMES["uk"]) == "Богдан оголошує марʼяж (чирви): +100. Козир: ♥."
    bolt = Event("bolt", 0, {"value": 3})
    assert describe("thousand", bolt, "ru") == "Игрок 1 без взяток: болт №3."
    fall = Event("barrel_fall", 2, {"value": -120, "reason": "pushed"})
    assert describe("thousand", fall, "uk", NAMES["uk"]) == "Оля: збили з бочки, −120."
    dump = Event("dump_truck", 0, {"value": -555})
    assert describe("thousand", dump, "ru") == "Игрок 1 попадает на самосвал: 555 превращается в 0."
    won = Event("game_won", 0, {"total": 1005})
    assert describe("thousand", won, "ru").replace("\u00a0", " ") == "Игрок 1 выигрывает партию: 1 005!"
    assert describe("thousand", won, "en") == "Seat 1 wins the game with 1,005!"
    tied = Event("play_on", None, {"seats": [0, 1], "total": 413, "target": 301})
    assert describe("deberts", tied, "uk", NAMES["uk"]) == "Ганна і Богдан: порівну, по 413 — гра триває."
    drew = [Event("drew", 0, {"count": n, "bazaar": 3}) for n in (1, 2, 5, 21)]
    assert [describe("kozel", e, "uk") for e in drew] == [
        f"Гравець 1 бере на базарі {n} (залишилось 3)." for n in ("1 кістку", "2 кістки", "5 кісток", "21 кістку")
    ]
    assert describe("kozel", drew[0], "ru") == "Игрок 1 берёт на базаре 1 кость (осталось 3)."
    fish = Event("fish_taken", 1, {"amount": 22})
    assert describe("kozel", fish, "ru", NAMES["ru"]) == "Рыба на одного: Боря — больше всех, забирает все 22 очка."


def test_unknown_language_is_english_and_unknown_events_or_games_are_refused():
    event = Event("knocked", 0, {})
    assert describe("kozel", event, "pl") == describe("kozel", event, None) == "Seat 1 knocks: no tile fits."
    with pytest.raises(ValueError, match="unknown kozel event"):
        describe("kozel", Event("no_such_event", 0, {}), "ru")
    with pytest.raises(ValueError, match="unknown game"):
        describe("chess", event, "ru")


def test_player_names_are_shown_as_typed_even_with_braces():
    odd = ["{who}", "Ann {0}", "{n:>9}", ""]
    event = Event("redeal", None, {"round": 1, "seats": [0, 1, 3], "reasons": ["doubles", "value", "doubles"]})
    text = describe("kozel", event, "ru", odd)
    assert text.startswith("Раунд 1: пересдача — {who} (пять или больше дублей), Ann {0} (")
    assert "Игрок 4 (" in text  # an empty name falls back to the seat
    tied = Event("play_on", None, {"seats": [1, 2], "total": 413, "target": 301})
    assert describe("deberts", tied, "en", odd) == "Ann {0} and {n:>9} are tied at 413: play on."
