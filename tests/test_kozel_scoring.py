"""Kozel scoring: every worked example of the Kozel source text and one test per scoring rule (docs/rules-kozel.md)."""

from __future__ import annotations

import pytest

import core.kozel as kozel_pkg
from core.kozel.scoring import book, hand_value, kozel, rating, score_round, timeout_rating

# Hands worth a given number of points (hand values are pip sums).
H = {
    0: [],
    2: ["0-2"],
    3: ["1-2"],
    4: ["1-3"],
    5: ["2-3"],
    13: ["6-6", "0-1"],
    14: ["6-6", "0-2"],
}

MASHA, ALEX, OLYA, SERG = range(4)


# ---- the worked examples of the Kozel source text ---------------------------------------------------------------


def test_seed_example_going_out():
    """Masha goes out (19 remembered -> 0); Alex 0+3 -> +3; Olya +7 and 13 -> 20; Serg +4 and 5 -> +9."""
    sc = score_round(
        totals=[0, 0, 0, 0],
        remembered=[19, 0, 7, 4],
        opened=[False] * 4,
        carry=0,
        hands=[H[0], H[3], H[13], H[5]],
        ending="out",
        by=MASHA,
        fish="all",
    )
    assert sc.points == [0, 3, 13, 5]
    assert sc.remembered == [0, 3, 0, 9]
    assert sc.opened == [False, False, True, False]
    assert sc.totals == [0, 0, 20, 0]
    assert sc.scores == [0, 0, 20, 0]


def test_seed_example_fish_for_one():
    """Fish for one, 2/3/13/5: Olya has the most and takes 23, plus her 7 remembered = 30; others reset."""
    sc = score_round(
        totals=[0, 0, 0, 0],
        remembered=[4, 9, 7, 2],
        opened=[False] * 4,
        carry=0,
        hands=[H[2], H[3], H[13], H[5]],
        ending="fish",
        by=ALEX,
        fish="one",
    )
    assert sc.fish_sum == 23
    assert sc.fish_to == OLYA
    assert sc.gained == [0, 0, 23, 0]
    assert sc.totals == [0, 0, 30, 0]
    assert sc.opened == [False, False, True, False]
    assert sc.remembered == [0, 0, 0, 0]
    assert sc.carry == 0


def test_seed_example_fish_for_one_tie_carries_35():
    """Alex and Olya both have 14: nobody scores, all 35 points carry into the next round."""
    sc = score_round(
        totals=[10, 0, 0, 0],
        remembered=[0, 5, 6, 7],
        opened=[True, False, False, False],
        carry=0,
        hands=[H[3], H[14], H[14], H[4]],
        ending="fish",
        by=SERG,
        fish="one",
    )
    assert sc.fish_sum == 35
    assert sc.fish_to is None
    assert sc.carry == 35
    assert sc.totals == [10, 0, 0, 0]
    assert sc.scores == [0, 0, 0, 0]
    # a tied fish resets nobody's remembered points
    assert sc.remembered == [0, 5, 6, 7]


def test_seed_example_rating_25_gives_8():
    assert rating([25, 104], loser=1) == [8, 0]


def test_seed_example_timeout_ratings():
    """Alex leaves by timeout with 32: Masha (30) gets max(1, 0.2 -> 0) = 1, Olya (13) gets 1.9 -> 2."""
    assert timeout_rating([30, 32, 13], leaver=1) == [1, 0, 2]


def test_rating_api_is_exported_for_the_bot():
    assert kozel_pkg.rating is rating
    assert kozel_pkg.timeout_rating is timeout_rating


# ---- one test per rule -----------------------------------------------------------------------------


def test_lone_double_blank_counts_ten_but_not_with_other_tiles():
    assert hand_value(["0-0"]) == 10
    assert hand_value(["0-0", "1-2"]) == 3
    assert hand_value(["0-0", "0-1"]) == 1
    assert hand_value([]) == 0
    assert hand_value(["6-6", "5-6"]) == 23


def test_twelve_is_remembered_thirteen_opens():
    assert book(0, 0, False, 12) == (0, 12, False)
    assert book(0, 0, False, 13) == (13, 0, True)


def test_remembered_points_accumulate_past_twelve():
    total, rem, opened = book(0, 10, False, 5)
    assert (total, rem, opened) == (0, 15, False)
    total, rem, opened = book(total, rem, opened, 12)
    assert (total, rem, opened) == (0, 27, False)


def test_opening_adds_the_remembered_points():
    assert book(0, 27, False, 20) == (47, 0, True)


def test_open_account_adds_every_amount():
    assert book(47, 0, True, 2) == (49, 0, True)
    assert book(49, 0, True, 0) == (49, 0, True)


