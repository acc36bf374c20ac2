"""Hand-checked Thousand game records (tests/records/thousand) and the replay error contract (docs/records.md).

Each ``NAME.json`` record has its hand-computed result in ``NAME.expected.json`` and the trick-by-trick
computation in ``NAME.notes.md``. Two records go through ``python -m core.replay`` as a subprocess (a file
argument and ``-`` with stdin); every record is replayed in-process and compared field by field.
"""

from __future__ import annotations

import copy
import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from core import replay as replay_cli
from core.randomplay import play_game
from core.records import replay, result_of
from core.thousand import RULES

ROOT = Path(__file__).resolve().parent.parent
RECORDS = Path(__file__).resolve().parent / "records" / "thousand"
NAMES = sorted(p.name[: -len(".json")] for p in RECORDS.glob("*.json") if not p.name.endswith(".expected.json"))
RESULT_KEYS = {"game", "rounds", "totals", "finished", "winner", "loser", "phase", "to_act", "extra"}


def load(name: str) -> dict[str, Any]:
    return json.loads((RECORDS / f"{name}.json").read_text(encoding="utf-8"))


def expected(name: str) -> dict[str, Any]:
    return json.loads((RECORDS / f"{name}.expected.json").read_text(encoding="utf-8"))


def assert_same_result(got: dict[str, Any], want: dict[str, Any]) -> None:
    """Compare two result objects key by key (and round by round) so that a failure names the field."""
    assert set(got) == RESULT_KEYS
    assert set(want) == RESULT_KEYS
    assert len(got["rounds"]) == len(want["rounds"]), "number of complete rounds"
    for i, (g, w) in enumerate(zip(got["rounds"], want["rounds"])):
        assert set(g) == {"scores", "totals", "redeal"}, f"round {i} keys"
        for key in ("scores", "totals", "redeal"):
            assert g[key] == w[key], f"round {i} {key}"
    for key in ("game", "totals", "finished", "winner", "loser", "phase", "to_act"):
        assert got[key] == want[key], key
    assert set(got["extra"]) == {"barrel", "bolts", "missed_barrels"}
    for key in ("barrel", "bolts", "missed_barrels"):
        assert got["extra"][key] == want["extra"][key], f"extra.{key}"


