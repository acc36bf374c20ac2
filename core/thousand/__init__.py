"""Thousand (1000) for 2, 3 and 4 players with every table convention of RULES.md §1."""

from __future__ import annotations

from typing import Any

from core.base import GameRules, Options, OptionsError
from core.rng import stream
from core.thousand.options import ThousandOptions
from core.thousand.state import ThousandState


class ThousandRules(GameRules):
    name = "thousand"
    min_players = 2
    max_players = 4
    options_type = ThousandOptions
    state_type = ThousandState

    def new_game(
        self,
        players: int,
        options: dict[str, Any] | Options | None = None,
        seed: int = 0,
        *,
        first_dealer: int | None = None,
        start: bool = True,
    ) -> ThousandState:
        opts = self.options(players, options)
        assert isinstance(opts, ThousandOptions)
        if first_dealer is None:
            first_dealer = stream(seed, "first_dealer").randrange(players)
        elif type(first_dealer) is not int or not 0 <= first_dealer < players:
            raise OptionsError(f"first_dealer must be a seat 0..{players - 1}", "bad_first_dealer")
        state = ThousandState(players, opts, seed, first_dealer)
        if start:
            state.next_round_in_place()
        return state


RULES = ThousandRules()

__all__ = ["RULES", "ThousandOptions", "ThousandRules", "ThousandState"]
