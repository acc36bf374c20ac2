"""Numbers and dates in a language's own way, through Babel (``format_decimal``, ``format_datetime``)."""

from __future__ import annotations

from datetime import datetime

from babel.dates import format_datetime
from babel.numbers import format_decimal

from core.i18n.catalogs import normalize


def number(lang: str | None, value: float | int) -> str:
    """``1234`` -> ``"1,234"`` in English, ``"1 234"`` in Russian and Ukrainian (narrow/no-break spaces)."""
    return format_decimal(value, locale=normalize(lang))


def when(lang: str | None, dt: datetime) -> str:
    """A short date and time: ``"11/23/26, 12:30 AM"``, ``"23.11.2026, 00:30"``; naive datetimes are UTC."""
    return format_datetime(dt, format="short", locale=normalize(lang))
