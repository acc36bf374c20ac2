"""Deberts views (common and game keys, hidden hands) and event sentences in en, ru and uk."""

from __future__ import annotations

import json

import pytest

from core.base import Action, BadState, Event
from core.deberts import RULES, DebertsState
from core.i18n.events import event_types
from core.randomplay import play_game
from tests.deberts_support import act, play_cards, start
from tests.game_texts import describer

EVENT_TYPES = event_types("deberts")
describe = describer("deberts")

COMMON = {
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
DEBERTS = {
    "open_card",
    "trump",
    "declarer",
    "circle",
    "bids",
    "bottom_card",
    "stock_count",
    "trick",
    "trick_number",
    "last_trick",
    "runs",
    "bella",
    "round_points",
    "tricks_taken",
    "hanging",
    "target",
    "round_breakdown",
}
NINE = [
    ["JH", "9H", "AH", "8H", "AC", "AD", "AS", "KS", "KC"],
    ["KH", "QH", "7C", "8C", "7D", "8D", "TD", "7S", "8S"],
]


def test_view_keys_and_what_each_seat_sees():
    s = start(NINE, "TH", dealer=0)
    for seat in (None, 0, 1):
        assert set(s.view(seat)) == COMMON | DEBERTS
    public = s.view(None)
    assert public["hand"] is None and public["legal"] == [] and public["hand_counts"] == [6, 6]
    assert public["open_card"] == {"card": "TH", "shown": "TH", "swapped": False}
    assert public["bottom_card"] is None and public["stock_count"] == 20 and public["trump"] is None
    assert s.view(1)["legal"] == [{"seat": 1, "type": "play_trump"}, {"seat": 1, "type": "pass"}]
    assert s.view(0)["legal"] == [] and sorted(s.view(0)["hand"]) == sorted(NINE[0][:6])
    for card in NINE[1][:6]:
        assert f'"{card}"' not in json.dumps(s.view(0))
    act(s, 1, "pass")
    act(s, 0, "play_trump")
    play_cards(s, ["KH", "AH", "JH"])
    v = s.view(1)
    assert v["bids"] == ["play", "pass"] and v["trump"] == "H" and v["declarer"] == 0 and v["circle"] == 1
    assert v["bottom_card"] == "7H" and v["stock_count"] == 14
    assert v["trick"] == [{"seat": 0, "card": "JH"}] and v["trick_number"] == 1
    assert v["last_trick"] == {"cards": [{"seat": 1, "card": "KH"}, {"seat": 0, "card": "AH"}], "winner": 0}
    assert v["bella"] == 1 and v["round_points"] == [15, 20] and v["tricks_taken"] == [1, 0]
    assert v["hanging"] == {"points": 0, "pots": []} and v["runs"] is None and v["target"] == 301
    assert v["hand"] == ["8S", "7S", "8C", "7C", "TD", "8D", "7D", "QH"]  # by suit, strongest first
    with pytest.raises(ValueError):
        s.view(2)


def test_score_sheet_rows_carry_the_result_marks():
    s = start(NINE, "TH", dealer=0)
    act(s, 1, "play_trump")
    play_cards(s, ["KH", "AH", "JH", "QH", "9H", "7S", "8H", "8S", "AC", "7C", "KC", "8C", "AD", "7D", "AS", "8D"])
    play_cards(s, ["KS", "TD"])
    row = s.view(None)["score_sheet"][0]
    assert row == {
        "round": 1,
        "scores": [133, 0],
        "totals": [133, 0],
        "redeal": False,
        "declarer": 1,
        "trump": "H",
        "result": "bait",
        "points": [113, 20],
        "hanging": 0,
        "hanging_paid": 0,
        "hanging_to": [],
    }


def test_json_round_trip_and_corrupt_states():
    s = start(NINE, "TH", dealer=0)
    act(s, 1, "pass")
    data = json.loads(json.dumps(s.to_json()))
    loaded = RULES.from_json(data)
    assert loaded.to_json() == s.to_json() and loaded.view(0) == s.view(0)
    loaded.apply_in_place(Action(0, "play_trump"))
    assert s.phase == "bidding"  # the copy is independent
    for corrupt in (
        {**data, "game": "thousand"},
        {**data, "phase": "dancing"},
        {**data, "turn": 5},
        {**data, "hands": [["AS"] * 6, NINE[1][:6]]},
        {**data, "totals": [0]},
        {**data, "options": {"target": 7}},
        {k: v for k, v in data.items() if k != "hands"},
        "not a state",
    ):
        with pytest.raises(BadState):
            DebertsState.from_json(corrupt)


def test_apply_and_next_round_leave_the_old_state_untouched():
    s = start(NINE, "TH", dealer=0)
    before = s.to_json()
    new, events = s.apply(Action(1, "play_trump"))
    assert s.to_json() == before and new.phase == "play" and events[0].type == "trump_named"


SAMPLE = {
    "deal": Event("deal", 0, {"round": 3, "open": "TH"}),
    "trump_named": Event("trump_named", 1, {"suit": "H", "circle": 1}),
    "pass": Event("pass", 1, {"circle": 2}),
    "all_passed": Event("all_passed", None, {"next_dealer": 1}),
    "extra_dealt": Event("extra_dealt", None, {"bottom": "7C", "stock_count": 14}),
    "seven_swapped": Event("seven_swapped", 0, {"seven": "7H", "open": "9H"}),
    "seven_kept": Event("seven_kept", 0),
    "runs": Event(
        "runs",
        0,
        {
            "runs": [
                [{"kind": "berz", "suit": "S", "top": "A", "cards": ["AS", "KS", "QS", "JS"], "points": 50}],
                [{"kind": "terz", "suit": "H", "top": "K", "cards": ["KH", "QH", "JH"], "points": 20}],
            ],
            "points": 50,
            "beaten": [{"seat": 1, "reason": "berz_beats_terz"}],
        },
    ),
    "card_played": Event("card_played", 1, {"card": "TD"}),
    "bella": Event("bella", 1, {"suit": "H", "points": 20}),
    "trick_won": Event("trick_won", 0, {"points": 21, "cards": ["AS", "TS"], "trick": 4}),
    "runs_counted": Event("runs_counted", 0, {"points": 50}),
    "last_trick": Event("last_trick", 0, {"points": 10}),
    "runs_lost": Event("runs_lost", 1, {"points": 20, "reason": "no_trick"}),
    "round_result": Event(
        "round_result",
        1,
        {
            "result": "bait",
            "points": [39, 47, 57],
            "scores": [62, 0, 81],
            "totals": [62, 0, 81],
            "winner_takes_all": False,
            "hanging_added": 0,
            "hanging_paid": 61,
            "hanging_to": [2, 0],
            "hanging": 0,
        },
    ),
    "game_won": Event("game_won", 0, {"total": 313, "target": 301}),
    "play_on": Event("play_on", None, {"seats": [0, 1], "total": 413, "target": 301}),
}


def test_every_event_type_has_a_sentence_in_three_languages():
    assert set(SAMPLE) == set(EVENT_TYPES)
    for event in SAMPLE.values():
        texts = [describe(event, lang, ["Ann", "Bob", "Cat"]) for lang in ("en", "ru", "uk")]
        assert all(t and t.strip() == t for t in texts)
        assert len(set(texts)) == 3, texts
    assert describe(SAMPLE["bella"]) == "Seat 2: bella! +20."
    assert describe(SAMPLE["bella"], "ru", ["Аня", "Боря"]) == "Боря: белла! +20."
    assert "Игрок 2" in describe(SAMPLE["pass"], "ru") and "Гравець 2" in describe(SAMPLE["pass"], "uk")
    assert describe(SAMPLE["trick_won"], "ru") == "Игрок 1 берёт взятку 4: 21 очко."
    assert describe(SAMPLE["trick_won"], "uk").endswith("21 очко.")
    assert "a berz beats a terz" in describe(SAMPLE["runs"])
    text = describe(SAMPLE["round_result"], "en", ["Ann", "Bob", "Cat"])
    assert "Bait!" in text and "Cat and Ann share the hanging 61 points" in text and "Cat +81" in text
    assert describe(SAMPLE["runs_lost"], "en") == "Seat 2's runs (20 points) do not count: no trick taken."
    assert describe(SAMPLE["deal"], "xx") == describe(SAMPLE["deal"], "en")


def test_real_games_only_emit_described_events():
    seen = set()
    for seed in range(40):
        game = play_game(RULES, 2 + seed % 2, seed, options={"obligatory_order": seed % 3 == 0})
        # replay the game's record step by step to collect its events
        state = RULES.new_game(game.players, game.options, first_dealer=game.first_dealer, start=False)
        events = []
        for entry in game.record()["rounds"]:
            events += state.next_round_in_place(entry["deal"])
            for raw in entry["actions"]:
                events += state.apply_in_place(Action.from_json(raw))
        assert state.result() == game.result()
        for event in events:
            seen.add(event.type)
            for lang in ("en", "ru", "uk"):
                assert describe(event, lang)
            json.dumps(event.to_json())
    assert seen <= set(EVENT_TYPES)
    assert {"deal", "trump_named", "pass", "extra_dealt", "card_played", "trick_won", "last_trick"} <= seen
    assert {"round_result", "game_won", "runs", "runs_counted", "seven_swapped", "bella"} <= seen


def test_corrupt_score_sheet_or_record_is_a_bad_state():
    s = RULES.new_game(2, seed=3)
    for _ in range(4):
        s.apply_in_place(s.legal_actions(s.to_act)[-1])  # pass four times: a redeal row
    data = s.to_json()
    assert DebertsState.from_json(data).result() == s.result()
    for corrupt in ({**data, "sheet": [{"scores": "x"}]}, {**data, "log": [None]}, {**data, "runs": 3}):
        with pytest.raises(BadState):
            DebertsState.from_json(corrupt)
