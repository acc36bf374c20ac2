"""The guided random policy for Kozel: random but plausible, like a casual player.

Most of the time the player gets rid of heavy tiles and doubles first (points left in hand are bad), with
some noise; now and then any legal play. Used by ``core.randomplay`` (tests, benchmarks).
"""

from __future__ import annotations

import random

from core.base import Action, GameState
from core.kozel.tiles import PIPS

UNIFORM_SHARE = 0.2  # how often a fully random legal play is chosen
DOUBLE_BONUS = 4  # doubles are hard to place later: play them early
NOISE = 5.0


def choose(state: GameState, seat: int, actions: list[Action], rng: random.Random) -> Action:
    if len(actions) == 1 or rng.random() < UNIFORM_SHARE:
        return actions[rng.randrange(len(actions))]
    best = actions[0]
    best_score = -1.0
    for action in actions:
        a, b = PIPS[action.tile]  # type: ignore[index]
        score = a + b + (DOUBLE_BONUS if a == b else 0) + rng.random() * NOISE
        if score > best_score:
            best, best_score = action, score
    return best
