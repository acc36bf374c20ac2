"""Hand evaluation for Thousand: how many points a hand should make as the declarer.

``features`` describes a hand by what wins tricks (top cards, tens guarded by aces, long suits),
marriages and half marriages (a K or Q whose partner the talon may bring). ``expected`` turns the
features into a mean and a spread of the declarer's round points (card points + marriages) through
linear models fitted on play-outs between ``normal`` players (``python -m bench.fit_thousand``): one
model before the talon (the bidding) and one for the final hand after the gives (the contract).
``chance`` is the probability of making a contract under a normal spread around that mean.
"""

from __future__ import annotations

import math
from collections.abc import Iterator

from core.cards import SUITS
from core.thousand.cards import MARRIAGE, POINTS

# Ranks high -> low: a "top run" is the unbroken run of a suit's highest cards held.
_HIGH = ("A", "T", "K", "Q", "J", "9")

FEATURES = ("marriages", "half_marriages", "top_points", "top_cards", "other_points", "long_cards", "voids")

# (stage, players) -> (coefficients per feature, intercept, spread); fitted by bench/fit_thousand.py
MODELS: dict[tuple[str, int], tuple[tuple[float, ...], float, float]] = {
    ("bid", 2): ((0.805, 0.109, 1.63, -1.515, 0.752, 5.16, 0.959), 8.8, 42.08),
    ("final", 2): ((0.803, 0.005, 1.611, 0.26, 0.812, 6.625, 0.581), -19.55, 30.59),
    ("bid", 3): ((0.767, 0.102, 2.575, -6.091, 0.401, 8.538, 3.531), 22.44, 48.51),
    ("final", 3): ((0.841, 0.009, 3.281, -10.327, 0.259, 12.068, 8.593), -22.09, 32.49),
}


def _suit_features(suit: str, ranks: set[str]) -> tuple[float, ...]:
    """One suit's share of ``features``: they are sums over the suits."""
    if not ranks:
        return (0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0)
    marriage = half = 0.0
    if "K" in ranks and "Q" in ranks:
        marriage = float(MARRIAGE[suit])
    elif "K" in ranks or "Q" in ranks:
        half = float(MARRIAGE[suit])
    run = 0
    top = 0
    for r in _HIGH:
        if r not in ranks:
            break
        run += 1
        top += POINTS[r + suit]
    total = sum(POINTS[r + suit] for r in ranks)
    return (marriage, half, float(top), float(run), float(total - top), float(max(0, len(ranks) - 3)), 0.0)


# card -> (suit index, bit); per suit index the share of every set of its ranks (a 6-bit mask)
_BIT = {r + s: (i, 1 << k) for i, s in enumerate(SUITS) for k, r in enumerate(_HIGH)}
_SHARES = [[_suit_features(s, {r for k, r in enumerate(_HIGH) if mask >> k & 1}) for mask in range(64)] for s in SUITS]


def masks_of(hand: list[str]) -> list[int]:
    """The hand as four 6-bit masks of ranks, one per suit (what ``features_of`` reads)."""
    masks = [0, 0, 0, 0]
    for c in hand:
        i, bit = _BIT[c]
        masks[i] |= bit
    return masks


def without(masks: list[int], cards: tuple[str, ...]) -> list[int]:
    """The masks of the hand less ``cards`` (cards it holds)."""
    out = list(masks)
    for c in cards:
        i, bit = _BIT[c]
        out[i] &= ~bit
    return out


def features(hand: list[str], ace_marriage: bool = False) -> tuple[float, ...]:
    return features_of(masks_of(hand), ace_marriage)


def features_of(masks: list[int], ace_marriage: bool = False) -> tuple[float, ...]:
    a, b, c, d = _SHARES[0][masks[0]], _SHARES[1][masks[1]], _SHARES[2][masks[2]], _SHARES[3][masks[3]]
    out = (
        a[0] + b[0] + c[0] + d[0],
        a[1] + b[1] + c[1] + d[1],
        a[2] + b[2] + c[2] + d[2],
        a[3] + b[3] + c[3] + d[3],
        a[4] + b[4] + c[4] + d[4],
        a[5] + b[5] + c[5] + d[5],
        a[6] + b[6] + c[6] + d[6],
    )
    if ace_marriage and masks[0] & masks[1] & masks[2] & masks[3] & 1:  # the ace is each suit's bit 0
        return (out[0] + 200, *out[1:])
    return out


def expected(hand: list[str], stage: str, players: int, ace_marriage: bool = False) -> tuple[float, float]:
    """Mean and spread of the declarer's round points for this hand (``stage`` "bid" or "final")."""
    return expected_of(masks_of(hand), stage, players, ace_marriage)


# (stage, 2 or 3 players, ace_marriage) -> {tuple of the hand's masks: (mean, spread)}: a seat evaluates the
# same hands again within a round (each bid, the gives, the contract), so ``expected_of`` remembers them
_KNOWN: dict[tuple[str, int, bool], dict[tuple[int, ...], tuple[float, float]]] = {}
_KNOWN_MAX = 20_000  # hands remembered per model before the memory starts afresh


def expected_of(masks: list[int], stage: str, players: int, ace_marriage: bool = False) -> tuple[float, float]:
    """``expected`` of the hand given by its ``masks_of`` (the same numbers whether remembered or computed)."""
    model = (stage, 2 if players == 2 else 3, ace_marriage)
    known = _KNOWN.get(model)
    if known is None:
        known = _KNOWN[model] = {}
    key = tuple(masks)
    result = known.get(key)
    if result is None:
        if len(known) >= _KNOWN_MAX:
            known.clear()
        coef, intercept, spread = MODELS[model[:2]]
        a0, a1, a2, a3, a4, a5, a6 = coef
        x0, x1, x2, x3, x4, x5, x6 = features_of(masks, ace_marriage)
        # the terms summed left to right as sum() would
        mean = intercept + (a0 * x0 + a1 * x1 + a2 * x2 + a3 * x3 + a4 * x4 + a5 * x5 + a6 * x6)
        result = known[key] = (mean, spread)
    return result


def means_without(
    masks: list[int], removals: Iterator[tuple[str, ...]], stage: str, players: int, ace_marriage: bool = False
) -> list[tuple[float, tuple[str, ...]]]:
    """``(expected_of(without(masks, cards), ...)[0], cards)`` for every ``cards`` of ``removals`` (the gives)."""
    model = (stage, 2 if players == 2 else 3, ace_marriage)
    known = _KNOWN.get(model)
    if known is None:
        known = _KNOWN[model] = {}
    out = []
    bits = _BIT
    for cards in removals:
        m = list(masks)
        for c in cards:
            i, bit = bits[c]
            m[i] &= ~bit
        result = known.get(tuple(m))
        if result is None:
            result = expected_of(m, stage, players, ace_marriage)
        out.append((result[0], cards))
    return out


def chance(mean: float, spread: float, contract: int) -> float:
    """Probability that points ~ Normal(mean, spread) reach the contract."""
    return 0.5 * math.erfc((contract - 0.5 - mean) / (spread * math.sqrt(2)))
