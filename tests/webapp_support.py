"""The web table's tests: the real application over a temporary SQLite file, its pages served on 127.0.0.1,
games opened through the application's own commands and lobby buttons, and a small WebSocket client."""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import aiohttp
from aiohttp import web

from bot.app import Application, create_application
from bot.config import Settings
from bot.playground import PlaygroundPort, start_site
from bot.port import Chat, Command, Press, User
from bot.storage import TableRec
from bot.texts import HINTS_ROW
from bot.webapp import install
from core.ai.player import ComputerPlayer

TOKEN = "123456:AAE-webapp-test-token"


def settings_for(tmp_path: Path, **extra: Any) -> Settings:
    return Settings(
        _env_file=None,
        database_url=f"sqlite+aiosqlite:///{tmp_path / 'games.sqlite3'}",
        data_dir=tmp_path,
        computer_pause=0,
        tick_interval=0,
        **extra,
    )


@dataclass
class Site:
    app: Application
    port: PlaygroundPort
    url: str
    runner: web.AppRunner

    async def close(self) -> None:
        await self.runner.cleanup()
        await self.port.close()


async def serve_playground(data: Path, number: int = 0) -> Site:
    """A new application over ``data``'s SQLite file (no pause after a round) and the playground page with its web
    table on 127.0.0.1 (port ``number``, 0: a free one), as ``python -m bot`` serves them; the url has no final /."""
    from bot.__main__ import webtable_installer

    settings = settings_for(data, round_pause=0)
    app = await create_application(settings)
    port = PlaygroundPort(edit_interval=0.02)
    app.attach(port)
    await app.start()
    runner, url = await start_site(app, port, "127.0.0.1", number, extend=webtable_installer(app, settings))
    return Site(app, port, url.rstrip("/"), runner)


