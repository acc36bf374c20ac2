"""Trump bidding in two circles: accept the open card's suit, then name another suit; redeal or obligation.

Circle 1, from the dealer's left to the dealer: ``play_trump`` (the open suit) or ``pass``. If all pass,
circle 2 in the same order: ``name_suit {suit}`` (any suit but the open one) or ``pass``. If all pass again
the next player deals; with *obligatory order* the dealer, last to speak, may not pass in circle 2.
"""

from __future__ import annotations

from core.base import Action
from core.cards import SUITS


def first_to_speak(dealer: int, players: int) -> int:
    return (dealer + 1) % players


def deal_order(dealer: int, players: int) -> list[int]:
    """Seats from the dealer's left round to the dealer (the order of speaking, runs ties and the lead)."""
    return [(dealer + 1 + k) % players for k in range(players)]


def legal_bids(seat: int, circle: int, open_suit: str, dealer: int, obligatory: bool) -> list[Action]:
    if circle == 1:
        return [Action(seat, "play_trump"), Action(seat, "pass")]
    acts = [Action(seat, "name_suit", suit=s) for s in SUITS if s != open_suit]
    if not (obligatory and seat == dealer):
        acts.append(Action(seat, "pass"))
    return acts
