"""Thousand events as sentences: ``describe(event, lang, names)``, backed by the gettext catalogs.

The sentences live in ``core/i18n/events/thousand.py`` and the ``.po`` files; this module keeps the old door.
"""

from __future__ import annotations

from collections.abc import Sequence

from core.base import Event
from core.i18n import LANGS
from core.i18n import describe as _describe
from core.i18n.events import event_types

EVENT_TYPES = event_types("thousand")

__all__ = ["EVENT_TYPES", "LANGS", "describe"]


def describe(event: Event, lang: str | None = "en", names: Sequence[str] | None = None) -> str:
    """One sentence for a Thousand event in ``lang`` (unknown languages fall back to English)."""
    return _describe("thousand", event, lang, names)
