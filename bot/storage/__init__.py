"""Storage of users, chats, tables, seats, the move log, results, ratings and votes to stop (SQLite or PostgreSQL).

The only package with SQL. The application uses ``Storage`` and the frozen values and typed errors below;
``docs/storage.md`` describes the API.
"""

from bot.storage.api import Storage
from bot.storage.errors import BrokenTable, Conflict, InvalidInput, NotFound, StorageError, TableBusy
from bot.storage.values import (
    ABANDONED,
    COMPUTER_LEVELS,
    DAILY_DONE,
    DAILY_PLAYING,
    DAILY_STOPPED,
    FINISHED,
    LOBBY,
    OPEN_STATUSES,
    PLAYING,
    ChatRec,
    DailyAttemptRec,
    GamePlayer,
    LeaderRow,
    MoveRec,
    PlayerStats,
    RatingRec,
    RecentGame,
    RepairReport,
    ResultSpec,
    SeatRec,
    SeatSpec,
    StopVotes,
    TableRec,
    UserRec,
)

__all__ = [
    "ABANDONED",
    "COMPUTER_LEVELS",
    "FINISHED",
    "LOBBY",
    "OPEN_STATUSES",
    "PLAYING",
    "BrokenTable",
    "DAILY_DONE",
    "DAILY_PLAYING",
    "DAILY_STOPPED",
    "ChatRec",
    "DailyAttemptRec",
    "Conflict",
    "GamePlayer",
    "InvalidInput",
    "LeaderRow",
    "MoveRec",
    "NotFound",
    "PlayerStats",
    "RatingRec",
    "RecentGame",
    "RepairReport",
    "ResultSpec",
    "SeatRec",
    "SeatSpec",
    "StopVotes",
    "Storage",
    "StorageError",
    "TableBusy",
    "TableRec",
    "UserRec",
]
