"""Flood control: Telegram's limits kept before they are hit, and ``retry_after`` honoured when it answers 429.

* every message or edit takes the next free moment of the bot's one evenly spaced schedule
  (``global_per_second``, shared by every worker through the ``Coordinator``: Telegram's ~30 messages a second
  count the bot, however many workers send; no second ever holds more);
* every message or edit in a chat takes that chat's write slot from the ``Coordinator`` right before its HTTP
  call (``turn``) and gives it back when Telegram answered (``done``): the gaps are timed at the send, so the
  next write goes ``interval`` after Telegram received the previous one in a group (``private_interval`` in a
  private chat, where Telegram tolerates short bursts), at most ``group_per_minute`` per minute in a group,
  across all workers;
* writes to one chat leave this worker one at a time, in order;
* ``request`` (``answerCallbackQuery``, ``getMe``) is no message: it waits neither for a chat's slot nor for the
  bot's schedule (Telegram's limits count messages; python-telegram-bot's ``AIORateLimiter`` likewise limits
  only requests made in a chat), so a press is answered at once however many writes are queued.

Coalescing of table edits (the latest picture wins) sits on top of this, in ``bot.telegram.port``.
"""

from __future__ import annotations

import asyncio
import itertools
import uuid
from collections.abc import Awaitable, Callable
from typing import TypeVar

from aiogram.exceptions import TelegramNetworkError, TelegramRetryAfter, TelegramServerError

from bot import metrics
from bot.telegram.coordination import Coordinator

T = TypeVar("T")
MAX_ATTEMPTS = 6


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
    ) -> None:
        self.coordinator = coordinator
        self.interval = interval
        self.private_interval = private_interval
        self.group_per_minute = group_per_minute
        self.window = window
        self._held: dict[str, tuple[str, float]] = {}  # chat -> the slot this worker holds: (member, interval)
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
            wait = await self.coordinator.acquire(chat_id, interval, per_minute, member, self.window)
            if wait <= 0:
                break
            if not waited:
                waited = True
                metrics.FLOOD_WAITS.labels("telegram").inc()
            await asyncio.sleep(wait)
        self._held[chat_id] = (member, interval)
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
            await self.coordinator.release(chat_id, held[1], held[0], used)

    async def hold(self, chat_id: str, error: TelegramRetryAfter) -> None:
        """Telegram answered 429 in this chat: nobody writes to it for ``retry_after`` (counted for the operator)."""
        self.retries += 1
        metrics.RATE_LIMITED.labels("telegram", metrics.api_method(error)).inc()
        await self.coordinator.hold(chat_id, error.retry_after)

    async def write(self, chat_id: str, call: Callable[[], Awaitable[T]], *, group: bool) -> T:
        """One message or edit to a chat: in this chat's order, in its turn, again after a 429 or a network
        failure (a few times; then the error goes up)."""
        async with self.lock(chat_id):
            for attempt in range(1, MAX_ATTEMPTS + 1):
                await self.turn(chat_id, group=group)
                try:
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
