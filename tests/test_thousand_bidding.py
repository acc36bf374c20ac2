"""Thousand bidding, talon and discards, contract and concede: one test per rule and per option value."""

from __future__ import annotations

import pytest

from core.base import IllegalAction
from tests.game_texts import describer
from tests.helpers_thousand import act, make_deal, new_state, to_play, types

NO_MARRIAGE = ["KS", "QC", "KD", "QH", "AS", "TS", "9S"]


def bid_values(state, seat):
    return [a.value for a in state.legal_actions(seat) if a.type == "bid"]


def test_bidding_cap_without_marriage_is_120():
    s = new_state(3, make_deal(3, 0, {1: NO_MARRIAGE}))
    assert s.phase == "bidding" and s.to_act == 1
    assert bid_values(s, 1)[0] == 100 and bid_values(s, 1)[-1] == 120
    with pytest.raises(IllegalAction) as err:
        act(s, 1, "bid", value=125)
    assert err.value.code == "bid_too_high"


@pytest.mark.parametrize(
    ("cards", "cap"),
    [
        (["KS", "QS"], 160),
        (["KC", "QC"], 180),
        (["KD", "QD"], 200),
        (["KH", "QH"], 220),
        (["KH", "QH", "KS", "QS"], 260),
    ],
)
def test_bidding_cap_is_120_plus_marriages_in_hand(cards, cap):
    s = new_state(3, make_deal(3, 0, {1: cards + ["9C", "9D"]}))
    assert bid_values(s, 1)[-1] == cap
    act(s, 1, "bid", value=cap)
    assert s.bid == cap


def test_ace_marriage_counts_toward_the_cap_only_with_the_option():
    aces = ["AS", "AC", "AD", "AH", "9C", "9D", "9S"]
    assert bid_values(new_state(3, make_deal(3, 0, {1: aces})), 1)[-1] == 120
    assert bid_values(new_state(3, make_deal(3, 0, {1: aces}), options={"ace_marriage": True}), 1)[-1] == 320


def test_first_hand_must_open_with_at_least_100():
    s = new_state(3, make_deal(3, 0, {}))
    assert s.to_act == 1  # left of the dealer
    assert "pass" not in types(s.legal_actions(1))
    before = s.to_json()
    with pytest.raises(IllegalAction) as err:
        act(s, 1, "pass")
    assert err.value.code == "must_open"
    with pytest.raises(IllegalAction) as err:
        act(s, 1, "bid", value=95)
    assert err.value.code == "bid_too_low"
    assert s.to_json() == before


def test_bids_are_multiples_of_five_and_may_jump():
    s = new_state(3, make_deal(3, 0, {}))
    act(s, 1, "bid", value=100)
    with pytest.raises(IllegalAction) as err:
        act(s, 2, "bid", value=103)
    assert err.value.code == "bid_not_multiple_of_5"
    with pytest.raises(IllegalAction) as err:
        act(s, 2, "bid", value=100)
    assert err.value.code == "bid_too_low"
    act(s, 2, "bid", value=120)  # any higher amount, not only +5
    assert s.bid == 120 and s.to_act == 0


def test_a_pass_is_final_and_the_last_bidder_left_wins():
    s = new_state(3, make_deal(3, 0, {}))
    act(s, 1, "bid", value=100)
    act(s, 2, "bid", value=105)
    act(s, 0, "pass")
    assert s.to_act == 1
    act(s, 1, "bid", value=110)
    assert s.to_act == 2  # seat 0 passed for good
    act(s, 2, "pass")
    assert s.declarer == 1 and s.bid == 110 and s.phase == "give"


def test_sitting_on_a_hundred_hides_the_talon_by_default():
    talon = ["AH", "TH", "KH"]
    s = new_state(3, make_deal(3, 0, {}, talon=talon))
    act(s, 1, "bid", value=100)
    act(s, 2, "pass")
    events = act(s, 0, "pass")
    assert "talon_hidden" in types(events) and "talon_shown" not in types(events)
    assert s.view(None)["talons"][0]["cards"] is None
    assert s.view(2)["talons"][0]["cards"] is None
    assert s.view(1)["talons"][0]["cards"] == talon  # the declarer knows what he took
    assert s.view(None)["on_hundred"] is True


def test_show_talon_on_100_option_shows_it():
    talon = ["AH", "TH", "KH"]
    s = new_state(3, make_deal(3, 0, {}, talon=talon), options={"show_talon_on_100": True})
    act(s, 1, "bid", value=100)
    act(s, 2, "pass")
    events = act(s, 0, "pass")
    shown = [e for e in events if e.type == "talon_shown"]
    assert shown and shown[0].data["cards"] == talon
    assert s.view(None)["talons"][0]["cards"] == talon


def test_talon_is_shown_when_the_bid_is_above_100():
    talon = ["AH", "TH", "KH"]
    s = new_state(3, make_deal(3, 0, {}, talon=talon))
    act(s, 1, "bid", value=105)
    act(s, 2, "pass")
    events = act(s, 0, "pass")
    assert [e.data["cards"] for e in events if e.type == "talon_shown"] == [talon]
    assert s.view(2)["talons"][0]["cards"] == talon


