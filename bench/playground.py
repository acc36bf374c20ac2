"""``python -m bench.playground``: how fast the playground carries presses in and table edits out.

Everything runs in one process over real HTTP and WebSockets on 127.0.0.1 (aiohttp server and clients):

* ``press``: a tab sends a button press; it is checked (``bot.playground.protocol``), handed to an
  application that only answers it, and the ``answer`` frame comes back — against ``echo``, a bare aiohttp
  WebSocket echo of the same frame on the same server, timed in alternation (``press_ratio`` = median of the
  per-pair ratios);
* ``push``: ``send_public`` of a message with a table-sized JPEG until every one of ``--tabs`` tabs in the room
  has its frame, and the picture fetched by one of them;
* ``burst``: ``--burst`` edits of one table message in a row (a computer game at full speed): how many pushes
  reach a tab (coalescing), and when the last content arrives.

Last line: one JSON object with every figure.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import json
import statistics
import time
from typing import Any

import aiohttp
from aiohttp import web
from PIL import Image

from bench import add_quick, within
from bot.playground import PlaygroundPort
from bot.playground.server import make_web_app  # the server the bot runs, plus a bare echo route
from bot.port import Button, Command, Message, Press, PrivateStart

WAIT = 30.0  # seconds any one frame may take to come (a benchmark never hangs: ``bench.within``)


class Answering:
    """An application that answers every press at once and does nothing else."""

    def __init__(self) -> None:
        self.port: PlaygroundPort | None = None

    def attach(self, port: PlaygroundPort) -> None:
        self.port = port

    async def command(self, cmd: Command) -> None:
        return None

    async def press(self, press: Press) -> None:
        assert self.port is not None
        await self.port.answer(press, "ok")

    async def private_start(self, start: PrivateStart) -> None:
        return None


def table_jpeg() -> bytes:
    out = io.BytesIO()
    Image.effect_noise((960, 640), 40).convert("RGB").save(out, "JPEG", quality=85)
    return out.getvalue()


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def echo(request: web.Request) -> web.WebSocketResponse:
    ws = web.WebSocketResponse()
    await ws.prepare(request)
    async for msg in ws:
        await ws.send_str(msg.data)
    return ws


async def receive_until(ws: aiohttp.ClientWebSocketResponse, kind: str) -> dict[str, Any]:
    """The tab's next frame of ``kind`` (others are skipped), within ``WAIT`` seconds."""
    while True:
        msg = await within(ws.receive(), WAIT, f"a tab's next {kind!r} frame")
        if msg.type != aiohttp.WSMsgType.TEXT:
            raise RuntimeError(f"a tab's socket ended ({msg.type.name}) while it waited for a {kind!r} frame")
        frame = json.loads(msg.data)
        if frame["type"] == kind:
            return frame


