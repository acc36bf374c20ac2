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


def features(hand: list[str], ace_marriage: bool = False) -> tuple[float, ...]:
    by_suit: dict[str, set[str]] = {s: set() for s in SUITS}
    for c in hand:
        by_suit[c[1]].add(c[0])
    marriages = 0.0
    half = 0.0
    top_points = 0.0
    top_cards = 0.0
    long_cards = 0.0
    voids = 0.0
    for s in SUITS:
        ranks = by_suit[s]
        if not ranks:
            voids += 1
            continue
        if "K" in ranks and "Q" in ranks:
            marriages += MARRIAGE[s]
        elif "K" in ranks or "Q" in ranks:
            half += MARRIAGE[s]
        run = 0
        for r in _HIGH:
            if r not in ranks:
                break
            run += 1
            top_points += POINTS[r + s]
        top_cards += run
        long_cards += max(0, len(ranks) - 3)
    if ace_marriage and all("A" in by_suit[s] for s in SUITS):
        marriages += 200
    total = sum(POINTS[c] for c in hand)
    return (marriages, half, top_points, top_cards, total - top_points, long_cards, voids)


def expected(hand: list[str], stage: str, players: int, ace_marriage: bool = False) -> tuple[float, float]:
    """Mean and spread of the declarer's round points for this hand (``stage`` "bid" or "final")."""
    coef, intercept, spread = MODELS[(stage, 2 if players == 2 else 3)]
    f = features(hand, ace_marriage)
    return intercept + sum(a * x for a, x in zip(coef, f)), spread


def chance(mean: float, spread: float, contract: int) -> float:
    """Probability that points ~ Normal(mean, spread) reach the contract."""
    return 0.5 * math.erfc((contract - 0.5 - mean) / (spread * math.sqrt(2)))