def test_three_players_declarer_gives_one_card_to_each_other_player():
    s = new_state(3, make_deal(3, 0, {}))
    act(s, 1, "bid", value=100)
    act(s, 2, "pass")
    act(s, 0, "pass")
    assert len(s.hands[1]) == 10
    gives = [a for a in s.legal_actions(1) if a.type == "give"]
    assert {a.to for a in gives} == {0, 2}
    card = s.hands[1][0]
    act(s, 1, "give", card=card, to=2)
    assert card in s.hands[2] and s.view(2)["given"] == [{"card": card, "from": 1, "to": 2}]
    assert s.view(0)["given"] == []  # seat 0 does not see what seat 2 got
    assert {a.to for a in s.legal_actions(1) if a.type == "give"} == {0}
    act(s, 1, "give", card=s.hands[1][0], to=0)
    assert s.phase == "contract"
    assert [len(h) for h in s.hands] == [8, 8, 8]


def test_two_players_choose_a_talon_and_give_one_card():
    talons = [["AH", "TH"], ["9S", "9C"]]
    s = new_state(2, make_deal(2, 0, {}, talons=talons))
    act(s, 1, "bid", value=100)
    act(s, 0, "bid", value=105)
    act(s, 1, "pass")
    assert s.phase == "talon" and s.to_act == 0
    assert [a.index for a in s.legal_actions(0)] == [0, 1]
    events = act(s, 0, "take_talon", index=0)
    assert events[0].type == "talon_shown" and events[0].data["cards"] == ["AH", "TH"]
    view = s.view(1)
    assert view["talons"] == [{"count": 0, "cards": ["AH", "TH"]}, {"count": 2, "cards": None}]
    assert {a.to for a in s.legal_actions(0) if a.type == "give"} == {1}
    act(s, 0, "give", card="AH", to=1)
    assert s.phase == "contract" and [len(h) for h in s.hands] == [11, 11]


def test_four_players_dealer_sits_out_and_declarer_gives_two_cards():
    s = new_state(4, make_deal(4, 2, {}), dealer=2)
    assert s.sitting_out == 2 and s.active == [0, 1, 3]
    assert s.to_act == 3  # left of the sitting-out dealer
    assert s.legal_actions(2) == []
    act(s, 3, "bid", value=100)
    act(s, 0, "pass")
    act(s, 1, "pass")
    assert s.declarer == 3
    assert {a.to for a in s.legal_actions(3) if a.type == "give"} == {0, 1}
    with pytest.raises(IllegalAction) as err:
        act(s, 3, "give", card=s.hands[3][0], to=2)
    assert err.value.code == "not_active"
    to_play(s)
    assert [len(h) for h in s.hands] == [8, 8, 0, 8]


def test_contract_bounds():
    s = new_state(3, make_deal(3, 0, {1: ["KH", "QH"]}))
    act(s, 1, "bid", value=110)
    act(s, 2, "pass")
    act(s, 0, "pass")
    for card, to in ((s.hands[1][-1], 2), (s.hands[1][-2], 0)):
        act(s, 1, "give", card=card, to=to)
    values = [a.value for a in s.legal_actions(1) if a.type == "contract"]
    assert values[0] == 110 and values[-1] == 220 and all(v % 5 == 0 for v in values)
    for value, code in ((105, "contract_below_bid"), (117, "contract_not_multiple_of_5"), (225, "contract_too_high")):
        with pytest.raises(IllegalAction) as err:
            act(s, 1, "contract", value=value)
        assert err.value.code == code
    act(s, 1, "contract", value=150)
    assert s.contract == 150 and s.phase == "play" and s.to_act == 1


def test_contract_may_equal_the_bid_after_giving_a_marriage_card_away():
    s = new_state(3, make_deal(3, 0, {1: ["KH", "QH"]}))
    act(s, 1, "bid", value=200)
    act(s, 2, "pass")
    act(s, 0, "pass")
    act(s, 1, "give", card="QH", to=2)
    act(s, 1, "give", card=s.hands[1][-1], to=0)
    assert [a.value for a in s.legal_actions(1) if a.type == "contract"] == [200]
    with pytest.raises(IllegalAction):
        act(s, 1, "contract", value=205)
    act(s, 1, "contract", value=200)
    assert s.contract == 200


def _declarer_at(s, bid=110):
    act(s, 1, "bid", value=bid)
    act(s, 2, "pass")
    act(s, 0, "pass")


def test_concede_with_penalty_loses_the_bid_and_gives_half_the_contract():
    s = new_state(3, make_deal(3, 0, {}))
    _declarer_at(s, 110)
    to_play(s, contract=115)
    events = act(s, 1, "concede")
    assert "conceded" in types(events)
    assert s.phase == "round_over"
    assert s.totals == [60, -110, 60]  # half of 115 rounded up to a multiple of 5
    assert s.bolts == [0, 0, 0]  # a concede gives the defenders no bolt


