"""Hand evaluation for Thousand: how many points a hand should make as the declarer.

``features`` describes a hand by what wins tricks (top cards, tens guarded by aces, long suits),
marriages and half marriages (a K or Q whose partner the talon may bring). ``expected`` turns the
features into a mean and a spread of the declarer's round points (card points + marriages) through
linear models fitted on play-outs between ``normal`` players (``python -m bench.fit_thousand``): one
model before the talon (the bidding) and one for the final hand after the gives (the contract).
``chance`` is the probability of making a contract under a normal spread around that mean.

The contract (``contract_expected``) has models of its own, one per kind of final hand: no marriage, one,
two or more, each with or without an ace. The points of these kinds spread very differently (a marriage
with an ace to win the first trick is declared almost surely; the second of two marriages needs the lead
back), which one model with one spread for every hand cannot say.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from operator import add, mul

from core.ai.thousand.memory import CARD_BIT, hand_bits, marriages_held
from core.cards import SUITS
from core.thousand.cards import MARRIAGE, POINTS, STRENGTH

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


# (players, marriages held (2: two or more), holds an ace) -> (coefficients of the ``features`` and the aces
# held, intercept, spread) of the final hand's points; fitted by bench/fit_thousand.py
CONTRACT_MODELS: dict[tuple[int, int, bool], tuple[tuple[float, ...], float, float]] = {
    (2, 0, False): ((0.0, 0.082, 0.0, 0.0, 1.287, -4.234, 4.345, 0.0), -40.52, 11.78),
    (2, 0, True): ((0.0, -0.022, 1.607, -1.882, 0.572, 2.528, 8.845, -2.093), -0.37, 12.59),
    (2, 1, False): ((0.491, -0.087, 0.0, 0.0, 2.494, -10.27, -13.433, 0.0), -58.05, 49.76),
    (2, 1, True): ((1.005, 0.031, 1.466, -2.52, 0.476, 3.508, 6.029, 0.227), -1.14, 14.93),
    (2, 2, False): ((0.008, -0.105, 0.0, 0.0, 3.23, -15.649, 21.434, 0.0), -47.62, 65.92),
    (2, 2, True): ((0.636, -0.004, 1.716, -1.112, 1.695, 9.666, -12.205, 7.861), -30.33, 37.44),
    (3, 0, False): ((0.0, -0.013, 0.0, 0.0, 0.715, -6.128, 3.261, 0.0), -9.27, 18.64),
    (3, 0, True): ((0.0, -0.011, 2.216, -5.652, 0.092, 9.764, 7.825, 2.493), -8.71, 16.9),
    (3, 1, False): ((0.21, -0.03, 0.0, 0.0, 1.122, -6.68, 0.236, 0.0), -23.43, 41.97),
    (3, 1, True): ((0.972, -0.02, 2.126, -6.988, 0.522, 8.922, 15.232, 7.501), -13.55, 19.13),
    (3, 2, False): ((0.129, -0.001, 0.0, 0.0, 1.526, -13.301, 12.182, 0.0), -48.11, 48.67),
    (3, 2, True): ((0.705, -0.034, 0.267, 2.972, 1.539, 3.21, 33.101, 31.217), -54.04, 45.98),
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


# per suit index the share of every set of its cards, a 6-bit mask as in ``CARD_BIT`` (bit k: strength k)
_SHARES = [[_suit_features(s, {r for r in _HIGH if mask >> STRENGTH[r + s] & 1}) for mask in range(64)] for s in SUITS]


def features(hand: list[str], ace_marriage: bool = False) -> tuple[float, ...]:
    """The hand's ``FEATURES`` (what the fitted models weigh)."""
    return _features_of_key(hand_bits(hand), ace_marriage)


_ACES_KEY = hand_bits(["A" + s for s in SUITS])
# the features of two suits at once, by their 12 bits: spades and clubs (the key's low half), diamonds and
# hearts (its high half). Every feature is a whole number, so these sums equal the suit-by-suit sums exactly.
_LOW = [tuple(map(add, _SHARES[0][k & 63], _SHARES[1][k >> 6])) for k in range(4096)]
_UP = [tuple(map(add, _SHARES[2][k & 63], _SHARES[3][k >> 6])) for k in range(4096)]


