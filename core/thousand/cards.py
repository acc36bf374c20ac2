"""Thousand's 24-card deck: ranks, card points, marriages and bidding caps."""

from __future__ import annotations

from core.cards import SUITS, make_deck

RANKS = ("9", "J", "Q", "K", "T", "A")  # low -> high
DECK: tuple[str, ...] = tuple(make_deck(RANKS))
DECK_SET = frozenset(DECK)

POINTS = {c: {"9": 0, "J": 2, "Q": 3, "K": 4, "T": 10, "A": 11}[c[0]] for c in DECK}
STRENGTH = {c: RANKS.index(c[0]) for c in DECK}
MARRIAGE = {"S": 40, "C": 60, "D": 80, "H": 100}
ACE_MARRIAGE = 200
ACES = frozenset("A" + s for s in SUITS)


PARTNER = {r + s: ("Q" if r == "K" else "K") + s for r in "KQ" for s in SUITS}  # the other half of a marriage
_PAIRS = tuple(("K" + s, "Q" + s, s, MARRIAGE[s]) for s in SUITS)  # suit order, as SUITS


def card_points(cards: list[str]) -> int:
    return sum(map(POINTS.__getitem__, cards))


def marriages_in(cards: list[str] | set[str]) -> list[str]:
    """Suits whose K and Q are both among the cards."""
    return [s for k, q, s, _v in _PAIRS if k in cards and q in cards]


def marriage_value(cards: list[str], ace_marriage: bool) -> int:
    """Total value of the marriages among the cards (plus the ace marriage when that option is on)."""
    total = 0
    # one string of the cards (2 characters each): "KS" is found in it exactly when KS is one of the cards
    joined = "".join(cards)
    for k, q, _s, value in _PAIRS:
        if k in joined and q in joined:
            total += value
    if ace_marriage and ACES.issubset(cards):
        total += ACE_MARRIAGE
    return total


def bid_cap(cards: list[str], ace_marriage: bool, on_barrel: bool) -> int:
    """The highest bid or contract this hand allows: 120 + marriages (at least 121 on the barrel)."""
    cap = 120 + marriage_value(cards, ace_marriage)
    return max(cap, 121) if on_barrel else cap


def round_defender(points: int) -> int:
    """Round to a multiple of 5: remainder 1-2 down, 3-4 up (57 -> 55, 58 -> 60)."""
    return (points + 2) // 5 * 5


def half_up5(value: int) -> int:
    """Half of a contract rounded up to a multiple of 5 (what defenders get on a concede)."""
    return -(-value // 10) * 5


def sort_key(card: str, trump: str | None = None) -> tuple[int, int]:
    """Sort by suit (trump first) then rank high -> low."""
    suit = card[1]
    order = 0 if suit == trump else 1 + SUITS.index(suit)
    return (order, -STRENGTH[card])
