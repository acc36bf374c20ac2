"""A guided random policy for Thousand: random, legal and plausible, so random games reach their end.

Used by ``core.randomplay`` (tests, benchmarks, search playouts of weak computer players). It bids on a
rough hand estimate with noise, gives away cheap cards, leads marriages, and tries to win tricks cheaply.
It reads only the acting seat's own hand and the public table.
"""

from __future__ import annotations

import random

from core.base import Action
from core.thousand.cards import MARRIAGE, POINTS, STRENGTH, card_points, marriages_in


def estimate(hand: list[str]) -> int:
    """Points a hand might make as declarer: its card points, its marriages, and a share of the rest."""
    return card_points(hand) + sum(MARRIAGE[s] for s in marriages_in(hand)) + 25


def choose(state, seat: int, actions: list[Action], rng: random.Random) -> Action:  # noqa: ANN001
    types = {a.type for a in actions}
    hand = state.hands[seat]
    if state.phase == "bidding":
        bids = [a for a in actions if a.type == "bid"]
        passes = [a for a in actions if a.type == "pass"]
        target = estimate(hand) + rng.randint(-15, 10)
        if bids and (not passes or bids[0].value <= target):
            affordable = [a for a in bids if a.value <= max(target, bids[0].value)]
            return affordable[0] if rng.random() < 0.7 else rng.choice(affordable[:4])
        return passes[0] if passes else bids[0]
    if state.phase == "talon":
        return max(actions, key=lambda a: card_points(state.talons[a.index]) + rng.random())
    if state.phase == "give":
        gives = [a for a in actions if a.type == "give"]
        keep = {r + s for s in marriages_in(hand) for r in "KQ"}
        cheap = sorted(gives, key=lambda a: (a.card in keep, POINTS[a.card], STRENGTH[a.card], rng.random()))
        return cheap[0]
    if state.phase == "contract":
        values = [a for a in actions if a.type == "contract"]
        if "concede" in types and estimate(hand) - 25 + 15 < values[0].value - 40 and rng.random() < 0.5:
            return next(a for a in actions if a.type == "concede")
        return values[0]
    plays = [a for a in actions if a.type == "play"]
    if not plays:
        return actions[0]
    if not state.trick:
        if state.tricks_done > 0:
            for a in plays:
                c = a.card
                if c[0] in "KQ" and ("Q" if c[0] == "K" else "K") + c[1] in hand:
                    return a
        if rng.random() < 0.6:
            return max(plays, key=lambda a: (STRENGTH[a.card], rng.random()))
        return rng.choice(plays)
    # follow: win cheaply if possible, else throw the cheapest card
    winning = [a for a in plays if _would_win(state, a.card)]
    if winning:
        return min(winning, key=lambda a: (STRENGTH[a.card], rng.random()))
    return min(plays, key=lambda a: (POINTS[a.card], rng.random()))


def _would_win(state, card: str) -> bool:  # noqa: ANN001
    best = state.trick[0][1]
    for _s, c in state.trick[1:]:
        if c[1] == best[1]:
            if STRENGTH[c] > STRENGTH[best]:
                best = c
        elif c[1] == state.trump:
            best = c
    if card[1] == best[1]:
        return STRENGTH[card] > STRENGTH[best]
    return card[1] == state.trump
