"""A WebSocket's outgoing frames (the playground's tabs, the web table's pages): ``send`` queues a frame as JSON
and returns at once, one task (``write_loop``) writes them in order. The application never waits for a slow
page; a page that falls ``limit`` frames (or ``max_chars`` characters) behind is closed (it reconnects and gets the
whole picture again). ``send_text`` queues a frame already serialized (one frame sent to many pages)."""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass, field
from typing import Any, ClassVar

from aiohttp import web


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
