"""The web table's HTTP side (aiohttp): the page, its files, pictures, the session endpoint and the WebSocket.

Routes (``mount`` adds them to any aiohttp application: the playground's, or the web table's own server)::

    GET  /app/                 the page (strict Content-Security-Policy)
    GET  /app/static/<file>    its script and style
    POST /app/api/session      Authorization: tma <initData>  → 200 {"session", "table"} or 401 {"error"}
    POST /app/api/invite       Authorization: session <token> → 200 {"id"}: a prepared message to share (Mini App)
    GET  /app/ws               the page's socket: hello with the session, then taps; frames of the table out
    GET  /app/pic/<address>    a picture of a frame: a signed, expiring address any worker serves
                               (``bot.webapp.pictures``; a hand's address is given to its seat's sockets only)

A socket must say hello within ``hello_timeout`` seconds, is refused beyond the hub's caps per person and per
table, and may send ``PRESS_RATE`` messages per ``PRESS_PERIOD`` seconds (more are answered with a notice and
change nothing; ``bot.webapp.hub``).

The playground (which believes the name a tab gives, on 127.0.0.1 only) also accepts
``Authorization: playground`` with ``{"name", "room", "lang"}``: a session for that name watching the room's table.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
from importlib import resources
from typing import Any
from urllib.parse import urlsplit

from aiohttp import WSMsgType, web

from bot import frames, tablepass
from bot.port import User
from bot.storage import NotFound
from bot.webapp import invite as inviting
from bot.webapp.activity import DiscordActivity
from bot.webapp.activity import Refused as ActivityRefused
from bot.webapp.auth import BadInitData, Session, Sessions, telegram_user
from bot.webapp.hub import TOO_FAST, Hub, Watcher, page_lang
from bot.webapp.pictures import PREFIX, Refused
from core.i18n import t

log = logging.getLogger(__name__)

STATIC = resources.files("bot.webapp") / "static"
STATIC_FILES = {
    "table.js": "text/javascript",
    "page.js": "text/javascript",
    "table.css": "text/css",
    "discord-sdk.js": "text/javascript",  # the Embedded App SDK, vendored (tools/build_discord_sdk.sh)
}
MAX_FRAME = 4096
ROOM_RE = re.compile(r"[a-z0-9][a-z0-9_-]{0,31}")  # a playground room, as bot.playground.protocol has it
MAX_NAME = 32
LANGUAGES = ("en", "ru", "uk")
HELLO_TIMEOUT = 5.0  # seconds a new socket has to say hello before it is closed

FRAME_ANCESTORS = "'self' https://web.telegram.org https://*.telegram.org"
DISCORD_ANCESTORS = "https://discord.com https://*.discord.com https://*.discordsays.com"  # an Activity's frames


def csp(*, discord: bool = False) -> str:
    """The page's Content-Security-Policy; with the Activity on, Discord may frame it (nothing else changes: its
    scripts, sockets and pictures come from this origin, through Discord's proxy)."""
    ancestors = FRAME_ANCESTORS + (" " + DISCORD_ANCESTORS if discord else "")
    return "; ".join(
        [
            "default-src 'none'",
            "script-src 'self' https://telegram.org",
            "style-src 'self'",
            "img-src 'self' data:",
            "media-src 'self' data:",
            "connect-src 'self'",
            "base-uri 'none'",
            "form-action 'none'",
            f"frame-ancestors {ancestors}",
        ]
    )


CSP = csp()
SECURITY_HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-cache",
}


class WebTable:
    """What the routes need: the hub, the session signer, and how people prove who they are."""

    def __init__(
        self,
        hub: Hub,
        sessions: Sessions,
        *,
        bot_token: str | None,
        trust_names: bool,
        hello_timeout: float = HELLO_TIMEOUT,
        activity: DiscordActivity | None = None,
    ) -> None:
        self.hub = hub
        self.sessions = sessions
        self.bot_token = bot_token
        self.trust_names = trust_names
        self.hello_timeout = hello_timeout
        self.activity = activity  # the Discord Activity's sign-in (bot.webapp.activity), when configured
        self.headers = dict(SECURITY_HEADERS, **{"Content-Security-Policy": csp(discord=activity is not None)})


WEBTABLE_KEY = web.AppKey("webtable", WebTable)


