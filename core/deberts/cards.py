"""The Deberts deck: 32 cards 7..A, the plain and trump orders, the run order and card points."""

from __future__ import annotations

from core.cards import SUITS, make_deck

RANKS = ("7", "8", "9", "T", "J", "Q", "K", "A")
DECK: tuple[str, ...] = tuple(make_deck(RANKS))
DECK_SET = frozenset(DECK)

# Strength inside a suit (higher wins a trick).
PLAIN_POWER = {"7": 0, "8": 1, "9": 2, "J": 3, "Q": 4, "K": 5, "T": 6, "A": 7}
TRUMP_POWER = {"7": 0, "8": 1, "Q": 2, "K": 3, "T": 4, "A": 5, "9": 6, "J": 7}
# Order for runs (terz / berz): 7 8 9 10 J Q K A.
SEQ = {"7": 0, "8": 1, "9": 2, "T": 3, "J": 4, "Q": 5, "K": 6, "A": 7}

PLAIN_POINTS = {"7": 0, "8": 0, "9": 0, "T": 10, "J": 2, "Q": 3, "K": 4, "A": 11}
TRUMP_POINTS = {"7": 0, "8": 0, "9": 14, "T": 10, "J": 20, "Q": 3, "K": 4, "A": 11}

LAST_TRICK = 10
BELLA = 20
TOTAL = 162  # every card's points with a trump suit, plus the last trick


def points(card: str, trump: str | None) -> int:
    """Card points of one card with the given trump suit."""
    return (TRUMP_POINTS if card[1] == trump else PLAIN_POINTS)[card[0]]


def power(card: str, trump: str | None) -> int:
    """Strength of a card inside its own suit."""
    return (TRUMP_POWER if card[1] == trump else PLAIN_POWER)[card[0]]


def is_suit(text: object) -> bool:
    return isinstance(text, str) and text in SUITS


def sort_hand(cards: list[str], trump: str | None = None) -> list[str]:
    """Cards grouped by suit (S C D H), strongest first inside a suit."""
    return sorted(cards, key=lambda c: (SUITS.index(c[1]), -power(c, trump)))
