"""Kozel events as sentences: ``describe(event, lang, names)``, backed by the gettext catalogs.

``names`` are the seat names (default "Seat 1", "Игрок 1", "Гравець 1", …). Every event type of the Kozel core
has a sentence in every language; ``EVENT_TYPES`` lists them. The sentences live in
``core/i18n/events/kozel.py`` and the ``.po`` files; this module keeps the old door.
"""

from __future__ import annotations

from collections.abc import Sequence

from core.base import Event
from core.i18n import LANGS
from core.i18n import describe as _describe
from core.i18n.events import event_types

EVENT_TYPES = event_types("kozel")

__all__ = ["EVENT_TYPES", "LANGS", "describe"]


def describe(event: Event, lang: str | None = "en", names: Sequence[str] | None = None) -> str:
    """One sentence telling what happened; unknown languages fall back to English."""
    return _describe("kozel", event, lang, names)