def mount(web_app: web.Application, table: WebTable) -> None:
    web_app[WEBTABLE_KEY] = table
    web_app.router.add_get("/app", to_page)
    web_app.router.add_get("/app/", page)
    web_app.router.add_get("/app/static/{name}", static_file)
    web_app.router.add_get(PREFIX + "{token}", picture)
    web_app.router.add_post("/app/api/session", session)
    web_app.router.add_post("/app/api/invite", invite)
    web_app.router.add_get("/app/ws", websocket)
    frames.close_sockets_on_shutdown(web_app)
    if table.activity is not None:
        web_app.router.add_get("/app/api/activity", activity_config)
        web_app.router.add_post("/app/api/activity", activity_session)
        # Discord opens an Activity at the root of its URL mapping (docs/webapp.md): on to the page, query kept
        web_app.router.add_get("/", to_page)


async def to_page(request: web.Request) -> web.Response:
    raise web.HTTPFound("/app/" + (f"?{request.query_string}" if request.query_string else ""))


async def page(request: web.Request) -> web.Response:
    html = (STATIC / "index.html").read_text(encoding="utf-8")
    return web.Response(text=html, content_type="text/html", headers=request.app[WEBTABLE_KEY].headers)


async def static_file(request: web.Request) -> web.Response:
    name = request.match_info["name"]
    mime = STATIC_FILES.get(name)
    if mime is None:
        raise web.HTTPNotFound()
    return web.Response(body=(STATIC / name).read_bytes(), content_type=mime, headers=request.app[WEBTABLE_KEY].headers)


async def picture(request: web.Request) -> web.Response:
    """A picture by its signed address, from this worker's pictures or drawn from the stored table."""
    hub = request.app[WEBTABLE_KEY].hub
    try:
        spec = hub.pictures.check(request.match_info["token"])
    except Refused as e:
        return _refuse(e.code, 403)
    data = await hub.pictures.data(spec, hub.redraw)
    if data is None:
        return _refuse("no_picture", 404)
    headers = {"Cache-Control": "private, max-age=3600", "X-Content-Type-Options": "nosniff"}
    return web.Response(body=data, content_type="image/jpeg", headers=headers)


def _refuse(code: str, status: int = 401) -> web.Response:
    return web.json_response({"error": code}, status=status, headers={"Cache-Control": "no-store"})


def _same_origin(request: web.Request) -> bool:
    origin = request.headers.get("Origin")
    return origin is None or urlsplit(origin).netloc == request.host


async def session(request: web.Request) -> web.Response:
    """``Authorization: tma <initData>`` → a session for that Telegram user and the table it was opened for."""
    table: WebTable = request.app[WEBTABLE_KEY]
    if not _same_origin(request):
        return _refuse("cross_origin", 403)
    scheme, _, credentials = request.headers.get("Authorization", "").partition(" ")
    try:
        body = await request.json() if request.can_read_body else {}
    except (ValueError, UnicodeDecodeError):
        body = {}
    if not isinstance(body, dict):
        body = {}
    if scheme == "playground" and table.trust_names:
        return _playground_session(table, body)
    if scheme != "tma":
        return _refuse("no_init_data")
    if not table.bot_token:
        return _refuse("telegram_off")
    try:
        launch = telegram_user(table.bot_token, credentials.strip())
    except BadInitData as e:
        return _refuse(e.code)
    # a table's pass is signed by the bot (bot.tablepass): a guessed table number opens nothing
    key = tablepass.key_of(table.bot_token)
    table_id = tablepass.check(key, launch.start_param) or tablepass.check(key, body.get("table"))
    if table_id is None:
        return _refuse("no_table", 400 if not (launch.start_param or body.get("table")) else 404)
    try:
        await table.hub.app.storage.table(table_id)
    except NotFound:
        return _refuse("no_table", 404)
    token = table.sessions.issue(Session(launch.user, (table_id,)))
    return web.json_response({"session": token, "table": table_id}, headers={"Cache-Control": "no-store"})


async def invite(request: web.Request) -> web.Response:
    """``Authorization: session <token>`` → a message inviting friends to the session's table, prepared by the
    bot for the user to share (``bot.webapp.invite``)."""
    table: WebTable = request.app[WEBTABLE_KEY]
    if not _same_origin(request):
        return _refuse("cross_origin", 403)
    scheme, _, token = request.headers.get("Authorization", "").partition(" ")
    found = table.sessions.check(token.strip()) if scheme == "session" else None
    if found is None:
        return _refuse("no_session")
    return await inviting.prepare(table.hub.app.ctx, found)


async def activity_config(request: web.Request) -> web.Response:
    """What the Activity's page needs before it can sign in: the application's client id (public)."""
    table: WebTable = request.app[WEBTABLE_KEY]
    assert table.activity is not None
    return web.json_response({"client_id": table.activity.client_id}, headers={"Cache-Control": "no-store"})


