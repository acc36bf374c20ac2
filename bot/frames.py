"""A WebSocket's outgoing frames (the playground's tabs, the web table's pages): ``send`` queues a frame as JSON
and returns at once, one task (``write_loop``) writes them in order. The application never waits for a slow
page; a page that falls ``limit`` frames (or ``max_chars`` characters) behind is closed (it reconnects and gets the
whole picture again). ``send_text`` queues a frame already serialized (one frame sent to many pages)."""

from __future__ import annotations

import asyncio
import json
import weakref
from dataclasses import dataclass, field
from typing import Any, ClassVar

from aiohttp import WSCloseCode, web

SHUTDOWN_GRACE = 2.0  # seconds a stopping server gives its requests still running (its sockets are closed first)
CLOSE_WAIT = 1.5  # seconds a stopping server waits for its pages to answer the close (a dead peer never does)
OPEN_SOCKETS: web.AppKey[weakref.WeakSet[web.WebSocketResponse]] = web.AppKey("open_sockets", weakref.WeakSet)


def close_sockets_on_shutdown(web_app: web.Application) -> None:
    """Close every tracked socket of ``web_app`` when it shuts down ("going away": the pages reconnect)."""
    if OPEN_SOCKETS in web_app:
        return
    web_app[OPEN_SOCKETS] = weakref.WeakSet()

    async def close_all(app: web.Application) -> None:
        closing = [
            asyncio.create_task(ws.close(code=WSCloseCode.GOING_AWAY, message=b"server shutdown"))
            for ws in list(app[OPEN_SOCKETS])
            if not ws.closed
        ]
        if not closing:
            return
        _, late = await asyncio.wait(closing, timeout=CLOSE_WAIT)  # all at once
        for task in late:  # a peer that never answers the close: its connection is cut (aiohttp does on cancel)
            task.cancel()
        await asyncio.gather(*late, return_exceptions=True)

    web_app.on_shutdown.append(close_all)


def track(request: web.Request, ws: web.WebSocketResponse) -> None:
    """A socket the server closes first when it shuts down."""
    request.app[OPEN_SOCKETS].add(ws)


@dataclass(eq=False)
class FrameQueue:
    ws: web.WebSocketResponse
    queue: asyncio.Queue[str | None] = field(default_factory=asyncio.Queue, kw_only=True)
    queued: int = field(default=0, kw_only=True)  # characters waiting
    limit: ClassVar[int] = 200
    max_chars: ClassVar[int] = 4 * 1024 * 1024

    def send(self, frame: dict[str, Any]) -> None:
        self.send_text(json.dumps(frame, ensure_ascii=False))

    def send_text(self, text: str) -> None:
        if self.queue.qsize() >= self.limit or self.queued + len(text) > self.max_chars:
            self.close_soon()  # the writer closes the socket
            return
        self.queued += len(text)
        self.queue.put_nowait(text)

    def close_soon(self) -> None:
        """Close the socket once the frames queued before are written."""
        self.queue.put_nowait(None)

    async def write_loop(self) -> None:
        while True:
            text = await self.queue.get()
            self.queued -= len(text or "")
            if text is None or self.ws.closed:
                await self.ws.close()
                return
            try:
                await self.ws.send_str(text)
            except (ConnectionError, RuntimeError):
                return
