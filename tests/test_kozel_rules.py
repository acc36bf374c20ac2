"""Kozel play rules: first lead, drawing, knocking, fish, going out, redeal, game end, illegal actions."""

from __future__ import annotations

import pytest

from core.base import Action, IllegalAction, MalformedAction
from core.kozel import RULES
from core.kozel.chain import is_fish
from core.kozel.tiles import FIRST_LEAD_ORDER, TILES
from core.records import replay
from tests.kozel_support import HANDS_A, PLAYS_A, deal_of, load_record, play, snapshot, start

# ---- first lead -------------------------------------------------------------------------------------


def test_first_lead_order_is_doubles_from_one_then_blank_then_highest_tile():
    assert FIRST_LEAD_ORDER[:7] == ("1-1", "2-2", "3-3", "4-4", "5-5", "6-6", "0-0")
    assert FIRST_LEAD_ORDER[7:14] == ("5-6", "4-6", "3-6", "2-6", "1-6", "0-6", "4-5")
    assert FIRST_LEAD_ORDER[-1] == "0-1"
    assert sorted(FIRST_LEAD_ORDER) == sorted(TILES)


def test_holder_of_one_one_must_lead_it():
    state = start(HANDS_A)
    assert state.phase == "play" and state.to_act == 0
    assert [a.to_json() for a in state.legal_actions(0)] == [
        {"seat": 0, "type": "play", "tile": "1-1", "end": "left"},
        {"seat": 0, "type": "play", "tile": "1-1", "end": "right"},
    ]
    view = state.view(0)
    assert view["first_rule"] is True
    assert view["playable"] == {"1-1": ["left", "right"]}


def test_leading_another_tile_in_round_one_is_refused():
    state = start(HANDS_A)
    before = snapshot(state)
    with pytest.raises(IllegalAction) as err:
        play(state, 0, "5-6", "left")
    assert err.value.code == "must_lead"
    assert snapshot(state) == before


SEAT0 = ["0-1", "1-2", "2-3", "3-4", "4-5", "5-6", "0-6"]
SEAT1_REST = ["0-2", "1-3", "2-4", "3-5", "4-6", "0-3"]


@pytest.mark.parametrize("value", [1, 2, 3, 4, 5, 6, 0])
def test_first_lead_falls_back_double_by_double(value):
    """Lower doubles lie in the bazaar: the holder of the next double in the order leads it."""
    double = f"{value}-{value}"
    state = start([SEAT0, [double, *SEAT1_REST]])
    assert state.to_act == 1
    assert {a.tile for a in state.legal_actions(1)} == {double}


def test_without_any_double_in_hand_the_highest_tile_leads():
    state = start([SEAT0, ["0-2", "1-3", "2-4", "3-5", "4-6", "0-3", "1-4"]])
    assert state.to_act == 0  # 5-6 is the highest tile
    assert {a.tile for a in state.legal_actions(0)} == {"5-6"}
    state = start([[*SEAT0[:5], "0-2", "0-6"], ["4-6", "1-3", "2-4", "3-5", "0-3", "1-4", "1-5"]])
    assert state.to_act == 1  # 5-6 in the bazaar: 4-6
    assert {a.tile for a in state.legal_actions(1)} == {"4-6"}


def test_zero_six_ranks_above_four_five():
    hands = [["0-6", "0-1", "0-2", "1-2", "1-3", "2-3", "0-3"], ["4-5", "3-4", "2-4", "1-4", "3-5", "2-5", "1-5"]]
    state = start(hands)
    assert state.to_act == 0
    assert {a.tile for a in state.legal_actions(0)} == {"0-6"}


def test_later_rounds_the_winner_leads_any_tile():
    state = replay(load_record("fish_double_in_hand_4p"))  # seat 1 made the fish
    assert state.view(None)["next_leader"] == 1
    rotated = [HANDS_A[3], HANDS_A[0], HANDS_A[1], HANDS_A[2]]  # seat 1 now holds 1-1, seat 0 holds 0-2 …
    state.next_round_in_place(deal_of(rotated, []))
    assert state.to_act == 1
    assert {a.tile for a in state.legal_actions(1)} == set(HANDS_A[0])
    assert len(state.legal_actions(1)) == 14
    assert state.view(1)["first_rule"] is False


