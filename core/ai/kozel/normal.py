"""The normal Kozel policy: dump heavy tiles and doubles, keep variety in hand, leave ends it can answer
and the next players cannot, and close a fish only when its own hand is light.

Every legal (tile, end) is scored by: the pips it gets rid of, a bonus for a double (hard to place later),
how many of its remaining tiles fit the new ends, how many different values it keeps, the chance that the
next seat holds nothing for the new ends (shown voids, or the unseen tiles and that seat's hand size),
and, when the play makes a fish, how its hand compares with the others' expected hands. Going out wins.
Deterministic; also the play-out policy of the strong search.
"""

from __future__ import annotations

import random

from core.ai.kozel.table import Table
from core.base import Action
from core.kozel.scoring import hand_value
from core.kozel.tiles import NON_DOUBLES_WITH, PIPS

W_PIPS = 1.0
W_DOUBLE = 3.0
W_FOLLOW = 1.2
W_VARIETY = 0.6
W_BLOCK = 4.0
W_FISH = 0.6


def new_ends(left: int | None, right: int | None, tile: str, end: str) -> tuple[int, int]:
    a, b = PIPS[tile]
    if left is None or right is None:
        return a, b
    if end == "left":
        return (b if a == left else a), right
    return left, (b if a == right else a)


def choose(t: Table) -> Action:
    plays = t.legal
    if len(plays) == 1:
        return plays[0]
    unseen = t.unseen()
    n = t.players
    nxt = (t.seat + 1) % n
    on_table = t.memory.played
    per_tile = sum(PIPS[u][0] + PIPS[u][1] for u in unseen) / max(1, len(unseen))
    best, best_score = plays[0], float("-inf")
    for a in plays:
        tile = a.tile
        assert tile is not None and a.end is not None
        x, y = PIPS[tile]
        l2, r2 = new_ends(t.left, t.right, tile, a.end)
        rest = [u for u in t.hand if u != tile]
        if not rest:
            return a  # going out
        score = W_PIPS * (x + y) + (W_DOUBLE if x == y else 0.0)
        follow = sum(1 for u in rest if l2 in PIPS[u] or r2 in PIPS[u])
        score += W_FOLLOW * min(follow, 3)
        score += W_VARIETY * len({v for u in rest for v in PIPS[u]})
        score += W_BLOCK * _blocked(t, nxt, l2, r2, tile, unseen)
        if l2 == r2 and all(u in on_table or u == tile for u in NON_DOUBLES_WITH[l2]):
            others = per_tile * sum(t.hand_counts[s] for s in range(n) if s != t.seat) / max(1, n - 1)
            score += W_FISH * (others - hand_value(rest)) * 2
        if score > best_score:
            best, best_score = a, score
    return best


def _blocked(t: Table, seat: int, left: int, right: int, tile: str, unseen: list[str]) -> float:
    """The chance that ``seat`` holds no tile for the ends ``left``/``right``."""
    voids = t.memory.voids[seat]
    if left in voids and right in voids:
        return 1.0
    count = t.hand_counts[seat]
    pool = [u for u in unseen if u != tile]
    if not pool:
        return 0.0
    fit = sum(1 for u in pool if (left in PIPS[u] or right in PIPS[u]))
    p = 1.0
    for k in range(count):  # drawing ``count`` tiles from the pool without a fitting one
        free = len(pool) - k
        if free <= 0:
            break
        p *= max(0.0, (free - fit) / free)
    return p


def decide(t: Table, rng: random.Random) -> Action:
    return choose(t)
