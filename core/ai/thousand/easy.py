"""The easy Thousand policy: a casual player's simple rules with randomness.

It bids on card points plus marriages with a noisy guess of the talon (a little more to stop a rival on the
barrel), gives its cheapest cards, names a contract from a noisy count of its final hand (raising the bid by
up to 30 when the count is well above it, conceding where allowed when the count is well below it --
sometimes wrongly, as the count is rough), declares a marriage when it sees one, and otherwise plays a high card or a
random one on lead and wins tricks cheaply when it can. It remembers nothing but the current trick.
"""

from __future__ import annotations

import random

from core.ai.thousand.cardplay import beats, trick_winner
from core.ai.thousand.table import Table
from core.base import Action
from core.thousand.cards import MARRIAGE, POINTS, STRENGTH, card_points, marriages_in


def decide(t: Table, rng: random.Random) -> Action:
    by_type: dict[str, list[Action]] = {}
    for a in t.legal:
        by_type.setdefault(a.type, []).append(a)
    hand = t.hand
    if t.phase == "bidding":
        bids, passes = by_type.get("bid", []), by_type.get("pass", [])
        target = card_points(hand) + sum(MARRIAGE[s] for s in marriages_in(hand)) + 20 + rng.randint(-15, 15)
        if any(t.barrel[s] and t.bids[s] != "pass" for s in t.active if s != t.seat):
            target += 15  # a rival on the barrel must not play for the game
        if t.barrel[t.seat] or not passes or (bids and bids[0].value <= target):  # type: ignore[operator]
            return bids[0] if bids else passes[0]
        return passes[0]
    if t.phase == "talon":
        return rng.choice(by_type["take_talon"])
    if t.phase == "give":
        keep = {r + s for s in marriages_in(hand) for r in "KQ"}
        gives = by_type["give"]
        return min(gives, key=lambda a: (a.card in keep, POINTS[a.card], rng.random()))  # type: ignore[index]
    if t.phase == "contract":
        return _contract(t, by_type, rng)
    plays = [a.card for a in by_type.get("play", [])]
    return Action(t.seat, "play", card=_card(t, plays, rng))  # type: ignore[arg-type]


def _contract(t: Table, by_type: dict[str, list[Action]], rng: random.Random) -> Action:
    """A rough count of the final hand: its card points, its marriages and what the tricks may bring."""
    hand = t.hand
    count = card_points(hand) + sum(MARRIAGE[s] for s in marriages_in(hand)) + 20 + rng.randint(-20, 20)
    values = by_type["contract"]
    bid: int = values[0].value  # type: ignore[assignment]
    if "concede" in by_type and count < bid - 30:
        return by_type["concede"][0]
    # it raises only by what the count leaves over the bid beyond a margin, at most 30
    fits = [a for a in values if a.value <= min(count - 30, bid + 30)]  # type: ignore[operator]
    return fits[-1] if fits else values[0]


def _card(t: Table, cards: list[str], rng: random.Random) -> str:
    hand = t.hand
    if not t.trick:
        if t.tricks_done > 0 and rng.random() < 0.85:
            for c in cards:
                if c[0] in "KQ" and ("Q" if c[0] == "K" else "K") + c[1] in hand:
                    return c
        if rng.random() < 0.5:
            return max(cards, key=lambda c: (STRENGTH[c], rng.random()))
        return rng.choice(cards)
    _seat, best = trick_winner(t.trick, t.trump)
    winning = [c for c in cards if beats(c, best, t.trump)]
    if winning and rng.random() < 0.8:
        return min(winning, key=lambda c: (STRENGTH[c], rng.random()))
    return min(cards, key=lambda c: (POINTS[c], rng.random()))
