"""Deberts for 2 and 3 players (docs/rules-deberts.md): ``RULES`` is the game's ``core.base.GameRules``."""

from __future__ import annotations

from typing import Any

from core.base import GameRules
from core.deberts.engine import ACTION_FIELDS
from core.deberts.options import DebertsOptions
from core.deberts.state import DebertsState


class DebertsRules(GameRules):
    name = "deberts"
    min_players = 2
    max_players = 3
    options_type = DebertsOptions
    state_type = DebertsState
    action_types = frozenset(ACTION_FIELDS)

    def create_state(self, players: int, options: Any, seed: int | str, first_dealer: int | None) -> DebertsState:
        assert first_dealer is not None
        return DebertsState(players, options, seed, first_dealer)


RULES = DebertsRules()

__all__ = ["RULES", "DebertsOptions", "DebertsRules", "DebertsState"]
