"""Kozel game records: the hand-checked records replay to their expected results; errors by code.

Each ``tests/records/kozel/NAME.json`` has ``NAME.expected.json`` beside it, written by hand:

- ``fish_double_in_hand_4p``: ten plays end in a fish on 0 while 0-0 is in seat 2's hand; hands left
  2-2 1-3 2-5 4-6 = 25, 3-3 1-4 2-6 3-6 = 28, 0-0 4-4 1-5 2-3 4-5 = 28, 5-5 6-6 1-6 2-4 3-5 = 43 (fish for all).
  Some tiles are written ``6-5`` / ``2-0`` / ``1-0`` on purpose (input may reverse them).
- ``fish_for_one_kozel_4p``: the same with fish for one: seat 3 takes 124 and is the kozel; others 10 each.
- ``fish_double_on_table_4p``: 0-0 is played before the fish; the same 25/28/28/43.
- ``fish_double_in_bazaar_tie_carry_3p``: 0-0 stays in the bazaar; 18/28/28 ties, 74 carries, twice: 148.
- ``rotating_fish_all_over_101_4p``: the fish deal rotated one seat per round: everyone ends at 124; the lowest
  seat is the kozel; ratings max(1, (100 - 124) / 10) = 1.
- ``redeals_then_play_2p``: five doubles, then six sixes (and six blanks): two redeals; then 1-1 leads and seat 1
  is left with 38 (opens).
- ``remembered_and_opening_4p``: fish on 6 with 5/9/12/10 (12 stays remembered), then seat 3 goes out (his +10
  resets), seat 0 opens with 5 + 23 = 28, seat 1 reaches +16 and seat 2 +14 (lone 1-1 = 2).
- ``fish_for_one_carries_4p``: 54 to seat 2; ties carry 56 then 96; seat 3 takes 44 + 96 = 140 (lone 0-0 = 10).
- ``full_game_2p``: a complete 20-round game (two redeals, draws, knocks, a last tile that goes out and closes a
  fish); seat 1 ends on 119, seat 0 on 88 gets 1 rating point.
- ``unfinished_round_4p``: stops after four plays: phase play, seat 0 to act.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from core.records import RecordError, replay, result_of
from tests.kozel_support import HANDS_A, PLAYS_A, RECORDS, deal_of, load_expected, load_record

NAMES = sorted(p.name[: -len(".json")] for p in RECORDS.glob("*.json") if not p.name.endswith(".expected.json"))
ROOT = Path(__file__).resolve().parent.parent


def _replay_cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "core.replay", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )


def test_there_are_at_least_ten_complete_rounds():
    rounds = sum(len(replay(load_record(n)).sheet) for n in NAMES)
    assert len(NAMES) >= 10 and rounds >= 10


@pytest.mark.parametrize("name", NAMES)
def test_record_replays_to_its_hand_checked_result(name):
    expected = load_expected(name)
    got = result_of(load_record(name))
    for key in expected:
        assert got[key] == expected[key], key
    assert set(got) == set(expected)


def test_replay_command_on_a_file():
    proc = _replay_cli(str(RECORDS / "fish_for_one_carries_4p.json"))
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == load_expected("fish_for_one_carries_4p")


def test_replay_command_on_stdin():
    text = (RECORDS / "full_game_2p.json").read_text(encoding="utf-8")
    proc = _replay_cli("-", stdin=text)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == load_expected("full_game_2p")


def test_replay_command_reports_an_illegal_action_with_exit_2():
    record = load_record("fish_double_in_hand_4p")
    record["rounds"][0]["actions"][3]["tile"] = "3-5"  # seat 3 holds 3-5, but it does not fit 0|2
    proc = _replay_cli("-", stdin=json.dumps(record))
    assert proc.returncode == 2
    out = json.loads(proc.stdout)
    assert out["error"] == "illegal_action" and out["index"] == 3 and out["round"] == 0
    assert "Traceback" not in proc.stderr


def test_state_record_round_trips():
    for name in NAMES:
        state = replay(load_record(name))
        again = replay(json.loads(json.dumps(state.record())))
        mine, theirs = state.to_json(), again.to_json()
        assert mine == theirs, name


def test_record_writes_tiles_in_canonical_form():
    state = replay(load_record("fish_double_in_hand_4p"))
    rec = state.record()
    assert rec["first_dealer"] is None
    assert rec["rounds"][0]["deal"]["hands"][0][2] == "5-6"
    assert rec["rounds"][0]["actions"][1]["tile"] == "0-1"


def _error(record) -> RecordError:
    with pytest.raises(RecordError) as err:
        replay(record)
    return err.value


def _base() -> dict:
    return {"game": "kozel", "players": 4, "rounds": [{"deal": deal_of(HANDS_A, []), "actions": []}]}


def test_first_dealer_is_ignored():
    for value in (None, 0, 3, 17, "x"):
        record = _base()
        record["first_dealer"] = value
        assert replay(record).to_act == 0


@pytest.mark.parametrize(
    "mutate",
    [
        lambda d: d["hands"][0].__setitem__(0, "0-1"),  # duplicate
        lambda d: d["hands"][0].__setitem__(0, "7-1"),  # unknown tile
        lambda d: d["hands"][0].pop(),  # six tiles
        lambda d: d["hands"].pop(),  # three hands
        lambda d: d.__setitem__("bazaar", ["0-0"]),  # 4 players have no bazaar: 29 tiles
        lambda d: d.__setitem__("talon", []),
        lambda d: d.__setitem__("hands", "1-1"),
    ],
)
def test_bad_deals(mutate):
    record = _base()
    mutate(record["rounds"][0]["deal"])
    err = _error(record)
    assert err.code == "bad_deal" and err.round == 0


def test_a_two_player_deal_needs_the_bazaar():
    hands = [HANDS_A[0], HANDS_A[1]]
    record = {"game": "kozel", "players": 2, "rounds": [{"deal": {"hands": hands}}]}
    assert _error(record).code == "bad_deal"


def test_bad_option_and_player_count():
    record = _base()
    record["options"] = {"fish": "two"}
    assert _error(record).code == "bad_record"
    record = _base()
    record["options"] = {"target": 101}
    assert _error(record).code == "bad_record"
    record = _base()
    record["players"] = 5
    assert _error(record).code == "bad_record"


def test_action_in_a_redeal_round_is_illegal():
    record = load_record("redeals_then_play_2p")
    record["rounds"][0]["actions"] = [{"seat": 0, "type": "play", "tile": "1-1", "end": "left"}]
    err = _error(record)
    assert (err.code, err.round, err.index) == ("illegal_action", 0, 0)


def test_malformed_end_is_an_illegal_action():
    record = _base()
    record["rounds"][0]["actions"] = [{"seat": 0, "type": "play", "tile": "1-1", "end": "top"}]
    err = _error(record)
    assert (err.code, err.index) == ("illegal_action", 0)


def test_round_after_the_game_ended_is_a_bad_record():
    record = load_record("fish_for_one_kozel_4p")
    record["rounds"].append({"deal": deal_of(HANDS_A, []), "actions": []})
    err = _error(record)
    assert (err.code, err.round) == ("bad_record", 1)


def test_round_after_an_unfinished_round_is_a_bad_record():
    record = _base()
    record["rounds"][0]["actions"] = [{"seat": s, "type": "play", "tile": t, "end": e} for s, t, e in PLAYS_A[:3]]
    record["rounds"].append({"deal": deal_of(HANDS_A, []), "actions": []})
    assert _error(record).code == "bad_record"
