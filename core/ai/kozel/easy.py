"""The easy Kozel policy: a casual player who mostly lays a heavy tile (doubles a little earlier) with some
noise, and now and then any tile that fits. It remembers nothing."""

from __future__ import annotations

import random

from core.ai.kozel.table import Table
from core.base import Action
from core.kozel.tiles import PIPS


def decide(t: Table, rng: random.Random) -> Action:
    plays = t.legal
    if rng.random() < 0.3:
        return rng.choice(plays)

    def score(a: Action) -> float:
        x, y = PIPS[a.tile]  # type: ignore[index]
        return x + y + (2 if x == y else 0) + rng.random() * 6

    return max(plays, key=score)
