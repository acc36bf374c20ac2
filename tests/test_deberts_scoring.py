"""Deberts round scoring: made, bait (2p/3p), hanging bait and its pots, winner takes all, target, dealer."""

from __future__ import annotations

import pytest

from core.base import OptionsError
from core.deberts import RULES, DebertsState
from core.deberts.scoring import game_winner, settle
from tests.deberts_support import act, play_cards, start, types


def _settle(points, declarer, pots=(), wta=False, separately=False):
    return settle(list(points), declarer, list(pots), winner_takes_all=wta, hanging_separately=separately)


# --- settle: one rule per test ------------------------------------------------------------------------


def test_made_each_writes_his_own_and_the_declarer_deals_next():
    out = _settle([90, 72], 0)
    assert (out["result"], out["scores"], out["next_dealer"], out["pots"]) == ("made", [90, 72], 0, [])


def test_winner_takes_all_gives_the_declarer_everyones_points():
    out = _settle([60, 95, 40], 1, wta=True)
    assert (out["result"], out["scores"]) == ("made", [0, 195, 0])


def test_winner_takes_all_leaves_a_bait_as_usual():
    assert _settle([60, 102], 0, wta=True)["scores"] == [0, 162]


def test_bait_two_players_the_defender_writes_both():
    out = _settle([60, 102], 0)
    assert (out["result"], out["scores"], out["next_dealer"]) == ("bait", [0, 162], 1)


def test_bait_three_players_each_defender_adds_half_of_the_declarers_points():
    # declarer 1 with 41: the odd point goes to seat 2, the first defender on his left
    out = _settle([50, 41, 71], 1)
    assert (out["result"], out["scores"], out["next_dealer"]) == ("bait", [70, 0, 92], 2)


def test_bait_needs_only_one_defender_above_the_declarer():
    assert _settle([60, 50, 52], 1)["result"] == "bait"


def test_hanging_bait_two_players():
    out = _settle([81, 81], 0)
    assert (out["result"], out["scores"], out["pots"], out["added"], out["next_dealer"]) == (
        "hanging",
        [0, 81],
        [81],
        81,
        1,
    )


def test_hanging_bait_three_players_defenders_write_their_own():
    out = _settle([30, 60, 60], 2)  # declarer 2 ties seat 1
    assert (out["result"], out["scores"], out["pots"], out["next_dealer"]) == ("hanging", [30, 60, 0], [60], 0)


def test_hanging_points_go_to_the_declarer_of_the_next_made_round():
    out = _settle([70, 92], 1, pots=[81])
    assert (out["scores"], out["pots"], out["paid"], out["paid_to"]) == ([70, 173], [], 81, [1])


def test_hanging_points_go_to_the_defender_of_the_next_bait_two_players():
    out = _settle([70, 92], 0, pots=[81])
    assert out["scores"] == [0, 70 + 92 + 81] and out["paid_to"] == [1]


def test_hanging_points_are_split_by_the_defenders_of_the_next_bait_three_players():
    out = _settle([40, 70, 52], 0, pots=[61])
    # halves of 40 and of 61: the odd point to seat 1, the first defender left of declarer 0
    assert out["scores"] == [0, 70 + 20 + 31, 52 + 20 + 30] and out["paid"] == 61 and out["paid_to"] == [1, 2]


def test_hanging_again_is_summed_by_default():
    out = _settle([70, 70], 1, pots=[81])
    assert (out["result"], out["pots"], out["paid"], out["scores"]) == ("hanging", [151], 0, [70, 0])


def test_hanging_separately_keeps_pots_apart_and_pays_one_per_round():
    out = _settle([70, 70], 1, pots=[81], separately=True)
    assert out["pots"] == [81, 70]
    out = _settle([100, 62], 0, pots=out["pots"], separately=True)
    assert out["scores"] == [181, 62] and out["pots"] == [70]
    out = _settle([50, 112], 1, pots=out["pots"], separately=True)
    assert out["scores"] == [50, 182] and out["pots"] == []


def test_next_dealer_tie_goes_to_the_first_from_the_declarers_left():
    assert _settle([40, 61, 61], 0)["next_dealer"] == 1
    assert _settle([61, 40, 61], 1)["next_dealer"] == 2


def test_game_winner_highest_total_at_the_target_and_ties_play_on():
    assert game_winner([301, 290], 301) == 0
    assert game_winner([300, 0], 301) is None
    assert game_winner([320, 330], 301) == 1  # both passed the target: the higher wins
    assert game_winner([310, 310], 301) is None
    assert game_winner([480, 500, 100], 501) is None
    assert game_winner([480, 520, 510], 501) == 1


