"""Dealing hidden cards (or tiles) at random to their possible holders, consistently with what is known.

``deal_hidden`` gives every unknown card to one holder (a seat, a talon, the stock) so that each holder gets
exactly its count and every card goes to a holder it may be with (voids, cards known elsewhere). It returns
``None`` when no such deal exists, so that a caller can drop its weakest inference and try again.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Mapping, Sequence
from typing import TypeVar

C = TypeVar("C", bound=Hashable)
H = TypeVar("H", bound=Hashable)


def deal_hidden(
    cards: Sequence[C],
    capacity: Mapping[H, int],
    allowed: Mapping[C, Sequence[H]],
    rng: random.Random,
) -> dict[H, list[C]] | None:
    """A random deal of ``cards``: ``capacity[h]`` cards to each holder, each card to one of ``allowed[c]``.

    A card missing from ``allowed`` may go to any holder. Sampling is close to uniform: cards with the
    fewest possible holders are placed first, each to a holder drawn in proportion to its free places.
    """
    holders = list(capacity)
    k = len(holders)
    if sum(capacity.values()) != len(cards):
        return None
    index = {h: i for i, h in enumerate(holders)}
    full = (1 << k) - 1
    masks: dict[C, int] = {}
    for c in cards:
        hs = allowed.get(c)
        if hs is None:
            masks[c] = full
        else:
            m = 0
            for h in hs:
                if h in index:
                    m |= 1 << index[h]
            masks[c] = m
    caps = [capacity[h] for h in holders]
    if not _feasible(_mask_counts(masks.values(), k), caps, k):
        return None
    for _ in range(4):
        deal = _greedy(cards, masks, caps, holders, rng)
        if deal is not None:
            return deal
    return _exact(cards, masks, caps, holders, rng)


def _popcount(m: int) -> int:
    return bin(m).count("1")


def _pick(m: int, free: list[int], rng: random.Random) -> int | None:
    """A holder index in mask ``m`` with free places, drawn in proportion to its free places."""
    total = 0
    for i, f in enumerate(free):
        if m >> i & 1:
            total += f
    if total == 0:
        return None
    r = rng.randrange(total)
    for i, f in enumerate(free):
        if m >> i & 1:
            if r < f:
                return i
            r -= f
    return None  # pragma: no cover - r < total


def _greedy(cards, masks, caps, holders, rng):  # noqa: ANN001, ANN202
    order = list(cards)
    rng.shuffle(order)
    order.sort(key=lambda c: _popcount(masks[c]))
    free = list(caps)
    out: dict = {h: [] for h in holders}
    for c in order:
        i = _pick(masks[c], free, rng)
        if i is None:
            return None
        free[i] -= 1
        out[holders[i]].append(c)
    return out


def _mask_counts(masks, k: int) -> list[int]:  # noqa: ANN001
    counts = [0] * (1 << k)
    for m in masks:
        counts[m] += 1
    return counts


def _feasible(counts: list[int], caps: list[int], k: int) -> bool:
    """Hall's condition: for every set S of holders, the cards that can only go into S fit into S."""
    if counts[0]:
        return False
    for s in range(1, 1 << k):
        need = 0
        m = s
        while m:  # every non-empty sub-mask of s
            need += counts[m]
            m = (m - 1) & s
        room = sum(caps[i] for i in range(k) if s >> i & 1)
        if need > room:
            return False
    return True


def _exact(cards, masks, caps, holders, rng):  # noqa: ANN001, ANN202
    """Place cards one by one, keeping the rest placeable (Hall's condition) after every step."""
    k = len(holders)
    order = list(cards)
    rng.shuffle(order)
    order.sort(key=lambda c: _popcount(masks[c]))
    counts = _mask_counts(masks.values(), k)
    free = list(caps)
    out: dict = {h: [] for h in holders}
    for c in order:
        m = masks[c]
        counts[m] -= 1
        options = [i for i in range(k) if m >> i & 1 and free[i] > 0]
        rng.shuffle(options)
        options.sort(key=lambda i: -free[i] * rng.random())
        for i in options:
            free[i] -= 1
            if _feasible(counts, free, k):
                out[holders[i]].append(c)
                break
            free[i] += 1
        else:  # pragma: no cover - feasibility was checked before every step
            return None
    return out
