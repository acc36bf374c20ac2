"""One game's event sentences for the tests that read a single game: ``describer("thousand")`` is a
``describe(event, lang, names)`` of that game (``core.i18n.describe`` with the game filled in)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from core.base import Event
from core.i18n import describe


def describer(game: str) -> Callable[..., str]:
    def describe_event(event: Event, lang: str | None = "en", names: Sequence[str] | None = None) -> str:
        return describe(game, event, lang, names)

    return describe_event
