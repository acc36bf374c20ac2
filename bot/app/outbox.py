"""Messages of a chat that are each shown, in order: score sheets and announcements (``append``).

A chat lane runs its work one after another, after the table lock is released, so that no press ever waits for a
chat platform (a Telegram group's window can hold a new message for a minute). What a table's messages show (its
hands and its table message, the newest version wins) is not queued here but asked of ``bot.app.showing``.

Each call returns an event set once that work has run; ``idle`` waits for every lane (tests, shutdown).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Hashable

from bot import metrics

log = logging.getLogger(__name__)

Work = Callable[[], Awaitable[None]]


class Outbox:
    def __init__(self) -> None:
        self._queues: dict[Hashable, list[tuple[Work, asyncio.Event, float]]] = {}  # chat lanes: work in order
        self._lanes: dict[Hashable, asyncio.Task[None]] = {}

    def append(self, lane: Hashable, work: Work) -> asyncio.Event:
        """Queue ``work`` after the lane's earlier work (sheets, announcements: each one is shown)."""
        done = asyncio.Event()
        self._queues.setdefault(lane, []).append((work, done, time.perf_counter()))
        if lane not in self._lanes:
            self._lanes[lane] = asyncio.create_task(self._drain(lane))
        return done

    async def _drain(self, lane: Hashable) -> None:
        done: asyncio.Event | None = None
        try:
            while self._queues.get(lane):
                work, done, queued = self._queues[lane].pop(0)
                try:
                    await work()
                except Exception:  # noqa: BLE001 - nobody waits for a publication: the log is where it goes
                    log.exception("publishing on %s failed", lane)
                metrics.PUBLISH_LAG.observe(time.perf_counter() - queued)
                done.set()
                done = None
        finally:
            if done is not None:  # cancelled: nobody should wait for ever
                done.set()
            for _work, left, _queued in self._queues.pop(lane, []):
                left.set()
            self._lanes.pop(lane, None)

    @property
    def busy(self) -> bool:
        return bool(self._lanes)

    async def idle(self) -> None:
        """Wait until every lane is empty."""
        while self._lanes:
            await asyncio.gather(*list(self._lanes.values()), return_exceptions=True)

    async def close(self) -> None:
        for task in list(self._lanes.values()):
            task.cancel()
        await asyncio.gather(*list(self._lanes.values()), return_exceptions=True)
