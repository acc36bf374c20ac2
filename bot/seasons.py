"""Seasons: each chat's leaderboard also runs by season — a calendar month (the default), a quarter, or none —
on the application's clock (UTC). Pure: which season a moment is in, its bounds, the one before."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

KINDS = ("month", "quarter", "none")
DEFAULT = "month"


@dataclass(frozen=True, slots=True)
class Season:
    key: str  # "2026-11" (a month), "2026-Q4" (a quarter)
    start: datetime
    end: datetime  # the next season's start


def _month_start(year: int, month: int) -> datetime:
    year, month = year + (month - 1) // 12, (month - 1) % 12 + 1
    return datetime(year, month, 1, tzinfo=UTC)


def season_of(kind: str, now: datetime) -> Season | None:
    """The season of ``kind`` that ``now`` is in (None: the chat runs no seasons)."""
    now = now.astimezone(UTC)
    if kind == "quarter":
        first = 3 * ((now.month - 1) // 3) + 1
        return Season(
            f"{now.year}-Q{(first + 2) // 3}", _month_start(now.year, first), _month_start(now.year, first + 3)
        )
    if kind == "month":
        return Season(
            f"{now.year}-{now.month:02d}", _month_start(now.year, now.month), _month_start(now.year, now.month + 1)
        )
    return None


def previous(kind: str, now: datetime) -> Season | None:
    """The season before the one ``now`` is in."""
    current = season_of(kind, now)
    return None if current is None else season_of(kind, current.start - timedelta(seconds=1))