async def serve_webapp(
    app: Application, *, poll_interval: float = 1.0, redis_url: str | None = None, **options: Any
) -> Site:
    """The application with a playground port, and the web table served on a free port of 127.0.0.1
    (``options``: the limits ``install`` takes)."""
    port = PlaygroundPort(edit_interval=0.01)
    app.attach(port)
    web_app = web.Application()
    install(
        web_app, app, bot_token=TOKEN, trust_names=True, poll_interval=poll_interval, redis_url=redis_url, **options
    )
    runner = web.AppRunner(web_app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    return Site(app, port, f"http://127.0.0.1:{runner.addresses[0][1]}", runner)


async def new_app(tmp_path: Path) -> Application:
    app = await create_application(settings_for(tmp_path))
    await app.start()
    return app


def person(name: str, lang: str = "en") -> User:
    return User("playground", name.casefold(), name, lang)


async def open_game(
    app: Application,
    room: str,
    host: User,
    game: str,
    seats: int,
    *,
    people: tuple[User, ...] = (),
    level="easy",
    hints: bool = False,
) -> TableRec:
    """A table opened with the application's own command and lobby buttons: the host, ``people``, then
    computers of ``level`` in the seats left, hints on when asked (the lobby's settings button), and started."""
    chat = Chat("playground", room, title=room)
    port = app.ports["playground"]
    for user in (host, *people):  # reachable privately, as after a tab of theirs said hello
        port.users[user.id] = user  # type: ignore[attr-defined]
    await app.command(Command(host, chat, "new", f"{game} {seats}"))
    chat_rec = await app.people.chat_rec(chat)
    rec = await app.storage.open_table(chat_rec.id)
    assert rec is not None
    for user in people:
        await app.press(Press(user, chat, f"j.{rec.id}"))
    for _ in range(seats - 1 - len(people)):
        rec = await app.storage.table(rec.id)
        await app.press(Press(host, chat, f"c.{rec.id}.{rec.lobby_rev}.{level}"))
    if hints:
        rec = await app.storage.table(rec.id)
        await app.press(Press(host, chat, f"o.{rec.id}.{rec.lobby_rev}.{HINTS_ROW}"))
    await app.press(Press(host, chat, f"s.{rec.id}"))
    await app.idle()
    return await app.storage.table(rec.id)


async def play_to_the_end(app: Application, room: str, table_id: int, people: tuple[User, ...]) -> TableRec:
    """The people play their turns as the normal computer would, through ``Application.press`` (the chat's way);
    computer seats move by themselves. Returns the finished table."""
    chat = Chat("playground", room, title=room)
    for n in range(5000):
        await app.idle()
        rec = await app.storage.table(table_id)
        if rec.status != "playing":
            return rec
        live = await app.live(rec)
        seat = live.state.to_act
        user = next(
            u for u in people if any(s.seat == seat and s.user and s.user.platform_id == u.id for s in rec.seats)
        )
        action = ComputerPlayer(rec.game, "normal", seed=n).decide(live.state.view(seat), live.round_events)
        await app.press(Press(user, chat, f"a.{rec.id}.{rec.version}.{action.code()}"))
    raise AssertionError("the game did not end")


def init_data(
    user: dict[str, Any], *, token: str = TOKEN, auth_date: int | None = None, start_param: str | None = None
) -> str:
    """``initData`` as Telegram signs it (core.telegram.org/bots/webapps#validating-data-received-via-the-mini-app)."""
    fields = {
        "auth_date": str(int(time.time()) if auth_date is None else auth_date),
        "query_id": "AAHdF6IQAAAAAN0XohDhrOrc",
    }
    fields["user"] = json.dumps(user, separators=(",", ":"), ensure_ascii=False)
    if start_param is not None:
        fields["start_param"] = start_param
    check = "\n".join(f"{k}={v}" for k, v in sorted(fields.items()))
    secret = hmac.new(b"WebAppData", token.encode(), hashlib.sha256).digest()
    fields["hash"] = hmac.new(secret, check.encode(), hashlib.sha256).hexdigest()
    return urlencode(fields)


@dataclass
class Page:
    """One page's socket: every frame it received, in order."""

    ws: aiohttp.ClientWebSocketResponse
    frames: list[dict[str, Any]] = field(default_factory=list)
    req: int = 0
    _task: asyncio.Task[None] | None = None
    _new: asyncio.Event = field(default_factory=asyncio.Event)

    def start(self) -> None:
        self._task = asyncio.create_task(self._read())

    async def _read(self) -> None:
        async for msg in self.ws:
            if msg.type == aiohttp.WSMsgType.TEXT:
                self.frames.append(json.loads(msg.data))
                self._new.set()

    async def wait(self, test, timeout: float = 10.0) -> dict[str, Any]:
        """The first frame (old or new) that passes ``test``."""
        async with asyncio.timeout(timeout):
            seen = 0
            while True:
                for f in self.frames[seen:]:
                    if test(f):
                        return f
                seen = len(self.frames)
                self._new.clear()
                await self._new.wait()

    def tables(self) -> list[dict[str, Any]]:
        return [f for f in self.frames if f.get("type") == "table"]

    def last_table(self) -> dict[str, Any]:
        return self.tables()[-1]

    async def press(self, payload: str) -> dict[str, Any]:
        self.req += 1
        req = self.req
        await self.ws.send_json({"type": "press", "payload": payload, "req": req})
        return await self.wait(lambda f: f.get("req") == req and f.get("type") in ("answer", "error"))

    async def close(self) -> None:
        await self.ws.close()
        if self._task is not None:
            await self._task


async def session_for(http: aiohttp.ClientSession, url: str, name: str, room: str, lang: str = "en") -> str:
    async with http.post(
        url + "/app/api/session",
        headers={"Authorization": "playground"},
        json={"name": name, "room": room, "lang": lang},
    ) as res:
        assert res.status == 200, await res.text()
        return (await res.json())["session"]


async def open_page(http: aiohttp.ClientSession, url: str, session: str) -> Page:
    ws = await http.ws_connect(url + "/app/ws")
    await ws.send_json({"type": "hello", "session": session})
    page = Page(ws)
    page.start()
    await page.wait(lambda f: f.get("type") == "hello")
    return page


class SplitBalancer:
    """A test balancer on 127.0.0.1 in front of two web table workers: the WebSocket (``/app/ws``) goes to
    ``socket_to``, every other request (pictures, sessions, the page) to ``rest_to``; ``seen`` counts the requests
    each worker got by path kind."""

    def __init__(self, socket_to: str, rest_to: str) -> None:
        self.socket_to, self.rest_to = socket_to, rest_to
        self.seen: dict[tuple[str, str], int] = {}
        self.url = ""
        self._runner: web.AppRunner | None = None
        self._http: aiohttp.ClientSession | None = None

    async def start(self) -> str:
        self._http = aiohttp.ClientSession()
        web_app = web.Application()
        web_app.router.add_route("*", "/{tail:.*}", self._handle)
        self._runner = web.AppRunner(web_app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.url = f"http://127.0.0.1:{self._runner.addresses[0][1]}"
        return self.url

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
        if self._http is not None:
            await self._http.close()

    async def _handle(self, request: web.Request) -> web.StreamResponse:
        assert self._http is not None
        socket = request.path == "/app/ws"
        target = self.socket_to if socket else self.rest_to
        kind = request.path.split("/")[2] if request.path.count("/") >= 2 else request.path
        self.seen[(target, kind)] = self.seen.get((target, kind), 0) + 1
        if socket:
            return await self._pipe(request, target)
        async with self._http.request(
            request.method, target + request.path_qs, headers=_forwarded(request), data=await request.read()
        ) as res:
            body = await res.read()
            headers = {k: v for k, v in res.headers.items() if k.lower() not in _HOP}
            return web.Response(status=res.status, body=body, headers=headers)

    async def _pipe(self, request: web.Request, target: str) -> web.WebSocketResponse:
        assert self._http is not None
        outer = web.WebSocketResponse()
        await outer.prepare(request)
        async with self._http.ws_connect(target + "/app/ws") as inner:

            async def down() -> None:
                async for msg in inner:
                    if msg.type == aiohttp.WSMsgType.TEXT:
                        await outer.send_str(msg.data)
                await outer.close()

            pump = asyncio.create_task(down())
            async for msg in outer:
                if msg.type == aiohttp.WSMsgType.TEXT:
                    await inner.send_str(msg.data)
            await inner.close()
            await pump
        return outer


_HOP = {"connection", "keep-alive", "transfer-encoding", "content-length", "content-encoding", "upgrade"}


def _forwarded(request: web.Request) -> dict[str, str]:
    return {k: v for k, v in request.headers.items() if k.lower() not in _HOP and k.lower() != "host"}


async def tap_first(players: tuple[Page, ...], version: int) -> dict[str, Any]:
    """Once every player's page shows ``version``, the one whose turn it is taps its first action; its answer."""
    for page in players:
        await page.wait(lambda f: f.get("type") == "table" and f["version"] == version)
    mover = next(p for p in players if p.last_table()["your_turn"])
    return await mover.press(mover.last_table()["actions"][0]["payload"])
