"""Pieces every game's sentences share: seat names, lists of seats, signed scores, suit names."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from babel.lists import format_list

from core.base import Event
from core.cards import SUIT_SYMBOLS
from core.i18n.messages import N_, t
from core.i18n.names import seat_name
from core.i18n.numbers import number

# Suits as players name them (nominative plural, the way a marriage or a trump is announced).
SUIT_NAMES = {"S": N_("spades"), "C": N_("clubs"), "D": N_("diamonds"), "H": N_("hearts")}


@dataclass(frozen=True)
class Say:
    """One language and the seat names of one table: the helpers a sentence needs."""

    lang: str
    names: Sequence[str] | None

    def seat(self, seat: int | None) -> str:
        return seat_name(self.lang, seat, self.names)

    def seats(self, seats: Sequence[int]) -> str:
        """``Ann and Bob``, ``Аня и Боря``, ``Аня і Боря`` (Babel's list patterns)."""
        return format_list([self.seat(s) for s in seats], locale=self.lang)

    def num(self, value: int) -> str:
        """``1,005``, ``1 005``; a negative number gets a real minus sign: ``−120``."""
        text = number(self.lang, value)
        return "\u2212" + text[1:] if text.startswith("-") else text

    def signed(self, value: int) -> str:
        """``+120``, ``−100``, ``0``."""
        return ("+" if value > 0 else "") + self.num(value)

    def scores(self, scores: Sequence[int]) -> str:
        """``Ann +62, Bob 0, Cat +81``."""
        return ", ".join(f"{self.seat(s)} {self.signed(v)}" for s, v in enumerate(scores))

    def suit(self, suit: str) -> str:
        return t(self.lang, SUIT_NAMES[suit])

    def suit_with_symbol(self, suit: str) -> str:
        return f"{self.suit(suit)} {SUIT_SYMBOLS[suit]}"


Sentence = Callable[[Event, dict[str, Any], Say], str]


def tell(game: str, sentences: dict[str, Sentence], event: Event, lang: str, names: Sequence[str] | None) -> str:
    """Run the sentence of ``event.type``; a type without one is a ``ValueError``."""
    sentence = sentences.get(event.type)
    if sentence is None:
        raise ValueError(f"unknown {game} event {event.type!r}")
    return sentence(event, dict(event.data), Say(lang, names))
