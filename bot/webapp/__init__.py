"""The web table: a phone-first page that shows one table as its viewer sees it and plays by tapping the card or
tile itself; the playground's table view and a Telegram Mini App (see ``docs/webapp.md``).

It is a view over the same application: the server builds each viewer's frame from the seat's view
(``bot.webapp.seatview``), and a tap sends the very payload a chat button carries to ``Application.press``.

* ``install(web_app, app, ...)`` adds the routes (``bot.webapp.server``) to an aiohttp application and starts and
  stops the hub with it (the playground's server does this);
* ``serve(app, settings)`` runs the web table's own server on ``WEBAPP_HOST:WEBAPP_PORT`` (Telegram's Mini App).
"""

from __future__ import annotations

import asyncio
import secrets
from typing import TYPE_CHECKING, Any

from aiohttp import web

from bot import keys, metrics
from bot.frames import SHUTDOWN_GRACE
from bot.webapp.activity import DiscordActivity
from bot.webapp.auth import Sessions
from bot.webapp.hub import Hub
from bot.webapp.pictures import Pictures
from bot.webapp.server import HELLO_TIMEOUT, WebTable, mount

if TYPE_CHECKING:
    from bot.config import Settings

__all__ = ["Hub", "WebTable", "install", "serve"]


def install(
    web_app: web.Application,
    app: Any,
    *,
    bot_token: str | None = None,
    trust_names: bool = False,
    poll_interval: float = 1.0,
    redis_url: str | None = None,
    hello_timeout: float = HELLO_TIMEOUT,
    activity: DiscordActivity | None = None,
    **limits: int,
) -> WebTable:
    """Serve the web table from ``web_app`` over the application ``app`` (``limits``: the hub's caps,
    ``pages_per_user`` and ``pages_per_table``)."""
    # every worker derives the same keys from the bot token (bot.keys, one per purpose): any of them checks any
    # page's session and serves its pictures
    seed = bot_token or (activity.bot_token if activity is not None else None)
    secret = keys.purpose_key(seed, keys.WEBAPP_SESSION) if seed else secrets.token_bytes(32)
    pictures = Pictures(keys.purpose_key(seed or secret, keys.WEBAPP_PICTURE))
    table = WebTable(
        Hub(app, pictures, poll_interval=poll_interval, redis_url=redis_url, **limits),
        Sessions(secret),
        bot_token=bot_token,
        trust_names=trust_names,
        hello_timeout=hello_timeout,
        activity=activity,
    )
    mount(web_app, table)

    def sockets() -> int:
        return len(table.hub.watchers)

    async def started(_: web.Application) -> None:
        table.hub.start()
        metrics.count_sockets("webapp", sockets)

    async def stopped(_: web.Application) -> None:
        metrics.uncount_sockets("webapp", sockets)
        await table.hub.close()

    web_app.on_startup.append(started)
    web_app.on_cleanup.append(stopped)
    return table


def activity_of(settings: Settings) -> DiscordActivity | None:
    """The Discord Activity's sign-in when its settings are complete (``Settings.discord_activity``)."""
    if not settings.discord_activity():
        return None
    assert settings.discord_client_id and settings.discord_client_secret and settings.discord_bot_token
    return DiscordActivity(
        settings.discord_client_id,
        settings.discord_client_secret,
        settings.discord_bot_token,
        settings.discord_api_url,
    )


async def serve(app: Any, settings: Settings) -> None:
    """The web table's own server for the Mini App and the Discord Activity (``WEBAPP_URL`` or
    ``DISCORD_ACTIVITY_URL`` set), until cancelled."""
    web_app = web.Application(client_max_size=64 * 1024)
    install(
        web_app,
        app,
        bot_token=settings.telegram_bot_token,
        poll_interval=settings.webapp_poll_interval if not settings.redis_url else 5.0,
        redis_url=settings.redis_url,
        activity=activity_of(settings),
    )
    runner = web.AppRunner(web_app, handle_signals=False, access_log=None, shutdown_timeout=SHUTDOWN_GRACE)
    await runner.setup()
    site = web.TCPSite(runner, settings.webapp_host, settings.webapp_port)
    await site.start()
    print(
        f"web table: listening on {settings.webapp_host}:{settings.webapp_port} for {settings.public_webapp_url()}",
        flush=True,
    )
    try:
        await asyncio.Event().wait()
    finally:
        await runner.cleanup()
