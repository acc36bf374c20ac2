"""The strong Thousand player: determinized Monte Carlo over the cards it cannot see.

For each decision it samples worlds consistent with everything the seat has seen (``determinize``), plays
each candidate action in every world and finishes the round with the normal policy for all seats, then
takes the action with the best average result. The result of a round is the seat's score change minus
the mean change of the others, plus a bonus or malus when the round ends the game. The number of
play-outs is fixed by a budget of simulated actions, and the search stops early at the deadline of the
wall-time cap (``core.ai.search``), deciding on the worlds it finished:

- play: every legal card (and conceding before the first lead) is tried in the same worlds;
- bidding: raising to the lowest bid, played as the declarer at that contract, against passing and
  letting the normal players finish the bidding;
- gives: the normal player's best few choices of cards to give, each played out;
- contract: one set of play-outs gives the chance of every contract value, compared with conceding.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from core.ai.search import DEFAULT, Budget, Deadline, best_of, in_worlds
from core.ai.thousand import normal
from core.ai.thousand.determinize import sample_world
from core.ai.thousand.memory import Memory
from core.ai.thousand.rollout import clone, normal_action, play_round, step
from core.ai.thousand.table import Table
from core.base import Action
from core.thousand.cards import POINTS, STRENGTH, half_up5
from core.thousand.state import ThousandState

GAME_END = 400  # utility of winning the game (minus for another seat winning)


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
    by_type: dict[str, list[Action]] = {}
    for a in t.legal:
        by_type.setdefault(a.type, []).append(a)
    if "redeal" in by_type and normal.wants_redeal(t):
        return by_type["redeal"][0]
    if not memory.started or sample_world(view, memory, random.Random(0)) is None:
        return normal.decide(t, rng)  # without the round's events the hidden cards cannot be placed
    phase = t.phase
    found: Action | None = None
    if phase == "play":
        cands = by_type.get("play", []) + by_type.get("concede", [])
        found = _best(view, memory, cands, rng, budget, deadline)
    elif phase == "bidding" and "bid" in by_type and "pass" in by_type and not t.barrel[t.seat]:
        found = _bid(view, memory, t, by_type, rng, budget, deadline)
    elif phase == "give":
        found = _give(view, memory, t, by_type, rng, budget, deadline)
    elif phase == "contract" and not t.barrel[t.seat]:
        found = _contract(view, memory, t, by_type, rng, budget, deadline)
    return found if found is not None else normal.decide(t, rng)  # None: not one world finished in time


def utility(world: ThousandState, me: int, before: list[int]) -> float:
    n = world.players
    mine = world.totals[me] - before[me]
    others = sum(world.totals[s] - before[s] for s in range(n) if s != me) / (n - 1)
    u = mine - others
    if world.winner_seat is not None:
        u += GAME_END if world.winner_seat == me else -GAME_END
    return u


def _play_out(
    world: ThousandState, memory: Memory, actions: list[Action], rng: random.Random, deadline: Deadline
) -> ThousandState:
    s = clone(world)
    mem = memory.fork()
    for a in actions:
        step(s, mem, a)
    play_round(s, mem, rng, deadline)
    return s


def _best(
    view: dict[str, Any], memory: Memory, cands: list[Action], rng: random.Random, budget: Budget, deadline: Deadline
) -> Action | None:
    """Flat Monte Carlo: every candidate in the same sampled worlds."""
    if len(cands) == 1:
        return cands[0]
    me = view["seat"]
    before = view["totals"]

    def play(drawn: tuple[ThousandState, float], i: int) -> float:
        world, seed = drawn
        return utility(_play_out(world, memory, [cands[i]], random.Random(seed), deadline), me, before)

    length = sum(view["hand_counts"])
    best = best_of(len(cands), budget, length, deadline, _sampler(view, memory, rng), play, prune=False)
    return None if best is None else cands[best]


def _sampler(view: dict[str, Any], memory: Memory, rng: random.Random) -> Callable[[], tuple[ThousandState, float]]:
    """Draws a world consistent with the view and the seed of the play-outs in it."""

    def sample() -> tuple[ThousandState, float]:
        world = sample_world(view, memory, rng)
        assert world is not None
        return world, rng.random()

    return sample


def _bid(view, memory, t, by_type, rng, budget, deadline) -> Action | None:  # noqa: ANN001
    """Bid the lowest value when playing it as the declarer beats passing, in the same worlds."""
    me = t.seat
    low = by_type["bid"][0]
    before = view["totals"]

    def one_world() -> float:
        world = sample_world(view, memory, rng)
        assert world is not None
        seed = rng.random()
        # as the declarer at this bid: the others pass, the normal policy gives, the contract is the bid
        declare = clone(world)
        mem = memory.fork()
        step(declare, mem, low)
        while declare.phase == "bidding":
            seat = declare.to_act
            opts = [a for a in declare.legal_actions(seat) if a.type == "pass"]  # type: ignore[arg-type]
            step(declare, mem, opts[0] if opts else declare.legal_actions(seat)[0])  # type: ignore[arg-type]
        _declare_round(declare, mem, me, random.Random(seed), deadline)
        passed = _play_out(world, memory, [by_type["pass"][0]], random.Random(seed), deadline)
        return utility(declare, me, before) - utility(passed, me, before)

    diffs = in_worlds(budget.worlds(2, sum(view["hand_counts"]) + 8), deadline, one_world)
    if not diffs:
        return None
    return low if sum(diffs) > 0 else by_type["pass"][0]


def _declare_round(world: ThousandState, mem: Memory, me: int, rng: random.Random, deadline: Deadline) -> None:
    """Finish a round in which ``me`` declares: normal talon choice and gives, the bid as the contract."""
    while world.phase in ("talon", "give"):
        a = normal_action(world, mem, rng)
        step(world, mem, a)
    if world.phase == "contract":
        step(world, mem, Action(me, "contract", value=world.bid))
    play_round(world, mem, rng, deadline)


def _give(view, memory, t, by_type, rng, budget, deadline) -> Action | None:  # noqa: ANN001
    """Try the normal player's few best sets of cards to give; the best set's costliest card goes first."""
    gives = by_type["give"]
    receivers = sorted({a.to for a in gives})
    shortlist = [combo for _s, combo in normal.give_choices(t, len(receivers))[:4]]
    plans = []
    for combo in shortlist:
        order = sorted(combo, key=lambda c: (-POINTS[c], -STRENGTH[c], c))
        to = sorted(receivers, key=lambda r: (t.totals[r], r))
        plans.append([Action(t.seat, "give", card=c, to=r) for c, r in zip(order, to)])
    if len(plans) == 1:
        return plans[0][0]
    me = t.seat
    before = view["totals"]

    def play(drawn: tuple[ThousandState, float], i: int) -> float:
        world, seed = drawn
        s = clone(world)
        mem = memory.fork()
        for a in plans[i]:
            step(s, mem, a)
        _declare_round(s, mem, me, random.Random(seed), deadline)
        return utility(s, me, before)

    length = sum(view["hand_counts"])
    best = best_of(len(plans), budget, length, deadline, _sampler(view, memory, rng), play, prune=False)
    return None if best is None else plans[best][0]


def _contract(view, memory, t, by_type, rng, budget, deadline) -> Action | None:  # noqa: ANN001
    """One play-out per world at the bid; each contract value is judged by how often the points reach it."""
    me = t.seat
    values = by_type["contract"]
    n = t.players

    def one_world() -> tuple[int, float]:
        world = sample_world(view, memory, rng)
        assert world is not None
        end = _play_out(world, memory, [values[0]], random.Random(rng.random()), deadline)
        row = end.history[-1]
        return row["points"][me], sum(row["scores"][s] for s in range(n) if s != me) / (n - 1)

    rows = in_worlds(budget.worlds(1, sum(view["hand_counts"])), deadline, one_world)
    if not rows:
        return None
    points = [p for p, _o in rows]
    others = [o for _p, o in rows]
    golden = 2 if view["golden"] else 1

    def worth(v: int) -> float:
        return golden * sum(v if p >= v else -v for p in points) / len(points)

    best = max(values, key=lambda a: (worth(a.value), -a.value))  # type: ignore[arg-type]
    if "concede" in by_type:
        bid = t.bid or 100
        lose = -bid if t.options.concede_penalty else 0
        concede = golden * (lose - half_up5(t.contract or bid))
        play = worth(best.value) - sum(others) / len(others)  # type: ignore[arg-type]
        if concede > play:
            return by_type["concede"][0]
    return best
