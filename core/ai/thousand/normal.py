"""The normal Thousand policy: bidding and contracts on the hand's expected value and the score situation,
sensible gives, conceding a hopeless contract, and the card play of ``cardplay``. Deterministic but for the
blind choice of a talon (2 players); also the play-out policy of the strong search.

The value of declaring at ``v`` is ``v * (2p - 1)`` (``p``: the chance the hand makes ``v``, from the fitted
hand model of ``estimate``, which counts the marriages held and what the talon may bring) plus what the
score situation adds (``situation``): climbing on the barrel with it, a third bolt a defender may get, a
failure that would sink the total below the bidding floor. It bids while that value beats passing
(``PASS_WORTH``), much more readily to stop a rival on the barrel, and less readily over the first hand's
forced opening of 100 (``OVERCALL``). docs/computer-players.md explains it.
"""

from __future__ import annotations

import random
from itertools import combinations
from operator import itemgetter

from core.ai.thousand.cardplay import choose_card
from core.ai.thousand.estimate import chance, contract_expected, expected, scores_without
from core.ai.thousand.memory import hand_bits, marriages_held
from core.ai.thousand.table import Table
from core.base import Action
from core.thousand.cards import DECK, MARRIAGE, POINTS, STRENGTH, half_up5, marriages_in

BARREL = 880
PASS_WORTH = 16.0  # bid while declaring is worth at least this (tuned in self-play against bench.baseline)
CLIMB = 40.0  # worth of climbing on the barrel with a made contract (times its chance)
FALL = 120.0  # what a rival loses when he falls off the barrel because this seat climbs on
STOP_BARREL = 30.0  # worth of keeping a rival on the barrel from playing for the game
BOLT_RISK = 12.0  # worth of declaring (a declarer rarely goes without a trick) with two bolts already
FLOOR_RISK = 40.0  # cost of a failure that sinks the total below the bidding floor (times its chance)
OVERCALL = 15.0  # more worth needed to overcall the first hand's forced opening of 100 (tuned as PASS_WORTH)
OPEN_SURE = 0.65  # the first hand opens above 100 at values it makes at least this often
OPEN_FAIR = 0.25  # ... and at 105 (the lowest above 100) when it makes 105 at least this often
MARRIAGE_OUT = 0.3  # chance that the defenders hold and declare a marriage of which this hand has no card


def decide(t: Table, rng: random.Random) -> Action:
    legal = t.legal
    if t.phase == "play":  # (the most frequent decision, sorted out at once: no redeal is legal while playing)
        return play_card(legal, choose_card(t, [a.card for a in legal if a.type == "play"]))  # type: ignore[misc]
    by_type: dict[str, list[Action]] = {}
    for a in legal:
        same = by_type.get(a.type)
        if same is None:
            by_type[a.type] = [a]
        else:
            same.append(a)
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
    return play_card(plays, choose_card(t, [a.card for a in plays]))  # type: ignore[misc]


def play_card(legal: list[Action], card: str) -> Action:
    """The legal action that plays ``card``: the engine's own object, equal to ``Action(seat, "play", card=card)``
    (returning it saves making a new one, and the engine and the legality check recognise it at once)."""
    for a in legal:
        if a.card == card and a.type == "play":
            return a
    raise AssertionError(f"{card} is not a legal card")


def wants_redeal(t: Table) -> bool:
    if t.phase == "give":  # a talon of nines: a redeal is better than a contract on a poor hand
        mean, spread = expected(t.hand, "final", t.players, t.options.ace_marriage)
        return chance(mean, spread, t.bid or 100) < 0.5
    mean, _spread = expected(t.hand, "bid", t.players, t.options.ace_marriage)
    return mean < 95


