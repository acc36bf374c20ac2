"""At most one edit per interval per channel, the latest content winning.

The application edits the table after every move; computer players can move many times a second, while
Discord allows a channel only a few edits per second before it answers 429. ``EditQueue`` keeps, per
channel, the newest content of each message waiting to be shown and edits one message at a time, never
sooner than ``interval`` seconds after the previous edit in that channel. Content that was superseded while
waiting is never sent.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from bot.port import Message, MessageRef

log = logging.getLogger(__name__)

Edit = Callable[..., Awaitable[None]]  # (ref, msg, **options given to ``submit``)


@dataclass
class _Channel:
    pending: dict[str, tuple[MessageRef, Message, dict[str, Any]]] = field(default_factory=dict)
    last: float = float("-inf")
    task: asyncio.Task[None] | None = None


class EditQueue:
    """Coalescing, rate-limited edits; ``edit`` is the function that really edits one message."""

    def __init__(self, edit: Edit, interval: float = 1.0, clock: Callable[[], float] = time.monotonic) -> None:
        self._edit = edit
        self.interval = interval
        self._clock = clock
        self._channels: dict[str, _Channel] = {}
        self.sent = 0
        self.dropped = 0

    def submit(self, ref: MessageRef, msg: Message, **options: Any) -> None:
        """Show ``msg`` in ``ref`` soon; replaces any content still waiting for that message, unless that content
        is of a newer table version (``options["version"]``, passed on to the edit with the other options)."""
        channel = self._channels.setdefault(ref.chat_id, _Channel())
        waiting = channel.pending.get(ref.message_id)
        if waiting is not None:
            self.dropped += 1
            old, new = waiting[2].get("version"), options.get("version")
            if old is not None and new is not None and new < old:
                return  # the waiting content shows a newer table
        channel.pending[ref.message_id] = (ref, msg, options)
        if channel.task is None or channel.task.done():
            channel.task = asyncio.create_task(self._drain(channel))

    async def _drain(self, channel: _Channel) -> None:
        while channel.pending:
            wait = channel.last + self.interval - self._clock()
            if wait > 0:
                await asyncio.sleep(wait)
            message_id = next(iter(channel.pending))
            ref, msg, options = channel.pending.pop(message_id)
            channel.last = self._clock()
            try:
                await self._edit(ref, msg, **options)
                self.sent += 1
            except Exception:
                log.exception("editing message %s in channel %s failed", ref.message_id, ref.chat_id)

    def waiting(self, chat_id: str) -> int:
        channel = self._channels.get(chat_id)
        return len(channel.pending) if channel else 0

    def waiting_any(self) -> bool:
        return any(c.pending or (c.task is not None and not c.task.done()) for c in self._channels.values())

    async def flush(self) -> None:
        """Wait until every waiting edit has been made."""
        while True:
            tasks = [c.task for c in self._channels.values() if c.task is not None and not c.task.done()]
            if not tasks:
                return
            await asyncio.gather(*tasks, return_exceptions=True)

    async def close(self) -> None:
        """Make the waiting edits now (shutting down), then stop."""
        self.interval = 0.0
        await self.flush()
