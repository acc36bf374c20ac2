"""What the application sends after a move, sent after the table lock is released and in the order players need.

A move is stored under the table's lock; what it shows goes out afterwards, so that no press ever waits for a
chat platform (a Telegram group's window can hold a new message for a minute). Two kinds of lanes:

* replacing lanes (``replace``), two per table: its players' hands and choices (the player to act before the
  others), and its public table message. Work queued while a lane is busy replaces older unsent work of that
  lane: the newest table picture and hands win, nothing stale is shown; a table message waiting for a group's
  window never holds back a hand. A round's end is kept (``keep``): later moves' work runs after it, never
  instead of it, so its result is shown even when the players moved on before the lane got to it.
* a chat lane (``append``): score sheets and announcements of a chat, in order, one after another. A sheet
  waiting for the group never holds a hand or a table edit back.

Each call returns an event set once that work (or the newer work that replaced it) has run: a press handler
waits for its table's publication outside the lock; ``idle`` waits for every lane (tests, shutdown).
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
        self._next: dict[Hashable, tuple[Work, list[asyncio.Event]]] = {}  # table lanes: newest unsent work
        self._queues: dict[Hashable, list[tuple[Work, asyncio.Event, float]]] = {}  # chat lanes: work in order
        self._lanes: dict[Hashable, asyncio.Task[None]] = {}
        self._since: dict[Hashable, float] = {}  # table lanes: when their oldest unsent work was queued (metrics)
        self._kept_waiting: dict[asyncio.Event, list[asyncio.Event]] = {}  # kept work: the dropped work's waiters

    def replace(self, lane: Hashable, work: Work, *, keep: bool = False) -> asyncio.Event:
        """Queue ``work`` on a lane where only the newest unsent work counts. ``keep``: this work is shown even
        when newer work is queued before it ran (a round's end: its result stays on view); the newer work runs
        after it."""
        done = asyncio.Event()
        _older, waiting = self._next.pop(lane, (None, [])) if keep else self._next.get(lane, (None, []))
        if keep:  # the older unsent work is dropped (this shows more), and this waits in order, never replaced
            queued = self._since.pop(lane, time.perf_counter())
            self._queues.setdefault(lane, []).append((work, done, queued))
            self._kept_waiting.setdefault(done, waiting)
        else:
            self._next[lane] = (work, [*waiting, done])  # the older unsent work is dropped: this shows more
            self._since.setdefault(lane, time.perf_counter())
        self._start(lane)
        return done

    def append(self, lane: Hashable, work: Work) -> asyncio.Event:
        """Queue ``work`` after the lane's earlier work (sheets, announcements: each one is shown)."""
        done = asyncio.Event()
        self._queues.setdefault(lane, []).append((work, done, time.perf_counter()))
        self._start(lane)
        return done

    def _start(self, lane: Hashable) -> None:
        if lane not in self._lanes:
            self._lanes[lane] = asyncio.create_task(self._drain(lane))

    async def _drain(self, lane: Hashable) -> None:
        waiting: list[asyncio.Event] = []
        try:
            while True:
                if self._queues.get(lane):  # in order: a chat's sheets, a table's kept work (before newer work)
                    work, done, queued = self._queues[lane].pop(0)
                    waiting = [*self._kept_waiting.pop(done, []), done]
                elif lane in self._next:
                    work, waiting = self._next.pop(lane)
                    queued = self._since.pop(lane, time.perf_counter())
                else:
                    break
                try:
                    await work()
                except Exception:  # noqa: BLE001 - nobody waits for a publication: the log is where it goes
                    log.exception("publishing on %s failed", lane)
                metrics.PUBLISH_LAG.observe(time.perf_counter() - queued)
                for event in waiting:
                    event.set()
                waiting = []
        finally:
            for event in waiting:  # cancelled: nobody should wait for ever
                event.set()
            self._lanes.pop(lane, None)
            if not self._queues.get(lane):
                self._queues.pop(lane, None)

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
