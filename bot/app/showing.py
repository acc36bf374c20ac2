"""What a table's messages show: each one shows the table at a version, drawn when it is sent (issue 40).

Two lanes a table: its players' hands (``("hands", table)``) and its public table message (``("table", table)``).
A stored move only *asks* a lane to show its version (``want``); nothing is drawn then. When the lane gets to run
(one run at a time, never under the table's lock) it reads the table as stored *at that moment* and shows that:
whatever was asked meanwhile is covered by the one newest drawing, and no older snapshot can ever be sent after a
newer one. What a message already shows is not sent again, and nothing older than what it shows is ever written:
that rule lives in the ports' records (``bot.written``), the one ordering rule on every platform and worker.

A round's end is the one thing shown in order rather than as the newest (``keep``): the finished round's picture
must be on view before the next deal replaces it, so it runs before the lane's next drawing.

The only wait is "this lane has shown at least version v" (``shown``): a press's handler waits for its move's hands,
a computer seat for the hands of the move before it, shutdown and tests for every lane (``idle``). Each wait a
caller may put a deadline on; the lane itself never waits for anything but the platform and the table's pause.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Hashable
from dataclasses import dataclass, field

from bot import metrics

log = logging.getLogger(__name__)

# draws and shows the lane's newest content; returns the table version it showed (None: nothing to show any more,
# e.g. the table was deleted: every waiter is let go)
Draw = Callable[[Hashable], Awaitable[int | None]]
Work = Callable[[], Awaitable[None]]


@dataclass
class _Lane:
    wanted: int = -1  # the newest version asked for
    shown: int = -1  # the newest version this lane has shown (drawn at run time)
    dirty: bool = False  # asked since the last drawing began: draw once more
    kept: list[Work] = field(default_factory=list)  # shown in order before the next drawing (a round's end)
    waiters: list[tuple[int, asyncio.Future[None]]] = field(default_factory=list)
    task: asyncio.Task[None] | None = None
    draw: Callable[[], Awaitable[int | None]] | None = None  # this lane's own drawing (else ``Showing.draw``)
    since: float = 0.0  # when the oldest unshown ask came (metrics)
    in_order: asyncio.Event = field(default_factory=asyncio.Event)  # set while no kept work is left


class Showing:
    """The lanes of one process. ``draw`` shows a lane's newest content (``bot.app.publishing``)."""

    def __init__(self, draw: Draw | None = None) -> None:
        self.draw = draw
        self._lanes: dict[Hashable, _Lane] = {}

    def want(self, lane: Hashable, version: int, draw: Callable[[], Awaitable[int | None]] | None = None) -> None:
        """Ask ``lane`` to show the table at ``version`` or newer (``draw``: the lane's own drawing, for a lane
        that is not a table's, e.g. a group's message of the day)."""
        state = self._lanes.setdefault(lane, _Lane())
        if draw is not None:
            state.draw = draw
        if not state.dirty and state.wanted <= state.shown:
            state.since = time.perf_counter()
        state.wanted = max(state.wanted, version)
        state.dirty = True
        self._start(lane, state)

    def keep(self, lane: Hashable, work: Work, version: int) -> None:
        """Show ``work`` (a round's end) before the lane's next drawing, then the newest as ever."""
        state = self._lanes.setdefault(lane, _Lane())
        state.kept.append(work)
        state.in_order.clear()
        self.want(lane, version)

    async def kept_shown(self, lane: Hashable) -> None:
        """Wait until the lane's work kept in order (a round's end) has run."""
        state = self._lanes.get(lane)
        if state is not None and state.kept:
            await state.in_order.wait()

    async def shown(self, lane: Hashable, version: int) -> None:
        """Wait until ``lane`` has shown ``version`` or newer (asking it to, when nobody did here: the move may
        have been stored by another worker)."""
        state = self._lanes.setdefault(lane, _Lane())
        if state.shown >= version:
            return
        waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        state.waiters.append((version, waiter))
        if state.wanted < version or state.task is None:
            self.want(lane, version)
        try:
            await waiter
        finally:
            if not waiter.done():
                waiter.cancel()
            state.waiters = [(v, w) for v, w in state.waiters if w is not waiter]

    def _start(self, lane: Hashable, state: _Lane) -> None:
        if state.task is None or state.task.done():
            state.task = asyncio.create_task(self._run(lane, state))

    async def _run(self, lane: Hashable, state: _Lane) -> None:
        try:
            while state.kept or state.dirty:
                if state.kept:
                    work = state.kept[0]
                    try:
                        await work()
                    except Exception:  # noqa: BLE001 - nobody waits for a publication: the log is where it goes
                        log.exception("a round's end on %s failed", lane)
                    state.kept.pop(0)
                    if not state.kept:
                        state.in_order.set()
                    continue
                state.dirty = False
                asked = state.wanted
                try:
                    if state.draw is not None:
                        drawn = await state.draw()
                    else:
                        assert self.draw is not None, "no drawing for this lane"
                        drawn = await self.draw(lane)
                except Exception:  # noqa: BLE001 - the next ask draws anew; waiters are let go below
                    log.exception("showing %s failed", lane)
                    drawn = asked
                state.shown = max(state.shown, asked if drawn is None else drawn)
                metrics.PUBLISH_LAG.observe(time.perf_counter() - state.since)
                state.since = time.perf_counter()
                self._release(state, everyone=drawn is None)
        finally:  # nothing left to show (or cancelled): nobody waits for ever
            state.task = None
            state.kept.clear()
            state.in_order.set()
            self._release(state, everyone=True)

    @staticmethod
    def _release(state: _Lane, *, everyone: bool = False) -> None:
        keep = []
        for version, waiter in state.waiters:
            if everyone or version <= state.shown:
                if not waiter.done():
                    waiter.set_result(None)
            else:
                keep.append((version, waiter))
        state.waiters = keep

    @property
    def busy(self) -> bool:
        return any(s.task is not None for s in self._lanes.values())

    async def idle(self) -> None:
        """Wait until no lane has anything left to show."""
        while True:
            tasks = [s.task for s in self._lanes.values() if s.task is not None]
            if not tasks:
                return
            await asyncio.gather(*tasks, return_exceptions=True)

    async def close(self) -> None:
        tasks = [s.task for s in self._lanes.values() if s.task is not None]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        for state in self._lanes.values():
            self._release(state, everyone=True)