async def activity_session(request: web.Request) -> web.Response:
    """The Activity's sign-in (``bot.webapp.activity``): the SDK's code and the instance id → a session for that
    Discord user following the instance's channel, checked with Discord, and the token for ``authenticate``."""
    table: WebTable = request.app[WEBTABLE_KEY]
    assert table.activity is not None
    if not _same_origin(request):
        return _refuse("cross_origin", 403)
    try:
        body = await request.json()
    except (ValueError, UnicodeDecodeError):
        body = None
    if not isinstance(body, dict):
        return _refuse("bad_request", 400)
    try:
        signed = await table.activity.sign_in(body.get("code"), body.get("instance_id"), body.get("channel_id"))
    except ActivityRefused as e:
        return _refuse(e.code, e.status)
    token = table.sessions.issue(Session(signed.user, (), signed.channel_id))
    return web.json_response(
        {"session": token, "access_token": signed.access_token, "channel": signed.channel_id},
        headers={"Cache-Control": "no-store"},
    )


def _playground_session(table: WebTable, body: dict[str, Any]) -> web.Response:
    name, room, lang = body.get("name"), body.get("room"), body.get("lang")
    if not isinstance(name, str) or not isinstance(room, str):
        return _refuse("bad_hello", 400)
    name = " ".join("".join(ch if ch.isprintable() else " " for ch in name).split())[:MAX_NAME]
    if not name or not ROOM_RE.fullmatch(room):
        return _refuse("bad_hello", 400)
    lang = lang if lang in LANGUAGES else None
    user = User("playground", name.casefold(), name, lang)  # the playground's own user (bot.playground.protocol)
    token = table.sessions.issue(Session(user, (), room))
    return web.json_response({"session": token, "room": room}, headers={"Cache-Control": "no-store"})


async def websocket(request: web.Request) -> web.StreamResponse:
    if not _same_origin(request):
        raise web.HTTPForbidden(text="cross-origin WebSocket refused")
    table: WebTable = request.app[WEBTABLE_KEY]
    hub = table.hub
    ws = web.WebSocketResponse(heartbeat=30, max_msg_size=MAX_FRAME)
    await ws.prepare(request)
    frames.track(request, ws)
    watcher = await _hello(ws, table)
    if watcher is None:
        return ws
    writer = asyncio.create_task(watcher.write_loop())
    try:
        refused = await hub.admit(watcher)
        if refused is not None:
            watcher.send({"type": "error", "code": "too_many_pages", "text": refused})
            watcher.close_soon()
            return ws
        watcher.send({"type": "hello", "user": {"name": watcher.user.name}, "lang": watcher.lang})
        await hub.refresh(watcher, force=True)
        async for msg in ws:
            if msg.type not in (WSMsgType.TEXT, WSMsgType.BINARY):
                continue
            frame = _frame(msg.data) if msg.type == WSMsgType.TEXT else None
            req = frame.get("req") if isinstance(frame, dict) and isinstance(frame.get("req"), int) else None
            if not await watcher.allow():  # a flood: told so, and nothing of it reaches the application
                watcher.send({"type": "answer", "req": req, "text": t(watcher.lang, TOO_FAST), "alert": False})
            elif frame is None:
                watcher.send({"type": "error", "code": "bad_request"})
            elif frame.get("type") == "press":
                await hub.press(watcher, frame.get("payload"), req)
            else:
                watcher.send({"type": "error", "code": "bad_request", "req": req})
    finally:
        hub.remove(watcher)
        watcher.close_soon()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(writer, 2)
    return ws


def _frame(data: str) -> dict[str, Any] | None:
    try:
        frame = json.loads(data)
    except ValueError:
        return None
    return frame if isinstance(frame, dict) else None


async def _hello(ws: web.WebSocketResponse, table: WebTable) -> Watcher | None:
    """The page's first message must be its hello with a valid session, within ``hello_timeout`` seconds; else the
    socket is told why and closed."""
    try:
        async with asyncio.timeout(table.hello_timeout):
            msg = await ws.receive()
    except TimeoutError:
        await ws.send_json({"type": "error", "code": "no_hello"})
        await ws.close()
        return None
    if msg.type != WSMsgType.TEXT:
        await ws.close()
        return None
    frame = _frame(msg.data) or {}
    found = table.sessions.check(frame.get("session")) if frame.get("type") == "hello" else None
    if found is None:
        req = frame.get("req") if isinstance(frame.get("req"), int) else None
        await ws.send_json({"type": "error", "code": "no_session", "req": req})
        await ws.close()
        return None
    return Watcher(ws, found, page_lang(found))
