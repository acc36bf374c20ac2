"""Running the Telegram adapter: the bot, its port and dispatcher, long polling or a webhook server.

``serve(app, settings)`` checks the token, attaches a ``TelegramPort`` to the application, registers the
command menu and runs until cancelled. With ``TELEGRAM_WEBHOOK_URL`` it listens on
``TELEGRAM_WEBHOOK_HOST:PORT`` (127.0.0.1 unless set) and points the webhook there (other workers behind the
same URL do the same; with ``REDIS_URL`` they share flood control, table edits and which updates are handled,
``bot.telegram.webhook``), else it long-polls ``getUpdates``: one worker only, as Telegram serves one poll
per bot; with ``REDIS_URL`` a second polling worker refuses to start.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import uuid
from urllib.parse import urlsplit

from aiogram import Bot, Dispatcher
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.client.telegram import TelegramAPIServer
from aiohttp import web

from bot import keys
from bot.config import Settings
from bot.telegram.convert import Application
from bot.telegram.coordination import MINE, Coordinator, LocalCoordinator, RedisCoordinator
from bot.telegram.flood import FloodControl
from bot.telegram.menu import register_commands
from bot.telegram.port import TelegramPort
from bot.telegram.routers import all_routers
from bot.telegram.token_check import check_token
from bot.telegram.webhook import WebhookHandler

log = logging.getLogger(__name__)

POLL_KEY = "long-poll"
POLL_LEASE = 15.0  # seconds the long-polling worker's claim lasts unless renewed


class SecondPoller(RuntimeError):
    """Another worker already long-polls this bot: Telegram serves one ``getUpdates`` at a time."""


def make_bot(settings: Settings) -> Bot:
    token = check_token(settings.telegram_bot_token)
    session = None
    if settings.telegram_api_url:
        session = AiohttpSession(api=TelegramAPIServer.from_base(settings.telegram_api_url))
    return Bot(token, session=session)


def make_coordinator(settings: Settings, bot: Bot) -> Coordinator:
    if settings.redis_url:
        return RedisCoordinator(settings.redis_url, namespace=str(bot.id))
    return LocalCoordinator()


def make_port(settings: Settings, bot: Bot) -> TelegramPort:
    flood = FloodControl(
        make_coordinator(settings, bot),
        interval=settings.telegram_edit_interval,
        private_interval=settings.telegram_private_interval,
        group_per_minute=settings.telegram_group_per_minute,
        global_per_second=settings.telegram_global_per_second,
        window=settings.telegram_group_window,
    )
    port = TelegramPort(bot, flood)
    port.webapp_name = settings.telegram_webapp_name
    return port


def make_dispatcher(app: Application, port: TelegramPort) -> Dispatcher:
    dp = Dispatcher()
    dp["app"] = app
    dp["port"] = port
    dp.include_routers(*all_routers())
    return dp


def webhook_secret(settings: Settings, token: str) -> str:
    """``TELEGRAM_WEBHOOK_SECRET``, else the token's own ``WEBHOOK_SECRET`` key (``bot.keys``) in hex: it travels
    in every webhook request's header, so it is derived for this purpose alone and tells nothing of other keys."""
    return settings.telegram_webhook_secret or keys.purpose_key(token, keys.WEBHOOK_SECRET).hex()


