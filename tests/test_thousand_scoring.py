"""Thousand round scoring: rounding, the declarer's contract, bolts, the barrel (rules 1-6), dump truck, golden."""

from __future__ import annotations

import pytest

from core.thousand.cards import round_defender
from core.thousand.scoring import RoundOutcome, Standing, settle
from tests.helpers_thousand import act, make_deal, new_state, play_out, to_play


def standing(totals, bolts=None, barrel=None, attempts=None, missed=None):
    n = len(totals)
    return Standing(list(totals), bolts or [0] * n, barrel or [False] * n, attempts or [0] * n, missed or [0] * n)


def outcome(
    points,
    tricks=None,
    declarer=0,
    contract=100,
    bid=None,
    conceded=False,
    golden=False,
    players=3,
    sitting_out=None,
    talon=(),
):
    active = [s for s in range(players) if s != sitting_out]
    return RoundOutcome(
        players=players,
        active=active,
        sitting_out=sitting_out,
        declarer=declarer,
        bid=bid or contract,
        contract=contract,
        conceded=conceded,
        points=list(points),
        tricks=tricks or [3] * players,
        talon=list(talon),
        golden=golden,
    )


def run(o, before, **opts):
    kw = {"concede_penalty": True, "bolts_in_a_row": False, "missed_barrels_reset": False, "dump_truck": False}
    kw.update(opts)
    return settle(o, before, **kw)


def notes(s, kind):
    return [(n["seat"], n["value"]) for n in s.notes if n["type"] == kind]


@pytest.mark.parametrize(
    ("points", "rounded"), [(57, 55), (58, 60), (55, 55), (56, 55), (59, 60), (0, 0), (2, 0), (3, 5), (118, 120)]
)
def test_defender_rounding(points, rounded):
    assert round_defender(points) == rounded


def test_defenders_rounded_declarer_makes_contract():
    s = run(outcome([100, 57, 58]), standing([0, 0, 0]))
    assert s.standing.totals == [100, 55, 60]
    assert s.made is True


def test_declarer_is_not_rounded():
    s = run(outcome([118, 1, 1], contract=120), standing([0, 0, 0]))
    assert s.standing.totals[0] == -120 and s.made is False


def test_bolt_for_no_trick_and_every_third_costs_120():
    o = outcome([120, 0, 0], tricks=[8, 0, 0])
    s1 = run(o, standing([0, 0, 0], bolts=[0, 1, 2]))
    assert s1.standing.bolts == [0, 2, 0]
    assert s1.standing.totals == [100, 0, -120]
    assert notes(s1, "bolt_penalty") == [(2, -120)]


def test_bolts_not_in_a_row_by_default_keep_counting():
    s = run(outcome([100, 10, 10], tricks=[6, 1, 1]), standing([0, 0, 0], bolts=[0, 2, 0]))
    assert s.standing.bolts == [0, 2, 0]


def test_bolts_in_a_row_option_resets_on_a_round_with_a_trick():
    s = run(outcome([100, 10, 10], tricks=[6, 1, 1]), standing([0, 0, 0], bolts=[0, 2, 0]), bolts_in_a_row=True)
    assert s.standing.bolts == [0, 0, 0]
    s = run(outcome([120, 0, 0], tricks=[8, 0, 0]), standing([0, 0, 0], bolts=[0, 2, 0]), bolts_in_a_row=True)
    assert s.standing.totals[1] == -120 and s.standing.bolts[1] == 0


def test_declarer_can_get_a_bolt():
    s = run(outcome([0, 60, 60], tricks=[0, 4, 4]), standing([0, 0, 0]))
    assert s.standing.bolts == [1, 0, 0] and s.standing.totals == [-100, 60, 60]


def test_four_player_sitting_dealer_never_gets_a_bolt_nor_breaks_a_row():
    o = outcome([0, 100, 10, 10], tricks=[0, 6, 1, 1], declarer=1, players=4, sitting_out=0, talon=["9S", "9C", "9D"])
    s = run(o, standing([0, 0, 0, 0], bolts=[2, 0, 0, 0]), bolts_in_a_row=True)
    assert s.standing.bolts[0] == 2


