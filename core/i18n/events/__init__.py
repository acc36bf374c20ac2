"""A game event as one sentence in a language: ``describe(game, event, lang, names)``.

The game packages only emit events (``core.base.Event``); each module here turns one game's events into
whole sentences taken from the gettext catalogs.
"""

from __future__ import annotations

from collections.abc import Sequence
from importlib import import_module

from core.base import Event
from core.i18n.catalogs import normalize

GAMES = ("thousand", "deberts", "kozel")


def describe(game: str, event: Event, lang: str | None = "en", names: Sequence[str] | None = None) -> str:
    """The sentence a chat shows for ``event`` of ``game``; ``names`` are the seat names (default "Seat 1", ...).

    An unknown language falls back to English; an unknown game or event type is a ``ValueError``.
    """
    if game not in GAMES:
        raise ValueError(f"unknown game {game!r}")
    module = import_module(f"core.i18n.events.{game}")
    return module.describe(event, normalize(lang), names)


def event_types(game: str) -> tuple[str, ...]:
    """Every event type of ``game`` that has a sentence."""
    if game not in GAMES:
        raise ValueError(f"unknown game {game!r}")
    return tuple(import_module(f"core.i18n.events.{game}").SENTENCES)
