"""The plain, frozen values ``bot.storage`` takes and returns; no ORM object ever leaves the package."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

# Table statuses. A table in the lobby or in play is "open": a chat (or topic) has at most one.
LOBBY = "lobby"
PLAYING = "playing"
FINISHED = "finished"
ABANDONED = "abandoned"
OPEN_STATUSES = (LOBBY, PLAYING)
STATUSES = (LOBBY, PLAYING, FINISHED, ABANDONED)

# Computer player levels a seat may hold.
COMPUTER_LEVELS = ("easy", "normal", "strong")


@dataclass(frozen=True, slots=True)
class UserRec:
    id: int
    platform: str
    platform_id: str
    name: str
    language: str | None


@dataclass(frozen=True, slots=True)
class ChatRec:
    id: int
    platform: str
    platform_id: str
    thread: str | None
    title: str
    language: str | None
    defaults: dict[str, dict[str, Any]]
    guild: int | None = None  # the server of the chat where the platform has them (Discord): see ``Reach``


@dataclass(frozen=True, slots=True)
class Reach:
    """The chats one worker can publish to, for the work it takes on by itself (a due turn timer, a table in play
    resumed at its start, a season's summary): those whose platform is in ``platforms``; of a platform in
    ``shards`` (Discord), only those whose guild is on one of the worker's shards, guild ``g`` being on shard
    ``(g >> 22) % count`` of ``shards[platform] = (count, ids)``, or whose guild is not known yet."""

    platforms: frozenset[str]
    shards: Mapping[str, tuple[int, frozenset[int]]] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class SeatSpec:
    """Who sits at a seat when a table is created or its lobby edited: a user or a computer level."""

    seat: int
    user_id: int | None = None
    computer: str | None = None


@dataclass(frozen=True, slots=True)
class SeatRec:
    seat: int
    user_id: int | None
    user: UserRec | None
    computer: str | None
    taken_over: bool
    timeouts: int
    private_ref: dict[str, Any] | None


@dataclass(frozen=True, slots=True)
class TableRec:
    id: int
    chat_id: int
    game: str
    players: int
    options: dict[str, Any]
    status: str
    seed: str
    host_user_id: int | None
    state: dict[str, Any] | None
    version: int
    lobby_rev: int
    deadline: datetime | None
    deadline_kind: str | None
    message_ref: dict[str, Any] | None
    broken: str | None
    created_at: datetime
    updated_at: datetime
    seats: list[SeatRec] = field(default_factory=list)
    deal_pending: int | None = None  # the version whose finished round is on view, its next deal not yet shown
    dealing_at: float | None = None  # when a worker claimed posting that deal (epoch seconds)

    @property
    def is_open(self) -> bool:
        return self.status in OPEN_STATUSES

    def seat_of(self, user_id: int) -> int | None:
        """The seat this user sits at, or None."""
        for s in self.seats:
            if s.user_id == user_id:
                return s.seat
        return None


@dataclass(frozen=True, slots=True)
class MoveRec:
    seq: int
    seat: int
    action: dict[str, Any]
    actor_user_id: int | None
    by: str
    at: datetime


@dataclass(frozen=True, slots=True)
class StopVotes:
    """The votes to stop a table: who of its present players voted, and how many present players it has.

    Present players are the seated people whose seat the computer has not taken over."""

    voters: tuple[int, ...]
    players: int
    newest: datetime | None = None  # when the newest of these votes was cast (``stop_votes``)

    @property
    def majority(self) -> bool:
        """More than half of the present players voted."""
        return len(self.voters) * 2 > self.players


@dataclass(frozen=True, slots=True)
class RepairReport:
    """What ``Storage.repair`` found: the broken mark before, and after (None: the log replays to the state)."""

    table_id: int
    was_broken: str | None
    broken: str | None

    @property
    def repaired(self) -> bool:
        return self.was_broken is not None and self.broken is None


@dataclass(frozen=True, slots=True)
class ResultSpec:
    """One seat's outcome of a finished game, written by ``commit_move(..., results=[...])``.

    ``place`` 1 is a win. The rating numbers come from the application (openskill); ``rating_points`` are
    Kozel's rating points of this game. Game-specific counters are None where they do not apply.
    """

    seat: int
    user_id: int | None
    total: int
    place: int
    rating_before: float | None = None
    rating_after: float | None = None
    mu: float | None = None
    sigma: float | None = None
    barrels: int | None = None
    bolts: int | None = None
    baits: int | None = None
    kozel: bool | None = None
    rating_points: int | None = None


@dataclass(frozen=True, slots=True)
class RatingRec:
    """A user's rating in one chat and game: openskill ``mu``/``sigma``, the shown ``rating`` (the last
    ``rating_after``), Kozel's accumulated rating ``points`` and the number of rated ``games``."""

    mu: float
    sigma: float
    points: int
    games: int
    rating: float | None = None


@dataclass(frozen=True, slots=True)
class LeaderRow:
    user_id: int
    name: str
    rating: float | None
    mu: float
    sigma: float
    points: int
    games: int
    wins: int


@dataclass(frozen=True, slots=True)
class PlayerStats:
    user_id: int
    games: int
    wins: int
    win_share: float
    average_total: float | None
    barrels: int
    bolts: int
    baits: int
    kozel: int
    rating_points: int
    rating: float | None


@dataclass(frozen=True, slots=True)
class GamePlayer:
    seat: int
    user_id: int | None
    name: str
    computer: str | None
    total: int | None
    place: int | None


@dataclass(frozen=True, slots=True)
class RecentGame:
    table_id: int
    game: str
    status: str
    ended_at: datetime
    players: list[GamePlayer]
    winner_seats: list[int]


# The chats of tables one person plays alone (``bot.solo``: platform ``<platform>:solo``), as a LIKE pattern: their
# games are no chat's games (leaderboards, achievements, seasons) and sitting at one is not "seated elsewhere".
SOLO_CHATS = "%:solo"

# Daily-deal attempt statuses
DAILY_PLAYING = "playing"
DAILY_DONE = "done"
DAILY_STOPPED = "stopped"


@dataclass(frozen=True, slots=True)
class DailyAttemptRec:
    """One person's attempt at a chat's daily deal (``name``: the person's name, for the leaderboard)."""

    chat_id: int
    game: str
    day: str
    user_id: int
    name: str
    table_id: int | None
    status: str
    score: int | None
    line: dict[str, Any] | None
    started_at: datetime
    ended_at: datetime | None
