"""The computer player object: picks the game's policy for a level and seeds each decision reproducibly."""

from __future__ import annotations

import hashlib
import importlib
import json
import random
from collections.abc import Sequence
from typing import Any

from core.ai.search import DEFAULT, Budget
from core.base import Action, Event, OptionsError
from core.rng import stream

LEVELS = ("random", "easy", "normal", "strong")

# Game name -> package of its computer players. Each holds the same roles: ``memory.read_round(history,
# players)`` (what the public events told), ``table.from_view(view, memory, legal)`` (the seat's picture of
# the table), ``easy.decide(table, rng)``, ``normal.decide(table, rng)`` and
# ``strong.decide(view, memory, table, rng, budget)``.
_POLICIES = {
    "thousand": "core.ai.thousand",
    "deberts": "core.ai.deberts",
    "kozel": "core.ai.kozel",
}


def _role(game: str, role: str) -> Any:
    return importlib.import_module(f"{_POLICIES[game]}.{role}")


class ComputerPlayer:
    """A computer seat of one game at one level. It keeps no memory between decisions."""

    def __init__(self, game: str, level: str, seed: int | str = 0, budget: Budget = DEFAULT) -> None:
        if game not in _POLICIES:
            raise OptionsError(f"unknown game '{game}'", "unknown_game", game=game)
        if level not in LEVELS:
            raise OptionsError(f"unknown level '{level}'", "unknown_level", level=level)
        self.game = game
        self.level = level
        self.seed = seed
        self.budget = budget

    def decide(self, view: dict[str, Any], history: Sequence[Event]) -> Action:
        """The action this seat takes now, chosen from ``view["legal"]``.

        ``view`` is ``state.view(seat)`` of the seat whose turn it is; ``history`` the public events of the
        game so far (at least since the current round started). Raises ``ValueError`` when the seat has
        nothing to decide.
        """
        if view.get("game") != self.game:
            raise ValueError(f"a {self.game} player got a view of {view.get('game')!r}")
        seat = view.get("seat")
        if seat is None or view.get("to_act") != seat:
            raise ValueError("it is not this seat's turn")
        legal = [Action.from_json(a) for a in view["legal"]]
        if not legal:
            raise ValueError("the seat has no legal action")
        rng = decision_rng(self.seed, self.game, self.level, view, len(history))
        if len(legal) == 1:
            return legal[0]
        if self.level == "random":
            return legal[rng.randrange(len(legal))]
        memory = _role(self.game, "memory").read_round(list(history), view["players"])
        table = _role(self.game, "table").from_view(view, memory, legal)
        if self.level == "strong":
            action = _role(self.game, "strong").decide(view, memory, table, rng, self.budget)
        else:
            action = _role(self.game, self.level).decide(table, rng)
        if action not in legal:  # a policy bug must never reach the table
            raise AssertionError(f"{self.game}/{self.level} chose an illegal action {action}")
        return action


def decision_rng(seed: int | str, game: str, level: str, view: dict[str, Any], events: int) -> random.Random:
    """A generator that depends only on the seed, the level, the seat's view and how many events it saw."""
    digest = hashlib.blake2b(json.dumps(view, sort_keys=True).encode(), digest_size=12).hexdigest()
    return stream(seed, "ai", game, level, digest, events)


def player(game: str, level: str, seed: int | str = 0, budget: Budget = DEFAULT) -> ComputerPlayer:
    """A computer player for ``game`` at ``level`` (``random``, ``easy``, ``normal`` or ``strong``).

    ``budget`` bounds the strong player's search (``core.ai.search``); the other levels ignore it.
    """
    return ComputerPlayer(game, level, seed, budget)
