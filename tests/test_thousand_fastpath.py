"""The Thousand hot path (``core.thousand.fastpath``) plays exactly the plain rules (``core.thousand.engine``):
the same legal actions for every seat, the same events, the same refusals and the same record, move by move."""

from __future__ import annotations

import random

import pytest

from core.base import Action, GameError
from core.thousand.engine import ThousandEngine
from core.thousand.options import ThousandOptions
from core.thousand.state import ThousandState


class PlainThousand(ThousandState):
    """A Thousand game on the plain rules alone (no written-out moves)."""

    legal_actions = ThousandEngine.legal_actions
    apply_in_place = ThousandEngine.apply_in_place


# the default table, and a table where redeals, conceding and the ace marriage change what the hot path may take
TABLES = [{}, {"redeal": True, "may_concede": True, "ace_marriage": True, "bidding_on_barrel": False}]

# actions a player might send that are refused (out of turn, not held, too low, malformed)
ODD = [
    Action(0, "play", card="AS"),
    Action(1, "bid", value=95),
    Action(2, "bid", value=103),
    Action(0, "give", card="9H", to=0),
    Action(1, "contract", value=0),
    Action(0, "take_talon", index=5),
    Action(1, "concede"),
    Action(2, "redeal"),
    Action(0, "bid"),
]


def refusal(state: ThousandEngine, action: Action) -> str | None:
    try:
        state.copy().apply_in_place(action)
    except GameError as err:
        return err.code
    return None


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("table", range(len(TABLES)))
def test_the_hot_path_plays_the_plain_rules(players: int, table: int) -> None:
    for seed in range(3):
        options = ThousandOptions.from_dict(players, TABLES[table])
        fast = ThousandState(players, options, seed, seed % players)
        plain = PlainThousand(players, options, seed, seed % players)
        rng = random.Random(seed)
        for _ in range(1500):  # some 40 rounds: a game, or most of one
            if fast.finished:
                break
            if fast.phase == "round_over":
                assert fast.next_round_in_place() == plain.next_round_in_place()
                continue
            for seat in range(players):
                assert fast.legal_actions(seat) == plain.legal_actions(seat)
            for action in ODD:
                if action.seat < players:
                    assert refusal(fast, action) == refusal(plain, action)
            seat = fast.to_act
            assert seat is not None
            action = rng.choice(fast.legal_actions(seat))
            assert fast.apply_in_place(action) == plain.apply_in_place(action)
        assert fast.finished == plain.finished and fast.round_index > 20
        assert fast.record() == plain.record()
        assert fast.result() == plain.result()