def test_after_a_redeal_in_round_one_the_first_lead_rule_applies():
    state = replay(load_record("redeals_then_play_2p"))
    assert [r["redeal"] for r in state.sheet] == [True, True, False]
    first = state.log[2]["actions"][0]
    assert first == {"seat": 1, "type": "play", "tile": "1-1", "end": "right"}


def test_after_a_redeal_in_a_later_round_the_winner_still_leads():
    state = replay(load_record("fish_double_in_hand_4p"))
    five_doubles = [["0-0", "1-1", "2-2", "3-3", "4-4", "0-1", "0-2"]] + [
        ["0-3", "0-4", "0-5", "0-6", "1-2", "1-3", "1-4"],
        ["1-5", "1-6", "2-3", "2-4", "2-5", "2-6", "3-4"],
        ["3-5", "3-6", "4-5", "4-6", "5-5", "5-6", "6-6"],
    ]
    events = state.next_round_in_place(deal_of(five_doubles, []))
    assert [e.type for e in events] == ["redeal"]
    assert events[0].data == {"round": 2, "seats": [0], "reasons": ["doubles"]}
    assert state.phase == "round_over" and state.to_act is None
    assert state.sheet[-1]["redeal"] is True and state.sheet[-1]["scores"] == [0, 0, 0, 0]
    state.next_round_in_place(deal_of(HANDS_A, []))
    assert state.to_act == 1
    assert state.view(1)["first_rule"] is False


def test_six_tiles_of_one_value_force_a_redeal():
    hands = [["0-6", "1-6", "2-6", "3-6", "4-6", "5-6", "0-0"], ["0-1", "0-2", "0-3", "1-2", "1-3", "2-3", "3-4"]]
    state = RULES.new_game(2, start=False)
    events = state.next_round_in_place(deal_of(hands))
    assert events[0].data["reasons"] == ["value"]
    assert state.phase == "round_over"


def test_seeded_game_redeals_by_itself():
    """A seeded game never stops in a redeal round: the next deal follows at once (both are recorded)."""
    record = load_record("full_game_2p")  # recorded from seed 0, whose third deal is a redeal
    record["rounds"] = record["rounds"][:2]
    state = replay(record)  # the replay's seed is 0 as well
    events = state.next_round_in_place()
    assert [e.type for e in events] == ["redeal", "round_started"]
    assert state.phase == "play"
    assert [r["redeal"] for r in state.sheet] == [False, False, True]
    full = load_record("full_game_2p")
    assert [e["deal"] for e in state.log[2:]] == [full["rounds"][2]["deal"], full["rounds"][3]["deal"]]


# ---- drawing and knocking --------------------------------------------------------------------------

DRAW_HANDS = [["1-1", "0-2", "0-3", "2-3", "4-5", "4-6", "5-6"], ["0-4", "0-5", "0-6", "2-4", "2-5", "3-4", "3-5"]]
DRAW_BAZAAR = ["2-2", "3-6", "0-0", "1-4", "3-3", "4-4", "5-5", "6-6", "0-1", "1-2", "1-3", "1-5", "1-6", "2-6"]


def test_a_seat_without_a_fitting_tile_draws_until_one_fits():
    state = start(DRAW_HANDS, DRAW_BAZAAR)
    events = play(state, 0, "1-1", "left")
    assert [e.type for e in events] == ["tile_played", "drew"]
    assert events[1].seat == 1 and events[1].data == {"count": 4, "bazaar": 10}
    assert state.to_act == 1
    assert len(state.hands[1]) == 11 and {"2-2", "3-6", "0-0", "1-4"} <= set(state.hands[1])
    assert state.bazaar == DRAW_BAZAAR[4:]
    # the drawn fitting tile is the only play
    assert {(a.tile, a.end) for a in state.legal_actions(1)} == {("1-4", "left"), ("1-4", "right")}


def test_drawn_tiles_are_never_named_in_events_or_public_views():
    state = start(DRAW_HANDS, DRAW_BAZAAR)
    events = play(state, 0, "1-1", "left")
    text = repr([e.to_json() for e in events])
    for tile in ("2-2", "3-6", "0-0", "1-4"):
        assert tile not in text
    public = repr(state.view(None)) + repr(state.view(0))
    for tile in state.hands[1] + state.bazaar:
        assert f"'{tile}'" not in public


