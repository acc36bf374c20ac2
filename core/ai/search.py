"""The search budget and the wall-time cap shared by the strong players of every game.

A budget counts simulated actions: a search tries ``candidates`` actions in ``worlds`` sampled worlds, each
play-out about ``length`` actions long, with as many worlds as the budget allows between the two bounds.
Its ``cap_ms`` bounds a decision in wall time as well: the search is anytime, it evaluates one world (every
candidate in it) at a time and, when the deadline comes, decides on the worlds it has finished. The
deadline falls at ``SEARCH_SHARE`` of the cap, leaving the rest for a play-out in progress to stop, for the
work after the search and for a busy machine. With ``cap_ms=None`` a decision depends only on the seed and
the view, so it is reproducible (tests, benchmarks of strength without a clock).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

T = TypeVar("T")
W = TypeVar("W")

SEARCH_SHARE = 0.8  # the search stops at this share of the cap
PRUNE_AFTER = 4  # worlds played before a candidate may leave the race
PRUNE_Z = 2.5  # standard errors behind the leader that make a candidate leave


@dataclass(frozen=True)
class Budget:
    steps: int = 4000  # simulated actions per decision
    min_worlds: int = 6
    max_worlds: int = 48
    cap_ms: float | None = 300.0  # wall time per decision; None: no cap, the decision is reproducible

    def worlds(self, candidates: int, length: int) -> int:
        per = max(1, candidates * max(1, length))
        return max(self.min_worlds, min(self.max_worlds, self.steps // per))


class OutOfTime(Exception):
    """Raised inside a play-out when the deadline has come; the world it was in is left unfinished."""


class Deadline:
    """When a search must stop: ``at`` on ``clock`` (seconds), or never when ``at`` is None."""

    def __init__(self, at: float | None, clock: Callable[[], float] = time.perf_counter) -> None:
        self.at = at
        self.clock = clock

    @classmethod
    def for_cap(cls, cap_ms: float | None, clock: Callable[[], float] = time.perf_counter) -> Deadline:
        """The deadline of a decision starting now under a cap of ``cap_ms`` (None: no deadline)."""
        if cap_ms is None:
            return cls(None, clock)
        return cls(clock() + SEARCH_SHARE * cap_ms / 1000, clock)

    def over(self) -> bool:
        return self.at is not None and self.clock() >= self.at

    def check(self) -> None:
        """Raise ``OutOfTime`` when the deadline has come (called between the steps of a play-out)."""
        if self.at is not None and self.clock() >= self.at:
            raise OutOfTime


NEVER = Deadline(None)


def in_worlds(n_worlds: int, deadline: Deadline, one_world: Callable[[], T]) -> list[T]:
    """The results of up to ``n_worlds`` calls of ``one_world`` (one sampled world, every candidate in it).

    Stops early when the deadline comes: a world whose play-outs ran out of time is dropped, so every
    candidate is judged on the same finished worlds. May return no result at all; the caller then falls
    back to a quick policy.
    """
    out: list[T] = []
    for _ in range(n_worlds):
        if deadline.over():
            break
        try:
            out.append(one_world())
        except OutOfTime:
            break
    return out


def best_of(
    k: int,
    budget: Budget,
    length: int,
    deadline: Deadline,
    sample: Callable[[], W],
    play: Callable[[W, int], float],
    prune: bool = True,
) -> int | None:
    """The index of the best of ``k`` candidates by their total utility over sampled worlds (None when not one
    world finished in time).

    ``sample()`` draws one world, ``play(world, i)`` is candidate ``i``'s utility in it. Worlds come one at a
    time and every candidate still in the race is played in each, so the candidates left are compared on the
    same worlds. From the ``PRUNE_AFTER``-th world on, a candidate whose mean difference to the leader's, world
    by world, is below zero by more than ``PRUNE_Z`` standard errors leaves the race. A play-out costs about
    ``length`` simulated actions; the budget counts only the play-outs played, so the worlds a pruned
    candidate no longer needs go to the others (between ``min_worlds`` and ``max_worlds`` worlds in all).
    """
    alive = list(range(k))
    rows: list[list[float]] = [[] for _ in range(k)]
    per = max(1, length)
    spent = 0
    worlds = 0
    while worlds < budget.max_worlds:
        if worlds >= budget.min_worlds and spent + len(alive) * per > budget.steps:
            break
        if deadline.over():
            break
        try:
            world = sample()
            row = [play(world, i) for i in alive]
        except OutOfTime:
            break
        for i, u in zip(alive, row, strict=True):
            rows[i].append(u)
        worlds += 1
        spent += len(alive) * per
        if prune and worlds >= PRUNE_AFTER and len(alive) > 1:
            alive = _survivors(alive, rows)
    if worlds == 0:
        return None
    return max(alive, key=lambda i: (sum(rows[i]), -i))


def _survivors(alive: list[int], rows: list[list[float]]) -> list[int]:
    """The candidates not clearly behind the leader (paired differences over the same worlds)."""
    leader = max(alive, key=lambda i: (sum(rows[i]), -i))
    lead = rows[leader]
    n = len(lead)
    keep = []
    for i in alive:
        if i == leader:
            keep.append(i)
            continue
        diffs = [u - v for u, v in zip(rows[i], lead, strict=True)]
        mean = sum(diffs) / n
        var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
        if mean + PRUNE_Z * math.sqrt(var / n) >= 0:
            keep.append(i)
    return keep


DEFAULT = Budget()
TINY = Budget(steps=1, min_worlds=1, max_worlds=1, cap_ms=None)  # for tests: exercises the search, decides fast
