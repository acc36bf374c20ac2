"""A guided random policy for Thousand: random, legal and plausible, so random games reach their end.

Used by ``core.randomplay`` (tests, benchmarks, search playouts of weak computer players). It bids on a
rough hand estimate with noise, gives away cheap cards, leads marriages, and tries to win tricks cheaply.
It reads only the acting seat's own hand and the public table.
"""

from __future__ import annotations

import random

from core.base import Action
from core.thousand.cards import POINTS, STRENGTH, card_points, marriage_value, marriages_in


def estimate(hand: list[str]) -> int:
    """Points a hand might make as declarer: its card points, its marriages, and a share of the rest."""
    return card_points(hand) + marriage_value(hand, False) + 25


def choose(state, seat: int, actions: list[Action], rng: random.Random) -> Action:  # noqa: ANN001
    phase = state.phase
    if phase == "play":
        if actions and actions[0].type == "play" and actions[-1].type == "play":
            return _choose_card(state, seat, actions, rng)  # the usual case: nothing but cards
        plays = [a for a in actions if a.type == "play"]
        return _choose_card(state, seat, plays, rng) if plays else actions[0]
    hand = state.hands[seat]
    if phase == "bidding":
        # the engine lists [redeal] [pass] then the bids in rising order: the affordable bids are a prefix
        first = 0
        while first < len(actions) and actions[first].type != "bid":
            first += 1
        passes = [a for a in actions[:first] if a.type == "pass"]
        target = estimate(hand) + rng.randint(-15, 10)
        if first < len(actions) and (not passes or actions[first].value <= target):
            limit = max(target, actions[first].value)
            end = first + 1
            while end < len(actions) and end - first < 4 and actions[end].value <= limit:
                end += 1
            return actions[first] if rng.random() < 0.7 else rng.choice(actions[first:end])
        return passes[0] if passes else actions[first]
    if phase == "talon":
        takes = [a for a in actions if a.type == "take_talon"]  # a qualifying declarer may also redeal
        return max(takes, key=lambda a: card_points(state.talons[a.index]) + rng.random())
    if phase == "give":
        gives = [a for a in actions if a.type == "give"]
        keep = {r + s for s in marriages_in(hand) for r in "KQ"}
        # the cheapest give (min, not sorted()[0]: the same keys in the same order, the same first card)
        return min(gives, key=lambda a: (a.card in keep, POINTS[a.card], STRENGTH[a.card], rng.random()))
    if phase == "contract":
        lowest = next(a for a in actions if a.type == "contract")  # the bid itself
        concede = next((a for a in reversed(actions) if a.type == "concede"), None)  # listed last
        if concede is not None and estimate(hand) - 25 + 15 < lowest.value - 40 and rng.random() < 0.5:
            return concede
        return lowest
    plays = [a for a in actions if a.type == "play"]
    return plays[0] if plays else actions[0]


def _choose_card(state, seat: int, plays: list[Action], rng: random.Random) -> Action:  # noqa: ANN001
    trick = state.trick
    random_ = rng.random
    if not trick:
        if state.tricks_done > 0:
            hand = state.hands[seat]
            for a in plays:
                c = a.card
                if c[0] in "KQ" and ("Q" if c[0] == "K" else "K") + c[1] in hand:
                    return a
        if random_() < 0.6:
            return max(plays, key=lambda a: (STRENGTH[a.card], random_()))
        return rng.choice(plays)
    # follow: win cheaply if possible, else throw the cheapest card
    trump = state.trump
    best = trick[0][1]
    for _s, c in trick[1:]:
        if c[1] == best[1]:
            if STRENGTH[c] > STRENGTH[best]:
                best = c
        elif c[1] == trump:
            best = c
    best_suit, best_strength = best[1], STRENGTH[best]
    winning = [a for a in plays if (STRENGTH[a.card] > best_strength if a.card[1] == best_suit else a.card[1] == trump)]
    if winning:
        return min(winning, key=lambda a: (STRENGTH[a.card], random_()))
    return min(plays, key=lambda a: (POINTS[a.card], random_()))
