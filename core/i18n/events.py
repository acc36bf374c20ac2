"""A game event as one sentence in a language: ``describe(game, event, lang, names)``."""

from __future__ import annotations

from importlib import import_module

from core.base import Event
from core.i18n.catalogs import normalize

GAMES = ("thousand", "deberts", "kozel")


def describe(game: str, event: Event, lang: str | None = "en", names: list[str] | None = None) -> str:
    """The sentence a chat shows for ``event`` of ``game``; ``names`` are the seat names (default "Seat 1", ...)."""
    if game not in GAMES:
        raise ValueError(f"unknown game {game!r}")
    module = import_module(f"core.{game}.texts")
    return module.describe(event, normalize(lang), names)
