"""The easy Deberts policy: a casual player's simple rules with randomness.

It names trump when it holds the trump jack or nine with some length (with noise), always swaps the seven,
leads a high card or a random one, wins a trick cheaply when it can and otherwise throws its cheapest card.
It remembers nothing but the current trick.
"""

from __future__ import annotations

import random

from core.ai.deberts.cardplay import beats, current_winner
from core.ai.deberts.table import Table
from core.base import Action
from core.deberts.cards import points, power

_WEIGHT = {"J": 3.5, "9": 2.5, "A": 1.5, "T": 1.2, "K": 0.8, "Q": 0.8, "8": 0.6, "7": 0.6}


def _strength(hand: list[str], suit: str) -> float:
    return sum(_WEIGHT[c[0]] if c[1] == suit else (1.0 if c[0] == "A" else 0.0) for c in hand)


def decide(t: Table, rng: random.Random) -> Action:
    by_type: dict[str, list[Action]] = {}
    for a in t.legal:
        by_type.setdefault(a.type, []).append(a)
    passes = by_type.get("pass", [])
    if t.phase == "bidding":
        noise = rng.uniform(-1.5, 1.5)
        if "play_trump" in by_type:
            assert t.open is not None
            if _strength(t.hand, t.open[1]) + noise >= 5.0 or not passes:
                return by_type["play_trump"][0]
            return passes[0]
        named = by_type.get("name_suit", [])
        if named:
            best = max(named, key=lambda a: (_strength(t.hand, a.suit), a.suit))  # type: ignore[arg-type]
            if not passes or _strength(t.hand, best.suit) + noise >= 5.0:  # type: ignore[arg-type]
                return best
        return passes[0]
    if t.phase == "swap":
        return by_type["swap_seven"][0]
    cards = [a.card for a in by_type.get("play", [])]
    return Action(t.seat, "play", card=_card(t, cards, rng))  # type: ignore[arg-type]


def _card(t: Table, cards: list[str], rng: random.Random) -> str:
    trump = t.trump or "S"
    if not t.trick:
        if rng.random() < 0.5:
            return max(cards, key=lambda c: (power(c, trump) + (8 if c[1] == trump else 0), c))
        return rng.choice(cards)
    _s, best = current_winner(t.trick, trump)
    winning = [c for c in cards if beats(c, best, trump)]
    if winning and rng.random() < 0.75:
        return min(winning, key=lambda c: (power(c, trump) + (8 if c[1] == trump else 0), c))
    return min(cards, key=lambda c: (points(c, trump), power(c, trump), rng.random()))