def test_knock_only_when_nothing_fits_and_no_bazaar():
    hands = [
        ["1-1", "0-2", "0-3", "2-3", "4-5", "4-6", "5-6"],
        ["0-4", "0-5", "0-6", "2-4", "2-5", "3-4", "3-5"],  # no 1: knocks
        ["1-2", "0-0", "2-2", "3-3", "1-3", "2-6", "3-6"],  # holds 1s: plays
        ["1-4", "1-5", "1-6", "0-1", "4-4", "5-5", "6-6"],
    ]
    state = start(hands)
    events = play(state, 0, "1-1", "right")
    assert [(e.type, e.seat) for e in events] == [("tile_played", 0), ("knocked", 1)]
    assert state.to_act == 2
    assert state.hands[1] == sorted(hands[1])


def test_drawing_the_bazaar_empty_without_a_fit_ends_in_a_knock():
    """Seed game round 1: seat 0 draws the last tile, which does not fit, and knocks."""
    record = load_record("full_game_2p")
    state = RULES.new_game(2, start=False)
    state.next_round_in_place(record["rounds"][0]["deal"])
    seen = False
    for raw in record["rounds"][0]["actions"]:
        events = state.apply_in_place(Action.from_json(raw))
        types = [(e.type, e.seat) for e in events]
        if ("knocked", 0) in types and ("drew", 0) in types:
            drew = next(e for e in events if e.type == "drew")
            assert drew.data["bazaar"] == 0
            assert state.bazaar == []
            assert state.view(0)["playable"] == {}
            assert state.to_act == 1
            seen = True
            break
    assert seen


def test_there_is_no_pass_or_draw_action():
    state = start(HANDS_A)
    before = snapshot(state)
    for typ in ("pass", "draw", "knock"):
        with pytest.raises(MalformedAction) as err:
            state.apply_in_place(Action(0, typ))
        assert err.value.code == "unknown_action"
    assert snapshot(state) == before


# ---- the chain -------------------------------------------------------------------------------------


def test_chain_layout_data():
    state = start(HANDS_A)
    for seat, tile, end in PLAYS_A[:4]:
        play(state, seat, tile, end)
    view = state.view(None)
    assert [e["tile"] for e in view["chain"]] == ["1-1", "0-1", "1-2", "0-2"]
    assert [e["pips"] for e in view["chain"]] == [[1, 1], [0, 1], [1, 2], [2, 0]]
    assert [e["double"] for e in view["chain"]] == [True, False, False, False]
    assert [e["end"] for e in view["chain"][1:]] == ["left", "right", "right"]
    assert view["line"] == [1, 0, 2, 3]
    assert view["ends"] == {"left": 0, "right": 0}


def test_first_tile_lies_low_half_left_and_input_may_be_reversed():
    state = RULES.new_game(4, start=False)
    state.leader = 0
    state.next_round_in_place(deal_of(HANDS_A, []))
    play(state, 0, "6-5", "right")
    assert state.chain[0]["tile"] == "5-6" and state.chain[0]["pips"] == [5, 6]
    assert (state.left, state.right) == (5, 6)
    assert state.record()["rounds"][0]["actions"][0] == {"seat": 0, "type": "play", "tile": "5-6", "end": "right"}


def test_a_double_keeps_the_end_value():
    state = start(HANDS_A)
    play(state, 0, "1-1", "left")
    play(state, 1, "1-4", "right")  # 1|4
    play(state, 2, "4-4", "right")
    assert state.chain[-1]["pips"] == [4, 4] and state.right == 4


# ---- fish and going out ----------------------------------------------------------------------------


def _last_events(name: str):
    """Replay a record up to its last action, then apply that one: the state and its events."""
    record = load_record(name)
    last = record["rounds"][-1]["actions"].pop()
    state = replay(record)
    return state, state.apply_in_place(Action.from_json(last))


def test_fish_with_the_double_still_in_a_hand():
    state, events = _last_events("fish_double_in_hand_4p")
    assert "0-0" in state.hands[2]
    assert (events[1].type, events[1].seat, events[1].data) == ("fish", 1, {"value": 0})
    assert state.sheet[-1]["ending"] == "fish" and state.sheet[-1]["by"] == 1
    assert state.sheet[-1]["points"] == [25, 28, 28, 43]


