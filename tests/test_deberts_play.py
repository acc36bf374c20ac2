"""Deberts cards, runs and trick play: orders, points, runs precedence, bella, follow/trump/overtrump."""

from __future__ import annotations

import pytest

from core.base import IllegalAction
from core.deberts.cards import DECK, LAST_TRICK, TOTAL, points
from core.deberts.combinations import decide, find_runs
from core.deberts.play import allowed_cards, trick_winner
from tests.deberts_support import act, play_cards, start, types

# --- cards --------------------------------------------------------------------------------------------


def test_card_points_trump_jack_20_trump_nine_14():
    assert points("JH", "H") == 20 and points("9H", "H") == 14
    assert points("JS", "H") == 2 and points("9S", "H") == 0
    assert [points(r + "C", "H") for r in "789TJQKA"] == [0, 0, 0, 10, 2, 3, 4, 11]
    for trump in "SCDH":
        assert sum(points(c, trump) for c in DECK) + LAST_TRICK == TOTAL == 162


def test_trick_winner_uses_the_trump_order_and_the_plain_order():
    assert trick_winner(["AH", "9H"], "H") == 1  # trump 9 beats trump ace
    assert trick_winner(["9H", "JH", "AH"], "H") == 1  # trump jack is the highest
    assert trick_winner(["QH", "KH"], "H") == 1  # Q < K < 10 < A < 9 < J in trump
    assert trick_winner(["TS", "KS"], "H") == 0  # plain: 10 beats king
    assert trick_winner(["JS", "9S"], "H") == 0  # plain: jack beats nine
    assert trick_winner(["AS", "7H", "AC"], "H") == 1  # any trump beats the led suit
    assert trick_winner(["7S", "AC", "AD"], "H") == 0  # other suits never win


# --- runs ---------------------------------------------------------------------------------------------


def test_runs_follow_the_sequence_order_not_the_card_strength():
    runs = find_runs(["AS", "KS", "QS", "JS", "9C", "TC", "JC", "AD", "TD", "KD"])
    assert [(r["kind"], r["cards"], r["points"]) for r in runs] == [
        ("berz", ["AS", "KS", "QS", "JS"], 50),
        ("terz", ["JC", "TC", "9C"], 20),
    ]  # A 10 K of diamonds is no run
    assert [r["kind"] for r in find_runs(["7H", "8H", "9H", "TH", "JH", "QH", "KH", "AH"])] == ["berz"]
    assert find_runs(["7H", "8H", "TH", "JH"]) == []


def _best(hands, trump="H", dealer=0, moscow=True):
    out = decide(hands, trump, dealer, moscow)
    return out["scorer"], out["points"], [b["reason"] for b in out["beaten"]]


def test_any_berz_beats_any_terz():
    # seat 1 (first in deal order) has a trump terz from the ace; seat 0 a plain berz from 10
    hands = [["7C", "8C", "9C", "TC"], ["AH", "KH", "QH"]]
    assert _best(hands) == (0, 50, ["berz_beats_terz"])


def test_higher_top_card_wins_and_the_best_single_run_decides_not_the_count():
    # seat 1: two terzes from the jack (40); seat 0: one terz from the queen
    hands = [["QS", "JS", "TS"], ["JC", "TC", "9C", "JD", "TD", "9D"]]
    assert _best(hands) == (0, 20, ["higher_top"])


def test_the_scorer_counts_all_his_runs():
    hands = [["7C", "8C", "9C"], ["AS", "KS", "QS", "JS", "7D", "8D", "9D"]]
    assert _best(hands) == (1, 70, ["berz_beats_terz"])


def test_moscow_trump_run_beats_an_equal_plain_run():
    # equal terzes from the king; seat 0 (later in deal order) holds it in trump
    hands = [["KH", "QH", "JH"], ["KS", "QS", "JS"]]
    assert _best(hands, moscow=True) == (0, 20, ["trump_run"])


def test_kharkov_ignores_trump_and_deal_order_decides():
    hands = [["KH", "QH", "JH"], ["KS", "QS", "JS"]]
    assert _best(hands, moscow=False) == (1, 20, ["deal_order"])


def test_equal_plain_runs_go_to_the_earlier_seat_in_deal_order():
    hands = [["KS", "QS", "JS", "TS"], ["KC", "QC", "JC", "TC"], ["KD", "QD", "JD", "TD"]]
    for dealer, first in ((0, 1), (1, 2), (2, 0)):
        scorer, pts, reasons = _best(hands, trump="H", dealer=dealer)
        assert (scorer, pts, reasons) == (first, 50, ["deal_order", "deal_order"])


def test_nobody_has_runs():
    assert decide([["AS", "KS"], ["7C", "9C"]], "H", 0, True) is None