# --- options ------------------------------------------------------------------------------------------


def test_target_defaults_301_for_two_and_501_for_three_either_allowed():
    assert RULES.options(2).target == 301 and RULES.options(3).target == 501
    assert RULES.options(2, {"target": 501}).target == 501 and RULES.options(3, {"target": 301}).target == 301
    with pytest.raises(OptionsError):
        RULES.options(2, {"target": 401})
    described = {d["name"]: d for d in RULES.options_type.describe(3)}
    assert described["target"]["default"] == 501 and described["target"]["choices"] == [501, 301]
    assert {d["name"]: d["default"] for d in RULES.options_type.describe(2)} == {
        "target": 301,
        "winner_takes_all": False,
        "obligatory_order": False,
        "seven_swap": True,
        "hanging_separately": False,
        "trump_in_combinations": "moscow",
    }
    with pytest.raises(OptionsError):
        RULES.options(2, {"trump_in_combinations": "kyiv"})


# --- through real rounds ------------------------------------------------------------------------------
# The bella round of test_deberts_play: seat 0 takes every trick; points [113, 20] (seat 1 has bella).
NINE = [
    ["JH", "9H", "AH", "8H", "AC", "AD", "AS", "KS", "KC"],
    ["KH", "QH", "7C", "8C", "7D", "8D", "TD", "7S", "8S"],
]
PLAY = ["KH", "AH", "JH", "QH", "9H", "7S", "8H", "8S", "AC", "7C", "KC", "8C", "AD", "7D", "AS", "8D", "KS", "TD"]


def _round(declarer: int, options=None, **preset) -> tuple[DebertsState, list]:
    s = start(NINE, "TH", dealer=0, options=options)
    if preset:
        data = s.to_json()
        data.update(preset)
        s = DebertsState.from_json(data)
    if declarer == 1:
        act(s, 1, "play_trump")
    else:
        act(s, 1, "pass")
        act(s, 0, "play_trump")
    return s, play_cards(s, PLAY)


def test_a_made_round_through_play():
    s, events = _round(0)
    assert s.sheet[-1]["result"] == "made" and s.totals == [113, 20] and s.next_dealer == 0
    res = next(e for e in events if e.type == "round_result")
    assert res.data["result"] == "made" and res.data["scores"] == [113, 20]


def test_winner_takes_all_through_play():
    s, _ = _round(0, {"winner_takes_all": True})
    assert s.totals == [133, 0]


def test_a_bait_through_play_pays_the_hanging_pot_to_the_defender():
    s, events = _round(1, totals=[0, 0], pots=[50])
    assert s.sheet[-1]["result"] == "bait" and s.totals == [113 + 20 + 50, 0]
    assert s.sheet[-1]["hanging_paid"] == 50 and s.sheet[-1]["hanging_to"] == [0]
    assert s.result()["extra"] == {"hanging": 0} and s.next_dealer == 0


def test_a_made_round_through_play_pays_only_the_oldest_pot_when_hanging_separately():
    s, _ = _round(0, {"hanging_separately": True}, pots=[50, 30])
    assert s.totals == [163, 20] and s.pots == [30]
    assert s.view(None)["hanging"] == {"points": 30, "pots": [30]} and s.result()["extra"] == {"hanging": 30}


def test_the_target_ends_the_game_301_but_not_501():
    s, events = _round(0, totals=[200, 10])
    assert s.phase == "game_over" and s.winner == 0 and s.finished
    won = next(e for e in events if e.type == "game_won")
    assert won.seat == 0 and won.data == {"total": 313, "target": 301}
    s, events = _round(0, {"target": 501}, totals=[200, 10])
    assert s.phase == "round_over" and s.winner is None and "game_won" not in types(events)


def test_two_players_passing_the_target_in_one_round_the_higher_wins():
    s, _ = _round(0, totals=[190, 290])
    assert s.totals == [303, 310] and s.winner == 1


def test_a_tie_at_the_top_above_the_target_plays_on():
    s, events = _round(0, totals=[300, 393])
    assert s.totals == [413, 413] and s.phase == "round_over" and s.winner is None
    assert next(e for e in events if e.type == "play_on").data == {"seats": [0, 1], "total": 413, "target": 301}
    s.next_round_in_place()
    assert s.phase == "bidding"