def situation(t: Table, v: int, p: float) -> float:
    """What the score situation adds to the worth of declaring (and playing) ``v`` with chance ``p``."""
    me = t.seat
    total = t.totals[me]
    extra = 0.0
    if not t.barrel[me] and total < BARREL <= total + v:
        rivals_on = sum(1 for s in range(t.players) if s != me and t.barrel[s])
        extra += (CLIMB + FALL * rivals_on / (t.players - 1)) * p  # a rival on the barrel falls off, -120
    if t.bolts[me] == 2:
        extra += BOLT_RISK
    floor = t.options.bidding_floor
    if floor > -1000 and total - v < floor <= total:
        extra -= FLOOR_RISK * (1 - p)
    return extra


def worth(t: Table, v: int, mean: float, spread: float) -> float:
    """The worth of declaring or playing ``v``: its expected result plus the situation."""
    p = chance(mean, spread, v)
    return v * (2 * p - 1) + situation(t, v, p)


def rival_on_barrel_bidding(t: Table) -> bool:
    """Is a rival on the barrel still in the bidding (so he may play for the game)?"""
    return any(t.barrel[s] and t.bids[s] != "pass" for s in t.active if s != t.seat)


def bid(t: Table, by_type: dict[str, list[Action]]) -> Action:
    bids = by_type.get("bid", [])
    passes = by_type.get("pass", [])
    if not bids:
        return passes[0]
    me = t.seat
    lowest = bids[0]
    v: int = lowest.value  # type: ignore[assignment]
    if t.barrel[me]:
        if v == 121:
            return lowest  # an attempt counts anyway and a failed 121 costs nothing
        mean, spread = expected(t.hand, "bid", t.players, t.options.ace_marriage)
        if chance(mean, spread, v) >= 0.6 or not passes:
            return lowest
        return passes[0]
    mean, spread = expected(t.hand, "bid", t.players, t.options.ace_marriage)
    if not passes:  # the opening call: a strong hand opens at the value it expects to play, a fair one at 105
        sure = [a for a in bids if chance(mean, spread, a.value) >= OPEN_SURE]  # type: ignore[arg-type]
        if sure:
            return sure[-1]
        if len(bids) > 1 and chance(mean, spread, bids[1].value) >= OPEN_FAIR:  # type: ignore[arg-type]
            return bids[1]
        return lowest
    value = worth(t, v, mean, spread)
    if v == 105 and t.bids[t.first_hand] == 100 and t.totals[me] + v < BARREL:
        value -= OVERCALL  # the first hand had to open: passing lets a weak opener play his 100
    if rival_on_barrel_bidding(t):
        value += STOP_BARREL
    return lowest if value >= PASS_WORTH else passes[0]


def give_penalty(card: str) -> float:
    """What handing this card to a defender costs beyond the hand's own loss: half its points.

    A K or Q whose partner is out is given like any other card: a defender completes and declares such a
    marriage too seldom for it to matter (charging a share of the marriage for it lost games against
    ``bench.baseline``: 1,013 wins of 2,400 at a tenth, 1,037 at none; 444 of 1,200 at a quarter).
    """
    return POINTS[card] * 0.5


def give_choices(t: Table, count: int) -> list[tuple[float, tuple[str, ...]]]:
    """Sets of ``count`` cards to give, best first, scored by the final hand they leave (minus the points
    handed over)."""
    scored = scored_gives(t, count)
    scored.sort(key=_best_first)
    return scored


def _best_first(scored: tuple[float, tuple[str, ...]]) -> tuple[float, tuple[str, ...]]:
    return -scored[0], scored[1]


def scored_gives(t: Table, count: int) -> list[tuple[float, tuple[str, ...]]]:
    """``(score, cards)`` of every set of ``count`` cards to give, the sets in increasing order.

    Only the seven cheapest cards are considered (aces, marriage cards and tens last), which keeps the
    search small without missing a sensible give.
    """
    hand = t.hand
    key = hand_bits(hand)
    pool = cheapest_first(hand, marriages_held(key)[1])[:7]
    penalty = {c: give_penalty(c) for c in pool}
    return scores_without(key, combinations(sorted(pool), count), penalty, "final", t.players, t.options.ace_marriage)


# every card's place in the order of (points, strength, card): a total order, so sorting by it is sorting by them
_CHEAP = {c: i for i, c in enumerate(sorted(DECK, key=lambda c: (POINTS[c], STRENGTH[c], c)))}


