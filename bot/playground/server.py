"""The playground's web server (aiohttp): the page, its files, pictures, the start panel's data and the
WebSocket that carries commands and presses in and messages out.

Every frame from a tab is checked by ``bot.playground.protocol``; a refused frame gets an ``error`` frame
the page words in its language, and reaches nothing. Well-formed commands, presses and invitation starts go
to the application unchanged, which validates them as it does a chat's.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from importlib import resources
from typing import Any, Protocol
from urllib.parse import urlsplit

from aiohttp import WSMsgType, web

from bot import frames, metrics
from bot.playground import protocol
from bot.playground.hosts import Hosts
from bot.playground.port import PLATFORM, Client, Handle, PlaygroundPort
from bot.port import Command, Press, PrivateStart, User
from core import games
from core.ai import LEVELS

log = logging.getLogger(__name__)

STATIC = resources.files("bot.playground") / "static"
STATIC_FILES = {"app.js": "text/javascript", "style.css": "text/css", "favicon.svg": "image/svg+xml"}
PORT_KEY = web.AppKey("port", PlaygroundPort)
HANDLER_KEY: web.AppKey[Any] = web.AppKey("handler")


class Handler(Protocol):
    """The part of ``bot.app.Application`` the playground calls."""

    async def command(self, cmd: Command) -> None: ...

    async def press(self, press: Press) -> None: ...

    async def private_start(self, start: PrivateStart) -> None: ...


def make_web_app(
    handler: Handler,
    port: PlaygroundPort,
    extend: Callable[[web.Application], Any] | None = None,
    hosts: Hosts | None = None,
) -> web.Application:
    """The aiohttp application serving one playground; ``extend`` adds more routes (the web table's). Every
    request's ``Host`` must be on ``hosts`` (loopback only by default): ``bot.playground.hosts``."""
    hosts = hosts or Hosts("127.0.0.1")
    web_app = web.Application(client_max_size=64 * 1024, middlewares=[hosts.middleware()])
    web_app[PORT_KEY] = port
    web_app[HANDLER_KEY] = handler
    web_app.router.add_get("/", index)
    web_app.router.add_get("/static/{name}", static_file)
    web_app.router.add_get("/media/{token}", media)
    web_app.router.add_get("/media/{token}/{filename}", media)
    web_app.router.add_get("/api/games", games_info)
    web_app.router.add_get("/ws", websocket)
    frames.close_sockets_on_shutdown(web_app)

    def sockets() -> int:
        return len(port.clients)

    async def counted(_: web.Application) -> None:
        metrics.count_sockets("playground", sockets)

    async def uncounted(_: web.Application) -> None:
        metrics.uncount_sockets("playground", sockets)

    web_app.on_startup.append(counted)
    web_app.on_cleanup.append(uncounted)
    if extend is not None:
        extend(web_app)
    return web_app


async def index(request: web.Request) -> web.Response:
    html = (STATIC / "index.html").read_text(encoding="utf-8")
    return web.Response(text=html, content_type="text/html", headers={"Cache-Control": "no-cache"})


async def static_file(request: web.Request) -> web.Response:
    name = request.match_info["name"]
    mime = STATIC_FILES.get(name)
    if mime is None:
        raise web.HTTPNotFound()
    data = (STATIC / name).read_bytes()
    return web.Response(body=data, content_type=mime, headers={"Cache-Control": "no-cache"})


async def media(request: web.Request) -> web.Response:
    """A picture or a file by its token (the address is the key: private pictures go to their owner only)."""
    item = request.app[PORT_KEY].board.media.get(request.match_info["token"])
    if item is None:
        raise web.HTTPNotFound()
    headers = {"Cache-Control": "private, max-age=3600", "X-Content-Type-Options": "nosniff"}
    if item.filename is not None:
        headers["Content-Disposition"] = f'attachment; filename="{item.filename}"'
    return web.Response(body=item.data, content_type=item.mime, headers=headers)


def _games() -> list[dict[str, Any]]:
    out = []
    for name in games.available():
        rules = games.get(name)
        out.append({"name": name, "min_players": rules.min_players, "max_players": rules.max_players})
    return out


async def games_info(request: web.Request) -> web.Response:
    """What the start panel offers: games, their seat counts, computer levels, languages."""
    levels = [level for level in LEVELS if level != "random"]
    return web.json_response({"games": _games(), "levels": levels, "languages": list(protocol.LANGUAGES)})


def _same_origin(request: web.Request) -> bool:
    """A WebSocket only from the playground's own page (no other web site may drive it through a browser)."""
    origin = request.headers.get("Origin")
    return origin is None or urlsplit(origin).netloc == request.host


async def websocket(request: web.Request) -> web.StreamResponse:
    if not _same_origin(request):
        raise web.HTTPForbidden(text="cross-origin WebSocket refused")
    port = request.app[PORT_KEY]
    handler = request.app[HANDLER_KEY]
    ws = web.WebSocketResponse(heartbeat=30, max_msg_size=64 * 1024)
    await ws.prepare(request)
    frames.track(request, ws)
    client = Client(ws)
    writer = asyncio.create_task(client.write_loop())
    try:
        async for msg in ws:
            if msg.type == WSMsgType.TEXT:
                await dispatch(handler, port, client, msg.data)
            elif msg.type == WSMsgType.BINARY:
                port.refuse(client, "bad_request", None)
    finally:
        port.unregister(client)
        client.close_soon()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(writer, 2)
    return ws


async def dispatch(handler: Handler, port: PlaygroundPort, client: Client, raw: str) -> None:
    """Check one frame and hand it on: to the port (hello) or to the application."""
    try:
        frame = protocol.parse(raw)
    except protocol.BadFrame as e:
        port.refuse(client, e.code, e.req)
        return
    if isinstance(frame, protocol.Hello):
        user = User(PLATFORM, protocol.user_id(frame.name), frame.name, frame.lang)
        port.register(client, user, frame.room)
        return
    user, room = client.user, client.room
    if user is None or room is None:
        port.refuse(client, "no_hello", getattr(frame, "req", None))
        return
    if isinstance(frame, protocol.SayFrame):
        port.said(client, frame.text, private=False, talk=True)
        client.send({"type": "answer", "req": frame.req, "text": None, "alert": False})
        return
    handle = Handle(client, frame.req)
    try:
        if isinstance(frame, protocol.CommandFrame):
            port.said(client, frame.text, private=frame.private)
            chat = None if frame.private else port.chat(room, user.language)
            await handler.command(Command(user, chat, frame.name, frame.args, handle=handle))
        elif isinstance(frame, protocol.PressFrame):
            chat, ref = port.locate(client, frame.message)
            await handler.press(Press(user, chat, frame.payload, ref, handle=handle))
        else:
            await handler.private_start(PrivateStart(user, frame.payload, handle=handle))
    except Exception:
        log.exception("the application failed on %r", frame)
        port.refuse(client, "internal", frame.req)


async def start_site(
    handler: Handler,
    port: PlaygroundPort,
    host: str,
    port_number: int,
    *,
    extend: Callable[[web.Application], Any] | None = None,
    hosts: Hosts | None = None,
) -> tuple[web.AppRunner, str]:
    """Start serving; returns the runner (``await runner.cleanup()`` to stop) and the page's address. ``hosts``:
    the names it answers to (default: loopback and ``host`` itself)."""
    hosts = hosts or Hosts(host)
    runner = web.AppRunner(
        make_web_app(handler, port, extend, hosts),
        handle_signals=False,
        access_log=None,
        shutdown_timeout=frames.SHUTDOWN_GRACE,
    )
    await runner.setup()
    site = web.TCPSite(runner, host, port_number)
    await site.start()
    bound = runner.addresses[0][1] if runner.addresses else port_number  # the real port when 0 was asked
    shown = f"[{host}]" if ":" in host else host
    return runner, f"http://{shown}:{bound}/"
