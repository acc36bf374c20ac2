"""Counted nouns every part of the bot needs ("5 очков", "2 взятки", "1 кістка"), through ``ngettext``."""

from __future__ import annotations

from core.i18n.messages import tn


def points(lang: str | None, n: int) -> str:
    """``21 очко``, ``22 очки`` (uk), ``25 points``."""
    return tn(lang, "{n} point", "{n} points", n)


def tricks(lang: str | None, n: int) -> str:
    """``1 взятка``, ``3 взятки``, ``5 взяток``."""
    return tn(lang, "{n} trick", "{n} tricks", n)


def tiles(lang: str | None, n: int) -> str:
    """Domino tiles: ``1 кость``, ``2 кости``, ``5 костей`` (ru); ``1 кістка``, ``2 кістки``, ``5 кісток`` (uk)."""
    return tn(lang, "{n} tile", "{n} tiles", n)


def rounds(lang: str | None, n: int) -> str:
    """``1 раздача``, ``2 раздачи``, ``5 раздач``."""
    return tn(lang, "{n} round", "{n} rounds", n)


def cards(lang: str | None, n: int) -> str:
    """``1 карта``, ``2 карты``, ``5 карт``."""
    return tn(lang, "{n} card", "{n} cards", n)


COUNTED = {"points": points, "tricks": tricks, "tiles": tiles, "rounds": rounds, "cards": cards}