def test_fish_with_the_double_on_the_table():
    state, events = _last_events("fish_double_on_table_4p")
    assert "0-0" in {e["tile"] for e in state.chain}
    assert (events[1].type, events[1].seat) == ("fish", 2)


def test_fish_with_the_double_in_the_bazaar():
    state, events = _last_events("fish_double_in_bazaar_tie_carry_3p")
    assert "0-0" in state.bazaar
    assert (events[1].type, events[1].seat) == ("fish", 0)
    assert state.sheet[-1]["points"] == [18, 28, 28]  # the bazaar counts for nobody


def test_same_ends_without_all_six_tiles_is_no_fish():
    state = start(HANDS_A)
    for seat, tile, end in PLAYS_A[:4]:
        play(state, seat, tile, end)
    assert (state.left, state.right) == (0, 0)
    assert state.phase == "play"
    assert not is_fish(state.chain, state.left, state.right)


def test_fish_options_score_the_same_deal_differently():
    every = replay(load_record("fish_double_in_hand_4p"))
    one = replay(load_record("fish_for_one_kozel_4p"))
    assert every.totals == [25, 28, 28, 43]
    assert one.totals == [0, 0, 0, 124]
    assert one.sheet[-1]["fish_to"] == 3 and one.sheet[-1]["gained"] == [0, 0, 0, 124]


def test_last_tile_that_empties_the_hand_and_closes_a_fish_counts_as_going_out():
    record = load_record("full_game_2p")
    record["rounds"] = record["rounds"][:12]
    for fish in ("all", "one"):
        record["options"] = {"fish": fish}
        state = replay(record)
        assert is_fish(state.chain, state.left, state.right)
        row = state.sheet[-1]
        assert (row["ending"], row["by"], row["points"], row["fish_to"]) == ("out", 1, [6, 0], None)


def test_going_out_ends_the_round_and_the_goer_leads_next():
    state = replay(load_record("redeals_then_play_2p"))
    row = state.sheet[-1]
    assert (row["ending"], row["by"]) == ("out", 0)
    assert state.hands[0] == [] and state.view(None)["next_leader"] == 0
    assert state.view(None)["revealed"][1] == ["1-2", "1-4", "2-2", "2-3", "2-4", "2-6", "3-4"]


def test_round_scores_event_marks_remembered_and_opened():
    state, events = _last_events("remembered_and_opening_4p")
    assert [e.type for e in events] == ["tile_played", "went_out", "round_scores"]
    scores = events[-1].data
    assert scores["points"] == [23, 7, 2, 0]
    assert scores["remembered"] == [0, 16, 14, 0]
    assert scores["opened"] == [True, False, False, False]
    assert scores["opened_now"] == [True, False, False, False]
    assert scores["totals"] == [28, 0, 0, 0]


# ---- game end ----------------------------------------------------------------------------------------


def _fish_a(**fields):
    state = start(HANDS_A, **fields)
    events = []
    for seat, tile, end in PLAYS_A:
        events = play(state, seat, tile, end)
    return state, events


def test_reaching_101_ends_the_game():
    state, events = _fish_a(_totals=[0, 0, 0, 58], opened=[True] * 4)
    assert state.totals[3] == 101
    assert state.phase == "game_over" and state.finished and state.loser == 3
    assert events[-1].type == "game_over" and events[-1].seat == 3
    assert state.rating == [8, 7, 7, 0]
    assert state.legal_actions(0) == [] and state.to_act is None


def test_one_hundred_does_not_end_the_game():
    state, _ = _fish_a(_totals=[0, 0, 0, 57], opened=[True] * 4)
    assert state.totals[3] == 100
    assert state.phase == "round_over" and state.loser is None


def test_several_at_101_the_highest_is_the_kozel():
    state, _ = _fish_a(_totals=[95, 0, 0, 90], opened=[True] * 4)
    assert state.totals == [120, 28, 28, 133]
    assert state.loser == 3
    assert state.rating == [1, 7, 7, 0]
    result = state.result()
    assert result["loser"] == 3 and result["winner"] is None and result["extra"]["rating"] == [1, 7, 7, 0]


def test_several_at_101_with_equal_totals_the_lowest_seat_is_the_kozel():
    state = replay(load_record("rotating_fish_all_over_101_4p"))
    assert state.totals == [124] * 4
    assert state.loser == 0


