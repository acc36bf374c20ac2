"""The guided random policy for Deberts: random but plausible choices, so random games look like real ones.

Bidding: a seat plays a suit when its hand is strong in it (trump J and 9, aces, tens, length), with some
noise. The declarer always takes the seven swap. Play: on the lead a strong card or a random one; following,
the cheapest card that wins a trick worth taking, else the cheapest card; now and then a random legal card.
"""

from __future__ import annotations

import random

from core.base import Action
from core.cards import SUITS
from core.deberts.cards import points, power
from core.deberts.play import trick_winner

_TRUMP_WEIGHT = {"J": 3.5, "9": 2.8, "A": 1.6, "T": 1.4, "K": 1.0, "Q": 1.0, "8": 0.8, "7": 0.8}


def strength(hand: list[str], trump: str) -> float:
    """A rough worth of a hand with the given trump suit."""
    total = 0.0
    for c in hand:
        if c[1] == trump:
            total += _TRUMP_WEIGHT[c[0]]
        elif c[0] == "A":
            total += 1.0
        elif c[0] == "T":
            total += 0.4
    return total


def _bid(state, seat: int, actions: list[Action], rng: random.Random) -> Action:
    hand = state.hands[seat]
    noise = rng.uniform(-1.2, 1.2)
    if state.circle == 1:
        open_card = state.open
        worth = strength(hand + [open_card], open_card[1]) * 0.9 + noise
        want = "play_trump" if worth >= 5.0 else "pass"
        return next(a for a in actions if a.type == want)
    named = [a for a in actions if a.type == "name_suit"]
    best = max(named, key=lambda a: strength(hand, a.suit or SUITS[0]))
    if strength(hand, best.suit or SUITS[0]) + noise >= 4.6 or len(named) == len(actions):
        return best
    return next(a for a in actions if a.type == "pass")


def _card(state, seat: int, actions: list[Action], rng: random.Random) -> Action:
    trump = state.trump
    if len(actions) == 1 or rng.random() < 0.12:
        return actions[rng.randrange(len(actions))]
    table = [c for _, c in state.trick]
    if not table:
        if rng.random() < 0.5:
            return max(actions, key=lambda a: (power(a.card, trump) + (8 if a.card[1] == trump else 0), a.card))
        return actions[rng.randrange(len(actions))]
    worth = sum(points(c, trump) for c in table)
    winners = [a for a in actions if trick_winner([*table, a.card], trump) == len(table)]
    if winners and (worth >= 4 or rng.random() < 0.4):
        return min(winners, key=lambda a: (points(a.card, trump), power(a.card, trump), a.card))
    return min(actions, key=lambda a: (points(a.card, trump), power(a.card, trump), a.card))


def choose(state, seat: int, actions: list[Action], rng: random.Random) -> Action:
    """One legal action for ``seat``, chosen the way a casual player would."""
    if state.phase == "play":
        return _card(state, seat, actions, rng)
    if state.phase == "bidding":
        return _bid(state, seat, actions, rng)
    return next(a for a in actions if a.type == "swap_seven")
