"""``python -m bench.webapp``: how fast a tap in the web table becomes the updated table in the pages.

One process, real HTTP and WebSockets on 127.0.0.1: the real application over a temporary SQLite file, the web
table's server (``bot.webapp``) and two pages (aiohttp WebSocket clients) of two people playing Kozel against each
other. Each sample: the player to move sends the payload of its first legal action (what a tap sends), then

* ``self``: until the tapping page has the table frame of the new version;
* ``other``: until the second page has it;
* ``picture``: until the tapping page has also fetched the new table picture (drawn for its seat);
* ``stored``: until the application had checked and stored the move (its observer is called), the part of
  ``self`` that is the application's and the database's, not the web table's;

beside ``echo``: a bare aiohttp WebSocket echo of a frame of the same size on the same server, timed in alternation.
``p95_ratio`` = p95 of ``self`` / p95 of ``echo``. Last line: one JSON object with every figure.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import aiohttp
from aiohttp import web

from bench import add_quick
from bot.app import create_application
from bot.config import Settings
from bot.playground import PlaygroundPort
from bot.port import Chat, Command, Press, User
from bot.webapp import install


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


async def echo(request: web.Request) -> web.WebSocketResponse:
    ws = web.WebSocketResponse()
    await ws.prepare(request)
    async for msg in ws:
        if msg.type == aiohttp.WSMsgType.TEXT:
            await ws.send_str(msg.data)
    return ws


class Page:
    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.ws = ws
        self.frame: dict[str, Any] | None = None
        self.changed = asyncio.Event()
        self.task = asyncio.create_task(self.read())

    async def read(self) -> None:
        async for msg in self.ws:
            frame = json.loads(msg.data)
            if frame.get("type") == "table":
                self.frame = frame
                self.changed.set()

    async def until(self, test) -> float:
        while not (self.frame is not None and test(self.frame)):
            self.changed.clear()
            await self.changed.wait()
        return time.perf_counter()


async def open_game(app: Any, room: str, people: list[User]) -> int:
    chat = Chat("playground", room, title=room)
    port = app.ports["playground"]
    for u in people:
        port.users[u.id] = u
    await app.command(Command(people[0], chat, "new", "kozel 2"))
    rec = await app.storage.open_table((await app.people.chat_rec(chat)).id)
    await app.press(Press(people[1], chat, f"j.{rec.id}"))
    await app.press(Press(people[0], chat, f"s.{rec.id}"))
    await app.idle()
    return rec.id


async def run(samples: int) -> dict[str, Any]:
    tmp = Path(tempfile.mkdtemp(prefix="bench-webapp-"))
    settings = Settings(
        _env_file=None, database_url=f"sqlite+aiosqlite:///{tmp / 'b.sqlite3'}", data_dir=tmp, tick_interval=0
    )
    app = await create_application(settings)
    app.attach(PlaygroundPort(edit_interval=0.05))
    await app.start()
    web_app = web.Application()
    table = install(web_app, app, trust_names=True)
    web_app.router.add_get("/echo", echo)
    runner = web.AppRunner(web_app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    url = f"http://127.0.0.1:{runner.addresses[0][1]}"
    people = [User("playground", "anna", "Anna", "en"), User("playground", "boris", "Boris", "en")]
    out: dict[str, list[float]] = {"self": [], "other": [], "picture": [], "stored": [], "echo": []}
    stored_at: list[float] = []
    app.ctx.observers.append(lambda rec: stored_at.append(time.perf_counter()))
    games = 0
    async with aiohttp.ClientSession() as http:
        echo_ws = await http.ws_connect(url + "/echo")
        room = "bench0"
        await open_game(app, room, people)
        pages: dict[str, Page] = {}
        for u in people:
            token = table.sessions.issue(_session(u, room))
            ws = await http.ws_connect(url + "/app/ws")
            await ws.send_json({"type": "hello", "session": token})
            pages[u.id] = Page(ws)
        for p in pages.values():
            await p.until(lambda f: True)
        while len(out["self"]) < samples:
            frames = {k: p.frame for k, p in pages.items()}
            if any(f is None for f in frames.values()) or frames["anna"]["finished"]:
                games += 1
                room = f"bench{games}"
                await app.idle()
                await open_game(app, room, people)
                for p in pages.values():
                    await p.ws.close()
                pages = {}
                for u in people:
                    token = table.sessions.issue(_session(u, room))
                    ws = await http.ws_connect(url + "/app/ws")
                    await ws.send_json({"type": "hello", "session": token})
                    pages[u.id] = Page(ws)
                for p in pages.values():
                    await p.until(lambda f: True)
                continue
            mover = next((k for k, f in frames.items() if f["your_turn"]), None)
            if mover is None:
                await asyncio.sleep(0.01)
                continue
            other = next(k for k in pages if k != mover)
            frame = frames[mover]
            version = frame["version"]
            payload = frame["actions"][0]["payload"]
            text = json.dumps({"type": "press", "payload": payload, "req": 1})
            stored_at.clear()
            start = time.perf_counter()
            await pages[mover].ws.send_str(text)
            mine = await pages[mover].until(lambda f, v=version: f["version"] > v)
            theirs = await pages[other].until(lambda f, v=version: f["version"] > v)
            async with http.get(url + pages[mover].frame["picture"]) as res:
                await res.read()
            pictured = time.perf_counter()
            out["self"].append((mine - start) * 1000)
            out["other"].append((theirs - start) * 1000)
            out["picture"].append((pictured - start) * 1000)
            out["stored"].append((stored_at[0] - start) * 1000)
            await app.idle()
            sized = json.dumps({"type": "echo", "pad": "x" * len(json.dumps(pages[mover].frame))})
            t0 = time.perf_counter()
            await echo_ws.send_str(sized)
            await echo_ws.receive()
            out["echo"].append((time.perf_counter() - t0) * 1000)
        for p in pages.values():
            await p.ws.close()
        await echo_ws.close()
    await runner.cleanup()
    await app.close()
    result: dict[str, Any] = {"samples": samples, "games": games + 1}
    for key, values in out.items():
        result[f"{key}_p50_ms"] = round(statistics.median(values), 3)
        result[f"{key}_p95_ms"] = round(pct(values, 0.95), 3)
    result["p95_ratio"] = round(result["self_p95_ms"] / result["echo_p95_ms"], 1)
    result["goal_p95_ms"] = 100
    return result


def _session(user: User, room: str):
    from bot.webapp.auth import Session

    return Session(user, (), room)


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.webapp", description=__doc__.split("\n")[0])
    parser.add_argument("--samples", type=int, default=150, help="taps to time")
    add_quick(parser, samples=10)
    args = parser.parse_args()
    r = asyncio.run(run(args.samples))
    width = max(len(k) for k in r)
    for k, v in r.items():
        print(f"{k:<{width}}  {v}")
    print(json.dumps(r))


if __name__ == "__main__":
    main()
