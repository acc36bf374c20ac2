"""``python -m bench.webapp``: how fast a tap in the web table becomes the new table in many open pages.

Two processes, real HTTP and WebSockets on 127.0.0.1: a server (this module with ``--serve``: the real
application over a temporary SQLite file and the web table's server, ``bot.webapp``, polling every second as a
worker does) and the pages (aiohttp WebSocket clients, each with its signed session for one table, as a Mini App
page has) in this process, so that the pages' own work is not the server's. Two people play Kozel at each table
through their pages. Two scenarios, one after the other:

* ``crowd``: one table watched by ``--spectators`` pages besides its two players' (a shared game link);
* ``tables``: ``--tables`` tables, each with its two players and two spectators (4 pages each), the taps going
  round the tables.

Each sample: the player to move sends the payload of its first legal action (what a tap sends), then

* ``stored``: until the application has checked and stored the move (its observer is called): the move's own
  cost, the application's and the database's;
* ``self``: until the tapping page has the table frame of the new version;
* ``all``: until every page of that table has it;
* ``picture``: until the tapping page has also fetched the new table picture.

The web table's share is ``self`` beside ``stored`` in the same run: the goal is ``self_p95_ms`` ≤ 2 ×
``stored_p95_ms`` (all samples of both scenarios). Times are ``time.monotonic()``, one clock for both processes.
``looks_per_tap``: database reads by the web table per tap, polls included (the poll reads the versions of every
watched table in one query, then each table that moved; never one read per page). Last line: one JSON object with
every figure.

A player's page taps at a person's pace at most, within the page's press rate (``PRESS_RATE`` per
``PRESS_PERIOD``, ``bot.webapp.hub``): a faster page is answered "Too many taps" and its tap changes nothing (the
benchmark used to wait for that tap's frame for ever). A tap refused so all the same is tapped again, untimed
(``{scenario}_retried``); any other refusal, and any wait longer than ``WAIT`` seconds, ends the run with a message
that says what did not come (``bench.within``).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiohttp
from aiohttp import web
from aiolimiter import AsyncLimiter

from bench import add_quick, within
from bot.app import create_application
from bot.config import Settings
from bot.playground import PlaygroundPort
from bot.port import Chat, Command, Press, User
from bot.webapp import install
from bot.webapp.auth import Session
from bot.webapp.hub import PRESS_PERIOD, PRESS_RATE, TOO_FAST
from core.i18n import t

GOAL_RATIO = 2.0
LANGS = ("en", "ru", "uk")
PLAYERS_LANG = "en"  # the two players' pages (the spectators' go round LANGS)
WAIT = 60.0  # seconds any one wait may take (a tap's frame on every page, a new table's pages, the server)


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


class Arrivals:
    """When each version of a table reached each of its pages."""

    def __init__(self, pages: int) -> None:
        self.pages = pages
        self.count: dict[int, int] = {}
        self.last: dict[int, float] = {}
        self.done: dict[int, asyncio.Event] = {}

    def event(self, version: int) -> asyncio.Event:
        return self.done.setdefault(version, asyncio.Event())

    def arrived(self, version: int) -> None:
        n = self.count[version] = self.count.get(version, 0) + 1
        if n == self.pages:
            self.last[version] = time.monotonic()
            self.event(version).set()


VERSION = re.compile(r'\{"type": "table", "table": \d+, "version": (\d+)')


class Page:
    """One page's socket. A player's page reads its frames whole (it taps from them, and reads its taps' answers);
    a spectator's only notes which version came, so that the benchmark's own clients, in the same process, cost
    the server little."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse, arrivals: Arrivals, *, player: bool) -> None:
        self.ws = ws
        self.arrivals = arrivals
        self.player = player
        self.frame: dict[str, Any] | None = None
        self.got: dict[int, float] = {}
        self.changed = asyncio.Event()
        self.answers: dict[int, dict[str, Any]] = {}  # req -> the answer to that tap
        self.answered = asyncio.Event()
        self.req = 0
        # a person's pace: a little under the page's press rate, so that no tap is refused as too fast
        self.pace = AsyncLimiter(PRESS_RATE - 1, PRESS_PERIOD)
        self.task = asyncio.create_task(self.read())

    async def read(self) -> None:
        async for msg in self.ws:
            if msg.type != aiohttp.WSMsgType.TEXT:
                continue
            if self.player:
                frame = json.loads(msg.data)
                version = frame["version"] if frame.get("type") == "table" else None
                if frame.get("type") in ("answer", "error") and isinstance(frame.get("req"), int):
                    self.answers[frame["req"]] = frame
                    self.answered.set()
            else:
                found = VERSION.match(msg.data)
                frame, version = {}, None if found is None else int(found.group(1))
            if version is not None and version not in self.got:
                self.got[version] = time.monotonic()
                self.frame = frame
                self.arrivals.arrived(version)
                self.changed.set()

    async def first(self) -> None:
        while self.frame is None:
            self.changed.clear()
            await self.changed.wait()

    async def outcome(self, req: int, shown: asyncio.Event) -> dict[str, Any] | None:
        """None once ``shown`` is set (the tap's new version reached every page), or the tap's answer when it was
        refused (an answer with a text: a stored move is answered without one)."""
        while not shown.is_set():
            self.answered.clear()
            answer = self.answers.get(req)
            if answer is not None and (answer.get("text") or answer.get("type") == "error"):
                return answer
            waiting = [asyncio.create_task(shown.wait()), asyncio.create_task(self.answered.wait())]
            try:
                await asyncio.wait(waiting, return_when=asyncio.FIRST_COMPLETED)
            finally:
                for w in waiting:
                    w.cancel()
        return None

    async def close(self) -> None:
        await within(self.ws.close(), WAIT, "a page's socket closing")
        self.task.cancel()


@dataclass
class Table:
    """One table and its pages: the two players' first, then the spectators'."""

    id: int
    players: list[Page]
    pages: list[Page]
    arrivals: Arrivals
    games: int = 1
    retried: int = 0  # taps refused as too fast and tapped again (untimed)
    idle_since: float | None = None  # since when no page may move (a deal being shown)


@dataclass
class Bench:
    """The pages' side: opens tables through the server's ``/bench/`` routes, then taps and times."""

    url: str
    http: aiohttp.ClientSession
    reopen_looks: int = 0  # database reads to greet the pages of a new table (not a tap's)

    async def call(self, what: str, **params: Any) -> Any:
        return await within(self._call(what, params), WAIT, f"the server's /bench/{what} {params}")

    async def _call(self, what: str, params: dict[str, Any]) -> Any:
        async with self.http.get(f"{self.url}/bench/{what}", params={k: str(v) for k, v in params.items()}) as res:
            if res.status != 200:
                raise RuntimeError(f"the server's /bench/{what} {params} answered {res.status}: {await res.text()}")
            return await res.json()

    async def open_table(self, spectators: int) -> Table:
        """A Kozel for two people opened and started through the application, and its pages."""
        opened = await self.call("open", spectators=spectators)
        arrivals = Arrivals(len(opened["sessions"]))
        pages = []
        for i, session in enumerate(opened["sessions"]):
            ws = await self.http.ws_connect(self.url + "/app/ws")
            await ws.send_json({"type": "hello", "session": session})
            pages.append(Page(ws, arrivals, player=i < 2))
        for p in pages:
            await within(p.first(), WAIT, f"table {opened['table']}: the first frame on each of its pages")
        return Table(opened["table"], pages[:2], pages, arrivals)

    async def tap(self, table: Table, out: dict[str, list[float]]) -> bool:
        """One timed tap at ``table``; False when its game is over (or nobody may move yet)."""
        frames = [p.frame for p in table.players]
        if any(f is None or f["finished"] for f in frames):
            return False
        mover = next((i for i, f in enumerate(frames) if f["your_turn"]), None)
        if mover is None:  # nobody may move in the frames the pages hold: the next one is on its way
            now = time.monotonic()
            table.idle_since = table.idle_since or now
            if now - table.idle_since > WAIT:
                raise RuntimeError(
                    f"table {table.id}: no page may move for {WAIT:g} s (version {frames[0]['version']})"
                )
            await asyncio.sleep(0.01)
            return True
        table.idle_since = None
        page = table.players[mover]
        version = frames[mover]["version"]
        new = version + 1
        payload = frames[mover]["actions"][0]["payload"]
        while True:
            await within(page.pace.acquire(), WAIT, "a page's pace")
            page.req += 1
            start = time.monotonic()
            await page.ws.send_str(json.dumps({"type": "press", "payload": payload, "req": page.req}))
            what = f"table {table.id}: version {new} on all {table.arrivals.pages} pages after the tap {payload}"
            refused = await within(page.outcome(page.req, table.arrivals.event(new)), WAIT, what)
            if refused is None:
                break
            if refused.get("text") != t(PLAYERS_LANG, TOO_FAST):
                raise RuntimeError(f"table {table.id}: the tap {payload} was refused: {refused}")
            table.retried += 1  # the page's rate was spent all the same (the server's clock is not ours): again
        picture = page.frame["picture"]
        await within(self.fetch(picture), WAIT, f"table {table.id}: the picture {picture}")
        pictured = time.monotonic()
        stored = await self.call("stored", table=table.id, version=new)  # after the server is idle again
        out["stored"].append((stored["at"] - start) * 1000)
        out["self"].append((page.got[new] - start) * 1000)
        out["all"].append((table.arrivals.last[new] - start) * 1000)
        out["picture"].append((pictured - start) * 1000)
        return True

    async def fetch(self, address: str) -> None:
        async with self.http.get(self.url + address) as res:
            if res.status != 200:
                raise RuntimeError(f"the picture {address} answered {res.status}")
            await res.read()

    async def play(self, tables: list[Table], taps: int, spectators: int) -> dict[str, list[float]]:
        """``taps`` timed taps going round ``tables``; a finished game is replaced by a new table."""
        out: dict[str, list[float]] = {"stored": [], "self": [], "all": [], "picture": []}
        i = 0
        while len(out["self"]) < taps:
            k = i % len(tables)
            if not await self.tap(tables[k], out):
                for p in tables[k].pages:
                    await p.close()
                games, retried = tables[k].games + 1, tables[k].retried
                looks = (await self.call("looks"))["looks"]
                tables[k] = await self.open_table(spectators)
                self.reopen_looks += (await self.call("looks"))["looks"] - looks
                tables[k].games, tables[k].retried = games, retried
                continue
            i += 1
        return out


async def serve(spectators: int) -> None:
    """The server process: the application, the web table, and the routes the pages' process drives it by."""
    tmp = Path(tempfile.mkdtemp(prefix="bench-webapp-"))
    settings = Settings(
        _env_file=None,
        database_url=f"sqlite+aiosqlite:///{tmp / 'b.sqlite3'}",
        data_dir=tmp,
        tick_interval=0,
        round_pause=0,
    )
    app = await create_application(settings)
    app.attach(PlaygroundPort(edit_interval=0.05))
    await app.start()
    web_app = web.Application()
    table = install(web_app, app, trust_names=True, poll_interval=1.0, pages_per_table=spectators + 2)
    stored: dict[tuple[int, int], float] = {}
    app.ctx.observers.append(lambda rec: stored.setdefault((rec.id, rec.version), time.monotonic()))
    rooms = 0

    async def open_route(request: web.Request) -> web.Response:
        nonlocal rooms
        rooms += 1
        room = f"bench{rooms}"
        people = [User("playground", f"{name.casefold()}{rooms}", name, PLAYERS_LANG) for name in ("Anna", "Boris")]
        chat = Chat("playground", room, title=room)
        for u in people:
            app.ports["playground"].users[u.id] = u
        await app.command(Command(people[0], chat, "new", "kozel 2"))
        rec = await app.storage.open_table((await app.people.chat_rec(chat)).id)
        await app.press(Press(people[1], chat, f"j.{rec.id}"))
        await app.press(Press(people[0], chat, f"s.{rec.id}"))
        await app.idle()
        n = int(request.query["spectators"])
        watchers = people + [User("playground", f"s{rooms}-{i}", f"Spectator {i}", LANGS[i % 3]) for i in range(n)]
        sessions = [table.sessions.issue(Session(u, (rec.id,))) for u in watchers]
        return web.json_response({"table": rec.id, "sessions": sessions})

    async def stored_route(request: web.Request) -> web.Response:
        await app.idle()
        return web.json_response({"at": stored.pop((int(request.query["table"]), int(request.query["version"])))})

    async def looks_route(request: web.Request) -> web.Response:
        return web.json_response({"looks": table.hub.looks})

    web_app.router.add_get("/bench/open", open_route)
    web_app.router.add_get("/bench/stored", stored_route)
    web_app.router.add_get("/bench/looks", looks_route)
    runner = web.AppRunner(web_app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    print(runner.addresses[0][1], flush=True)
    try:
        await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)  # until the pages' process is done
    finally:
        await runner.cleanup()
        await app.close()


async def run(spectators: int, tables: int, taps: int) -> dict[str, Any]:
    server = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bench.webapp", "--serve", "--spectators", str(spectators),
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
    )  # fmt: skip
    assert server.stdout is not None and server.stdin is not None
    url = f"http://127.0.0.1:{int(await within(server.stdout.readline(), WAIT, 'the server process starting'))}"
    result: dict[str, Any] = {"spectators": spectators, "tables": tables, "taps": taps}
    pooled: dict[str, list[float]] = {}
    try:
        async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as http:
            bench = Bench(url, http)
            for name, counts in (("crowd", [spectators]), ("tables", [2] * tables)):
                open_tables = [await bench.open_table(n) for n in counts]
                looks, reopened = (await bench.call("looks"))["looks"], bench.reopen_looks
                started = time.monotonic()
                out = await bench.play(open_tables, taps, counts[0])
                result[f"{name}_seconds"] = round(time.monotonic() - started, 2)
                result[f"{name}_pages"] = sum(len(t.pages) for t in open_tables)
                result[f"{name}_games"] = sum(t.games for t in open_tables)
                result[f"{name}_retried"] = sum(t.retried for t in open_tables)
                looked = (await bench.call("looks"))["looks"] - looks - (bench.reopen_looks - reopened)
                result[f"{name}_looks_per_tap"] = round(looked / taps, 2)
                for key, values in out.items():
                    result[f"{name}_{key}_p50_ms"] = round(statistics.median(values), 3)
                    result[f"{name}_{key}_p95_ms"] = round(pct(values, 0.95), 3)
                    pooled.setdefault(key, []).extend(values)
                for t in open_tables:
                    for p in t.pages:
                        await p.close()
    finally:
        server.stdin.close()
        try:
            await within(server.wait(), WAIT, "the server process ending")
        except Exception:
            server.kill()
            raise
    for key in ("stored", "self"):
        result[f"{key}_p95_ms"] = round(pct(pooled[key], 0.95), 3)
    result["self_to_stored_p95"] = round(result["self_p95_ms"] / result["stored_p95_ms"], 2)
    result["goal_ratio"] = GOAL_RATIO
    result["goal_met"] = result["self_to_stored_p95"] <= GOAL_RATIO
    result["load_average"] = round(os.getloadavg()[0], 2)
    return result


