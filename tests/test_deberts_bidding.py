"""Deberts bidding: both circles, the all-pass redeal, obligatory order and the seven swap."""

from __future__ import annotations

import pytest

from core.base import Action, IllegalAction
from core.deberts import RULES
from tests.deberts_support import act, start, types

# Two players, dealer 0: seat 1 speaks first and leads.
NINE_2P = [
    ["AS", "KS", "QS", "8C", "9C", "TD", "7H", "8H", "JD"],
    ["JS", "9S", "TS", "AC", "KC", "AD", "KD", "9H", "QH"],
]


def test_first_circle_accepts_the_open_suit_and_deals_the_extra_cards():
    s = start(NINE_2P, "7S", dealer=0)
    assert s.phase == "bidding" and s.to_act == 1 and s.circle == 1
    assert [a.type for a in s.legal_actions(1)] == ["play_trump", "pass"]
    assert s.legal_actions(0) == []
    act(s, 1, "pass")
    assert s.to_act == 0 and s.bids == [None, "pass"]
    events = act(s, 0, "play_trump")
    assert types(events)[:2] == ["trump_named", "extra_dealt"]
    assert events[0].data == {"suit": "S", "circle": 1} and events[0].seat == 0
    assert events[1].data["bottom"] == s.bottom and s.bottom is not None
    assert s.trump == "S" and s.declarer == 0
    assert [len(h) for h in s.hands] == [9, 9]
    assert s.phase == "play" and s.to_act == 1  # the seat left of the dealer leads
    assert s.view(None)["bottom_card"] == s.bottom
    assert s.view(None)["stock_count"] == 32 - 18


def test_second_circle_names_another_suit():
    s = start(NINE_2P, "7S", dealer=0)
    act(s, 1, "pass")
    act(s, 0, "pass")
    assert s.circle == 2 and s.to_act == 1 and s.bids == [None, None]
    legal = s.legal_actions(1)
    assert {a.suit for a in legal if a.type == "name_suit"} == {"C", "D", "H"}
    assert Action(1, "pass") in legal
    act(s, 1, "pass")
    events = act(s, 0, "name_suit,s=H")
    assert events[0].type == "trump_named" and events[0].data == {"suit": "H", "circle": 2}
    assert s.trump == "H" and s.declarer == 0 and s.phase == "play"
    assert s.view(0)["bids"] == ["H", "pass"] and s.view(0)["circle"] == 2


def test_three_players_speak_from_the_dealers_left_and_end_with_the_dealer():
    nine = [
        ["AS", "KS", "QS", "8C", "9C", "TD", "7H", "8H", "JD"],
        ["JS", "9S", "TS", "AC", "KC", "AD", "KD", "9H", "QH"],
        ["7S", "8S", "TC", "JC", "QC", "QD", "9D", "8D", "JH"],
    ]
    s = start(nine, "7D", dealer=1)
    order = []
    for _ in range(3):
        order.append(s.to_act)
        act(s, s.to_act, "pass")
    assert order == [2, 0, 1] and s.circle == 2
    act(s, 2, "pass")
    act(s, 0, "name_suit,s=C")
    assert s.declarer == 0 and s.trump == "C" and s.to_act == 2


def test_open_suit_refused_in_the_second_circle_and_name_suit_refused_in_the_first():
    s = start(NINE_2P, "7S", dealer=0)
    with pytest.raises(IllegalAction) as err:
        act(s, 1, "name_suit,s=H")
    assert err.value.code == "wrong_circle"
    act(s, 1, "pass")
    act(s, 0, "pass")
    before = s.to_json()
    with pytest.raises(IllegalAction) as err:
        act(s, 1, "name_suit,s=S")
    assert err.value.code == "open_suit_in_second_circle"
    with pytest.raises(IllegalAction) as err:
        act(s, 1, "play_trump")
    assert err.value.code == "wrong_circle"
    with pytest.raises(IllegalAction) as err:
        act(s, 1, "name_suit,s=X")
    assert err.value.code == "bad_suit"
    assert s.to_json() == before


def test_all_pass_twice_is_a_redeal_by_the_next_player():
    s = start(NINE_2P, "7S", dealer=0)
    for seat in (1, 0, 1):
        act(s, seat, "pass")
    events = act(s, 0, "pass")
    assert types(events) == ["pass", "all_passed"]
    assert events[-1].data == {"next_dealer": 1}
    assert s.phase == "round_over" and s.to_act is None
    assert s.result()["rounds"] == [{"scores": [0, 0], "totals": [0, 0], "redeal": True}]
    assert s.sheet[-1]["result"] is None and s.sheet[-1]["declarer"] is None
    s.next_round_in_place()
    assert s.dealer == 1 and s.to_act == 0 and s.round == 2


def test_redeal_in_three_players_passes_the_deal_to_the_left():
    s = RULES.new_game(3, seed=5, first_dealer=2)
    for _ in range(6):
        act(s, s.to_act, "pass")
    assert s.phase == "round_over" and s.next_dealer == 0
    s.next_round_in_place()
    assert s.dealer == 0 and s.to_act == 1


