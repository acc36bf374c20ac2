"""The normal Thousand policy: bidding on the hand's expected points, sensible gives and contracts, and the
card play of ``cardplay``. Deterministic but for ties; also the play-out policy of the strong search.
"""

from __future__ import annotations

import random
from itertools import combinations

from bench.baseline.thousand.cardplay import choose_card
from bench.baseline.thousand.estimate import chance, expected
from bench.baseline.thousand.table import Table
from core.base import Action
from core.thousand.cards import MARRIAGE, POINTS, STRENGTH, marriages_in

MAKE = 0.55  # the chance of making a bid or a contract that the normal player wants


def decide(t: Table, rng: random.Random) -> Action:
    legal = t.legal
    by_type: dict[str, list[Action]] = {}
    for a in legal:
        by_type.setdefault(a.type, []).append(a)
    if "redeal" in by_type and wants_redeal(t):
        return by_type["redeal"][0]
    phase = t.phase
    if phase == "bidding":
        return bid(t, by_type)
    if phase == "talon":
        return by_type["take_talon"][rng.randrange(len(by_type["take_talon"]))]
    if phase == "give":
        return give(t, by_type)
    if phase == "contract":
        return contract(t, by_type)
    plays = by_type.get("play", [])
    card = choose_card(t, [a.card for a in plays])  # type: ignore[misc]
    return Action(t.seat, "play", card=card)


def wants_redeal(t: Table) -> bool:
    if t.phase == "give":  # a talon of nines: a redeal is better than a contract on a poor hand
        mean, spread = expected(t.hand, "final", t.players, t.options.ace_marriage)
        return chance(mean, spread, t.bid or 100) < 0.5
    mean, _spread = expected(t.hand, "bid", t.players, t.options.ace_marriage)
    return mean < 95


def bid(t: Table, by_type: dict[str, list[Action]]) -> Action:
    bids = by_type.get("bid", [])
    passes = by_type.get("pass", [])
    if not bids:
        return passes[0]
    me = t.seat
    lowest = bids[0]
    if t.barrel[me]:
        if lowest.value == 121:
            return lowest  # an attempt counts anyway and a failed 121 costs nothing
        mean, spread = expected(t.hand, "bid", t.players, t.options.ace_marriage)
        if chance(mean, spread, lowest.value) >= 0.6 or not passes:  # type: ignore[arg-type]
            return lowest
        return passes[0]
    if not passes:
        return lowest
    mean, spread = expected(t.hand, "bid", t.players, t.options.ace_marriage)
    want = MAKE
    if t.bid is not None and any(t.barrel[s] and t.bids[s] == t.bid for s in t.active if s != me):
        want = 0.4  # stop the player on the barrel from playing for the game
    if chance(mean, spread, lowest.value) >= want:  # type: ignore[arg-type]
        return lowest
    return passes[0]


def give_penalty(card: str, unseen: set[str]) -> float:
    """What handing this card to a defender costs beyond the hand's own loss."""
    pen = POINTS[card] * 0.5
    if card[0] in "KQ" and ("Q" if card[0] == "K" else "K") + card[1] in unseen:
        pen += MARRIAGE[card[1]] * 0.25  # it may complete the receiver's marriage
    return pen


def give_choices(t: Table, count: int) -> list[tuple[float, tuple[str, ...]]]:
    """Sets of ``count`` cards to give, best first, scored by the final hand they leave (minus the risks).

    Only the seven cheapest cards are considered (aces, marriage cards and tens last), which keeps the
    search small without missing a sensible give.
    """
    hand = t.hand
    unseen = t.unseen()
    keep = {r + s for s in marriages_in(hand) for r in "KQ"}
    pool = sorted(hand, key=lambda c: (c in keep, POINTS[c], STRENGTH[c], c))[:7]
    scored = []
    for combo in combinations(sorted(pool), count):
        rest = [c for c in hand if c not in combo]
        mean, _ = expected(rest, "final", t.players, t.options.ace_marriage)
        scored.append((mean - sum(give_penalty(c, unseen) for c in combo), combo))
    scored.sort(key=lambda x: (-x[0], x[1]))
    return scored


def best_gives(t: Table, count: int) -> tuple[str, ...]:
    """The ``count`` cards whose loss leaves the best final hand."""
    return give_choices(t, count)[0][1]


def give(t: Table, by_type: dict[str, list[Action]]) -> Action:
    gives = by_type["give"]
    receivers = sorted({a.to for a in gives})  # type: ignore[type-var]
    cards = best_gives(t, len(receivers))
    # the costlier card goes to the receiver with the lower total
    card = max(cards, key=lambda c: (POINTS[c], STRENGTH[c], c))
    to = min(receivers, key=lambda r: (t.totals[r], r))  # type: ignore[index]
    return Action(t.seat, "give", card=card, to=to)


def contract(t: Table, by_type: dict[str, list[Action]]) -> Action:
    values = by_type["contract"]
    mean, spread = expected(t.hand, "final", t.players, t.options.ace_marriage)
    if "concede" in by_type and chance(mean, spread, values[0].value) < 0.08:  # type: ignore[arg-type]
        return by_type["concede"][0]

    def worth(a: Action) -> float:
        p = chance(mean, spread, a.value)  # type: ignore[arg-type]
        return a.value * (2 * p - 1)  # type: ignore[operator]

    return max(values, key=lambda a: (worth(a), -a.value))  # type: ignore[operator]
