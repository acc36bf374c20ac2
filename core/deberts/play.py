"""Trick play: which cards a seat may play, why a card is refused, and who wins a trick.

Follow the led suit; if void, play a trump; if void in trump too, any card. When trump is led, a seat that
can beat the highest trump on the table must do so. The highest trump wins, else the highest card of the
led suit.
"""

from __future__ import annotations

from core.deberts.cards import TRUMP_POWER, power


def allowed_cards(hand: list[str], trick: list[str], trump: str) -> list[str]:
    """The cards of ``hand`` that may be played on ``trick`` (the cards already on the table, in order)."""
    if not trick:
        return list(hand)
    led = trick[0][1]
    follow = [c for c in hand if c[1] == led]
    if led == trump:
        if not follow:
            return list(hand)
        top = max(TRUMP_POWER[c[0]] for c in trick if c[1] == trump)
        higher = [c for c in follow if TRUMP_POWER[c[0]] > top]
        return higher or follow
    if follow:
        return follow
    trumps = [c for c in hand if c[1] == trump]
    return trumps or list(hand)


def refusal(card: str, hand: list[str], trick: list[str], trump: str) -> tuple[str, str] | None:
    """``(code, message)`` when ``card`` (held) may not be played now, else None."""
    if card in allowed_cards(hand, trick, trump):
        return None
    led = trick[0][1]
    if card[1] != led and any(c[1] == led for c in hand):
        return "must_follow_suit", f"you must follow suit ({led})"
    if led == trump:
        return "must_overtrump", "trump was led: you must beat the highest trump on the table"
    return "must_trump", "you have no card of the led suit: you must play a trump"


def trick_winner(trick: list[str], trump: str) -> int:
    """Index in ``trick`` of the winning card."""
    best = 0
    for i in range(1, len(trick)):
        card, top = trick[i], trick[best]
        # the best card so far is of the led suit or a trump: a card of a third suit never wins
        if card[1] == top[1]:
            if power(card, trump) > power(top, trump):
                best = i
        elif card[1] == trump:
            best = i
    return best