def test_barrel_climbing_on_sets_880():
    s = run(outcome([100, 60, 20], tricks=[4, 3, 1]), standing([0, 850, 0]))
    assert s.standing.totals[1] == 880 and s.standing.barrel[1] is True
    assert notes(s, "barrel_on") == [(1, 0)]


def test_barrel_player_gains_no_points_as_defender_and_gets_no_bolt():
    s = run(outcome([100, 60, 0], tricks=[5, 3, 0]), standing([0, 0, 880], barrel=[False, False, True]))
    assert s.standing.totals[2] == 880 and s.standing.bolts[2] == 0
    assert s.standing.barrel_attempts[2] == 1  # rule 4: outbid, no points, the attempt counts


def test_barrel_rule1_third_failed_attempt_costs_120_and_records_a_missed_barrel():
    before = standing([0, 880, 0], barrel=[False, True, False], attempts=[0, 1, 0])
    s = run(outcome([110, 10, 0], declarer=0), before)
    assert s.standing.barrel[1] and s.standing.barrel_attempts[1] == 2 and s.standing.totals[1] == 880
    s = run(outcome([110, 10, 0], declarer=0), s.standing)
    assert s.standing.barrel == [False, False, False]
    assert s.standing.totals[1] == 760 and s.standing.missed_barrels[1] == 1


def test_barrel_attempt_at_121_failed_costs_nothing_by_itself():
    before = standing([0, 880, 0], barrel=[False, True, False])
    s = run(outcome([40, 100, 0], declarer=1, contract=121), before)
    assert s.standing.totals[1] == 880 and s.standing.barrel_attempts[1] == 1 and s.made is False


def test_barrel_rule2_failing_above_121_costs_the_contract_and_the_barrel():
    before = standing([0, 880, 0], barrel=[False, True, False])
    s = run(outcome([40, 100, 0], declarer=1, contract=140), before)
    assert s.standing.totals[1] == 740 and not s.standing.barrel[1]
    assert s.standing.missed_barrels[1] == 0


def test_barrel_rule3_exactly_121_opponents_stand_still():
    before = standing([100, 880, 200], barrel=[False, True, False])
    s = run(outcome([0, 130, 30], tricks=[0, 7, 1], declarer=1, contract=121), before)
    assert s.stand_still
    assert s.standing.totals == [100, 1001, 200]  # no points and no bolt for the others
    assert s.standing.bolts == [0, 0, 0]
    assert s.winner == 1


def test_barrel_made_contract_wins_the_game():
    before = standing([100, 880, 200], barrel=[False, True, False])
    s = run(outcome([30, 150, 10], declarer=1, contract=150), before)
    assert s.winner == 1 and s.standing.totals[1] == 1030


def test_barrel_rule5_a_new_climber_pushes_the_sitting_player_off():
    before = standing([860, 880, 0], barrel=[False, True, False], attempts=[0, 1, 0])
    s = run(outcome([100, 10, 10], declarer=0, contract=100), before)
    assert s.standing.barrel == [True, False, False]
    assert s.standing.totals[:2] == [880, 760]


def test_barrel_rule6_two_climbing_at_once_both_fall_and_the_sitter_too():
    before = standing([860, 860, 880], barrel=[False, False, True])
    s = run(outcome([100, 30, 0], tricks=[6, 2, 0], declarer=0, contract=100), before)
    assert s.standing.barrel == [False, False, False]
    assert s.standing.totals == [760, 760, 760]


def test_missed_barrels_reset_option():
    before = standing([0, 880, 0], barrel=[False, True, False], attempts=[0, 2, 0], missed=[0, 2, 0])
    s = run(outcome([110, 10, 0]), before, missed_barrels_reset=True)
    assert s.standing.totals[1] == 0 and s.standing.missed_barrels[1] == 0
    s = run(outcome([110, 10, 0]), before)
    assert s.standing.totals[1] == 760 and s.standing.missed_barrels[1] == 3