# --- runs need a trick, bella does not ----------------------------------------------------------------
# Dealer 0, open 10H. Seat 1 holds a plain berz 7-10 of clubs and a terz 7-9 of spades but takes no trick.
NINE_NO_TRICK = [
    ["JH", "9H", "AH", "QH", "8H", "AC", "AD", "AS", "KS"],
    ["7C", "8C", "9C", "TC", "7D", "8D", "7S", "8S", "9S"],
]
PLAY_NO_TRICK = ["9S", "AS", "JH", "7D", "9H", "8D", "AH", "7S", "QH", "8S", "8H", "7C", "AC", "8C", "AD", "9C"]
PLAY_NO_TRICK += ["KS", "TC"]


def test_runs_lost_when_their_owner_takes_no_trick():
    s = start(NINE_NO_TRICK, "TH", dealer=0)
    act(s, 1, "pass")
    events = act(s, 0, "play_trump")
    runs = next(e for e in events if e.type == "runs")
    assert runs.seat == 1 and runs.data["points"] == 70 and runs.data["beaten"] == []
    events = play_cards(s, PLAY_NO_TRICK)
    assert "runs_lost" in types(events) and "runs_counted" not in types(events)
    lost = next(e for e in events if e.type == "runs_lost")
    assert lost.seat == 1 and lost.data == {"points": 70, "reason": "no_trick"}
    assert s.tricks == [9, 0] and s.runs["status"] == "lost"
    assert s.sheet[-1]["points"] == [105, 0] and s.sheet[-1]["result"] == "made"
    assert s.totals == [105, 0]


def test_the_other_seats_runs_do_not_count_when_the_best_run_is_lost():
    # seat 0 adds a terz 8-9-10 of hearts that loses to seat 1's berz; seat 1 still takes no trick
    nine = [["8H", "9H", "TH", "AH", "QH", "AC", "AD", "AS", "KS"], NINE_NO_TRICK[1]]
    s = start(nine, "7H", dealer=0)
    act(s, 1, "pass")
    events = act(s, 0, "play_trump")
    runs = next(e for e in events if e.type == "runs")
    assert runs.seat == 1 and runs.data["beaten"] == [{"seat": 0, "reason": "berz_beats_terz"}]
    play_cards(s, ["9S", "AS", "9H", "7D", "TH", "8D", "AH", "7S", "QH", "8S", "8H", "7C", "AC", "8C", "AD", "9C"])
    play_cards(s, ["KS", "TC"])
    assert s.sheet[-1]["points"] == [95, 0]  # 85 card points + last trick, no runs for anybody


NINE_BELLA = [
    ["JH", "9H", "AH", "8H", "AC", "AD", "AS", "KS", "KC"],
    ["KH", "QH", "7C", "8C", "7D", "8D", "TD", "7S", "8S"],
]


def test_bella_counts_without_a_trick_and_is_announced_with_the_first_card():
    s = start(NINE_BELLA, "TH", dealer=0)
    act(s, 1, "pass")
    act(s, 0, "play_trump")
    events = act(s, 1, "play,c=KH")
    assert types(events) == ["card_played", "bella"] and events[1].seat == 1 and events[1].data["points"] == 20
    assert s.view(None)["bella"] == 1
    play_cards(s, ["AH", "JH"])
    events = act(s, 1, "play,c=QH")
    assert "bella" not in types(events)
    play_cards(s, ["9H", "7S", "8H", "8S", "AC", "7C", "KC", "8C", "AD", "7D", "AS", "8D", "KS", "TD"])
    assert s.tricks == [9, 0]
    assert s.sheet[-1]["points"] == [113, 20] and s.sheet[-1]["scores"] == [113, 20]


def test_no_bella_for_a_lone_king():
    nine = [["JH", "9H", "AH", "8H", "AC", "AD", "AS", "KS", "QH"], ["KH", *NINE_BELLA[1][2:], "KC"]]
    s = start(nine, "TH", dealer=0)
    act(s, 1, "pass")
    act(s, 0, "play_trump")
    assert "bella" not in types(act(s, 1, "play,c=KH"))


# --- follow, trump, overtrump -------------------------------------------------------------------------


def test_allowed_cards_follow_then_trump_then_anything():
    hand = ["AS", "7S", "8H", "JH", "9C"]
    assert allowed_cards(hand, [], "H") == hand
    assert allowed_cards(hand, ["KS"], "H") == ["AS", "7S"]
    assert allowed_cards(hand, ["KD"], "H") == ["8H", "JH"]
    assert allowed_cards(["AS", "9C"], ["KD"], "H") == ["AS", "9C"]


