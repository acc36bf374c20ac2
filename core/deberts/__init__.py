"""Deberts for 2 and 3 players (RULES.md §2): ``RULES`` is the game's ``core.base.GameRules``."""

from __future__ import annotations

from typing import Any

from core.base import GameRules, Options, OptionsError
from core.deberts.options import DebertsOptions
from core.deberts.state import DebertsState
from core.rng import stream


class DebertsRules(GameRules):
    name = "deberts"
    min_players = 2
    max_players = 3
    options_type = DebertsOptions
    state_type = DebertsState

    def new_game(
        self,
        players: int,
        options: dict[str, Any] | Options | None = None,
        seed: int = 0,
        *,
        first_dealer: int | None = None,
        start: bool = True,
    ) -> DebertsState:
        opts = self.options(players, options)
        if not isinstance(opts, DebertsOptions):
            raise OptionsError("these options are not Deberts options", "bad_option")
        if first_dealer is None:
            first_dealer = stream(seed, "first_dealer").randrange(players)
        elif type(first_dealer) is not int or not 0 <= first_dealer < players:
            raise OptionsError(f"first_dealer must be a seat 0..{players - 1}", "bad_first_dealer")
        state = DebertsState(players, opts, seed, first_dealer)
        if start:
            state.next_round_in_place()
        return state


RULES = DebertsRules()

__all__ = ["RULES", "DebertsOptions", "DebertsRules", "DebertsState"]
