"""A guided random policy for Thousand: random, legal and plausible, so random games reach their end.

Used by ``core.randomplay`` (tests, benchmarks, search playouts of weak computer players). It bids on a
rough hand estimate with noise, gives away cheap cards, leads marriages, and tries to win tricks cheaply.
It reads only the acting seat's own hand and the public table.
"""

from __future__ import annotations

import random

from core.base import Action
from core.thousand.cards import PARTNER, POINTS, STRENGTH, card_points, marriage_value, marriages_in


def estimate(hand: list[str]) -> int:
    """Points a hand might make as declarer: its card points, its marriages, and a share of the rest."""
    return card_points(hand) + marriage_value(hand, False) + 25


_Random = random.Random
# the give key of a card as one number, ordered as ``(POINTS[c], STRENGTH[c])``
_GIVE_KEY = {c: 10 * POINTS[c] + STRENGTH[c] for c in POINTS}


def choose(state, seat: int, actions: list[Action], rng: random.Random) -> Action:  # noqa: ANN001
    # Written for speed (every step of every random game and rollout runs it): actions are read as tuples
    # (``a[1]`` type, ``a[2]`` value, ``a[3]`` card), ``rng.randint(a, b)`` is ``a + rng._randbelow(b - a + 1)``
    # and ``rng.choice(s)`` is ``s[rng._randbelow(len(s))]`` -- the same draws as the library calls; ``max`` and
    # ``min`` with ``(key, rng.random())`` are written out as loops: the same draws in the same order (one per
    # candidate), the same first best candidate, the same choice.
    phase = state.phase
    if phase == "play":
        if actions and actions[0][1] == "play" and actions[-1][1] == "play":
            plays = actions  # the usual case: nothing but cards
        else:
            plays = [a for a in actions if a[1] == "play"]
            if not plays:
                return actions[0]
        # the card (``_choose_card`` written out here: this runs for every card of every random game)
        trick = state.trick
        random_ = rng.random
        strength = STRENGTH
        if not trick:  # lead a marriage when one may be declared, else the strongest card (60 %) or any card
            if state.tricks_done > 0:
                hand = state.hands[seat]
                partner = PARTNER
                for a in plays:  # a K or Q whose partner is held
                    other = partner.get(a[3])
                    if other is not None and other in hand:
                        return a
            if random_() < 0.6:  # the strongest card, (strength, draw) compared as a pair
                best_a = plays[0]
                best_s = strength[best_a[3]]
                best_r = random_()
                for a in plays[1:]:
                    k = strength[a[3]]
                    r = random_()
                    if k > best_s or (k == best_s and r > best_r):
                        best_a, best_s, best_r = a, k, r
                return best_a
            n = len(plays)
            if type(rng) is _Random:  # rng._randbelow(n) written out as random.py has it: the same draws
                getrandbits = rng.getrandbits
                k = n.bit_length()
                r = getrandbits(k)
                while r >= n:
                    r = getrandbits(k)
                return plays[r]
            return plays[rng._randbelow(n)]  # rng.choice(plays)
        # follow: win cheaply if possible, else throw the cheapest card
        trump = state.trump
        best = trick[0][1]
        for _s, c in trick[1:]:
            if c[1] == best[1]:
                if strength[c] > strength[best]:
                    best = c
            elif c[1] == trump:
                best = c
        best_suit, best_strength = best[1], strength[best]
        best_a = None
        best_k = 0
        best_r = 0.0
        for a in plays:  # the cheapest winning card
            c = a[3]
            if strength[c] > best_strength if c[1] == best_suit else c[1] == trump:
                k = strength[c]
                r = random_()
                if best_a is None or k < best_k or (k == best_k and r < best_r):
                    best_a, best_k, best_r = a, k, r
        if best_a is not None:
            return best_a
        points = POINTS
        best_a = plays[0]
        best_k = points[best_a[3]]
        best_r = random_()
        for a in plays[1:]:  # else the cheapest card
            k = points[a[3]]
            r = random_()
            if k < best_k or (k == best_k and r < best_r):
                best_a, best_k, best_r = a, k, r
        return best_a
    hand = state.hands[seat]
    if phase == "bidding":
        # the engine lists [redeal] [pass] then the bids in rising order: the affordable bids are a prefix
        first = 0
        n = len(actions)
        pass_a = None  # the pass, when the seat may pass
        while first < n and actions[first][1] != "bid":
            if pass_a is None and actions[first][1] == "pass":
                pass_a = actions[first]
            first += 1
        if type(rng) is _Random:  # rng._randbelow(26) written out as random.py has it: the same draws
            r = rng.getrandbits(5)
            while r >= 26:
                r = rng.getrandbits(5)
        else:
            r = rng._randbelow(26)
        # estimate(hand), rng.randint(-15, 10)
        target = card_points(hand) + marriage_value(hand, False) + 25 + r - 15
        if first < n and (pass_a is None or actions[first][2] <= target):
            limit = max(target, actions[first][2])
            end = first + 1
            while end < n and end - first < 4 and actions[end][2] <= limit:
                end += 1
            if rng.random() < 0.7:
                return actions[first]
            return actions[first + rng._randbelow(end - first)]  # rng.choice(actions[first:end])
        return actions[first] if pass_a is None else pass_a
    if phase == "talon":
        # max over card points + rng.random() of the talon choices (a qualifying declarer may also redeal)
        best_a = None
        best_k = 0.0
        for a in actions:
            if a[1] == "take_talon":
                k = card_points(state.talons[a[5]]) + rng.random()
                if best_a is None or k > best_k:
                    best_a, best_k = a, k
        if best_a is None:
            raise ValueError("max() arg is an empty sequence")
        return best_a
    if phase == "give":
        # the cheapest give: min over (card in a marriage, POINTS, STRENGTH, rng.random()) in list order; the
        # integer part decides first, so the draws (one per give, in order) only break its ties
        married = marriages_in(hand)
        keep = {r + s for s in married for r in "KQ"} if married else ()
        give_key = _GIVE_KEY
        if actions and actions[0][1] == "give" and actions[-1][1] == "give":
            gives = actions  # the usual case: nothing but gives
        else:
            gives = [a for a in actions if a[1] == "give"]
        if not gives:
            raise ValueError("min() arg is an empty sequence")
        random_ = rng.random
        best_a = None
        best_k = 0
        best_d = 0.0
        for a in gives:  # the first lowest (key, draw), one draw per give in order
            c = a[3]
            k = give_key[c] + 1000 if c in keep else give_key[c]
            d = random_()
            if best_a is None or k < best_k or (k == best_k and d < best_d):
                best_a, best_k, best_d = a, k, d
        return best_a
    if phase == "contract":
        lowest = actions[0]  # the bid itself, listed first (after a redeal when one is possible)
        if lowest[1] != "contract":
            lowest = next(a for a in actions if a[1] == "contract")
        concede = actions[-1]  # listed last when possible
        if concede[1] != "concede":
            concede = next((a for a in reversed(actions) if a[1] == "concede"), None)
        if concede is not None and estimate(hand) - 25 + 15 < lowest[2] - 40 and rng.random() < 0.5:
            return concede
        return lowest
    plays = [a for a in actions if a.type == "play"]
    return plays[0] if plays else actions[0]
