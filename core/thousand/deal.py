"""Dealing Thousand: a shuffled deal from the seed, and checking a deal given by a record."""

from __future__ import annotations

import random
from typing import Any

from core.base import BadDeal
from core.thousand.cards import DECK, DECK_SET

_SHUFFLE_STEPS = tuple((i, (i + 1).bit_length()) for i in range(len(DECK) - 1, 0, -1))


def talon_sizes(players: int) -> list[int]:
    return [2, 2] if players == 2 else [3]


def hand_size(players: int) -> int:
    return 10 if players == 2 else 7


def random_deal(players: int, dealer: int, rng: random.Random) -> dict[str, Any]:
    """Shuffle and deal: hands per seat (the 4p dealer gets none) and the talon(s)."""
    hands, talons = deal_cards(players, dealer, rng)
    return {"hands": hands, "talon": talons}


def deal_cards(players: int, dealer: int, rng: random.Random) -> tuple[list[list[str]], list[list[str]]]:
    """``random_deal`` as (hands, talons)."""
    deck = list(DECK)
    if type(rng) is random.Random:  # rng.shuffle(deck) written out: the same draws, the same order
        getrandbits = rng.getrandbits
        for i, k in _SHUFFLE_STEPS:  # k = (i + 1).bit_length(), as Random._randbelow(i + 1) draws
            j = getrandbits(k)
            while j > i:
                j = getrandbits(k)
            deck[i], deck[j] = deck[j], deck[i]
    else:
        rng.shuffle(deck)
    if players == 2:
        return [deck[0:10], deck[10:20]], [deck[20:22], deck[22:24]]
    if players == 3:
        return [deck[0:7], deck[7:14], deck[14:21]], [deck[21:24]]
    hands = [deck[0:7], deck[7:14], deck[14:21]]
    hands.insert(dealer, [])  # the 4p dealer sits out with no cards
    return hands, [deck[21:24]]


def check_deal(deal: Any, players: int, dealer: int) -> tuple[list[list[str]], list[list[str]]]:
    """Validate a record's deal (docs/records.md) and return (hands, talons); raises ``BadDeal``."""
    if not isinstance(deal, dict):
        raise BadDeal("the deal must be an object")
    unknown = set(deal) - {"hands", "talon"}
    if unknown:
        raise BadDeal(f"unknown deal field '{sorted(unknown)[0]}'")
    hands = deal.get("hands")
    talons = deal.get("talon")
    if not isinstance(hands, list) or len(hands) != players:
        raise BadDeal(f"the deal needs one hand per seat ({players})")
    if not isinstance(talons, list):
        raise BadDeal("the deal needs 'talon', a list of talons")
    sizes = talon_sizes(players)
    if len(talons) != len(sizes) or any(not isinstance(t, list) or len(t) != n for t, n in zip(talons, sizes)):
        shape = "two talons of 2 cards" if players == 2 else "one talon of 3 cards"
        raise BadDeal(f"{players} players need {shape}")
    size = hand_size(players)
    for seat, hand in enumerate(hands):
        want = 0 if players == 4 and seat == dealer else size
        if not isinstance(hand, list) or len(hand) != want:
            if players == 4 and seat == dealer:
                raise BadDeal(f"seat {seat} deals and sits out: its hand must be empty")
            raise BadDeal(f"seat {seat} must hold {size} cards")
    cards = [c for h in hands for c in h] + [c for t in talons for c in t]
    for c in cards:
        if not isinstance(c, str) or c not in DECK_SET:
            raise BadDeal(f"unknown card {c!r}")
    if len(set(cards)) != len(cards):
        dup = next(c for c in cards if cards.count(c) > 1)
        raise BadDeal(f"card {dup} is dealt twice")
    if len(cards) != len(DECK):
        raise BadDeal("the deal is not the whole 24-card deck")
    return [list(h) for h in hands], [list(t) for t in talons]
