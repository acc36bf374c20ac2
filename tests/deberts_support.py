"""Helpers for the Deberts tests: build a round from chosen hands and act by short codes."""

from __future__ import annotations

from typing import Any

from core.base import Action
from core.deberts import RULES
from core.deberts.cards import DECK
from core.deberts.state import DebertsState


def make_deal(nine: list[list[str]], open_card: str, bottom: str | None = None) -> dict[str, Any]:
    """A record deal from each seat's nine cards (first six dealt, last three extra)."""
    used = {c for h in nine for c in h} | {open_card}
    if bottom is None:
        bottom = next(c for c in reversed(DECK) if c not in used)
    return {
        "hands": [list(h[:6]) for h in nine],
        "open": open_card,
        "extra": [list(h[6:]) for h in nine],
        "bottom": bottom,
    }


def start(
    nine: list[list[str]],
    open_card: str,
    dealer: int = 0,
    options: dict[str, Any] | None = None,
    bottom: str | None = None,
) -> DebertsState:
    """A game whose first round is dealt from the given hands, in phase bidding."""
    state = RULES.new_game(len(nine), options, seed=0, first_dealer=dealer, start=False)
    state.next_round_in_place(make_deal(nine, open_card, bottom))
    return state


def act(state: DebertsState, seat: int, code: str) -> list:
    """Apply ``Action.parse(seat, code)`` in place (e.g. ``act(s, 1, "play,c=AS")``) and return the events."""
    return state.apply_in_place(Action.parse(seat, code))


def play_cards(state: DebertsState, cards: list[str]) -> list:
    """Play cards in turn order, each by the seat to act; returns every event."""
    events = []
    for card in cards:
        seat = state.to_act
        assert seat is not None
        events += state.apply_in_place(Action(seat, "play", card=card))
    return events


def accept(state: DebertsState) -> list:
    """The first seat to speak plays the open suit."""
    seat = state.to_act
    assert seat is not None
    return act(state, seat, "play_trump")


def types(events: list) -> list[str]:
    return [e.type for e in events]
