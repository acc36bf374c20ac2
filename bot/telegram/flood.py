"""Flood control: Telegram's limits kept before they are hit, and ``retry_after`` honoured when it answers 429.

* every message or edit takes the next free moment of the bot's one evenly spaced schedule
  (``global_per_second``, shared by every worker through the ``Coordinator``: Telegram's ~30 messages a second
  count the bot, however many workers send; no second ever holds more);
* every message or edit in a chat takes that chat's write slot from the ``Coordinator`` right before its HTTP
  call (``turn``) and gives it back when Telegram answered (``done``): the gaps are timed at the send, so the
  next write goes ``interval`` after Telegram received the previous one in a group (``private_interval`` in a
  private chat, where Telegram tolerates short bursts), at most ``group_per_minute`` per minute in a group,
  across all workers;
* the slot of a request in flight is held for a short lease (``SLOT_LEASE``, 3 s) that one task per request
  renews every third of it (``keep``) while the request is in flight: a worker that dies with a write in flight
  frees that chat within the lease, and a long upload keeps it. The renewal ends with the request on every path
  (``done``, with or without a use; a 429's ``hold``; an exception or a cancellation, through ``done`` in a
  ``finally``; the end of the task that took the turn; ``FLIGHT`` at most; ``close``) and never blocks ``done``;
* writes to one chat leave this worker one at a time, in order;
* ``request`` (``answerCallbackQuery``, ``getMe``) is no message: it waits neither for a chat's slot nor for the
  bot's schedule (Telegram's limits count messages; python-telegram-bot's ``AIORateLimiter`` likewise limits
  only requests made in a chat), so a press is answered at once however many writes are queued.

Coalescing of table edits (the latest picture wins) sits on top of this, in ``bot.telegram.port``.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import uuid
from collections.abc import Awaitable, Callable
from typing import NamedTuple, TypeVar

from aiogram.exceptions import TelegramNetworkError, TelegramRetryAfter, TelegramServerError

from bot import metrics
from bot.telegram.coordination import SLOT_LEASE, Coordinator

log = logging.getLogger(__name__)

T = TypeVar("T")
MAX_ATTEMPTS = 6
# Seconds a request may stay in flight (aiogram's request timeout): its slot is renewed no longer than that, so even
# a request that never came back (or a missed ``done``) frees its chat within FLIGHT + SLOT_LEASE.
FLIGHT = 60.0
RENEWAL = "slot lease"  # the name of every renewing task (and the start of it)
SLOT_LAPSED = "lapsed while its request was in flight"  # logged when a renewal came too late (the loop stalled)


class Held(NamedTuple):
    """The write slot this worker holds in a chat."""

    member: str
    interval: float
    renewal: asyncio.Task[None] | None  # None: the slot takes no lease (no interval)


class FloodControl:
    def __init__(
        self,
        coordinator: Coordinator,
        *,
        interval: float = 1.0,
        private_interval: float = 0.5,
        group_per_minute: int = 20,
        global_per_second: int = 30,
        window: float = 60.0,
        lease: float = SLOT_LEASE,
    ) -> None:
        self.coordinator = coordinator
        self.interval = interval
        self.private_interval = private_interval
        self.group_per_minute = group_per_minute
        self.window = window
        self.lease = lease
        self._held: dict[str, Held] = {}  # chat -> the slot this worker holds
        self._members = itertools.count(1)
        self._me = uuid.uuid4().hex  # unique across containers (each is pid 1)
        # evenly spaced, no burst: a bucket of ``global_per_second`` lets twice as many through in one second (the
        # full bucket, then its refill), and Telegram counts any second; 5 % spare for a network that bunches
        self.spacing = 1.05 / global_per_second
        self._locks: dict[str, asyncio.Lock] = {}
        self.retries = 0  # how many times Telegram asked us to wait (for the logs and the benchmark)

    def lock(self, chat_id: str) -> asyncio.Lock:
        return self._locks.setdefault(chat_id, asyncio.Lock())

    async def turn(self, chat_id: str, *, group: bool) -> None:
        """Wait until this chat may get its next message or edit, and take that turn (call right before the
        HTTP request, then ``done`` when it is answered; a slot still held here is given back first)."""
        await self.done(chat_id)
        per_minute = self.group_per_minute if group else 0
        interval = self.interval if group else self.private_interval
        member = f"{self._me}-{next(self._members)}"
        waited = False
        while True:
            wait = await self.coordinator.acquire(chat_id, interval, per_minute, member, self.window, self.lease)
            if wait <= 0:
                break
            if not waited:
                waited = True
                metrics.FLOOD_WAITS.labels("telegram").inc()
            await asyncio.sleep(wait)
        self._held[chat_id] = Held(member, interval, self._renew(chat_id, member) if interval > 0 else None)
        await self.paced()

    async def paced(self) -> None:
        """Wait for this message's moment in the bot's schedule (every worker's messages share it)."""
        wait = await self.coordinator.pace(self.spacing)
        if wait > 0:
            await asyncio.sleep(wait)

    async def done(self, chat_id: str, *, used: bool = True) -> None:
        """Telegram answered the request made in this chat's turn: the next one may go ``interval`` from now
        (``used=False``: nothing was sent in the turn after all; it costs nothing)."""
        held = self._held.pop(chat_id, None)
        if held is not None:
            if held.renewal is not None:
                held.renewal.cancel()  # never awaited: a renewal in flight cannot hold the answer up
            await self.coordinator.release(chat_id, held.interval, held.member, used)

    def _renew(self, chat_id: str, member: str) -> asyncio.Task[None]:
        """Start renewing the slot ``member`` just took, for the request the current task is about to make."""
        owner = asyncio.current_task()
        return asyncio.create_task(self._renewing(chat_id, member, owner), name=f"{RENEWAL} {chat_id}")

    async def _renewing(self, chat_id: str, member: str, owner: asyncio.Task | None) -> None:
        """Every third of the lease, keep the slot taken while the request is in flight: until ``done`` or
        ``hold`` cancels this, the task that took the turn ends, ``FLIGHT`` has passed or the slot is no longer
        ``member``'s. Nothing awaits this task, so it raises nothing."""
        loop = asyncio.get_running_loop()
        until = loop.time() + FLIGHT
        while True:
            await asyncio.sleep(self.lease / 3)
            if loop.time() > until or (owner is not None and owner.done()):
                return
            try:
                if not await self.coordinator.keep(chat_id, member, self.lease):
                    log.warning("the write slot of chat %s %s", chat_id, SLOT_LAPSED)
                    return
            except Exception:  # noqa: BLE001 - Redis away for a moment: the next third of the lease tries again
                log.warning("could not renew the write slot of chat %s", chat_id, exc_info=True)

    def close(self) -> None:
        """The worker stops: no slot it still holds is renewed (each is free within the lease)."""
        for held in self._held.values():
            if held.renewal is not None:
                held.renewal.cancel()

    async def hold(self, chat_id: str, error: TelegramRetryAfter) -> None:
        """Telegram answered 429 in this chat: nobody writes to it for ``retry_after`` (counted for the operator)."""
        self.retries += 1
        metrics.RATE_LIMITED.labels("telegram", metrics.api_method(error)).inc()
        held = self._held.get(chat_id)
        if held is not None and held.renewal is not None:
            held.renewal.cancel()  # the request is answered; the hold replaces its lease
        await self.coordinator.hold(chat_id, error.retry_after)

    async def write(self, chat_id: str, call: Callable[[], Awaitable[T]], *, group: bool) -> T:
        """One message or edit to a chat: in this chat's order, in its turn, again after a 429 or a network
        failure (a few times; then the error goes up)."""
        async with self.lock(chat_id):
            for attempt in range(1, MAX_ATTEMPTS + 1):
                try:  # the turn too: a cancellation while it waits for the bot's schedule gives the slot back
                    await self.turn(chat_id, group=group)
                    return await call()
                except TelegramRetryAfter as e:
                    if attempt == MAX_ATTEMPTS:
                        metrics.RATE_LIMITED.labels("telegram", metrics.api_method(e)).inc()
                        raise
                    await self.hold(chat_id, e)
                except TelegramNetworkError:
                    if attempt == MAX_ATTEMPTS:
                        raise
                    await asyncio.sleep(0.2 * attempt)
                finally:
                    await self.done(chat_id)
            raise AssertionError("unreachable")

    async def request(self, call: Callable[[], Awaitable[T]]) -> T:
        """A request that is not a message in a chat (answerCallbackQuery, getMe): at once, again after a 429, a
        network failure or a server error (5xx, e.g. a proxy's 502) a few times."""
        for attempt in range(1, MAX_ATTEMPTS + 1):
            try:
                return await call()
            except TelegramRetryAfter as e:
                metrics.RATE_LIMITED.labels("telegram", metrics.api_method(e)).inc()
                if attempt == MAX_ATTEMPTS:
                    raise
                self.retries += 1
                await asyncio.sleep(e.retry_after)
            except (TelegramNetworkError, TelegramServerError):
                if attempt == MAX_ATTEMPTS:
                    raise
                await asyncio.sleep(0.1 * attempt)
        raise AssertionError("unreachable")
