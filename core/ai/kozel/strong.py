"""The strong Kozel player: determinized Monte Carlo over the tiles it cannot see.

For each play it samples worlds consistent with everything the seat has seen (``determinize``), tries
each legal (tile, end) in every world, finishes the round with the normal policy for all seats, and takes
the play with the best average result. The result of a round is the others' mean change of "pain" minus
its own, where pain is the total plus half the remembered points (they count once an account opens),
with a malus for becoming the kozel and a bonus when another seat does. The number of play-outs comes
from a budget of simulated plays, and the search stops early at the deadline of the wall-time cap
(``core.ai.search``).
"""

from __future__ import annotations

import random
from typing import Any

from core.ai.kozel import normal
from core.ai.kozel.determinize import sample_world
from core.ai.kozel.memory import Memory
from core.ai.kozel.rollout import clone, play_round, step
from core.ai.kozel.table import Table
from core.ai.search import DEFAULT, Budget, Deadline, best_of
from core.base import Action
from core.kozel.state import KozelState

KOZEL = 150  # utility of becoming the kozel (negative), or of another seat becoming it (shared)


def pain(state: KozelState, seat: int) -> float:
    return state._totals[seat] + 0.5 * state.remembered[seat]


def utility(world: KozelState, me: int, before: list[float]) -> float:
    n = world.players
    mine = pain(world, me) - before[me]
    others = sum(pain(world, s) - before[s] for s in range(n) if s != me) / (n - 1)
    u = others - mine
    loser = world.loser
    if loser is not None:
        u += -KOZEL if loser == me else KOZEL / (n - 1)
    return u


def decide(
    view: dict[str, Any],
    memory: Memory,
    t: Table,
    rng: random.Random,
    budget: Budget = DEFAULT,
    deadline: Deadline | None = None,
) -> Action:
    """The seat's action; the search stops at ``deadline`` (by default the one of ``budget.cap_ms``, from now)."""
    if deadline is None:
        deadline = Deadline.for_cap(budget.cap_ms)
    cands = t.legal
    if len(cands) == 1:
        return cands[0]
    if not memory.started or sample_world(view, memory, random.Random(0)) is None:
        return normal.choose(t)
    me = t.seat

    def sample() -> tuple[KozelState, list[float]]:
        world = sample_world(view, memory, rng)
        assert world is not None
        return world, [pain(world, s) for s in range(world.players)]

    def play(drawn: tuple[KozelState, list[float]], i: int) -> float:
        world, before = drawn
        s = clone(world)
        mem = memory.fork()
        step(s, mem, cands[i])
        play_round(s, mem, deadline)
        return utility(s, me, before)

    best = best_of(len(cands), budget, sum(view["hand_counts"]), deadline, sample, play, prune=False)
    if best is None:
        return normal.choose(t)  # not one world finished in time
    return cands[best]
