"""Computer players for Thousand: ``decide(level, view, history, legal, rng)`` for easy, normal and strong."""

from __future__ import annotations

import random
from typing import Any

from core.ai.search import DEFAULT, Budget
from core.ai.thousand import easy, normal
from core.ai.thousand.memory import read_round
from core.ai.thousand.table import from_view
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
    from core.ai.thousand import strong

    return strong.decide(view, memory, table, rng, budget)