class TelegramRunner:
    """One worker of the bot: ``start()`` connects and listens, ``stop()`` finishes queued edits and closes."""

    def __init__(self, app: Application, settings: Settings) -> None:
        self.settings = settings
        self.bot = make_bot(settings)
        self.port = make_port(settings, self.bot)
        self.app = app
        self.dp = make_dispatcher(app, self.port)
        attach = getattr(app, "attach", None)
        if attach is not None:  # at once, so that the application can resume its tables on this port
            attach(self.port)
        self._web: web.AppRunner | None = None
        self._polling: asyncio.Task | None = None
        self._poll_lease: asyncio.Task | None = None
        self.webhook: WebhookHandler | None = None
        self.webhook_address: str | None = None
        self.me = uuid.uuid4().hex  # unique across containers (each is pid 1) and restarts

    async def start(self) -> None:
        await self.port.open()
        await register_commands(self.bot)
        if self.settings.telegram_webhook_url:
            await self._start_webhook(self.settings.telegram_webhook_url)
        else:
            await self._claim_poll()
            await self.bot.delete_webhook()
            self._polling = asyncio.create_task(
                self.dp.start_polling(self.bot, handle_signals=False, close_bot_session=False, polling_timeout=10)
            )

    async def _claim_poll(self) -> None:
        """Long polling: one worker per bot. With Redis, a second one refuses to start; without, say so."""
        if not self.settings.redis_url:
            log.warning(
                "telegram: long polling; run ONE worker like this (Telegram serves one poll per bot); "
                "set TELEGRAM_WEBHOOK_URL (and REDIS_URL) to run several"
            )
            return
        if await self.port.coordinator.claim(POLL_KEY, self.me, POLL_LEASE) != MINE:
            raise SecondPoller(
                "another worker already long-polls this bot (Telegram serves one poll per bot): "
                "set TELEGRAM_WEBHOOK_URL to run several workers behind one webhook URL"
            )
        self._poll_lease = asyncio.create_task(self._keep_poll())

    async def _keep_poll(self) -> None:
        while True:
            await asyncio.sleep(POLL_LEASE / 3)
            await self.port.coordinator.renew(POLL_KEY, self.me, POLL_LEASE)

    async def _start_webhook(self, url: str) -> None:
        path = urlsplit(url).path or "/"
        secret = webhook_secret(self.settings, self.bot.token)
        server = web.Application()
        self.webhook = WebhookHandler(
            self.dp,
            self.bot,
            port=self.port,
            coordinator=self.port.coordinator,
            secret_token=secret,
            hold=self.settings.telegram_webhook_hold,
            lease=self.settings.telegram_update_lease,
        )
        self.webhook.register(server, path=path)
        server.router.add_get("/healthz", self._health)
        self._web = web.AppRunner(server, access_log=None)
        await self._web.setup()
        site = web.TCPSite(self._web, self.settings.telegram_webhook_host, self.settings.telegram_webhook_port)
        await site.start()
        host, port = site._server.sockets[0].getsockname()[:2]  # type: ignore[union-attr]
        self.webhook_address = f"http://{host}:{port}{path}"
        await self.bot.set_webhook(url, secret_token=secret, allowed_updates=self.dp.resolve_used_update_types())
        log.info("telegram webhook %s served at %s", url, self.webhook_address)

    async def _health(self, request: web.Request) -> web.Response:
        """For the proxy and the container's health check: this worker serves the webhook."""
        return web.Response(text="ok")

    async def stop(self) -> None:
        if self._polling is not None:
            await asyncio.sleep(0)  # let a polling task that was just created begin
            with contextlib.suppress(RuntimeError):  # RuntimeError: polling had not begun yet
                await self.dp.stop_polling()  # cancels the long poll at once
            self._polling.cancel()
            await asyncio.gather(self._polling, return_exceptions=True)
        if self._poll_lease is not None:
            self._poll_lease.cancel()
            await asyncio.gather(self._poll_lease, return_exceptions=True)
            await self.port.coordinator.drop(POLL_KEY, self.me)
        if self._web is not None:
            await self._web.cleanup()  # the webhook stays set: other workers behind the URL keep serving
        await self.port.close()
        await self.bot.session.close()


async def serve(app: Application, settings: Settings) -> None:
    """Attach the Telegram port to the application and serve updates until cancelled."""
    runner = TelegramRunner(app, settings)
    try:
        await runner.start()
        log.info("telegram bot @%s is up", runner.port.username)
        await asyncio.Event().wait()
    finally:
        await runner.stop()
