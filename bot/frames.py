"""A WebSocket's outgoing frames (the playground's tabs, the web table's pages): ``send`` queues a frame as JSON
and returns at once, one task (``write_loop``) writes them in order. The application never waits for a slow
page; a page that falls ``limit`` frames behind is closed (it reconnects and gets the whole picture again)."""

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
    limit: ClassVar[int] = 200

    def send(self, frame: dict[str, Any]) -> None:
        if self.queue.qsize() >= self.limit:
            self.close_soon()  # the writer closes the socket
            return
        self.queue.put_nowait(json.dumps(frame, ensure_ascii=False))

    def close_soon(self) -> None:
        """Close the socket once the frames queued before are written."""
        self.queue.put_nowait(None)

    async def write_loop(self) -> None:
        while True:
            text = await self.queue.get()
            if text is None or self.ws.closed:
                await self.ws.close()
                return
            try:
                await self.ws.send_str(text)
            except (ConnectionError, RuntimeError):
                return
