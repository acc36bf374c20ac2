"""Typed errors of the storage layer: every refusal carries a stable ``code`` the chat can translate."""

from __future__ import annotations

from typing import Any


class StorageError(Exception):
    """Base of every error ``bot.storage`` raises on purpose; nothing was written when one is raised.

    ``code`` is a stable identifier for a translated message, ``params`` fills it, ``str(err)`` is English.
    """

    code = "storage_error"

    def __init__(self, message: str, code: str | None = None, **params: Any) -> None:
        super().__init__(message)
        if code is not None:
            self.code = code
        self.params = params


class NotFound(StorageError):
    """No such user, chat, table or seat."""

    code = "not_found"


class InvalidInput(StorageError):
    """The call itself is wrong: an unknown game, a seat outside the table, an action that does not exist."""

    code = "invalid_input"


class Conflict(StorageError):
    """The compare-and-set lost: the version (or lobby revision) moved, or the table left that status."""

    code = "conflict"


class TableBusy(StorageError):
    """The chat (or forum topic) already has a table in the lobby or in play."""

    code = "table_busy"


class BrokenTable(StorageError):
    """The stored state and the move log disagree, or a row is corrupt; the table is never played on."""

    code = "broken_table"

    def __init__(self, table_id: int, reason: str) -> None:
        super().__init__(f"table {table_id} is broken: {reason}", table_id=table_id, reason=reason)
        self.table_id = table_id
        self.reason = reason
