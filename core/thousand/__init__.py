"""Thousand (1000) for 2, 3 and 4 players with every table convention of docs/rules-thousand.md."""

from __future__ import annotations

from typing import Any

from core.base import GameRules
from core.thousand.options import ThousandOptions
from core.thousand.state import ACTION_TYPES, ThousandState


class ThousandRules(GameRules):
    name = "thousand"
    min_players = 2
    max_players = 4
    options_type = ThousandOptions
    state_type = ThousandState
    action_types = frozenset(ACTION_TYPES)

    def create_state(self, players: int, options: Any, seed: int | str, first_dealer: int | None) -> ThousandState:
        assert first_dealer is not None
        return ThousandState(players, options, seed, first_dealer)


RULES = ThousandRules()

__all__ = ["RULES", "ThousandOptions", "ThousandRules", "ThousandState"]
