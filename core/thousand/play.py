"""Thousand card play: which cards may follow, who wins a trick, and what a lead declares (docs/rules-thousand.md).

Pure functions of cards: a trick is a list of ``[seat, card]`` in play order; ``trump`` is a suit letter or
None (there is no trump until the first marriage).
"""

from __future__ import annotations

from core.thousand.cards import ACE_MARRIAGE, ACES, MARRIAGE, STRENGTH


def playable(hand: list[str], trick: list[list], trump: str | None) -> list[str]:
    """The cards of ``hand`` that may be played: follow suit, else trump when you can, else anything."""
    if not trick:
        return list(hand)
    led = trick[0][1][1]
    same = [c for c in hand if c[1] == led]
    if same:
        return same
    if trump is not None:
        trumps = [c for c in hand if c[1] == trump]
        if trumps:
            return trumps
    return list(hand)


def trick_winner(trick: list[list], trump: str | None) -> int:
    """The seat that takes the trick: the highest trump, else the highest card of the led suit."""
    best_seat, best = trick[0]
    for s, c in trick[1:]:
        if c[1] == best[1]:
            if STRENGTH[c] > STRENGTH[best]:
                best_seat, best = s, c
        elif c[1] == trump:
            best_seat, best = s, c
    return best_seat


def declared_marriage(hand: list[str], card: str, ace_marriage: bool) -> tuple[int, bool] | None:
    """What leading ``card`` from ``hand`` declares: ``(points, is_ace_marriage)``, or None.

    A K or Q whose partner is held declares that marriage; an ace held with all four aces declares the ace
    marriage when the option is on. (Never on the first trick: the caller decides when a lead may declare.)
    """
    rank, suit = card[0], card[1]
    if rank in "KQ" and ("Q" if rank == "K" else "K") + suit in hand:
        return MARRIAGE[suit], False
    if rank == "A" and ace_marriage and ACES.issubset(hand):
        return ACE_MARRIAGE, True
    return None