def test_four_player_barrel_dealer_round_is_no_attempt_and_scores_no_talon():
    o = outcome([0, 100, 10, 10], declarer=1, players=4, sitting_out=0, talon=["AS", "TS", "KS"])
    s = run(o, standing([880, 0, 0, 0], barrel=[True, False, False, False]))
    assert s.standing.totals[0] == 880 and s.standing.barrel_attempts[0] == 0


@pytest.mark.parametrize(("before", "gain", "after"), [(500, 55, 0), (-600, 45, 0), (500, 60, 560)])
def test_dump_truck(before, gain, after):
    s = run(outcome([100, gain, 0], tricks=[5, 2, 1]), standing([0, before, 0]), dump_truck=True)
    assert s.standing.totals[1] == after


def test_no_dump_truck_without_the_option():
    s = run(outcome([100, 55, 0], tricks=[5, 2, 1]), standing([0, 500, 0]))
    assert s.standing.totals[1] == 555


def test_golden_round_doubles_round_results_but_not_penalties():
    s = run(outcome([100, 57, 0], tricks=[5, 3, 0], golden=True), standing([0, 0, 0], bolts=[0, 0, 2]))
    assert s.standing.totals == [200, 110, -120]


def test_golden_rounds_are_the_first_three_played_rounds():
    deal = make_deal(3, 0, {})
    s = new_state(3, deal, options={"golden_round": True})
    goldens = []
    for _ in range(4):
        goldens.append(s.golden)
        act(s, s.first_hand, "bid", value=100)
        while s.phase == "bidding":
            act(s, s.to_act, "pass")
        to_play(s)
        play_out(s)
        s.next_round_in_place(make_deal(3, s.next_dealer, {}))
    assert goldens == [True, True, True, False]
    assert all(row["golden"] for row in s.history[:3]) and not s.history[3]["golden"]


def test_round_through_the_state_writes_a_score_sheet_row():
    s = new_state(3, make_deal(3, 0, {1: ["AS", "TS", "AH", "TH", "AC", "TC", "AD"]}))
    act(s, 1, "bid", value=100)
    act(s, 2, "pass")
    act(s, 0, "pass")
    to_play(s)
    play_out(s)
    row = s.history[-1]
    assert row["declarer"] == 1 and row["contract"] == 100 and row["redeal"] is False
    assert row["scores"] == [row["totals"][i] for i in range(3)]
    assert s.phase == "round_over" and s.next_dealer == 1


def test_the_winner_is_no_longer_on_the_barrel():
    before = standing([100, 880, 200], barrel=[False, True, False], attempts=[0, 2, 0])
    s = run(outcome([30, 150, 10], declarer=1, contract=150), before)
    assert s.winner == 1
    assert s.standing.barrel == [False, False, False] and s.standing.barrel_attempts == [0, 0, 0]


def test_a_loser_reaching_880_in_the_winning_round_is_set_to_880():
    before = standing([800, 880, 200], barrel=[False, True, False])
    s = run(outcome([105, 130, 0], tricks=[3, 5, 0], declarer=1, contract=125), before)
    assert s.winner == 1
    assert s.standing.totals == [880, 1005, 200]  # 800 + 105 = 905 is set to 880
    assert s.standing.barrel == [True, False, False]  # he climbs on; the winner is not pushed off
    assert notes(s, "barrel_on") == [(0, 0)] and notes(s, "barrel_fall") == []


def test_two_losers_climbing_on_in_the_winning_round_fall_off_together():
    before = standing([860, 880, 870], barrel=[False, True, False])
    s = run(outcome([40, 130, 40], tricks=[2, 4, 2], declarer=1, contract=125), before)
    assert s.winner == 1 and s.standing.totals == [760, 1005, 760] and s.standing.barrel == [False] * 3


def test_dump_truck_and_bolts_apply_in_the_winning_round():
    before = standing([520, 880, 0], bolts=[0, 0, 2], barrel=[False, True, False])
    s = run(outcome([35, 130, 0], tricks=[3, 5, 0], declarer=1, contract=125), before, dump_truck=True)
    assert s.winner == 1
    assert s.standing.totals == [0, 1005, -120]  # 520 + 35 = 555 -> 0; the third bolt costs 120