def test_overtrump_duty_only_on_a_trump_lead():
    hand = ["QH", "9H", "AS"]
    assert allowed_cards(hand, ["AH"], "H") == ["9H"]  # must beat the trump ace with the nine
    assert allowed_cards(hand, ["JH"], "H") == ["QH", "9H"]  # cannot beat the jack: any trump
    assert allowed_cards(["AS", "KC"], ["JH"], "H") == ["AS", "KC"]  # no trump: any card
    # three players: trump led, then a higher trump; the third must beat the highest one on the table
    assert allowed_cards(["KH", "9H", "TH"], ["QH", "AH"], "H") == ["9H"]
    # a plain lead: a void player may under-trump a trump already on the table
    assert allowed_cards(["8H", "JH"], ["KD", "9H"], "H") == ["8H", "JH"]


# Dealer 0, trump hearts named by seat 0; seat 1 leads.
NINE_DUTY = [
    ["AH", "8H", "AS", "AC", "KC", "AD", "KD", "QD", "JD"],
    ["KH", "9H", "7S", "8S", "9S", "7C", "8C", "9C", "7D"],
]


def test_illegal_cards_are_refused_and_change_nothing():
    s = start(NINE_DUTY, "TH", dealer=0)
    act(s, 1, "pass")
    act(s, 0, "play_trump")
    before = s.to_json()
    cases = [
        (0, "play,c=8H", "not_your_turn"),
        (1, "play,c=AS", "card_not_held"),
        (1, "play,c=XX", "bad_card"),
        (1, "pass", "wrong_phase"),
        (1, "play_trump", "wrong_phase"),
    ]
    for seat, code, want in cases:
        with pytest.raises(IllegalAction) as err:
            act(s, seat, code)
        assert err.value.code == want, code
        assert s.to_json() == before
    act(s, 1, "play,c=7S")
    before = s.to_json()
    with pytest.raises(IllegalAction) as err:
        act(s, 0, "play,c=8H")
    assert err.value.code == "must_follow_suit"
    assert s.to_json() == before
    play_cards(s, ["AS"])
    act(s, 0, "play,c=8H")  # seat 0 leads a trump: seat 1 must beat it with the king or the nine
    before = s.to_json()
    with pytest.raises(IllegalAction) as err:
        act(s, 1, "play,c=7C")
    assert err.value.code == "must_follow_suit"
    play_cards(s, ["KH"])  # seat 1 wins and leads the 9 of hearts; seat 0 cannot beat it: the ace is allowed
    play_cards(s, ["9H", "AH"])
    # seat 1 leads clubs after winning; seat 0 follows
    play_cards(s, ["7C", "AC"])
    act(s, 0, "play,c=AD")  # seat 0 leads diamonds; seat 1 has 7D
    play_cards(s, ["7D"])
    act(s, 0, "play,c=KD")  # seat 1 is void in diamonds and trumps: any card
    assert [a.card for a in s.legal_actions(1)] == ["8S", "9S", "8C", "9C"]


def test_a_void_seat_must_trump():
    nine = [
        ["AH", "8H", "AS", "KS", "QS", "JS", "TS", "9S", "8S"],
        ["KH", "9H", "7S", "AC", "KC", "QC", "JC", "TC", "9C"],
    ]
    s = start(nine, "TH", dealer=0)
    act(s, 1, "pass")
    act(s, 0, "play_trump")
    act(s, 1, "play,c=AC")
    before = s.to_json()
    with pytest.raises(IllegalAction) as err:
        act(s, 0, "play,c=AS")
    assert err.value.code == "must_trump"
    assert s.to_json() == before
    assert sorted(a.card for a in s.legal_actions(0)) == ["8H", "AH"]


def test_last_trick_is_worth_ten():
    s = start(NINE_BELLA, "TH", dealer=0)
    act(s, 1, "pass")
    act(s, 0, "play_trump")
    play_cards(s, ["KH", "AH", "JH", "QH", "9H", "7S", "8H", "8S", "AC", "7C", "KC", "8C", "AD", "7D", "AS", "8D"])
    assert s.round_points() == [89, 20]
    events = play_cards(s, ["KS", "TD"])
    last = next(e for e in events if e.type == "last_trick")
    assert last.seat == 0 and last.data == {"points": 10}
    trick = next(e for e in events if e.type == "trick_won")
    assert trick.data["points"] == 14 and trick.data["trick"] == 9
    assert s.sheet[-1]["points"] == [89 + 14 + 10, 20]


def test_not_overtrumping_is_refused_and_changes_nothing():
    s = start(NINE_BELLA, "TH", dealer=0)
    act(s, 1, "pass")
    act(s, 0, "play_trump")
    act(s, 1, "play,c=KH")
    before = s.to_json()
    for card in ("8H", "AC"):
        with pytest.raises(IllegalAction) as err:
            act(s, 0, f"play,c={card}")
        assert err.value.code == ("must_overtrump" if card == "8H" else "must_follow_suit")
        assert s.to_json() == before
    assert sorted(a.card for a in s.legal_actions(0)) == ["9H", "AH", "JH"]