def test_remembered_points_count_neither_toward_101_nor_in_the_rating():
    record = load_record("remembered_and_opening_4p")
    second = record["rounds"].pop()
    state = replay(record)
    state.remembered = [100, 100, 100, 100]
    state.next_round_in_place(second["deal"])
    for raw in second["actions"]:
        state.apply_in_place(Action.from_json(raw))
    # seat 0 opens with 100 + 23; seats 1 and 2 stay unopened at +107 and +102; seat 3 went out
    assert state.remembered == [0, 107, 102, 0]
    assert state.totals == [123, 0, 0, 0]
    assert state.loser == 0
    assert state.rating == [0, 10, 10, 10]


def test_no_round_after_the_game_is_over():
    state = replay(load_record("fish_for_one_kozel_4p"))
    with pytest.raises(IllegalAction) as err:
        state.next_round_in_place(deal_of(HANDS_A, []))
    assert err.value.code == "round_not_over"


# ---- illegal actions leave the state unchanged -----------------------------------------------------


@pytest.mark.parametrize(
    ("action", "code"),
    [
        (Action(1, "play", tile="0-1", end="left"), "not_your_turn"),
        (Action(0, "play", tile="0-1", end="left"), "tile_not_held"),
        (Action(0, "play", tile="2-5", end="left"), "no_match"),
        (Action(0, "play", tile="3-3", end="right"), "tile_not_held"),
        (Action(0, "play", tile="0-3", end="middle"), "bad_end"),
        (Action(0, "play", tile="0-3"), "bad_end"),
        (Action(0, "play", end="left"), "malformed_action"),
        (Action(0, "play", tile="7-7", end="left"), "bad_tile"),
        (Action(0, "play", tile="03", end="left"), "bad_tile"),
        (Action(0, "play", tile="0-3", end="left", card="AS"), "malformed_action"),
        (Action(9, "play", tile="0-3", end="left"), "bad_seat"),
        (Action(0, "bid", value=100), "unknown_action"),
    ],
)
def test_illegal_actions_are_refused_without_change(action, code):
    state = start(HANDS_A)
    for seat, tile, end in PLAYS_A[:4]:
        play(state, seat, tile, end)  # ends 0|0, seat 0 to act holding 0-3, 5-6, 2-2, 1-3, 2-5, 4-6
    before = snapshot(state)
    with pytest.raises(IllegalAction) as err:
        state.apply_in_place(action)
    assert err.value.code == code
    assert str(err.value)
    assert snapshot(state) == before
    assert not state.is_legal(action)


def test_apply_returns_a_new_state_and_keeps_the_old():
    state = start(HANDS_A)
    before = snapshot(state)
    new, events = state.apply(Action(0, "play", tile="1-1", end="left"))
    assert snapshot(state) == before
    assert new.chain[0]["tile"] == "1-1" and events[0].type == "tile_played"
    with pytest.raises(IllegalAction):
        state.apply(Action(1, "play", tile="0-1", end="left"))
    assert snapshot(state) == before


def test_action_after_the_round_is_refused():
    state = replay(load_record("fish_double_in_hand_4p"))
    before = snapshot(state)
    with pytest.raises(IllegalAction) as err:
        state.apply_in_place(Action(2, "play", tile="4-4", end="left"))
    assert err.value.code == "round_over"
    assert snapshot(state) == before


def test_button_codes_round_trip():
    state = start(HANDS_A)
    for action in state.legal_actions(0):
        assert Action.parse(0, action.code()) == action


def test_tie_for_the_most_in_a_carry_round_keeps_the_carry_in_play():
    """Fish for all with 35 carried in: 18/28/28 ties for the most, so the 35 waits for the next round."""
    record = load_record("fish_double_in_bazaar_tie_carry_3p")
    state = RULES.new_game(3, {"fish": "all"}, start=False)
    state.carry = 35
    state.next_round_in_place(record["rounds"][0]["deal"])
    events = []
    for raw in record["rounds"][0]["actions"]:
        events = state.apply_in_place(Action.from_json(raw))
    assert [e.type for e in events] == ["tile_played", "fish", "carry_kept", "round_scores"]
    assert state.totals == [18, 28, 28] and state.carry == 35
    assert state.view(None)["carry"] == 35
    assert state.sheet[-1]["carry_in"] == 35 and state.sheet[-1]["carry_to"] is None
