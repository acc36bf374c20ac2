"""A hint: what the normal computer player would do now, and one line that says what that move does.

The line describes the move from the seat's view (leads, follows suit, trumps, discards, opens the line, the only
move allowed…); it never claims reasons the computer player does not give.
"""

from __future__ import annotations

from typing import Any

from bot.keyboards import action_label
from core.base import Action
from core.cards import suit_of
from core.i18n import t


def hint_text(game: str, view: dict[str, Any], action: Action, lang: str, names: list[str]) -> str:
    """The hint's two lines: the move, and what it does."""
    move = t(lang, "💡 The computer would play: {move}", move=action_label(game, action, lang, names))
    return f"{move}\n{what_it_does(view, action, lang, names)}"


def what_it_does(view: dict[str, Any], action: Action, lang: str, names: list[str]) -> str:
    legal = view.get("legal") or []
    if len(legal) == 1:
        return t(lang, "It is the only move allowed now.")
    typ = action.type
    if typ == "play" and action.card:
        trick = view.get("trick") or []
        if not trick:
            return t(lang, "It leads the trick.")
        led = suit_of(trick[0]["card"])
        suit = suit_of(action.card)
        if suit == led:
            return t(lang, "It follows suit.")
        if view.get("trump") and suit == view.get("trump"):
            return t(lang, "It cannot follow suit and trumps.")
        return t(lang, "It cannot follow suit and discards.")
    if typ == "play" and action.tile:
        if not view.get("line"):
            return t(lang, "It opens the line.")
        a, _, b = action.tile.partition("-")
        if a == b:
            return t(lang, "It plays a double.")
        return t(lang, "It plays on the line's end.")
    if typ == "pass":
        return t(lang, "It passes.")
    if typ == "bid":
        return t(lang, "It bids {n}.", n=action.value)
    if typ == "contract":
        return t(lang, "It names the contract: {n}.", n=action.value)
    if typ == "give":
        return t(lang, "It gives this card to {name}.", name=names[action.to or 0])
    if typ == "take_talon":
        return t(lang, "It takes this talon.")
    if typ == "name_suit":
        return t(lang, "It names the trump suit.")
    if typ == "play_trump":
        return t(lang, "It plays with the open card's suit as trump.")
    if typ == "swap_seven":
        return t(lang, "It swaps the seven of trumps.")
    if typ == "concede":
        return t(lang, "It concedes the round.")
    if typ == "redeal":
        return t(lang, "It asks for a redeal.")
    return t(lang, "It is one of the moves allowed now.")
