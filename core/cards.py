"""Playing-card notation shared by Thousand and Deberts: ``AS``, ``TH``, ``9C`` (rank then suit, ASCII)."""

from __future__ import annotations

SUITS = ("S", "C", "D", "H")  # spades, clubs, diamonds, hearts
SUIT_SYMBOLS = {"S": "♠", "C": "♣", "D": "♦", "H": "♥"}
ALL_RANKS = ("7", "8", "9", "T", "J", "Q", "K", "A")


def suit_of(card: str) -> str:
    return card[1]


def rank_of(card: str) -> str:
    return card[0]


def make_deck(ranks: tuple[str, ...]) -> list[str]:
    """All cards of the given ranks in every suit, in a fixed order."""
    return [r + s for s in SUITS for r in ranks]


def is_card(text: object, deck: frozenset[str]) -> bool:
    return isinstance(text, str) and text in deck


def pretty(card: str) -> str:
    """``TH`` -> ``10♥`` for messages."""
    rank = "10" if card[0] == "T" else card[0]
    return rank + SUIT_SYMBOLS[card[1]]
