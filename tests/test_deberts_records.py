"""Deberts game records: hand-checked records replay to their expected results; replay errors by code."""

from __future__ import annotations

import contextlib
import copy
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from core.deberts import RULES
from core.records import RecordError, replay, result_of
from core.replay import main as replay_main
from tests.game_texts import describer

describe = describer("deberts")
ROOT = Path(__file__).resolve().parent.parent
RECORDS = ROOT / "tests" / "records" / "deberts"
NAMES = sorted(p.name[: -len(".json")] for p in RECORDS.glob("*.json") if not p.name.endswith(".expected.json"))
RESULT_KEYS = ["game", "rounds", "totals", "finished", "winner", "loser", "phase", "to_act", "extra"]


def _load(name: str) -> tuple[dict, dict]:
    record = json.loads((RECORDS / f"{name}.json").read_text())
    expected = json.loads((RECORDS / f"{name}.expected.json").read_text())
    return record, expected


def _compare(got: dict, expected: dict) -> None:
    assert sorted(got) == sorted(expected) == sorted(RESULT_KEYS)
    for key in RESULT_KEYS:
        assert got[key] == expected[key], key


def test_there_are_at_least_ten_hand_checked_records():
    assert len(NAMES) >= 10
    complete_rounds = sum(len(_load(n)[1]["rounds"]) for n in NAMES)
    assert complete_rounds >= 10


@pytest.mark.parametrize("name", NAMES)
def test_record_replays_to_its_expected_result(name):
    record, expected = _load(name)
    _compare(result_of(record), expected)


