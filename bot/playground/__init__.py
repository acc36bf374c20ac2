"""The local playground: a web chat on 127.0.0.1 that plays every game through the same application as the
chats (``bot.port.Port`` implemented by ``PlaygroundPort``, served by aiohttp, plain HTML/CSS/JS). It answers
only to loopback names and those allowed (``bot.playground.hosts``), and warns when it listens beyond loopback."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from aiohttp import web

from bot.playground.hosts import Hosts
from bot.playground.port import PlaygroundPort
from bot.playground.server import start_site

if TYPE_CHECKING:
    from bot.config import Settings

__all__ = ["PlaygroundPort", "serve", "start_site"]


async def serve(
    app: Any,
    settings: Settings,
    *,
    started: asyncio.Future[str] | None = None,
    extend: Callable[[web.Application], Any] | None = None,
) -> None:
    """Attach the playground's port to the application and serve the page until cancelled.

    ``started`` (optional) receives the page's address once the server listens; ``extend`` adds routes to the
    page's server (``python -m bot`` adds the web table's, ``bot.webapp``).
    """
    port = PlaygroundPort(edit_interval=settings.playground_edit_interval)
    app.attach(port)
    hosts = Hosts.parse(settings.playground_host, settings.playground_hosts)
    runner, url = await start_site(
        app, port, settings.playground_host, settings.playground_port, extend=extend, hosts=hosts
    )
    print(f"playground: open {url} in your browser", flush=True)
    warning = hosts.warning(url)
    if warning:
        print(warning, flush=True)
    if started is not None and not started.done():
        started.set_result(url)
    try:
        await asyncio.Event().wait()
    finally:
        await port.close()
        await runner.cleanup()