def cheapest_first(hand: list[str], keep: frozenset[str]) -> list[str]:
    """The hand by (is in ``keep``, points, strength, card): the cheapest cards to give first, the cards to
    keep (those of the marriages held) last."""
    ordered = sorted(hand, key=_CHEAP.__getitem__)
    if not keep:
        return ordered
    return [c for c in ordered if c not in keep] + [c for c in ordered if c in keep]


def best_gives(t: Table, count: int) -> tuple[str, ...]:
    """The ``count`` cards whose loss leaves the best final hand: the first of ``give_choices``, without
    sorting them all. ``scored_gives`` lists the sets in increasing order and ``max`` keeps the first of equal
    scores, so a tie goes to the smallest set, as in ``give_choices``."""
    return max(scored_gives(t, count), key=itemgetter(0))[1]


def give(t: Table, by_type: dict[str, list[Action]]) -> Action:
    gives = by_type["give"]
    receivers = sorted({a.to for a in gives})  # type: ignore[type-var]
    cards = best_gives(t, len(receivers))
    # the costlier card goes to the receiver with the lower total
    card = max(cards, key=lambda c: (POINTS[c], STRENGTH[c], c))
    to = min(receivers, key=lambda r: (t.totals[r], r))  # type: ignore[index]
    for a in gives:  # the engine's own action, equal to Action(t.seat, "give", card=card, to=to)
        if a.card == card and a.to == to:
            return a
    return Action(t.seat, "give", card=card, to=to)


def contract(t: Table, by_type: dict[str, list[Action]]) -> Action:
    values = by_type["contract"]
    if t.barrel[t.seat] and values[0].value == 121:
        return values[0]  # any made contract wins the game: 121 is the surest, and the others stand still
    if "concede" in by_type:  # conceding brings no bolt either
        # whether to play at all is judged by the one model, as before: judged by the kinds' models the player
        # conceded more and won no more (1,069 against 1,075 of 2,400 against ``bench.baseline``)
        mean, spread = expected(t.hand, "final", t.players, t.options.ace_marriage)
        first = best_value(t, values, mean, spread)
        play_worth = worth(t, first.value, mean, spread) - (BOLT_RISK if t.bolts[t.seat] == 2 else 0)  # type: ignore[arg-type]
        if concede_is_better(t, mean, spread, play_worth):
            return by_type["concede"][0]
    # the value: by the model of the hand's kind (its marriages, an ace), whose spread fits the hand
    return best_value(t, values, *contract_expected(t.hand, t.players, t.options.ace_marriage))


def best_value(t: Table, values: list[Action], mean: float, spread: float) -> Action:
    """The contract of ``values`` with the best worth under this mean and spread (the lower of equal ones)."""
    return max(values, key=lambda a: (worth(t, a.value, mean, spread), -a.value))  # type: ignore[arg-type]


def concede_is_better(t: Table, mean: float, spread: float, play_worth: float) -> bool:
    """Does conceding cost less than playing, counted as my result minus the defenders' mean result?

    Conceding loses the bid (or, without the penalty, brings a bolt) and gives each defender half the bid;
    playing is worth ``play_worth`` to me and gives each defender his card points and the marriages he
    declares: the card points my hand will not take and the marriages of suits I hold no card of.
    """
    me = t.seat
    bid: int = t.bid  # type: ignore[assignment]
    defenders = len(t.active) - 1
    lose = bid if t.options.concede_penalty else (120 if t.bolts[me] == 2 else 40)
    conceding = -lose - half_up5(bid)
    held = set(t.hand)
    mine = sum(MARRIAGE[s] for s in marriages_in(t.hand))
    theirs = sum(MARRIAGE[s] * MARRIAGE_OUT for s in MARRIAGE if "K" + s not in held and "Q" + s not in held)
    cards_taken = min(120.0, max(0.0, mean - mine))
    playing = play_worth - ((120 - cards_taken) + theirs) / defenders
    return conceding > playing