def test_obligatory_order_makes_the_dealer_name_a_suit():
    s = start(NINE_2P, "7S", dealer=0, options={"obligatory_order": True})
    act(s, 1, "pass")
    act(s, 0, "pass")  # the dealer may still pass in the first circle
    act(s, 1, "pass")  # others may pass in the second
    legal = s.legal_actions(0)
    assert [a.type for a in legal] == ["name_suit"] * 3
    before = s.to_json()
    with pytest.raises(IllegalAction) as err:
        act(s, 0, "pass")
    assert err.value.code == "must_name_suit"
    assert s.to_json() == before
    act(s, 0, "name_suit,s=D")
    assert s.declarer == 0 and s.trump == "D"


def test_without_obligatory_order_the_dealer_may_pass_the_second_circle():
    s = start(NINE_2P, "7S", dealer=0)
    for seat in (1, 0, 1):
        act(s, seat, "pass")
    assert Action(0, "pass") in s.legal_actions(0)


# --- the seven swap -----------------------------------------------------------------------------------
# Seat 1 (first to speak) holds the 7 of hearts among its nine; the open card is the 9 of hearts.
NINE_SWAP = [
    ["AS", "QS", "7S", "8C", "9C", "TD", "JD", "KD", "8H"],
    ["JS", "9S", "8S", "AC", "KC", "AD", "7H", "JH", "TH"],
]


def test_seven_swap_allowed_gives_the_open_card_and_runs_use_it():
    s = start(NINE_SWAP, "9H", dealer=0)
    act(s, 1, "play_trump")
    assert s.phase == "swap" and s.to_act == 1
    assert [a.type for a in s.legal_actions(1)] == ["swap_seven", "pass"]
    events = act(s, 1, "swap_seven")
    assert events[0].type == "seven_swapped" and events[0].data == {"seven": "7H", "open": "9H"}
    assert "9H" in s.hands[1] and "7H" not in s.hands[1]
    assert s.view(0)["open_card"] == {"card": "9H", "shown": "7H", "swapped": True}
    # 9H TH JH is a trump terz only after the swap
    runs = s.view(None)["runs"]
    assert runs["scorer"] == 1 and runs["by_seat"][1][0]["cards"] == ["JH", "TH", "9H"]
    assert s.phase == "play" and s.to_act == 1


def test_seven_swap_declined_keeps_the_seven():
    s = start(NINE_SWAP, "9H", dealer=0)
    act(s, 1, "play_trump")
    events = act(s, 1, "pass")
    assert events[0].type == "seven_kept"
    assert "7H" in s.hands[1] and s.shown == "9H" and not s.swapped
    assert s.runs is None  # J 10 7 of hearts is no run
    with pytest.raises(IllegalAction) as err:
        act(s, 1, "swap_seven")
    assert err.value.code == "swap_too_late"


def test_seven_swap_off_by_option():
    s = start(NINE_SWAP, "9H", dealer=0, options={"seven_swap": False})
    act(s, 1, "play_trump")
    assert s.phase == "play"
    with pytest.raises(IllegalAction) as err:
        act(s, 1, "swap_seven")
    assert err.value.code == "seven_swap_off"


def test_seven_swap_refused_without_the_seven_or_another_trump():
    s = start(NINE_SWAP, "9H", dealer=0)
    act(s, 1, "pass")
    act(s, 0, "play_trump")  # seat 0 does not hold the 7 of hearts: no swap phase
    assert s.phase == "play" and s.to_act == 1
    before = s.to_json()
    with pytest.raises(IllegalAction) as err:
        act(s, 0, "swap_seven")
    assert err.value.code == "no_trump_seven"
    with pytest.raises(IllegalAction) as err:
        act(s, 1, "swap_seven")  # holds the seven but is not the declarer
    assert err.value.code == "not_declarer"
    assert s.to_json() == before
    s2 = start(NINE_SWAP, "9H", dealer=0)
    act(s2, 1, "pass")
    act(s2, 0, "pass")
    act(s2, 1, "name_suit,s=S")  # trump named in the second circle: never a swap
    assert s2.phase == "play"
    with pytest.raises(IllegalAction) as err:
        act(s2, 1, "swap_seven")
    assert err.value.code == "not_open_suit"


def test_swap_seven_during_bidding_is_refused():
    s = start(NINE_SWAP, "9H", dealer=0)
    with pytest.raises(IllegalAction) as err:
        act(s, 1, "swap_seven")
    assert err.value.code == "wrong_phase"


def test_malformed_and_unknown_actions_are_refused():
    from core.base import MalformedAction

    s = start(NINE_2P, "7S", dealer=0)
    before = s.to_json()
    for action, code in (
        (Action(1, "name_suit"), "malformed_action"),
        (Action(1, "play"), "malformed_action"),
        (Action(1, "play_trump", suit="S"), "malformed_action"),
        (Action(1, "bid", value=100), "unknown_action"),
    ):
        with pytest.raises(MalformedAction) as err:
            s.apply_in_place(action)
        assert err.value.code == code
    with pytest.raises(IllegalAction) as err:
        s.apply_in_place(Action(5, "pass"))
    assert err.value.code == "bad_seat"
    assert s.to_json() == before
    assert [a.code() for a in s.legal_actions(1)] == ["play_trump", "pass"]
    assert Action.parse(1, "name_suit,s=H") == Action(1, "name_suit", suit="H")