@pytest.mark.parametrize("name", ["05_bait_halves_3p", "08_hanging_separately_2p"])
def test_record_through_the_command_line(name):
    out = subprocess.run(
        [sys.executable, "-m", "core.replay", str(RECORDS / f"{name}.json")],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert out.returncode == 0, out.stderr
    _compare(json.loads(out.stdout), _load(name)[1])


@pytest.mark.parametrize("name", NAMES)
def test_replayed_state_writes_the_same_record_and_tells_every_event(name):
    record, _ = _load(name)
    state = replay(record)
    again = state.record()
    assert again["rounds"] == record["rounds"] and again["first_dealer"] == record["first_dealer"]
    assert again["options"] == RULES.options(record["players"], record["options"]).to_dict()
    assert replay(again).result() == state.result()


def test_record_10_events_and_views_tell_the_runs_and_bella():
    record, _ = _load("10_runs_trump_moscow_3p")
    state = RULES.new_game(3, record["options"], first_dealer=2, start=False)
    from core.base import Action

    events = state.next_round_in_place(record["rounds"][0]["deal"])
    for raw in record["rounds"][0]["actions"]:
        events += state.apply_in_place(Action.from_json(raw))
    runs = next(e for e in events if e.type == "runs")
    assert runs.seat == 2 and runs.data["beaten"] == [
        {"seat": 0, "reason": "trump_run"},
        {"seat": 1, "reason": "trump_run"},
    ]
    text = describe(runs, "en", ["Ann", "Bob", "Cat"])
    assert "Cat" in text and "the trump run wins" in text and "K♥ Q♥ J♥" in text
    # beaten runs are told only by kind and top rank, as players compare them aloud: no cards revealed
    assert "(terz to K)" in text and "♣" not in text and "♦" not in text and "♠" not in text
    assert [e.seat for e in events if e.type == "bella"] == [2]
    assert [e.seat for e in events if e.type == "runs_counted"] == [2]
    result = next(e for e in events if e.type == "round_result")
    assert result.data["points"] == [18, 50, 123] and result.data["result"] == "made"
    view = state.view(None)
    assert view["runs"]["scorer"] == 2 and view["runs"]["status"] == "scored" and view["bella"] == 2
    assert view["runs"]["by_seat"][0] == [{"kind": "terz", "top": "K", "points": 20}]
    assert all("cards" in r for r in state.view(0)["runs"]["by_seat"][0])  # a seat sees its own runs
    assert view["score_sheet"][-1]["result"] == "made" and view["score_sheet"][-1]["declarer"] == 2
    assert view["tricks_taken"] == [1, 3, 5] and view["last_trick"]["winner"] == 1


# --- errors -----------------------------------------------------------------------------------------------


def _cli(record) -> tuple[int, dict]:
    buf = io.StringIO()
    stdin = sys.stdin
    try:
        sys.stdin = io.StringIO(json.dumps(record))
        with contextlib.redirect_stdout(buf):
            code = replay_main(["-"])
    finally:
        sys.stdin = stdin
    return code, json.loads(buf.getvalue())


def _base(name="02_bella_without_trick_2p") -> dict:
    return copy.deepcopy(_load(name)[0])


def test_missing_extra_when_trump_is_named_is_a_bad_deal():
    record = _base()
    del record["rounds"][0]["deal"]["extra"]
    code, out = _cli(record)
    assert code == 2 and out["error"] == "bad_deal" and out["round"] == 0 and "index" not in out
    assert "extra" in out["message"]
    # the same deal is fine while everybody passes
    record["rounds"][0]["actions"] = record["rounds"][0]["actions"][:1]
    assert _cli(record)[0] == 0


@pytest.mark.parametrize(
    "fault",
    [
        lambda d: d["hands"][0].__setitem__(0, d["hands"][1][0]),  # a card dealt twice
        lambda d: d["hands"][1].pop(),  # five cards
        lambda d: d.__setitem__("open", "1X"),  # unknown card
        lambda d: d.__setitem__("bottom", d["open"]),  # the bottom card is the open card
        lambda d: d["extra"].pop(),  # extra cards for one seat only
        lambda d: d.__setitem__("talon", []),  # unknown field
        lambda d: d.pop("open"),
    ],
)
def test_faults_inside_the_deal_are_bad_deals(fault):
    record = _base()
    fault(record["rounds"][1 - 1]["deal"])
    with pytest.raises(RecordError) as err:
        replay(record)
    assert err.value.code == "bad_deal" and err.value.round == 0


def test_a_deal_that_is_not_an_object_is_a_bad_deal():
    record = _base()
    record["rounds"][0]["deal"] = ["AS"]
    assert _cli(record)[1]["error"] == "bad_deal"


@pytest.mark.parametrize(
    ("index", "action", "message"),
    [
        (0, {"seat": 0, "type": "pass"}, "not your turn"),
        (0, {"seat": 1, "type": "name_suit", "suit": "S"}, "first circle"),
        (0, {"seat": 1, "type": "swap_seven"}, "trump is not named"),
        (0, {"seat": 1, "type": "play", "card": "KH"}, "no cards are played"),
        (0, {"seat": 1, "type": "bid", "value": 100}, "unknown action"),
        (0, {"seat": 1, "type": "pass", "card": "KH"}, "takes no field"),
        (3, {"seat": 0, "type": "play", "card": "AC"}, "you must follow suit"),
        (3, {"seat": 0, "type": "play", "card": "8H"}, "you must beat the highest trump"),
        (3, {"seat": 0, "type": "play", "card": "KH"}, "you do not hold KH"),
    ],
)
def test_illegal_actions_stop_the_replay_with_their_index(index, action, message):
    record = _base()
    record["rounds"][0]["actions"][index] = action
    code, out = _cli(record)
    assert code == 2 and out["error"] == "illegal_action" and out["round"] == 0 and out["index"] == index
    assert message in out["message"]


def test_naming_the_open_suit_in_the_second_circle_is_illegal():
    record = _base("04_redeal_then_next_dealer_2p")
    record["rounds"][0]["actions"][2] = {"seat": 1, "type": "name_suit", "suit": "H"}
    code, out = _cli(record)
    assert (code, out["error"], out["round"], out["index"]) == (2, "illegal_action", 0, 2)


def test_an_action_after_a_redeal_is_illegal():
    record = _base("04_redeal_then_next_dealer_2p")
    record["rounds"][0]["actions"].append({"seat": 1, "type": "pass"})
    code, out = _cli(record)
    assert (out["error"], out["round"], out["index"]) == ("illegal_action", 0, 4)


@pytest.mark.parametrize(
    "change",
    [
        lambda r: r.__setitem__("players", 4),
        lambda r: r.__setitem__("options", {"target": 401}),
        lambda r: r.__setitem__("options", {"trump_in_combinations": "odesa"}),
        lambda r: r.__setitem__("options", {"bolts_in_a_row": True}),
        lambda r: r.__setitem__("first_dealer", 2),
        lambda r: r["rounds"].append(copy.deepcopy(r["rounds"][0])),  # after the game ended
    ],
)
def test_bad_records(change):
    record = _base("07_hanging_summed_2p")
    change(record)
    code, out = _cli(record)
    assert code == 2 and out["error"] == "bad_record" and "index" not in out


def test_a_round_after_an_unfinished_round_is_a_bad_record():
    record = _base("14_obligatory_order_then_unfinished_2p")
    record["rounds"].append(copy.deepcopy(record["rounds"][0]))
    code, out = _cli(record)
    assert (out["error"], out["round"]) == ("bad_record", 2)


def test_a_bad_deal_through_the_command_line():
    record = _base()
    record["rounds"][0]["deal"]["hands"][0][0] = "AS"
    record["rounds"][0]["deal"]["hands"][1][0] = "AS"
    out = subprocess.run(
        [sys.executable, "-m", "core.replay", "-"],
        input=json.dumps(record),
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert out.returncode == 2 and out.stderr == ""
    assert json.loads(out.stdout) == {
        "error": "bad_deal",
        "round": 0,
        "message": json.loads(out.stdout)["message"],
    }
    assert "AS" in json.loads(out.stdout)["message"]
