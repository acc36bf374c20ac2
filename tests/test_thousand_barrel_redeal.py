"""Thousand: bidding on the barrel (both option values), redeals, and refusing bad input without change."""

from __future__ import annotations

import pytest

from core.base import Action, IllegalAction, MalformedAction
from tests.helpers_thousand import act, make_deal, new_state, play_out, to_play, types

ON_BARREL = {"totals": [0, 880, 0], "barrel": [False, True, False]}


def test_barrel_player_without_marriage_may_bid_only_121():
    s = new_state(3, make_deal(3, 0, {}), **ON_BARREL)
    assert [a.value for a in s.legal_actions(1) if a.type == "bid"] == [121]


def test_barrel_player_bids_at_least_121_and_others_outbid_from_125():
    s = new_state(3, make_deal(3, 0, {1: ["KS", "QS"], 2: ["KC", "QC"]}), **ON_BARREL)
    assert s.to_act == 1
    values = [a.value for a in s.legal_actions(1) if a.type == "bid"]
    assert values[0] == 121 and values[1] == 125 and 100 not in values
    with pytest.raises(IllegalAction) as err:
        act(s, 1, "bid", value=120)
    assert err.value.code == "bid_too_low"
    act(s, 1, "bid", value=121)
    assert [a.value for a in s.legal_actions(2) if a.type == "bid"][0] == 125


def test_barrel_player_may_bid_121_after_a_lower_bid():
    s = new_state(3, make_deal(3, 2, {1: ["KS", "QS"]}), dealer=2, **ON_BARREL)
    assert s.to_act == 0
    act(s, 0, "bid", value=100)
    assert [a.value for a in s.legal_actions(1) if a.type == "bid"][:2] == [121, 125]


def test_barrel_player_outbid_scores_nothing_and_uses_an_attempt():
    s = new_state(3, make_deal(3, 0, {2: ["KH", "QH"]}), **ON_BARREL)
    act(s, 1, "bid", value=121)
    act(s, 2, "bid", value=125)
    act(s, 0, "pass")
    act(s, 1, "pass")
    assert s.declarer == 2
    to_play(s)
    play_out(s)
    assert s.totals[1] == 880 and s.barrel_attempts == [0, 1, 0] and s.bolts[1] == 0


def test_no_bidding_on_the_barrel_option_gives_the_talon_at_121():
    s = new_state(3, make_deal(3, 0, {}), options={"bidding_on_barrel": False}, **ON_BARREL)
    assert s.declarer == 1 and s.bid == 121 and s.phase == "give"
    values = [a.value for a in (to_play_values(s))]
    assert values[0] == 121 and all(v == 121 or v % 5 == 0 for v in values)


def to_play_values(s):
    while s.phase == "give":
        act(s, s.declarer, "give", card=s.hands[s.declarer][0], to=s._receivers_left()[0])
    return [a for a in s.legal_actions(s.declarer) if a.type == "contract"]


def test_barrel_declarer_may_not_concede():
    s = new_state(3, make_deal(3, 0, {}), options={"bidding_on_barrel": False}, **ON_BARREL)
    assert "concede" not in types(s.legal_actions(1))
    with pytest.raises(IllegalAction) as err:
        act(s, 1, "concede")
    assert err.value.code == "no_concede_on_barrel"


def test_last_seat_on_the_barrel_plays_121_by_default():
    s = new_state(
        3, make_deal(3, 0, {}), options={"bidding_floor": -100}, totals=[-500, -500, 880], barrel=[False, False, True]
    )
    assert s.declarer == 2 and s.bid == 121


NINES = ["9S", "9C", "9D", "9H"]


def test_redeal_with_four_nines_out_of_turn_before_the_first_action():
    s = new_state(3, make_deal(3, 0, {2: NINES}), options={"redeal": True})
    assert s.to_act == 1
    assert types(s.legal_actions(2)) == ["redeal"]
    events = act(s, 2, "redeal")
    assert events[0].type == "redeal" and events[0].data["reason"] == "four_nines"
    assert s.phase == "round_over" and s.next_dealer == 0  # the same dealer deals again
    assert s.history[-1]["redeal"] is True and s.history[-1]["scores"] == [0, 0, 0]
    assert s.result()["rounds"][-1]["redeal"] is True
    s.next_round_in_place(make_deal(3, 0, {}))
    assert s.dealer == 0


def test_redeal_under_14_points():
    s = new_state(3, make_deal(3, 0, {0: ["9S", "9C", "9D", "JS", "JC", "QH", "KS"]}), options={"redeal": True})
    assert act(s, 0, "redeal")[0].data["reason"] == "under_14"


def test_no_redeal_after_the_first_action_or_without_the_option():
    s = new_state(3, make_deal(3, 0, {2: NINES}), options={"redeal": True})
    act(s, 1, "bid", value=100)
    with pytest.raises(IllegalAction) as err:
        act(s, 2, "redeal")
    assert err.value.code == "no_redeal"
    s = new_state(3, make_deal(3, 0, {2: NINES}))
    assert s.legal_actions(2) == []


