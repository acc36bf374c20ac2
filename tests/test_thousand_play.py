"""Thousand card play: marriages, trumps, following, trick winners, the round's card points."""

from __future__ import annotations

import pytest

from core.base import IllegalAction
from tests.helpers_thousand import act, make_deal, new_state, play_out, types

# Seat 1 (first hand, dealer 0) holds both red marriages and high hearts; the talon gives him low cards.
MARRIAGES = ["AS", "KH", "QH", "AH", "TH", "KD", "QD"]
TALON = ["9S", "9C", "JS"]


def declarer_in_play(options=None, hand=MARRIAGES, talon=TALON, bid=100):
    s = new_state(3, make_deal(3, 0, {1: hand}, talon=talon), options=options)
    act(s, 1, "bid", value=bid)
    act(s, 2, "pass")
    act(s, 0, "pass")
    act(s, 1, "give", card=talon[0], to=2)
    act(s, 1, "give", card=talon[1], to=0)
    act(s, 1, "contract", value=bid)
    return s


def finish_trick(s):
    while s.trick:
        seat = s.to_act
        s.apply_in_place(next(a for a in s.legal_actions(seat) if a.type == "play"))


def test_no_trump_until_the_first_marriage_and_none_on_trick_one():
    s = declarer_in_play()
    assert s.trump is None
    events = act(s, 1, "play", card="KH")  # K lead holding Q on trick 1: an ordinary lead
    assert "marriage" not in types(events)
    assert s.trump is None and s.marriages == []


def test_marriage_declared_on_a_later_lead_scores_and_sets_trump():
    s = declarer_in_play()
    act(s, 1, "play", card="AS")
    finish_trick(s)
    assert s.to_act == 1  # the ace of spades won: no trump yet
    events = act(s, 1, "play", card="KH")
    marriage = [e for e in events if e.type == "marriage"]
    assert marriage and marriage[0].data == {"suit": "H", "points": 100, "trump": "H", "ace": False}
    assert s.trump == "H"
    assert s.view(None)["round_points"][1] >= 100


def test_second_marriage_changes_the_trump():
    s = declarer_in_play()
    act(s, 1, "play", card="AS")
    finish_trick(s)
    act(s, 1, "play", card="QH")  # the queen declares too
    finish_trick(s)
    assert s.trump == "H" and s.to_act == 1  # nobody holds a heart above the queen but seat 1
    events = act(s, 1, "play", card="KD")
    assert [e.data["suit"] for e in events if e.type == "marriage"] == ["D"]
    assert s.trump == "D"
    assert [(m["suit"], m["points"]) for m in s.marriages] == [("H", 100), ("D", 80)]


def test_ace_marriage_with_the_option():
    hand = ["AS", "AC", "AD", "AH", "TS", "9H", "9D"]
    s = declarer_in_play({"ace_marriage": True}, hand=hand)
    assert "marriage" not in types(act(s, 1, "play", card="TS"))  # only the ace of spades beats it
    finish_trick(s)
    assert s.to_act == 1
    events = act(s, 1, "play", card="AH")
    assert [(e.data["points"], e.data["ace"]) for e in events if e.type == "marriage"] == [(200, True)]
    assert s.trump == "H"


def test_four_aces_are_no_marriage_without_the_option():
    hand = ["AS", "AC", "AD", "AH", "TS", "9H", "9D"]
    s = declarer_in_play(hand=hand)
    act(s, 1, "play", card="TS")
    finish_trick(s)
    assert "marriage" not in types(act(s, 1, "play", card="AH"))


def _position(s, trump, trick, hands):
    """Put the play phase into a chosen position (state is plain data)."""
    s.trump = trump
    s.trick = [list(x) for x in trick]
    s.tricks_done = 1
    for seat, hand in hands.items():
        s.hands[seat] = hand
    s.turn = (trick[-1][0] + 1) % 3


def test_must_follow_suit_but_need_not_beat():
    s = declarer_in_play()
    _position(s, None, [[1, "KS"]], {2: ["AS", "9S", "AH"], 0: ["9C"]})
    assert sorted(a.card for a in s.legal_actions(2)) == ["9S", "AS"]
    with pytest.raises(IllegalAction) as err:
        act(s, 2, "play", card="AH")
    assert err.value.code == "must_follow_suit"
    act(s, 2, "play", card="9S")  # no duty to beat the king


def test_void_must_play_a_trump():
    s = declarer_in_play()
    _position(s, "H", [[1, "KS"]], {2: ["9H", "AC", "TD"], 0: ["9C"]})
    assert [a.card for a in s.legal_actions(2)] == ["9H"]
    with pytest.raises(IllegalAction) as err:
        act(s, 2, "play", card="AC")
    assert err.value.code == "must_trump"


