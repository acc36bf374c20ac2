"""Deterministic randomness from a game's seed: each use draws from its own named stream.

A state never stores a generator: the deal of round ``k`` always comes from ``stream(seed, "deal", k)``,
so a game is reproducible from its seed and its JSON stays small.
"""

from __future__ import annotations

import random


def stream(seed: int | str, *names: object) -> random.Random:
    """A ``random.Random`` seeded from the seed and a path of names (stable across runs and platforms)."""
    return random.Random(":".join(map(str, (seed, *names))))
