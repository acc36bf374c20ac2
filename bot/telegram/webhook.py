"""The webhook server's request handler: no update lost when a worker dies, none handled twice.

Telegram delivers an update again when its webhook call fails or times out, and never once it got 200. So
each update is answered 200 only once it is in hand:

* a button press once it has been answered (the application answers a move once it is stored), any other
  update once its handling is over, or after ``hold`` seconds at most (the rest goes on in the background,
  so publishing to a busy group never holds the webhook);
* before handling, the update id is claimed in the ``Coordinator`` (Redis with ``REDIS_URL``, shared by every
  worker): an update another worker has handled is answered 200 and dropped; one another worker is handling
  right now is answered 503, so that Telegram comes back later and finds it done, or, when that worker died
  (its claim is a lease it renews while it works), handles it here.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import uuid
from typing import Any

from aiogram import Bot, Dispatcher
from aiogram.webhook.aiohttp_server import SimpleRequestHandler
from aiohttp import web

from bot import metrics
from bot.telegram.coordination import BUSY, DONE, MINE, Coordinator
from bot.telegram.port import TelegramPort

log = logging.getLogger(__name__)


class WebhookHandler(SimpleRequestHandler):
    def __init__(
        self,
        dispatcher: Dispatcher,
        bot: Bot,
        *,
        port: TelegramPort,
        coordinator: Coordinator,
        secret_token: str | None,
        hold: float = 10.0,
        lease: float = 15.0,
    ) -> None:
        super().__init__(dispatcher, bot, handle_in_background=False, secret_token=secret_token)
        self.port = port
        self.coordinator = coordinator
        self.hold = hold
        self.lease = lease
        self.me = uuid.uuid4().hex  # unique across containers (each is pid 1) and restarts
        self._tasks: set[asyncio.Task] = set()
        self._in_hand: set[str] = set()  # update keys this worker is handling
        self.dropped = 0  # updates seen again after another worker (or this one) handled them

    async def handle(self, request: web.Request) -> web.Response:
        bot = self.bot
        if not self.verify_secret(request.headers.get("X-Telegram-Bot-Api-Secret-Token", ""), bot):
            metrics.UPDATES.labels("telegram", "unauthorized").inc()
            return web.Response(body="Unauthorized", status=401)
        try:
            update = await request.json(loads=bot.session.json_loads)
        except ValueError:  # not JSON, or not UTF-8 (UnicodeDecodeError is a ValueError): not from Telegram
            metrics.UPDATES.labels("telegram", "malformed").inc()
            return web.Response(status=400, text="malformed update")
        update_id = update.get("update_id") if isinstance(update, dict) else None
        if not isinstance(update_id, int):
            metrics.UPDATES.labels("telegram", "malformed").inc()
            return web.Response(status=400, text="no update_id")
        key = f"update:{update_id}"
        if key in self._in_hand:  # delivered again to this very worker while it handles it
            return web.Response(status=503, text="being handled", headers={"Retry-After": "1"})
        self._in_hand.add(key)
        try:
            claim = await self.coordinator.claim(key, self.me, self.lease)
        except BaseException:
            self._in_hand.discard(key)
            raise
        if claim != MINE:
            self._in_hand.discard(key)
        if claim == DONE:
            self.dropped += 1
            metrics.UPDATES.labels("telegram", "duplicate").inc()
            return web.json_response({})
        if claim == BUSY:
            metrics.UPDATES.labels("telegram", "busy").inc()
            return web.Response(status=503, text="being handled by another worker", headers={"Retry-After": "1"})
        query = update.get("callback_query")
        query_id = str(query["id"]) if isinstance(query, dict) and "id" in query else None
        answered = self.port.watch_answer(query_id) if query_id else None
        metrics.UPDATES.labels("telegram", "handled").inc()
        task = asyncio.create_task(self._feed(update, key))  # not cancelled if Telegram hangs up
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        waiters: list[asyncio.Future] = [task]
        if answered is not None:
            waiters.append(asyncio.ensure_future(answered.wait()))
        try:
            await asyncio.wait(waiters, timeout=self.hold, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for waiter in waiters[1:]:
                waiter.cancel()
            if query_id:
                self.port.unwatch_answer(query_id)
        return web.json_response({})

    async def _feed(self, update: dict[str, Any], key: str) -> None:
        renewing = asyncio.create_task(self._renew(key))
        try:
            await self.dispatcher.feed_raw_update(bot=self.bot, update=update, **self.data)
        except Exception:  # noqa: BLE001 - the update is done with either way; the log is where it goes
            log.exception("update %s failed", key)
        finally:
            renewing.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await renewing
            await self.coordinator.finish(key)
            self._in_hand.discard(key)

    async def _renew(self, key: str) -> None:
        while True:
            await asyncio.sleep(self.lease / 3)
            if not await self.coordinator.renew(key, self.me, self.lease):
                return

    async def close(self) -> None:
        """Let the updates in hand finish (the runner closes the bot's session afterwards)."""
        if self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)