def run_cli(args: list[str], stdin: str | None = None) -> tuple[int, dict[str, Any]]:
    proc = subprocess.run(
        [sys.executable, "-m", "core.replay", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert "Traceback" not in proc.stderr
    return proc.returncode, json.loads(proc.stdout)


def run_main(record: Any, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> tuple[int, Any]:
    """``python -m core.replay -`` in-process: the exit status and the one JSON document it prints."""
    text = record if isinstance(record, str) else json.dumps(record)
    monkeypatch.setattr(sys, "stdin", io.StringIO(text))
    code = replay_cli.main(["-"])
    out = capsys.readouterr().out
    return code, json.loads(out)


def test_the_records_are_all_there() -> None:
    assert len(NAMES) >= 5
    complete = 0
    for name in NAMES:
        assert (RECORDS / f"{name}.expected.json").is_file(), name
        assert (RECORDS / f"{name}.notes.md").is_file(), name
        complete += sum(1 for r in expected(name)["rounds"] if not r["redeal"])
    assert complete >= 12  # hand-checked complete rounds
    assert {load(n)["players"] for n in NAMES} == {2, 3, 4}


# --------------------------------------------------------------------------------------------------
# the hand-checked records


@pytest.mark.parametrize("name", NAMES)
def test_record_replays_to_its_hand_checked_result(name: str) -> None:
    assert_same_result(result_of(load(name)), expected(name))


@pytest.mark.parametrize("name", NAMES)
def test_replayed_state_writes_back_the_same_record(name: str) -> None:
    record = load(name)
    written = replay(record).record()
    assert written["game"] == "thousand"
    assert written["players"] == record["players"]
    assert written["first_dealer"] == record["first_dealer"]
    assert written["rounds"] == record["rounds"]
    assert {k: v for k, v in written["options"].items() if k in record["options"]} == record["options"]
    assert_same_result(result_of(written), expected(name))


def test_cli_replays_a_record_file() -> None:
    name = "three_players_four_rounds"
    code, out = run_cli([str(RECORDS / f"{name}.json")])
    assert code == 0
    assert_same_result(out, expected(name))


def test_cli_replays_a_record_from_stdin() -> None:
    name = "two_players_second_talon"
    code, out = run_cli(["-"], stdin=(RECORDS / f"{name}.json").read_text(encoding="utf-8"))
    assert code == 0
    assert_same_result(out, expected(name))


@pytest.mark.parametrize(
    ("name", "rounds", "actions", "phase", "to_act", "complete"),
    [
        ("three_players_four_rounds", 0, 0, "round_over", None, 0),  # "rounds": []
        ("three_players_four_rounds", 1, 0, "bidding", 1, 0),  # dealer 0: seat 1 opens
        ("three_players_four_rounds", 1, 2, "bidding", 0, 0),
        ("three_players_four_rounds", 1, 5, "give", 1, 0),  # the talon is taken automatically
        ("three_players_four_rounds", 1, 6, "give", 1, 0),
        ("three_players_four_rounds", 1, 7, "contract", 1, 0),
        ("three_players_four_rounds", 1, 8, "play", 1, 0),  # the declarer leads
        ("three_players_four_rounds", 1, 10, "play", 0, 0),
        ("three_players_four_rounds", 1, 11, "play", 2, 0),  # trick 1 went to seat 2
        ("three_players_four_rounds", 2, 0, "bidding", 2, 1),  # dealer 1: seat 2 opens
        ("two_players_second_talon", 1, 4, "talon", 1, 0),  # 2p: the declarer chooses a talon
        ("two_players_second_talon", 1, 5, "give", 1, 0),
        ("four_players_golden", 1, 0, "bidding", 0, 0),  # dealer 3 sits out, seat 0 opens
        ("four_players_golden", 1, 27, "play", 0, 0),  # trick 7: 2 led, 0 is next
        ("four_players_golden", 3, 0, "bidding", 2, 2),  # dealer 1 sits out, seat 2 opens
    ],
)
def test_record_cut_short_shows_where_it_stopped(
    name: str, rounds: int, actions: int, phase: str, to_act: int | None, complete: int
) -> None:
    record = load(name)
    record["rounds"] = record["rounds"][:rounds]
    if rounds:
        record["rounds"][-1]["actions"] = record["rounds"][-1]["actions"][:actions]
    out = result_of(record)
    assert out["phase"] == phase
    assert out["to_act"] == to_act
    assert out["finished"] is False and out["winner"] is None
    assert out["rounds"] == expected(name)["rounds"][:complete]
    assert out["totals"] == (expected(name)["rounds"][complete - 1]["totals"] if complete else [0] * record["players"])


# --------------------------------------------------------------------------------------------------
# the error contract: exit 2 and exactly one JSON object


def mutate(name: str, path: list[Any], value: Any) -> dict[str, Any]:
    """The record with one field replaced (or one list item appended, when the index is just past the end)."""
    record = copy.deepcopy(load(name))
    target: Any = record
    for key in path[:-1]:
        target = target[key]
    if isinstance(target, list) and path[-1] == len(target):
        target.append(value)
    else:
        target[path[-1]] = value
    return record


P3, P2, P4 = "three_players_four_rounds", "two_players_second_talon", "four_players_golden"
REDEAL = "redeal_then_concede_without_penalty"


def act(seat: int, typ: str, **fields: Any) -> dict[str, Any]:
    return {"seat": seat, "type": typ, **fields}


ILLEGAL = [
    # (record, round, index, the action put there, a word of the reason)
    (P3, 0, 9, act(2, "play", card="KS"), "hold KS"),  # KS is in seat 1's hand
    (P3, 1, 3, act(2, "bid", value=125), "at most 120"),  # no marriage: the cap is 120
    (P3, 1, 1, act(0, "bid", value=103), "multiples of 5"),
    (P3, 0, 0, act(1, "pass"), "must open"),  # the first hand may not pass on the opening call
    (P3, 0, 1, act(0, "bid", value=105), "not your turn"),
    (P3, 0, 5, act(1, "give", card="9C", to=1), "yourself"),
    (P3, 0, 7, act(1, "contract", value=135), "below the bid"),  # the bid was 140
    (P3, 0, 10, act(0, "play", card="TC"), "follow suit"),  # seat 0 holds 9S
    (P3, 0, 21, act(2, "play", card="JS"), "trump"),  # void in diamonds, holds TH with hearts trump
    (P3, 0, 13, act(1, "concede"), "first lead"),
    (P3, 2, 0, act(0, "double"), "double"),  # no such action
    (P2, 0, 4, act(1, "take_talon", index=2), "talon"),
    (P4, 0, 1, act(3, "pass"), "not your turn"),  # seat 3 deals and sits out
    (REDEAL, 0, 1, act(0, "bid", value=100), "round is over"),  # an action after a redeal
]


@pytest.mark.parametrize(("name", "round_", "index", "action", "reason"), ILLEGAL)
def test_illegal_action_stops_the_replay(
    name: str,
    round_: int,
    index: int,
    action: dict[str, Any],
    reason: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out = run_main(mutate(name, ["rounds", round_, "actions", index], action), monkeypatch, capsys)
    assert code == 2
    assert set(out) == {"error", "index", "round", "message"}
    assert out["error"] == "illegal_action"
    assert (out["round"], out["index"]) == (round_, index)
    assert reason in out["message"]


def test_cli_reports_an_illegal_action_as_a_subprocess() -> None:
    record = mutate(P3, ["rounds", 0, "actions", 9], act(2, "play", card="KS"))
    code, out = run_cli(["-"], stdin=json.dumps(record))
    assert code == 2
    assert out == {"error": "illegal_action", "index": 9, "round": 0, "message": out["message"]}
    assert "KS" in out["message"]


def finished_game_record() -> dict[str, Any]:
    state = play_game(RULES, 3, seed=7)
    assert state.finished
    return json.loads(json.dumps(state.record()))


def label_id(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def bad_record_cases() -> list[tuple[str, Any, int | None]]:
    base = load(P3)
    mid = load("four_players_stops_mid_round")
    cases: list[tuple[str, Any, int | None]] = [
        ("unknown option", {**base, "options": {"golden": True}}, None),
        ("option value outside its list", {**base, "options": {"bidding_floor": -500}}, None),
        ("true written as 1", {**base, "options": {"golden_round": 1}}, None),
        ("options not an object", {**base, "options": ["golden_round"]}, None),
        ("five players", {**base, "players": 5}, None),
        ("one player", {**base, "players": 1}, None),
        ("players as a string", {**base, "players": "3"}, None),
        ("unknown game", {**base, "game": "preferans"}, None),
        ("first dealer off the table", {**base, "first_dealer": 3}, None),
        ("rounds not a list", {**base, "rounds": {}}, None),
        ("not an object", [base], None),
        ("not JSON", '{"game": "thousand", ', None),
        ("round entry without a deal", {**base, "rounds": [{"actions": []}]}, 0),
        ("round entry after an unfinished round", {**mid, "rounds": mid["rounds"] + base["rounds"][:1]}, 1),
        (
            "round entry after an unfinished 3p round",
            {**base, "rounds": [{**base["rounds"][0], "actions": []}, base["rounds"][1]]},
            1,
        ),
    ]
    done = finished_game_record()
    cases.append(
        (
            "round entry after the game ended",
            {**done, "rounds": done["rounds"] + done["rounds"][:1]},
            len(done["rounds"]),
        )
    )
    return cases


@pytest.mark.parametrize(("label", "record", "round_"), bad_record_cases(), ids=label_id)
def test_bad_record(
    label: str, record: Any, round_: int | None, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out = run_main(record, monkeypatch, capsys)
    assert code == 2, label
    assert out["error"] == "bad_record", label
    if round_ is None:
        assert set(out) == {"error", "message"}, label
    else:
        assert set(out) == {"error", "round", "message"}, label
        assert out["round"] == round_, label
    assert isinstance(out["message"], str) and out["message"]


def bad_deal_cases() -> list[tuple[str, dict[str, Any], int]]:
    three = P3
    hand0 = load(P3)["rounds"][0]["deal"]["hands"][0]
    r1hands = load(P4)["rounds"][0]["deal"]["hands"]
    r2hands = load(P4)["rounds"][1]["deal"]["hands"]
    return [
        ("duplicated card", mutate(three, ["rounds", 0, "deal", "hands", 0, 0], "AH"), 0),
        ("missing card (short hand)", mutate(three, ["rounds", 0, "deal", "hands", 0], hand0[1:]), 0),
        ("unknown card", mutate(three, ["rounds", 2, "deal", "hands", 0, 6], "XC"), 2),
        ("card not a string", mutate(three, ["rounds", 1, "deal", "hands", 1, 0], 7), 1),
        ("talon split in two", mutate(three, ["rounds", 0, "deal", "talon"], [["QH"], ["9C", "JD"]]), 0),
        ("talon not a list of talons", mutate(three, ["rounds", 0, "deal", "talon"], ["QH", "9C", "JD"]), 0),
        ("2p with one talon of 4", mutate(P2, ["rounds", 1, "deal", "talon"], [["AS", "9D", "TS", "9S"]]), 1),
        ("hands missing", mutate(three, ["rounds", 3, "deal"], {"talon": [["QH", "AD", "TC"]]}), 3),
        ("deal not an object", mutate(three, ["rounds", 0, "deal"], []), 0),
        # round 2 is dealt by seat 0: its hand must be empty
        ("4p dealer holding cards", mutate(P4, ["rounds", 1, "deal", "hands"], [r2hands[1], [], *r2hands[2:]]), 1),
        ("4p, three hands", mutate(P4, ["rounds", 0, "deal", "hands"], r1hands[:3]), 0),
    ]


@pytest.mark.parametrize(("label", "record", "round_"), bad_deal_cases(), ids=label_id)
def test_bad_deal(
    label: str, record: dict[str, Any], round_: int, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out = run_main(record, monkeypatch, capsys)
    assert code == 2, label
    assert set(out) == {"error", "round", "message"}, label
    assert out["error"] == "bad_deal", label
    assert out["round"] == round_, label
    assert isinstance(out["message"], str) and out["message"]


# --------------------------------------------------------------------------------------------------
# records written by the engine


@pytest.mark.parametrize(
    ("players", "seed", "options"),
    [
        (2, 1, {}),
        (3, 2, {}),
        (4, 3, {}),
        (2, 4, {"second_talon_to_last_trick": True, "golden_round": True}),
        (3, 5, {"redeal": True, "concede_penalty": False, "bolts_in_a_row": True, "dump_truck": True}),
        (4, 6, {"ace_marriage": True, "bidding_on_barrel": False, "bidding_floor": -200}),
    ],
)
def test_random_game_record_replays_to_the_same_result(players: int, seed: int, options: dict[str, Any]) -> None:
    # records written at a few points of the game (some inside a round) and at its end
    snapshots: list[tuple[dict[str, Any], dict[str, Any]]] = []
    steps = [0]

    def snapshot(st: Any) -> None:
        steps[0] += 1
        if steps[0] in (1, 25, 60, 110):
            snapshots.append((json.loads(json.dumps(st.record())), st.result()))

    state = play_game(RULES, players, seed, options=options, on_step=snapshot)
    assert state.finished
    snapshots.append((json.loads(json.dumps(state.record())), state.result()))  # plain JSON all the way
    assert {res["phase"] for _rec, res in snapshots} - {"round_over", "game_over"}, "no snapshot inside a round"
    for record, result in snapshots:
        assert result_of(record) == result