def show(r: dict[str, Any]) -> None:
    """The readable table: one row per scenario and figure, then the pooled goal."""
    print(f"{'scenario':<8} {'pages':>5}  {'figure':<8} {'p50 ms':>9} {'p95 ms':>9}")
    for name in ("crowd", "tables"):
        for key in ("stored", "self", "all", "picture"):
            p50, p95 = r[f"{name}_{key}_p50_ms"], r[f"{name}_{key}_p95_ms"]
            print(f"{name:<8} {r[f'{name}_pages']:>5}  {key:<8} {p50:>9.1f} {p95:>9.1f}")
        print(
            f"{name:<8} {'':>5}  looks per tap {r[f'{name}_looks_per_tap']}, games {r[f'{name}_games']}, "
            f"taps refused as too fast and made again {r[f'{name}_retried']}"
        )
    print(
        f"self p95 {r['self_p95_ms']:.1f} ms, stored p95 {r['stored_p95_ms']:.1f} ms: "
        f"ratio {r['self_to_stored_p95']} (goal ≤ {r['goal_ratio']}: {'met' if r['goal_met'] else 'NOT met'}), "
        f"load average {r['load_average']}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.webapp", description=__doc__.split("\n")[0])
    parser.add_argument("--spectators", type=int, default=200, help="spectator pages of the crowd's one table")
    parser.add_argument("--tables", type=int, default=50, help="tables of 4 pages each")
    parser.add_argument("--taps", type=int, default=150, help="timed taps per scenario")
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)  # the server process
    add_quick(parser, spectators=20, tables=4, taps=12)
    args = parser.parse_args()
    if args.serve:
        asyncio.run(serve(args.spectators))
        return
    r = asyncio.run(run(args.spectators, args.tables, args.taps))
    show(r)
    print(json.dumps(r))


if __name__ == "__main__":
    main()
