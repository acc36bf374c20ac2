"""Kozel views (keys of view.py, hiding), event sentences in en/ru/uk, options, and stored-state loading."""

from __future__ import annotations

import json

import pytest

from core import games
from core.base import Action, BadState, Event, OptionsError
from core.i18n import LANGS
from core.i18n.events import event_types
from core.kozel import RULES, KozelState
from core.kozel.view import __doc__ as VIEW_DOC
from core.randomplay import play_game
from core.records import replay
from tests.game_texts import describer
from tests.kozel_support import HANDS_A, PLAYS_A, load_record, play, start

EVENT_TYPES = event_types("kozel")
describe = describer("kozel")

COMMON_KEYS = {
    "game",
    "players",
    "seat",
    "phase",
    "to_act",
    "dealer",
    "round",
    "totals",
    "hand",
    "hand_counts",
    "legal",
    "score_sheet",
    "options",
    "finished",
    "winner",
    "loser",
}
KOZEL_KEYS = {
    "chain",
    "line",
    "ends",
    "bazaar_count",
    "playable",
    "lead_seat",
    "next_leader",
    "first_rule",
    "remembered",
    "opened",
    "carry",
    "revealed",
    "rating",
}
ROW_KEYS = {
    "round",
    "scores",
    "totals",
    "redeal",
    "ending",
    "by",
    "points",
    "gained",
    "remembered",
    "opened",
    "carry_in",
    "carry",
    "carry_to",
    "fish_to",
}


def test_registered_in_the_game_registry():
    assert games.get("kozel") is RULES
    assert "kozel" in games.available()


def test_view_has_exactly_the_documented_keys():
    state = replay(load_record("remembered_and_opening_4p"))
    for seat in (None, 0, 3):
        view = state.view(seat)
        assert set(view) == COMMON_KEYS | KOZEL_KEYS
        for key in KOZEL_KEYS:
            assert f"``{key}``" in VIEW_DOC, key
        for row in view["score_sheet"]:
            assert set(row) == ROW_KEYS
    assert json.loads(json.dumps(state.view(1))) == state.view(1)


def test_view_during_play():
    state = start(HANDS_A)
    for seat, tile, end in PLAYS_A[:5]:
        play(state, seat, tile, end)
    view = state.view(1)
    assert view["phase"] == "play" and view["to_act"] == 1 and view["seat"] == 1
    assert view["hand"] == ["0-6", "1-4", "2-6", "3-3", "3-4", "3-6"]
    assert view["hand_counts"] == [5, 6, 6, 6]
    assert view["bazaar_count"] == 0
    assert view["ends"] == {"left": 0, "right": 3}
    assert view["playable"] == {"0-6": ["left"], "3-3": ["right"], "3-4": ["right"], "3-6": ["right"]}
    assert {(a["tile"], a["end"]) for a in view["legal"]} == {
        ("0-6", "left"),
        ("3-3", "right"),
        ("3-4", "right"),
        ("3-6", "right"),
    }
    assert view["revealed"] is None and view["rating"] is None and view["dealer"] is None
    assert view["round"] == 1 and view["lead_seat"] == 0 and view["next_leader"] is None
    other = state.view(2)
    assert other["legal"] == [] and other["hand"] == sorted(state.hands[2])
    assert "0-6" not in json.dumps(other)
    public = state.view(None)
    assert public["seat"] is None and public["hand"] is None and public["playable"] == {}
    for hand in state.hands:
        for tile in hand:
            assert f'"{tile}"' not in json.dumps(public)


def test_view_at_the_end_shows_rating_and_revealed_hands():
    state = replay(load_record("fish_for_one_carries_4p"))
    view = state.view(None)
    assert view["finished"] and view["loser"] == 3 and view["winner"] is None
    assert view["rating"] == [10, 10, 5, 0]
    assert view["revealed"][2] == ["0-0"]
    assert view["score_sheet"][1]["carry"] == 56 and view["score_sheet"][3]["carry_to"] == 3
    assert view["score_sheet"][0]["fish_to"] == 2 and view["score_sheet"][0]["gained"] == [0, 0, 54, 0]


def test_redeal_row_in_the_score_sheet():
    state = replay(load_record("redeals_then_play_2p"))
    row = state.view(None)["score_sheet"][0]
    assert row["redeal"] is True and row["ending"] is None and row["by"] is None and row["scores"] == [0, 0]


# ---- texts -------------------------------------------------------------------------------------------


def _all_events() -> list[Event]:
    events: list[Event] = []
    for name in (
        "full_game_2p",
        "fish_for_one_carries_4p",
        "redeals_then_play_2p",
        "fish_double_in_bazaar_tie_carry_3p",
    ):
        record = load_record(name)
        state = RULES.new_game(record["players"], record.get("options"), start=False)
        for entry in record["rounds"]:
            events += state.next_round_in_place(entry["deal"])
            for raw in entry.get("actions", []):
                events += state.apply_in_place(Action.from_json(raw))
    # a tie for the most in a round that has a carry waiting (covered by the scoring tests) keeps the carry
    events.append(Event("carry_kept", None, {"carry": 35}))
    return events


