"""A game event as one sentence in a language: ``describe(game, event, lang, names)``.

The game packages only emit events (``core.base.Event``); each module here turns one game's events into
whole sentences taken from the gettext catalogs.
"""

from __future__ import annotations

from collections.abc import Sequence
from importlib import import_module

from core import games
from core.base import Event
from core.i18n.catalogs import normalize


def _sentences(game: str):
    """The game's sentences module (named in the registry, ``core.games``); ``ValueError`` for an unknown game."""
    if game not in games.NAMES:
        raise ValueError(f"unknown game {game!r}")
    return import_module(games.entry(game).sentences_module)


def describe(game: str, event: Event, lang: str | None = "en", names: Sequence[str] | None = None) -> str:
    """The sentence a chat shows for ``event`` of ``game``; ``names`` are the seat names (default "Seat 1", ...).

    An unknown language falls back to English; an unknown game or event type is a ``ValueError``.
    """
    return _sentences(game).describe(event, normalize(lang), names)


def event_types(game: str) -> tuple[str, ...]:
    """Every event type of ``game`` that has a sentence."""
    return tuple(_sentences(game).SENTENCES)
