"""Computer players for Kozel: ``decide(level, view, history, legal, rng, budget)`` for easy, normal, strong."""

from __future__ import annotations

import random
from typing import Any

from core.ai.kozel import easy, normal
from core.ai.kozel.memory import read_round
from core.ai.kozel.table import from_view
from core.ai.search import DEFAULT, Budget
from core.base import Action, Event


def decide(
    level: str,
    view: dict[str, Any],
    history: list[Event],
    legal: list[Action],
    rng: random.Random,
    budget: Budget = DEFAULT,
) -> Action:
    memory = read_round(history, view["players"])
    table = from_view(view, memory, legal)
    if level == "easy":
        return easy.decide(table, rng)
    if level == "normal":
        return normal.decide(table, rng)
    from core.ai.kozel import strong

    return strong.decide(view, memory, table, rng, budget)
