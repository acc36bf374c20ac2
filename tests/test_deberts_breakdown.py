"""Deberts round breakdown (the view's ``round_breakdown``): what a round's points were made of and what the
bait and hanging rules did; it survives the next deal and a reload, and states stored before it existed load,
pass the storage's replay check and play on."""

from __future__ import annotations

import json
from pathlib import Path

from bot.storage import integrity
from core.deberts import RULES
from core.randomplay import play_game
from core.records import replay
from core.rng import stream
from tests.deberts_support import act, play_cards, start

NINE = [
    ["JH", "9H", "AH", "8H", "AC", "AD", "AS", "KS", "KC"],
    ["KH", "QH", "7C", "8C", "7D", "8D", "TD", "7S", "8S"],
]
RECORDS = Path(__file__).parent / "records" / "deberts"
STORED = Path(__file__).parent / "stored" / "deberts_3p_round7_before_breakdown.json"


def _bait_round():
    s = start(NINE, "TH", dealer=0)
    act(s, 1, "play_trump")
    play_cards(s, ["KH", "AH", "JH", "QH", "9H", "7S", "8H", "8S", "AC", "7C", "KC", "8C", "AD", "7D", "AS", "8D"])
    play_cards(s, ["KS", "TD"])
    return s


def test_a_bait_round_shows_cards_last_trick_bella_and_the_declarers_points_going_over():
    s = _bait_round()
    b = s.view(None)["round_breakdown"]
    assert b == {
        "round": 1,
        "declarer": 1,
        "result": "bait",
        "winner_takes_all": False,
        "cards": [103, 0],
        "tricks": [9, 0],
        "last_trick": 0,
        "runs": None,
        "bella": 1,
        "points": [113, 20],
        "moved": [20, -20],
        "hanging_added": 0,
        "paid": [0, 0],
        "scores": [133, 0],
    }
    s.next_round_in_place()  # the sheet posted at the round's end is drawn after the next deal
    assert s.view(0)["round_breakdown"] == b
    assert RULES.from_json(json.loads(json.dumps(s.to_json()))).view(None)["round_breakdown"] == b


def test_no_breakdown_before_the_first_round_or_after_a_redeal():
    s = start(NINE, "TH", dealer=0)
    assert s.view(None)["round_breakdown"] is None
    for seat in (1, 0, 1, 0):
        act(s, seat, "pass")
    assert s.view(None)["score_sheet"][-1]["redeal"]
    assert s.view(None)["round_breakdown"] is None
    assert RULES.from_json(s.to_json()).view(None)["round_breakdown"] is None


def _check(b: dict, players: int) -> None:
    for seat in range(players):
        runs = b["runs"]
        counted = runs["points"] if runs and runs["counted"] and runs["seat"] == seat else 0
        made_of = b["cards"][seat] + 10 * (b["last_trick"] == seat) + 20 * (b["bella"] == seat) + counted
        assert made_of == b["points"][seat]
        hung = b["hanging_added"] if seat == b["declarer"] else 0
        assert b["points"][seat] + b["moved"][seat] + b["paid"][seat] - hung == b["scores"][seat]
    assert sum(b["moved"]) == 0 and sum(b["tricks"]) == 9


def test_every_round_of_random_games_adds_up_and_reloads_the_same():
    seen = set()
    for players in (2, 3):
        for seed in range(12):
            options = {"winner_takes_all": True, "hanging_separately": True} if seed % 2 else None

            def step(state, players=players):
                if state.phase not in ("round_over", "game_over") and not (state.phase == "bidding" and state.round):
                    return
                view = state.view(None)
                b = view["round_breakdown"]
                loaded = RULES.from_json(json.loads(json.dumps(state.to_json())))
                assert loaded.view(None) == view
                if b is not None:
                    _check(b, players)
                    seen.add((b["result"], b["winner_takes_all"], any(b["paid"])))

            play_game(RULES, players, seed, options=options, on_step=step)
    assert {("made", False, False), ("made", True, False), ("bait", False, False)} <= seen


def test_every_round_of_the_hand_checked_records_adds_up():
    """The records (tests/records/deberts) hold the rare cases: hanging baits, pots paid out, lost runs."""
    seen = set()
    for path in sorted(RECORDS.glob("*.json")):
        if path.name.endswith(".expected.json"):
            continue
        record = json.loads(path.read_text())
        for k in range(1, len(record["rounds"]) + 1):
            state = replay(dict(record, rounds=record["rounds"][:k]))
            if state.phase not in ("round_over", "game_over"):
                continue
            b = state.view(None)["round_breakdown"]
            if state.sheet[-1]["redeal"]:
                assert b is None
                continue
            _check(b, record["players"])
            assert RULES.from_json(state.to_json()).view(None)["round_breakdown"] == b
            seen.add(b["result"])
            if any(b["paid"]):
                seen.add("paid")
            if b["runs"] and not b["runs"]["counted"]:
                seen.add("runs lost")
    assert seen == {"made", "bait", "hanging", "paid", "runs lost"}


def test_a_state_stored_before_the_breakdown_loads_passes_the_replay_check_and_plays_on():
    stored = json.loads(STORED.read_text(encoding="utf-8"))
    assert "tally" not in stored and stored["phase"] == "bidding" and stored["round"] == 7
    state = RULES.from_json(stored)
    assert state.to_json() == stored  # the stored format is unchanged
    b = state.view(None)["round_breakdown"]
    assert b["round"] == 6 and b["result"] == "bait" and b["declarer"] == 0
    assert b["moved"] == [-52, 26, 26] and b["paid"] == [0, 30, 30] and b["scores"] == [0, 83, 135]
    _check(b, 3)
    moves = [a for entry in stored["log"] for a in entry["actions"]]
    rows = [(i, a["seat"], a) for i, a in enumerate(moves, start=1)]
    replayed = integrity.replay_log("deberts", 3, stored["options"], stored["seed"], rows)
    assert integrity.canonical(integrity.check_state(replayed, stored).to_json()) == integrity.canonical(stored)
    rng = stream(7, "policy")
    while not state.finished:
        if state.phase == "round_over":
            state.next_round_in_place()
            continue
        legal = state.legal_actions(state.to_act)
        state.apply_in_place(rng.choice(legal))
        if state.phase in ("round_over", "game_over") and not state.sheet[-1]["redeal"]:
            _check(state.view(None)["round_breakdown"], 3)
    assert state.view(None)["round_breakdown"]["round"] == state.sheet[-1]["round"] > 6