def _features_of_key(key: int, ace_marriage: bool) -> tuple[float, ...]:
    out = tuple(map(add, _LOW[key & 4095], _UP[key >> 12]))
    if ace_marriage and key & _ACES_KEY == _ACES_KEY:
        return (out[0] + 200, *out[1:])
    return out


def expected(hand: list[str], stage: str, players: int, ace_marriage: bool = False) -> tuple[float, float]:
    """Mean and spread of the declarer's round points for this hand (``stage`` "bid" or "final")."""
    model, known = _known(stage, players, ace_marriage)
    key = hand_bits(hand)
    result = known.get(key)
    return _evaluate(key, model, known) if result is None else result


# (stage, 2 or 3 players, ace_marriage) -> {the hand's ``hand_bits``: (mean, spread)}: a seat evaluates the same
# hands again within a round (each bid, the gives, the contract), so ``expected`` remembers them
Model = tuple[str, int, bool]
Known = dict[int, tuple[float, float]]
_KNOWN: dict[Model, Known] = {}
_KNOWN_MAX = 20_000  # hands remembered per model before the memory starts afresh


def _known(stage: str, players: int, ace_marriage: bool) -> tuple[Model, Known]:
    """The model of a stage and seat count, and the hands it has evaluated so far."""
    model = (stage, 2 if players == 2 else 3, ace_marriage)
    known = _KNOWN.get(model)
    if known is None:
        known = _KNOWN[model] = {}
    return model, known


def _evaluate(key: int, model: Model, known: Known) -> tuple[float, float]:
    """Mean and spread of the hand ``key`` under ``model``, computed and remembered in ``known``."""
    if len(known) >= _KNOWN_MAX:
        known.clear()
    coef, intercept, spread = MODELS[model[:2]]
    a0, a1, a2, a3, a4, a5, a6 = coef
    x0, x1, x2, x3, x4, x5, x6 = _features_of_key(key, model[2])
    # the terms summed left to right as sum() would
    mean = intercept + (a0 * x0 + a1 * x1 + a2 * x2 + a3 * x3 + a4 * x4 + a5 * x5 + a6 * x6)
    result = known[key] = (mean, spread)
    return result


def scores_without(
    hand: int,
    removals: Iterator[tuple[str, ...]],
    cost: dict[str, float],
    stage: str,
    players: int,
    ace_marriage: bool = False,
) -> list[tuple[float, tuple[str, ...]]]:
    """``(mean - sum of the cards' cost, cards)`` for every ``cards`` of ``removals`` (the gives): ``mean`` is the
    ``expected`` mean of the hand less those cards, the hand given by its ``hand_bits``."""
    model, known = _known(stage, players, ace_marriage)
    bits = CARD_BIT
    out = []
    for cards in removals:
        key = hand
        total = 0  # (summed as sum() would)
        for c in cards:
            key ^= bits[c]  # (a card of the hand: its bit is set)
            total += cost[c]
        result = known.get(key)
        if result is None:
            result = _evaluate(key, model, known)
        out.append((result[0] - total, cards))
    return out


def hand_kind(key: int) -> tuple[int, bool]:
    """The kind of a hand (its ``hand_bits``) for ``CONTRACT_MODELS``: marriages held (2: two or more), an ace held."""
    return min(2, len(marriages_held(key)[0])), bool(key & _ACES_KEY)


def contract_features(key: int, ace_marriage: bool = False) -> tuple[float, ...]:
    """What ``CONTRACT_MODELS`` weigh of a hand (its ``hand_bits``): its ``features`` and the aces it holds."""
    return (*_features_of_key(key, ace_marriage), float((key & _ACES_KEY).bit_count()))


def contract_expected(hand: list[str], players: int, ace_marriage: bool = False) -> tuple[float, float]:
    """Mean and spread of the declarer's points for his final hand by the model of its kind (``CONTRACT_MODELS``)."""
    key = hand_bits(hand)
    coef, intercept, spread = CONTRACT_MODELS[(2 if players == 2 else 3, *hand_kind(key))]
    return intercept + sum(map(mul, coef, contract_features(key, ace_marriage))), spread


def chance(mean: float, spread: float, contract: int) -> float:
    """Probability that points ~ Normal(mean, spread) reach the contract."""
    return 0.5 * math.erfc((contract - 0.5 - mean) / (spread * _SQRT2))


_SQRT2 = math.sqrt(2)
