"""Every Thousand event reads as a sentence in English, Russian and Ukrainian."""

from __future__ import annotations

import pytest

from core.base import Event
from core.i18n import LANGS
from core.i18n.events import event_types
from core.randomplay import play_game
from core.rng import stream
from core.thousand import RULES
from core.thousand.playout import choose
from tests.game_texts import describer

EVENT_TYPES = event_types("thousand")
describe = describer("thousand")

NAMES = ["Анна", "Bob", "Олесь", "Dee"]


def collect_events(players: int, seed: int, options: dict) -> list[Event]:
    events: list[Event] = []
    rng = stream(seed, "texts")
    state = RULES.new_game(players, options, seed=seed)
    while not state.finished:
        if state.phase == "round_over":
            state, ev = state.next_round()
        else:
            seat = state.to_act
            state, ev = state.apply(choose(state, seat, state.legal_actions(seat), rng))
        events += ev
    return events


def test_every_event_of_real_games_has_a_sentence_in_every_language():
    seen: set[str] = set()
    options = [{"golden_round": True, "dump_truck": True}, {"redeal": True, "bidding_floor": -100}, {}]
    for seed in range(12):
        for event in collect_events(2 + seed % 3, seed, options[seed % 3]):
            seen.add(event.type)
            for lang in LANGS:
                text = describe(event, lang, NAMES)
                assert event.type in EVENT_TYPES, event.type
                assert "{" not in text and text.strip(), (event, lang, text)
    # the everyday events all occur in a dozen games
    assert {
        "bid",
        "pass",
        "bidding_won",
        "card_given",
        "contract",
        "card_played",
        "trick_won",
        "round_scored",
        "marriage",
        "bolt",
        "barrel_on",
        "game_won",
        "talon_shown",
        "talon_hidden",
    } <= seen


def test_sentences_use_names_and_languages():
    e = Event("marriage", 1, {"suit": "H", "points": 100, "trump": "H", "ace": False})
    assert describe(e, "en", NAMES) == "Bob declares the hearts marriage: +100. Trump: ♥."
    assert describe(e, "ru", NAMES) == "Bob объявляет марьяж (черви): +100. Козырь: ♥."
    assert describe(e, "uk") == "Гравець 2 оголошує марʼяж (чирви): +100. Козир: ♥."
    dump = Event("dump_truck", 0, {"value": -555})
    assert "555" in describe(dump, "en", NAMES) and describe(dump, "xx") == describe(dump, "en")


def test_unknown_events_are_refused_and_ace_marriage_has_its_own_words():
    with pytest.raises(ValueError, match="unknown thousand event"):
        describe(Event("no_such_event", 0, {}), "ru")
    ace = Event("marriage", 0, {"suit": "A", "points": 200, "trump": "S", "ace": True})
    assert describe(ace, "ru", NAMES) == "Анна объявляет тузовый марьяж: +200. Козырь: ♠."


def test_random_driver_finishes_games():
    for players in (2, 3, 4):
        state = play_game(RULES, players, seed=99)
        assert state.finished and state.winner is not None