def test_declarer_redeal_on_a_talon_of_nines_before_the_first_give():
    s = new_state(
        3,
        make_deal(3, 0, {1: ["AS", "AH", "AC", "AD", "TS", "TH", "TC"]}, talon=["9S", "9C", "9D"]),
        options={"redeal": True},
    )
    act(s, 1, "bid", value=120)
    act(s, 2, "pass")
    act(s, 0, "pass")
    assert "redeal" in types(s.legal_actions(1))
    assert act(s, 1, "redeal")[0].data["reason"] == "talon_nines"


def test_redeal_round_is_not_golden_and_no_barrel_attempt():
    s = new_state(3, make_deal(3, 0, {2: NINES}), options={"redeal": True, "golden_round": True}, **ON_BARREL)
    act(s, 2, "redeal")
    assert s.barrel_attempts == [0, 0, 0] and s.rounds_scored == 0


BAD = [
    (Action(2, "bid", value=100), "not_your_turn"),
    (Action(1, "bid", value=125), "bid_too_high"),
    (Action(1, "bid", value=102), "bid_not_multiple_of_5"),
    (Action(1, "play", card="AS"), "wrong_phase"),
    (Action(1, "fly"), "unknown_action"),
    (Action(7, "pass"), "no_such_seat"),
    (Action(1, "bid"), "malformed_action"),
]


@pytest.mark.parametrize(("action", "code"), BAD)
def test_bad_actions_are_refused_and_change_nothing(action, code):
    s = new_state(3, make_deal(3, 0, {1: ["KS", "QC", "KD", "QH", "AS", "TS", "9S"]}))
    before = s.to_json()
    with pytest.raises(IllegalAction) as err:
        s.apply_in_place(action)
    assert err.value.code == code
    assert s.to_json() == before


def test_give_to_oneself_or_twice_is_refused():
    s = new_state(3, make_deal(3, 0, {}))
    act(s, 1, "bid", value=100)
    act(s, 2, "pass")
    act(s, 0, "pass")
    before = s.to_json()
    for fields, code in (
        ({"card": s.hands[1][0], "to": 1}, "give_to_self"),
        ({"card": s.hands[0][0], "to": 2}, "card_not_held"),
        ({"card": s.hands[1][0]}, "malformed_action"),
    ):
        with pytest.raises(IllegalAction) as err:
            act(s, 1, "give", **fields)
        assert err.value.code == code
    assert s.to_json() == before
    act(s, 1, "give", card=s.hands[1][0], to=2)
    with pytest.raises(IllegalAction) as err:
        act(s, 1, "give", card=s.hands[1][0], to=2)
    assert err.value.code == "already_given"


def test_apply_returns_a_new_state_and_leaves_the_old_one():
    s = new_state(3, make_deal(3, 0, {}))
    before = s.to_json()
    s2, events = s.apply(Action(1, "bid", value=100))
    assert s.to_json() == before and s2.bid == 100 and events[0].type == "bid"
    with pytest.raises(IllegalAction):
        s.apply(Action(1, "bid", value=99))
    assert s.to_json() == before


def test_action_codes_round_trip_and_garbage_is_malformed():
    for a in (Action(1, "bid", value=105), Action(0, "give", card="QS", to=2), Action(2, "concede")):
        assert Action.parse(a.seat, a.code()) == a
        assert Action.from_json(a.to_json()) == a
    for junk in ("", "bid,v=x", "bid,zz=1", "b!d", "x" * 100, "bid,v=1,v=2"):
        with pytest.raises(MalformedAction):
            Action.parse(0, junk)
    for junk in ({"seat": "1", "type": "pass"}, {"seat": 1}, {"seat": 1, "type": "bid", "value": "100"}, [1]):
        with pytest.raises(MalformedAction):
            Action.from_json(junk)


def test_two_players_redeal_when_the_bidding_closed_by_itself():
    # seat 1 is below the floor and passes automatically: seat 0 plays 100 and must choose a talon,
    # no action was taken yet, so a qualifying seat (here seat 1, four nines) may still call a redeal
    s = new_state(
        2, make_deal(2, 1, {1: NINES}), dealer=1, options={"redeal": True, "bidding_floor": -100}, totals=[0, -105]
    )
    assert s.phase == "talon" and s.declarer == 0 and s.bid == 100
    assert types(s.legal_actions(1)) == ["redeal"]
    assert act(s, 1, "redeal")[0].data["reason"] == "four_nines"
    assert s.phase == "round_over" and s.next_dealer == 1 and s.totals == [0, -105]


def test_two_players_barrel_talon_at_121_still_allows_a_redeal():
    s = new_state(
        2,
        make_deal(2, 1, {0: NINES}),
        dealer=1,
        options={"redeal": True, "bidding_on_barrel": False},
        totals=[0, 880],
        barrel=[False, True],
    )
    assert s.phase == "talon" and s.declarer == 1 and s.bid == 121
    assert types(s.legal_actions(0)) == ["redeal"]
    act(s, 1, "take_talon", index=0)
    assert "redeal" not in types(s.legal_actions(0))  # after the first action it is too late
