"""Seat names in sentences and pictures: the player's own name, or "Seat 3" / "Игрок 3" / "Гравець 3"."""

from __future__ import annotations

from collections.abc import Sequence

from core.i18n.messages import t


def seat_label(lang: str | None, number: int) -> str:
    """The stand-in name of seat ``number`` (counted from 1)."""
    return t(lang, "Seat {n}", n=number)


def seat_name(lang: str | None, seat: int | None, names: Sequence[str] | None = None) -> str:
    """``names[seat]`` when given, else the stand-in name; ``"?"`` for no seat."""
    if seat is None:
        return "?"
    if names is not None and 0 <= seat < len(names) and names[seat]:
        return names[seat]
    return seat_label(lang, seat + 1)
