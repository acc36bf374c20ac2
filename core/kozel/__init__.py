"""Kozel (dominoes) for 2 to 4 players: ``RULES`` for ``core.games`` plus the scoring API the bot calls.

``rating(totals, loser)`` and ``timeout_rating(totals, leaver)`` give the rating points of docs/rules-kozel.md
(at the game's end, and when a player's timeout ends the game).
"""

from __future__ import annotations

from typing import Any

from core.base import GameRules
from core.kozel.options import KozelOptions
from core.kozel.scoring import rating, timeout_rating
from core.kozel.state import KozelState


class KozelRules(GameRules):
    name = "kozel"
    min_players = 2
    max_players = 4
    options_type = KozelOptions
    state_type = KozelState
    action_types = frozenset({"play"})

    uses_dealer = False  # round 1 is led by the 1-1 rule, later rounds by the winner

    def create_state(self, players: int, options: Any, seed: int | str, first_dealer: int | None) -> KozelState:
        return KozelState(players, options, seed)


RULES = KozelRules()

__all__ = ["RULES", "KozelOptions", "KozelRules", "KozelState", "rating", "timeout_rating"]
