"""The frozen Thousand ``normal`` seat: ``core.ai.player.ComputerPlayer.decide`` as it was, for one game."""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Sequence
from typing import Any

from bench.baseline.thousand import memory, normal, table
from core.base import Action, Event
from core.rng import stream


class BaselinePlayer:
    """A Thousand seat playing the frozen ``normal`` policy; it keeps no memory between decisions."""

    level = "normal"

    def __init__(self, game: str, seed: int | str = 0, **_ignored: Any) -> None:
        if game != "thousand":
            raise ValueError(f"the frozen baseline plays Thousand only, not {game!r}")
        self.game = game
        self.seed = seed

    def decide(self, view: dict[str, Any], history: Sequence[Event]) -> Action:
        seat = view.get("seat")
        if seat is None or view.get("to_act") != seat:
            raise ValueError("it is not this seat's turn")
        legal = [Action.from_json(a) for a in view["legal"]]
        if not legal:
            raise ValueError("the seat has no legal action")
        rng = decision_rng(self.seed, self.game, self.level, view, len(history))
        if len(legal) == 1:
            return legal[0]
        mem = memory.read_round(list(history), view["players"])
        t = table.from_view(view, mem, legal)
        action = normal.decide(t, rng)
        if action not in legal:
            raise AssertionError(f"the baseline chose an illegal action {action}")
        return action


def decision_rng(seed: int | str, game: str, level: str, view: dict[str, Any], events: int) -> random.Random:
    digest = hashlib.blake2b(json.dumps(view, sort_keys=True).encode(), digest_size=12).hexdigest()
    return stream(seed, "ai", game, level, digest, events)


def player(game: str, seed: int | str = 0, **options: Any) -> BaselinePlayer:
    """The frozen normal Thousand player (``options`` such as a search budget are ignored)."""
    return BaselinePlayer(game, seed, **options)
