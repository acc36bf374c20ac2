"""The strong Deberts player: determinized Monte Carlo over the cards it cannot see.

For each decision (naming trump or passing, the seven swap, every card) it samples worlds consistent with
everything the seat has seen (``determinize``), tries each legal action in every world, finishes the
round with the normal policy for all seats, and takes the action with the best average result: the
seat's score change minus the mean change of the others, plus a bonus or malus when the round ends the
game. The number of play-outs comes from a budget of simulated actions, and the search stops early at the
deadline of the wall-time cap (``core.ai.search``).
"""

from __future__ import annotations

import random
from typing import Any

from core.ai.deberts import normal
from core.ai.deberts.determinize import sample_world
from core.ai.deberts.memory import Memory
from core.ai.deberts.rollout import clone, play_round, step
from core.ai.deberts.table import Table
from core.ai.search import DEFAULT, Budget, Deadline, best_of
from core.base import Action
from core.deberts.state import DebertsState

GAME_END = 200  # utility of winning the game (minus for another seat winning)


def utility(world: DebertsState, me: int, before: list[int]) -> float:
    n = world.players
    totals = world._totals
    mine = totals[me] - before[me]
    others = sum(totals[s] - before[s] for s in range(n) if s != me) / (n - 1)
    u = mine - others
    if world.winner_seat is not None:
        u += GAME_END if world.winner_seat == me else -GAME_END
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
        return normal.decide(t, rng)  # without the round's events the hidden cards cannot be placed
    me = t.seat
    before = view["totals"]
    length = sum(view["hand_counts"]) + (3 * t.players + 2 if t.phase == "bidding" else 0)

    def sample() -> tuple[DebertsState, float]:
        world = sample_world(view, memory, rng)
        assert world is not None
        return world, rng.random()

    def play(drawn: tuple[DebertsState, float], i: int) -> float:
        world, seed = drawn
        s = clone(world)
        mem = memory.fork()
        step(s, mem, cands[i])
        play_round(s, mem, random.Random(seed), deadline)
        return utility(s, me, before)

    best = best_of(len(cands), budget, length, deadline, sample, play)
    if best is None:
        return normal.decide(t, rng)  # not one world finished in time
    return cands[best]