def test_going_out_resets_only_the_goer():
    sc = score_round([30, 0, 0], [0, 11, 9], [True, False, False], 0, [H[4], H[0], H[5]], "out", 1, "all")
    assert sc.remembered == [0, 0, 14]
    assert sc.totals == [34, 0, 0]


def test_going_out_keeps_an_open_total():
    sc = score_round([40, 0], [0, 6], [True, False], 0, [H[0], H[4]], "out", 0, "all")
    assert sc.totals == [40, 0]
    assert sc.remembered == [0, 10]


def test_fish_for_all_scores_everyone_like_a_normal_round():
    sc = score_round([0, 0, 0], [5, 0, 0], [False] * 3, 0, [H[4], H[13], H[2]], "fish", 0, "all")
    assert sc.gained == [4, 13, 2]
    assert sc.remembered == [9, 0, 2]
    assert sc.totals == [0, 13, 0]
    assert sc.fish_to is None and sc.carry == 0


def test_fish_for_one_small_sum_is_remembered():
    """The fish sum is a round amount like any other: 2 + 3 + 5 = 10 does not open the account."""
    sc = score_round([0, 0, 0], [1, 2, 3], [False] * 3, 0, [H[2], H[3], H[5]], "fish", 0, "one")
    assert sc.fish_to == 2
    assert sc.gained == [0, 0, 10]
    assert sc.remembered == [0, 0, 13]
    assert sc.opened == [False, False, False]


def test_carry_goes_to_the_next_rounds_highest_scorer_when_someone_goes_out():
    sc = score_round([0, 0, 0, 0], [0, 0, 0, 0], [False] * 4, 35, [H[0], H[4], H[5], H[3]], "out", 0, "one")
    assert sc.carry_to == 2
    assert sc.gained == [0, 4, 40, 3]
    assert sc.totals == [0, 0, 40, 0]
    assert sc.carry == 0


def test_carry_goes_to_the_highest_scorer_of_a_fish_for_one():
    sc = score_round([0, 0, 0], [0, 0, 0], [False] * 3, 35, [H[2], H[3], H[5]], "fish", 1, "one")
    assert sc.fish_to == 2 and sc.carry_to == 2
    assert sc.gained == [0, 0, 45]
    assert sc.totals == [0, 0, 45]


def test_tie_for_the_most_in_the_carry_round_keeps_the_carry():
    sc = score_round([0, 0, 0], [0, 0, 0], [False] * 3, 35, [H[0], H[5], H[5]], "out", 0, "one")
    assert sc.carry_to is None
    assert sc.carry == 35
    assert sc.gained == [0, 5, 5]
    assert sc.remembered == [0, 5, 5]


def test_repeated_tied_fishes_add_to_the_carry_until_one_player_has_the_most():
    totals, rem, opened, carry = [0, 0, 0], [0, 0, 0], [False] * 3, 0
    sc = score_round(totals, rem, opened, carry, [H[14], H[14], H[3]], "fish", 0, "one")
    assert sc.carry == 31
    sc = score_round(sc.totals, sc.remembered, sc.opened, sc.carry, [H[5], H[2], H[5]], "fish", 2, "one")
    assert sc.carry == 31 + 12
    sc = score_round(sc.totals, sc.remembered, sc.opened, sc.carry, [H[2], H[13], H[4]], "fish", 1, "one")
    assert sc.fish_to == 1 and sc.carry_to == 1
    assert sc.totals == [0, 43 + 19, 0]
    assert sc.carry == 0


def test_carry_is_taken_in_a_fish_for_all_round_too():
    sc = score_round([0, 0], [0, 0], [False, False], 20, [H[13], H[2]], "fish", 1, "all")
    assert sc.carry_to == 0
    assert sc.gained == [33, 2]
    assert sc.totals == [33, 0]


def test_game_ends_at_101_not_100():
    assert kozel([100, 50]) is None
    assert kozel([101, 50]) == 0


def test_several_at_101_the_highest_total_is_the_kozel():
    assert kozel([120, 133, 101, 5]) == 1


def test_several_at_101_with_equal_totals_the_lowest_seat_is_the_kozel():
    assert kozel([50, 110, 110, 104]) == 1


def test_rating_formula():
    # (100 - 88) / 10 = 1.2 -> 1; (100 - 54) / 10 = 4.6 -> 5; 105 (not the kozel) -> at least 1
    assert rating([88, 54, 0, 130, 105], loser=3) == [1, 5, 10, 0, 1]


@pytest.mark.parametrize(("leaver_total", "total", "points"), [(32, 30, 1), (32, 13, 2), (32, 40, 1), (97, 12, 9)])
def test_timeout_formula(leaver_total, total, points):
    assert timeout_rating([leaver_total, total], leaver=0) == [0, points]