def test_every_event_type_occurs_and_has_a_sentence_in_every_language():
    events = _all_events()
    assert {e.type for e in events} == set(EVENT_TYPES)
    for event in events:
        sentences = {lang: describe(event, lang) for lang in LANGS}
        assert all(s and not s.startswith("(") for s in sentences.values()), event
        assert len(set(sentences.values())) == 3, sentences


def test_names_are_used():
    event = Event("went_out", 2, {})
    assert describe(event, "en", ["Masha", "Alex", "Olya"]) == "Olya goes out!"
    assert describe(event, "uk") == "Гравець 3 виходить — кісток не лишилося!"
    assert "Игрок 3" in describe(event, "ru")
    assert (
        describe(Event("drew", 0, {"count": 3, "bazaar": 4}), "ru") == "Игрок 1 берёт на базаре 3 кости (осталось 4)."
    )
    assert describe(Event("drew", 0, {"count": 5, "bazaar": 0}), "uk").startswith("Гравець 1 бере на базарі 5 кісток")


def test_round_scores_sentence_shows_remembered_and_opened():
    events = []
    record = load_record("remembered_and_opening_4p")
    state = RULES.new_game(4, start=False)
    for entry in record["rounds"]:
        state.next_round_in_place(entry["deal"])
        for raw in entry["actions"]:
            events = state.apply_in_place(Action.from_json(raw))
    sentence = describe(events[-1], "en", ["Masha", "Alex", "Olya", "Serg"])
    assert sentence == (
        "Round 2 scores (points in hand → account, +N remembered): "
        "Masha 23 → 28 (opened); Alex 7 → +16; Olya 2 → +14; Serg 0 → +0."
    )


# ---- options and stored states ---------------------------------------------------------------------------


def test_options():
    assert RULES.options(3).fish == "all"
    assert RULES.options(3, {"fish": "one"}).fish == "one"
    with pytest.raises(OptionsError):
        RULES.options(3, {"fish": "none"})
    with pytest.raises(OptionsError):
        RULES.options(3, {"bazaar": True})
    for players in (1, 5):
        with pytest.raises(OptionsError):
            RULES.new_game(players)
    assert RULES.options_type.describe(2)[0]["choices"] == ["all", "one"]


def test_new_game_ignores_first_dealer_and_starts_with_the_first_lead():
    a = RULES.new_game(3, seed=5, first_dealer=2)
    b = RULES.new_game(3, seed=5)
    assert a.to_json() == b.to_json()
    assert a.phase == "play" and a.to_act is not None and a.view(None)["first_rule"] is True


def test_state_json_round_trip_mid_round():
    state = play_game(RULES, 4, 3, max_rounds=2)
    state.next_round_in_place()
    for _ in range(5):
        state.apply_in_place(state.legal_actions(state.to_act)[0])
    data = json.loads(json.dumps(state.to_json()))
    loaded = RULES.from_json(data)
    assert isinstance(loaded, KozelState)
    assert loaded.to_json() == state.to_json()
    assert loaded.view(1) == state.view(1)


@pytest.mark.parametrize(
    "corrupt",
    [
        lambda d: d.__setitem__("game", "thousand"),
        lambda d: d.__setitem__("version", 99),
        lambda d: d.__setitem__("players", 7),
        lambda d: d["hands"][0].append("0-0"),
        lambda d: d["hands"].__setitem__(0, d["hands"][1]),
        lambda d: d.__setitem__("totals", [500, 0, 0, 0]),
        lambda d: d.__setitem__("opened", [1, 0, 0, 0]),
        lambda d: d.__setitem__("turn", 1),
        lambda d: d.__setitem__("phase", "bidding"),
        lambda d: d["chain"].pop(),
        lambda d: d.pop("bazaar"),
        lambda d: d.__setitem__("log", "x"),
        lambda d: d["log"][0]["actions"].pop(0),
        lambda d: d.__setitem__("options", {"fish": "many"}),
    ],
)
def test_corrupt_states_are_refused(corrupt):
    state = start(HANDS_A)
    for seat, tile, end in PLAYS_A[:3]:
        play(state, seat, tile, end)
    data = json.loads(json.dumps(state.to_json()))
    corrupt(data)
    with pytest.raises(BadState):
        RULES.from_json(data)


def test_garbage_is_refused():
    for data in (None, [], "kozel", {"game": "kozel"}, {"game": "kozel", "version": 1}):
        with pytest.raises(BadState):
            RULES.from_json(data)  # type: ignore[arg-type]
