"""The search budget shared by the strong players of every game.

A budget counts simulated actions, not seconds, so a decision is reproducible for a fixed seed and
bounded in time: a search tries ``candidates`` actions in ``worlds`` sampled worlds, each play-out about
``length`` actions long, with as many worlds as the budget allows between the two bounds.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Budget:
    steps: int = 4000  # simulated actions per decision
    min_worlds: int = 6
    max_worlds: int = 48

    def worlds(self, candidates: int, length: int) -> int:
        per = max(1, candidates * max(1, length))
        return max(self.min_worlds, min(self.max_worlds, self.steps // per))


DEFAULT = Budget()
TINY = Budget(steps=1, min_worlds=1, max_worlds=1)  # for tests: exercises the search, decides fast
