"""Checks of the input every storage call takes from outside, before anything is written (``InvalidInput``)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from bot.storage import integrity
from bot.storage.errors import InvalidInput
from bot.storage.values import COMPUTER_LEVELS, SeatSpec
from core import games
from core.base import GameError

_LANG = re.compile(r"^[A-Za-z]{2,3}([-_][A-Za-z0-9]{1,8})?$")
SEAT_FIELDS = {"taken_over", "timeouts", "private_ref"}


def now() -> datetime:
    return datetime.now(UTC)


def check_language(lang: str | None) -> None:
    if lang is not None and (not isinstance(lang, str) or not _LANG.match(lang)):
        raise InvalidInput(f"not a language code: {lang!r}", "bad_language", language=lang)


def check_kind(kind: str | None) -> None:
    if kind is not None and (not isinstance(kind, str) or not 0 < len(kind) <= 32):
        raise InvalidInput("a deadline kind is a short name, e.g. 'turn'", "bad_deadline_kind")


def check_ids(platform: Any, platform_id: Any, thread: Any = None) -> None:
    if not isinstance(platform, str) or not 0 < len(platform) <= 32:
        raise InvalidInput("a platform is a short name, e.g. 'telegram'", "bad_platform")
    if not isinstance(platform_id, str) or not 0 < len(platform_id) <= 128:
        raise InvalidInput("a platform id is a string of 1 to 128 characters", "bad_platform_id")
    if thread is not None and (not isinstance(thread, str) or len(thread) > 128):
        raise InvalidInput("a thread id is a string of at most 128 characters", "bad_thread")


# the database's integer ranges: ids are BIGINT (SQLite's INTEGER is 64-bit too), counters (a version, a lobby
# revision, a seat) are INTEGER; a Python int beyond them would reach the driver as an OverflowError
ID_LIMIT = 2**63
COUNT_LIMIT = 2**31


def check_id(*values: Any, limit: int = ID_LIMIT) -> None:
    """Each value must be an int within the database's range (``InvalidInput`` ``bad_id`` otherwise)."""
    for value in values:
        if type(value) is not int or not -limit <= value < limit:
            shown = repr(value) if len(repr(value)) <= 40 else repr(value)[:37] + "..."
            raise InvalidInput(f"not an id this database can hold: {shown}", "bad_id")


def check_count(*values: Any) -> None:
    """A version, a lobby revision or a seat number: an int within INTEGER (``InvalidInput`` ``bad_id``)."""
    check_id(*values, limit=COUNT_LIMIT)


def check_time(value: datetime | None, what: str) -> None:
    if value is not None and (not isinstance(value, datetime) or value.tzinfo is None):
        raise InvalidInput(f"{what} must be a timezone-aware datetime", "bad_time")


def rules_of(game: str) -> Any:
    try:
        return games.get(game)
    except GameError as err:
        raise InvalidInput(str(err), "unknown_game", game=game) from None


def check_table_setup(game: str, players: int, options: Any) -> None:
    rules = rules_of(game)
    try:
        rules.check_players(players)
        if not isinstance(options, dict):
            raise InvalidInput("options must be a JSON object", "bad_option")
        rules.options(players, integrity.core_options(game, options))
    except GameError as err:
        raise InvalidInput(str(err), err.code, **err.params) from None
    try:
        integrity.canonical(options)
    except (TypeError, ValueError):
        raise InvalidInput("options must be plain JSON data", "bad_option") from None


def check_seats(seats: Sequence[SeatSpec], players: int) -> None:
    seen: set[int] = set()
    users: set[int] = set()
    for spec in seats:
        if not isinstance(spec, SeatSpec):
            raise InvalidInput("seats must be SeatSpec values", "bad_seat")
        if type(spec.seat) is not int or not 0 <= spec.seat < players or spec.seat in seen:
            raise InvalidInput(f"seat {spec.seat!r} does not exist or is given twice", "bad_seat", seat=spec.seat)
        seen.add(spec.seat)
        if (spec.user_id is None) == (spec.computer is None):
            raise InvalidInput("a seat holds either a user or a computer player", "bad_seat", seat=spec.seat)
        if spec.computer is not None and spec.computer not in COMPUTER_LEVELS:
            raise InvalidInput(f"unknown computer level {spec.computer!r}", "bad_level", level=spec.computer)
        if spec.user_id is not None:
            if spec.user_id in users:
                raise InvalidInput("a user sits at one seat only", "bad_seat", seat=spec.seat)
            users.add(spec.user_id)


def state_text(state: Any) -> str:
    """The canonical JSON text of a state (what is stored and digested)."""
    if not isinstance(state, dict):
        raise InvalidInput("a state must be a JSON object", "bad_state")
    try:
        return integrity.canonical(state)
    except (TypeError, ValueError):
        raise InvalidInput("a state must be plain JSON data", "bad_state") from None