async def run(repeat: int, tabs: int, burst: int) -> dict[str, Any]:
    app = Answering()
    port = PlaygroundPort(edit_interval=0.05)
    app.attach(port)
    web_app = make_web_app(app, port)
    web_app.router.add_get("/echo", echo)
    runner = web.AppRunner(web_app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    url = f"http://127.0.0.1:{runner.addresses[0][1]}/"
    out: dict[str, Any] = {}
    async with aiohttp.ClientSession() as session:
        clients = []
        for i in range(tabs):
            ws = await session.ws_connect(url + "ws")
            await ws.send_str(json.dumps({"type": "hello", "room": "bench", "name": f"p{i}", "lang": "en"}))
            await receive_until(ws, "snapshot")
            clients.append(ws)
        echo_ws = await session.ws_connect(url + "echo")
        first = clients[0]
        chat = port.chat("bench")
        ref = await port.send_public(chat, Message(text="table", buttons=((Button("Move", "a.1.1.play"),),)))
        for ws in clients:
            await receive_until(ws, "upsert")
        message_id = ref.message_id

        # press round trip against a bare echo, in alternation
        presses, echoes, ratios = [], [], []
        for i in range(repeat):
            frame = json.dumps({"type": "press", "req": i, "message": message_id, "payload": "a.1.1.play"})
            start = time.perf_counter()
            await first.send_str(frame)
            await receive_until(first, "answer")
            a = time.perf_counter() - start
            start = time.perf_counter()
            await echo_ws.send_str(frame)
            await within(echo_ws.receive(), WAIT, "the echo of a frame")
            b = time.perf_counter() - start
            presses.append(a)
            echoes.append(b)
            ratios.append(a / b)
        out["press_ms_median"] = statistics.median(presses) * 1000
        out["press_ms_p95"] = pct(presses, 0.95) * 1000
        out["echo_ms_median"] = statistics.median(echoes) * 1000
        out["press_ratio"] = statistics.median(ratios)

        # a new table message with its picture reaching every tab
        picture = table_jpeg()
        pushes, fetches = [], []
        for i in range(max(5, repeat // 10)):
            await asyncio.sleep(0.06)  # a quiet room: the push goes at once
            start = time.perf_counter()
            await port.send_public(chat, Message(text=f"table {i}", image=picture))
            frames = [await receive_until(ws, "upsert") for ws in clients]
            pushes.append(time.perf_counter() - start)
            async with session.get(url + "media/" + frames[0]["entries"][-1]["image"]) as r:
                await r.read()
            fetches.append(time.perf_counter() - start)
        out["push_ms_median"] = statistics.median(pushes) * 1000
        out["push_and_picture_ms_median"] = statistics.median(fetches) * 1000
        out["picture_bytes"] = len(picture)

        # a burst of edits of one message: coalesced pushes
        await asyncio.sleep(0.1)
        start = time.perf_counter()
        for i in range(burst):
            ref = await port.edit_public(ref, Message(text=f"edit {i}", image=picture))
            if i % 10 == 9:
                await asyncio.sleep(0)  # the application awaits storage between moves
        received = 0
        while True:
            frame = await receive_until(first, "upsert")
            received += 1
            if frame["entries"][-1]["text"] == f"edit {burst - 1}":
                break
        out["burst_edits"] = burst
        out["burst_pushes"] = received
        out["burst_last_ms"] = (time.perf_counter() - start) * 1000
        out["media_kept"] = len(port.board.media)
        for ws in [*clients, echo_ws]:
            await ws.close()
    await port.close()
    await runner.cleanup()
    out["tabs"] = tabs
    out["repeat"] = repeat
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=200, help="presses timed (and echoes)")
    parser.add_argument("--tabs", type=int, default=4, help="tabs open in the room")
    parser.add_argument("--burst", type=int, default=300, help="edits of one message in a row")
    add_quick(parser, repeat=10, tabs=2, burst=20)
    args = parser.parse_args()
    r = asyncio.run(run(args.repeat, args.tabs, args.burst))
    rows = [
        ("press → answer, median", f"{r['press_ms_median']:.2f} ms"),
        ("press → answer, p95", f"{r['press_ms_p95']:.2f} ms"),
        ("bare WebSocket echo, median", f"{r['echo_ms_median']:.2f} ms"),
        ("press / echo (median of pairs)", f"{r['press_ratio']:.2f}"),
        (f"new message to {r['tabs']} tabs, median", f"{r['push_ms_median']:.2f} ms"),
        (f"… and its picture fetched ({r['picture_bytes'] // 1024} KB)", f"{r['push_and_picture_ms_median']:.2f} ms"),
        (f"{r['burst_edits']} edits in a row: pushes to a tab", str(r["burst_pushes"])),
        ("… last edit shown after", f"{r['burst_last_ms']:.1f} ms"),
        ("pictures kept in memory after the burst", str(r["media_kept"])),
    ]
    width = max(len(k) for k, _ in rows)
    for k, v in rows:
        print(f"{k:<{width}}  {v}")
    print(json.dumps(r))


if __name__ == "__main__":
    main()
