"""The normal Deberts policy: bidding on the chance of making it with each trump, the seven swap when it
helps, and the card play of ``cardplay``. Deterministic; also the play-out policy of the strong search.
"""

from __future__ import annotations

import random

from core.ai.deberts.cardplay import choose_card
from core.ai.deberts.estimate import declare_value, margin
from core.ai.deberts.table import Table
from core.base import Action

PASS_VALUE = -8.0  # what passing is worth when someone else may still name trump (they only do when it pays)


def decide(t: Table, rng: random.Random) -> Action:
    by_type: dict[str, list[Action]] = {}
    for a in t.legal:
        by_type.setdefault(a.type, []).append(a)
    if t.phase == "bidding":
        return bid(t, by_type)
    if t.phase == "swap":
        return by_type["swap_seven"][0] if wants_swap(t) else by_type["pass"][0]
    card = choose_card(t, [a.card for a in by_type.get("play", [])])  # type: ignore[misc]
    return Action(t.seat, "play", card=card)


def bid_value(t: Table, suit: str) -> float:
    """The expected score difference of declaring with ``suit`` as trump, from the six cards held."""
    hand = list(t.hand)
    if t.circle == 1 and t.seven_swap and t.open is not None and "7" + suit in hand:
        hand = [c for c in hand if c != "7" + suit] + [t.open]  # the seven will be swapped for the open card
    leads = (t.dealer + 1) % t.players == t.seat
    mean, spread = margin(hand, suit, leads, "bid", t.players)
    return declare_value(mean, spread, t.players)


def pass_value(t: Table) -> float:
    """Passing as the dealer in the second circle ends the round with nothing for anyone."""
    return 0.0 if t.circle == 2 and t.seat == t.dealer else PASS_VALUE


def bid(t: Table, by_type: dict[str, list[Action]]) -> Action:
    passes = by_type.get("pass", [])
    if "play_trump" in by_type:
        assert t.open is not None
        if bid_value(t, t.open[1]) > pass_value(t) or not passes:
            return by_type["play_trump"][0]
        return passes[0]
    named = by_type.get("name_suit", [])
    if not named:
        return passes[0]
    best = max(named, key=lambda a: (bid_value(t, a.suit), a.suit))  # type: ignore[arg-type]
    if not passes or bid_value(t, best.suit) > pass_value(t):  # type: ignore[arg-type]
        return best
    return passes[0]


def wants_swap(t: Table) -> bool:
    assert t.trump is not None and t.open is not None
    leads = (t.dealer + 1) % t.players == t.seat
    keep, _ = margin(t.hand, t.trump, leads, "final", t.players)
    swapped = [c for c in t.hand if c != "7" + t.trump] + [t.open]
    swap, _ = margin(swapped, t.trump, leads, "final", t.players)
    return swap >= keep
