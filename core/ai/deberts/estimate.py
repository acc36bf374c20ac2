"""Hand evaluation for Deberts: how a hand fares as the declarer with a given trump suit.

``features`` describes a hand with a trump suit: the trump jack, nine, ace and ten, the other trumps, side
aces and tens, short side suits, the runs and bella it holds, and whether it leads the first trick.
``margin`` turns them into the mean and spread of the declarer's points minus the best defender's (the
declarer makes it when that margin is above zero) through linear models fitted on play-outs between
``normal`` players (``python -m bench.fit_deberts``): one for the six cards held while bidding, one for the
nine cards of the final hand.
"""

from __future__ import annotations

import math

from core.cards import SUITS
from core.deberts.combinations import find_runs

FEATURES = (
    "trump_jack",
    "trump_nine",
    "trump_ace_ten",
    "other_trumps",
    "side_aces",
    "side_tens",
    "short_suits",
    "runs",
    "bella",
    "leads",
)

# (stage, players) -> (coefficients per feature, intercept, spread); fitted by bench/fit_deberts.py
MODELS: dict[tuple[str, int], tuple[tuple[float, ...], float, float]] = {
    ("bid", 2): ((44.4, 30.3, 20.5, 15.1, 11.7, 15.0, 0.7, 0.84, 1.29, 1.8), -49.2, 43.2),
    ("bid", 3): ((58.6, 42.0, 28.8, 22.4, 15.2, 9.6, -4.7, 0.80, 1.37, 0.8), -80.7, 44.5),
    ("final", 2): ((50.6, 36.3, 25.1, 16.8, 14.2, 15.2, -2.3, 0.94, 1.26, 2.0), -87.2, 34.6),
    ("final", 3): ((63.5, 44.8, 32.6, 20.7, 16.6, 11.4, -4.4, 0.85, 1.21, 1.7), -124.6, 34.7),
}


def features(hand: list[str], trump: str, leads: bool) -> tuple[float, ...]:
    ranks = {s: {c[0] for c in hand if c[1] == s} for s in SUITS}
    t = ranks[trump]
    side_aces = side_tens = short = 0.0
    for s in SUITS:
        if s == trump:
            continue
        r = ranks[s]
        if "A" in r:
            side_aces += 1
        if "T" in r:
            side_tens += 1 if "A" in r else 0.5
        if len(r) <= 1:
            short += 1
    runs = sum(r["points"] for r in find_runs(hand))
    return (
        float("J" in t),
        float("9" in t),
        float("A" in t) + float("T" in t),
        float(len(t - {"J", "9", "A", "T"})),
        side_aces,
        side_tens,
        short if t else 0.0,
        float(runs),
        20.0 if {"K", "Q"} <= t else 0.0,
        float(leads),
    )


def margin(hand: list[str], trump: str, leads: bool, stage: str, players: int) -> tuple[float, float]:
    """Mean and spread of (declarer's points - best defender's points) for this hand and trump."""
    coef, intercept, spread = MODELS[(stage, players)]
    f = features(hand, trump, leads)
    return intercept + sum(a * x for a, x in zip(coef, f)), spread


def declare_value(mean: float, spread: float, players: int) -> float:
    """Expected score difference of declaring: the margin when made, minus what a bait hands over.

    Made, the declarer is ahead of the others by about the margin; baited, he writes 0 and the defenders
    share all the points of the round (about 115 in play with two players, half of about 145 each with
    three).
    """
    z = mean / spread
    made = chance(mean, spread)
    gain = mean * made + spread * math.exp(-z * z / 2) / math.sqrt(2 * math.pi)
    loss = 115.0 if players == 2 else 72.0
    return gain - loss * (1.0 - made)


def chance(mean: float, spread: float) -> float:
    """Probability that the margin ~ Normal(mean, spread) is above zero (the declarer makes it)."""
    return 0.5 * math.erfc((0.5 - mean) / (spread * math.sqrt(2)))