def test_void_without_trump_plays_anything():
    s = declarer_in_play()
    _position(s, "H", [[1, "KS"]], {2: ["AC", "TD"], 0: ["9C"]})
    assert sorted(a.card for a in s.legal_actions(2)) == ["AC", "TD"]
    _position(s, None, [[1, "KS"]], {2: ["9H", "AC"], 0: ["9C"]})  # no trump yet: anything
    assert sorted(a.card for a in s.legal_actions(2)) == ["9H", "AC"]


@pytest.mark.parametrize(
    ("trump", "cards", "winner"),
    [
        (None, ["KS", "AS", "TS"], 1),  # highest of the led suit
        (None, ["KS", "AH", "9S"], 0),  # an off-suit ace does not win without trump
        ("H", ["KS", "9H", "AS"], 1),  # any trump beats the led suit
        ("H", ["KS", "9H", "TH"], 2),  # highest trump
        ("H", ["TH", "AS", "9H"], 0),  # trump led: highest trump
    ],
)
def test_trick_winner(trump, cards, winner):
    s = declarer_in_play()
    _position(s, trump, [[1, cards[0]], [2, cards[1]]], {0: [cards[2]], 1: ["9C"], 2: ["9D"]})
    s.turn = 0
    events = act(s, 0, "play", card=cards[2])
    won = [e for e in events if e.type == "trick_won"]
    winner_seat = [1, 2, 0][winner]  # position in play order -> seat
    assert won[0].seat == winner_seat and s.to_act == winner_seat


def test_card_points_of_a_round_sum_to_120():
    s = declarer_in_play()
    events = play_out(s)
    assert s.phase == "round_over"
    assert sum(e.data["points"] for e in events if e.type == "trick_won") == 120
    scored = [e for e in events if e.type == "round_scored"][0]
    marriages = sum(m["points"] for m in s.marriages)
    assert sum(scored.data["points"]) == 120 + marriages


def test_two_players_second_talon_counts_for_nobody_by_default():
    talons = [["9H", "9D"], ["AH", "TH"]]
    s = new_state(2, make_deal(2, 0, {}, talons=talons))
    act(s, 1, "bid", value=100)
    act(s, 0, "pass")
    act(s, 1, "take_talon", index=0)
    act(s, 1, "give", card="9H", to=0)
    act(s, 1, "contract", value=100)
    events = play_out(s)
    assert sum(e.data["points"] for e in events if e.type == "trick_won") == 120 - 21
    assert sum(s.history[-1]["points"]) == 99 + sum(m["points"] for m in s.marriages)


def test_two_players_second_talon_to_last_trick_option():
    talons = [["9H", "9D"], ["KS", "QS"]]  # a K+Q in the unused talon is no marriage
    s = new_state(2, make_deal(2, 0, {}, talons=talons), options={"second_talon_to_last_trick": True})
    act(s, 1, "bid", value=100)
    act(s, 0, "pass")
    act(s, 1, "take_talon", index=0)
    act(s, 1, "give", card="9H", to=0)
    act(s, 1, "contract", value=100)
    events = play_out(s)
    last = [e for e in events if e.type == "trick_won"][-1].seat
    marriages = [0, 0]
    for m in s.marriages:
        marriages[m["seat"]] += m["points"]
    trick_points = [0, 0]
    for e in events:
        if e.type == "trick_won":
            trick_points[e.seat] += e.data["points"]
    expected = [trick_points[i] + marriages[i] + (7 if i == last else 0) for i in range(2)]
    assert s.history[-1]["points"] == expected


def test_four_players_dealer_scores_the_talon_rounded_plus_its_marriage():
    talon = ["KH", "QH", "9S"]  # 7 card points -> 5, plus the heart marriage 100
    s = new_state(4, make_deal(4, 0, {}, talon=talon), dealer=0)
    act(s, 1, "bid", value=100)
    act(s, 2, "pass")
    act(s, 3, "pass")
    assert s.view(None)["talons"][0]["cards"] is None  # on a hundred
    act(s, 1, "give", card="9S", to=2)
    act(s, 1, "give", card="KH", to=3)
    act(s, 1, "contract", value=100)
    play_out(s)
    assert s.history[-1]["scores"][0] == 105
    assert s.bolts[0] == 0


def test_legal_actions_only_for_the_seat_to_act():
    s = declarer_in_play()
    for seat in range(3):
        acts = s.legal_actions(seat)
        assert bool(acts) == (seat == s.to_act)


def test_playing_out_of_turn_or_a_card_not_held_changes_nothing():
    s = declarer_in_play()
    before = s.to_json()
    with pytest.raises(IllegalAction) as err:
        act(s, 2, "play", card=s.hands[2][0])
    assert err.value.code == "not_your_turn"
    with pytest.raises(IllegalAction) as err:
        act(s, 1, "play", card=s.hands[2][0])
    assert err.value.code == "card_not_held"
    assert s.to_json() == before
