"""Running the Telegram adapter: the bot, its port and dispatcher, long polling or a webhook server.

``serve(app, settings)`` checks the token, attaches a ``TelegramPort`` to the application, registers the
command menu and runs until cancelled. With ``TELEGRAM_WEBHOOK_URL`` it listens on
``TELEGRAM_WEBHOOK_HOST:PORT`` and points the webhook there (other workers behind the same URL do the same;
with ``REDIS_URL`` they share flood control and table edits), else it long-polls ``getUpdates``.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
from urllib.parse import urlsplit

from aiogram import Bot, Dispatcher
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.client.telegram import TelegramAPIServer
from aiogram.webhook.aiohttp_server import SimpleRequestHandler
from aiohttp import web

from bot.config import Settings
from bot.telegram.convert import Application
from bot.telegram.coordination import Coordinator, LocalCoordinator, RedisCoordinator
from bot.telegram.flood import FloodControl
from bot.telegram.menu import register_commands
from bot.telegram.port import TelegramPort
from bot.telegram.routers import all_routers
from bot.telegram.token_check import check_token

log = logging.getLogger(__name__)


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
    return settings.telegram_webhook_secret or hashlib.sha256(token.encode()).hexdigest()[:48]


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
        self.webhook_address: str | None = None

    async def start(self) -> None:
        await self.port.open()
        await register_commands(self.bot)
        if self.settings.telegram_webhook_url:
            await self._start_webhook(self.settings.telegram_webhook_url)
        else:
            await self.bot.delete_webhook()
            self._polling = asyncio.create_task(
                self.dp.start_polling(self.bot, handle_signals=False, close_bot_session=False, polling_timeout=10)
            )

    async def _start_webhook(self, url: str) -> None:
        path = urlsplit(url).path or "/"
        secret = webhook_secret(self.settings, self.bot.token)
        server = web.Application()
        SimpleRequestHandler(self.dp, self.bot, secret_token=secret, handle_in_background=True).register(
            server, path=path
        )
        self._web = web.AppRunner(server, access_log=None)
        await self._web.setup()
        site = web.TCPSite(self._web, self.settings.telegram_webhook_host, self.settings.telegram_webhook_port)
        await site.start()
        host, port = site._server.sockets[0].getsockname()[:2]  # type: ignore[union-attr]
        self.webhook_address = f"http://{host}:{port}{path}"
        await self.bot.set_webhook(url, secret_token=secret, allowed_updates=self.dp.resolve_used_update_types())
        log.info("telegram webhook %s served at %s", url, self.webhook_address)

    async def stop(self) -> None:
        if self._polling is not None:
            await asyncio.sleep(0)  # let a polling task that was just created begin
            with contextlib.suppress(RuntimeError):  # RuntimeError: polling had not begun yet
                await self.dp.stop_polling()  # cancels the long poll at once
            self._polling.cancel()
            await asyncio.gather(self._polling, return_exceptions=True)
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