def test_concede_without_penalty_gives_a_bolt_instead():
    s = new_state(3, make_deal(3, 0, {}), options={"concede_penalty": False})
    _declarer_at(s, 110)
    act(s, 1, "concede")  # before the gives: the contract is the bid
    assert s.totals == [55, 0, 55]
    assert s.bolts == [0, 1, 0]


def test_concede_only_before_the_first_lead():
    s = new_state(3, make_deal(3, 0, {}))
    _declarer_at(s)
    to_play(s)
    assert "concede" in types(s.legal_actions(1))
    act(s, 1, "play", card=s.hands[1][0])
    assert "concede" not in types(s.legal_actions(1))
    seat = s.to_act
    before = s.to_json()
    with pytest.raises(IllegalAction) as err:
        act(s, seat, "concede")
    assert err.value.code in ("not_your_turn", "too_late_to_concede")
    assert s.to_json() == before


def test_may_concede_option_off_forbids_conceding():
    s = new_state(3, make_deal(3, 0, {}), options={"may_concede": False})
    _declarer_at(s)
    assert "concede" not in types(s.legal_actions(1))
    with pytest.raises(IllegalAction) as err:
        act(s, 1, "concede")
    assert err.value.code == "no_concede"


def test_bidding_floor_passes_automatically():
    s = new_state(3, make_deal(3, 0, {}), options={"bidding_floor": -200}, totals=[0, -250, 0])
    assert s.bids[1] == "pass" and s.to_act == 2  # the floor applies to the first hand too
    act(s, 2, "pass")
    assert s.declarer == 0 and s.bid == 100  # the last seat left plays a hundred


def test_bidding_floor_default_minus_1000_lets_minus_900_bid():
    s = new_state(3, make_deal(3, 0, {}), totals=[0, -900, 0])
    assert s.to_act == 1 and "bid" in types(s.legal_actions(1))


def test_everybody_below_the_floor_first_hand_plays_100():
    s = new_state(3, make_deal(3, 0, {}), options={"bidding_floor": -100}, totals=[-500, -500, -500])
    assert s.declarer == 1 and s.bid == 100 and s.phase == "give"


@pytest.mark.parametrize(("players", "dealer", "first"), [(2, 0, 1), (3, 2, 0), (4, 1, 2)])
def test_every_seat_below_the_floor_the_chat_never_shows_the_first_hand_passing(players, dealer, first):
    from core.thousand import RULES

    describe = describer("thousand")

    s = RULES.new_game(players, {"bidding_floor": -300}, seed=0, first_dealer=dealer, start=False)
    s.totals = [-400] * players
    events = s.next_round_in_place(make_deal(players, dealer, {}))
    others = [seat for seat in s.active if seat != first]
    assert [(e.type, e.seat) for e in events if e.type in ("auto_pass", "pass", "plays_by_default")] == [
        *(("auto_pass", seat) for seat in others),
        ("plays_by_default", first),
    ]
    names = ["Ann", "Bob", "Cy", "Dee"]
    chat = " ".join(describe(e, "en", names) for e in events)
    assert f"{names[first]} is below" not in chat and f"{names[first]} passes" not in chat
    assert f"Nobody else may bid: {names[first]} plays 100." in chat
    assert s.bids[first] == 100 and s.bids.count("pass") == len(others)


@pytest.mark.parametrize("floor", [-1000, -300, -200, -100])
def test_every_bidding_floor_value(floor):
    below, above = floor - 5, floor
    s = new_state(3, make_deal(3, 0, {}), options={"bidding_floor": floor}, totals=[0, below, above])
    assert s.bids[1] == "pass" and s.bids[2] is None and s.to_act == 2


def test_options_are_typed_with_defaults_and_clear_errors():
    from core.base import OptionsError
    from core.thousand import RULES

    opts = RULES.options(3, {})
    assert opts.bidding_floor == -1000 and opts.may_concede is True and opts.golden_round is False
    with pytest.raises(OptionsError, match="unknown option 'golden'"):
        RULES.options(3, {"golden": True})
    with pytest.raises(OptionsError, match="must be one of -1000, -300, -200, -100"):
        RULES.options(3, {"bidding_floor": -500})
    with pytest.raises(OptionsError, match="must be one of false, true"):
        RULES.options(3, {"dump_truck": 1})
    with pytest.raises(OptionsError, match="2 to 4 players"):
        RULES.new_game(5)
    menu = {o["name"]: o for o in RULES.options_type.describe(3)}
    assert len(menu) == 12 and menu["bidding_on_barrel"]["default"] is True


@pytest.mark.parametrize(("players", "dealer", "first"), [(2, 0, 1), (3, 2, 0), (4, 1, 2)])
def test_every_seat_below_the_floor_the_first_hand_plays_100_in_every_seat_count(players, dealer, first):
    s = new_state(
        players, make_deal(players, dealer, {}), dealer=dealer, options={"bidding_floor": -300}, totals=[-400] * players
    )
    assert s.declarer == first and s.bid == 100 and s.round_actions == 0
    assert s.phase == ("talon" if players == 2 else "give")
    assert [e for e in s.bids if e == "pass"] == ["pass"] * (len(s.active) - 1)
