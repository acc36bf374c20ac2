"""The web table's pictures: drawn once per key in a thread pool, served under random tokens.

``get(key, draw)`` starts drawing at once (the page asks for the picture right after the frame arrives) and
returns the picture's address, ``/app/pic/<token>`` with a random 128-bit token: a hand's address is only ever
sent to its owner's sockets, so nobody else can name it. The newest ``limit`` pictures are kept.
"""

from __future__ import annotations

import asyncio
import secrets
from collections import OrderedDict
from collections.abc import Callable, Hashable
from concurrent.futures import ThreadPoolExecutor

PREFIX = "/app/pic/"


class Pictures:
    def __init__(self, *, limit: int = 300, threads: int = 2) -> None:
        self.limit = limit
        self.pool = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="webapp-draw")
        self._by_key: OrderedDict[Hashable, str] = OrderedDict()
        self._jobs: dict[str, asyncio.Future[bytes]] = {}

    def get(self, key: Hashable, draw: Callable[[], bytes]) -> str:
        """The address of the picture ``key`` (drawn by ``draw`` once, in the pool)."""
        token = self._by_key.get(key)
        if token is not None:
            self._by_key.move_to_end(key)
            return PREFIX + token
        token = secrets.token_urlsafe(16)
        self._by_key[key] = token
        self._jobs[token] = asyncio.get_running_loop().run_in_executor(self.pool, draw)
        while len(self._by_key) > self.limit:
            _, old = self._by_key.popitem(last=False)
            job = self._jobs.pop(old, None)
            if job is not None and not job.done():
                job.cancel()
        return PREFIX + token

    def known(self, key: Hashable) -> str | None:
        """The address of a picture already asked for, or None."""
        token = self._by_key.get(key)
        return None if token is None else PREFIX + token

    async def data(self, token: str) -> bytes | None:
        """The picture's JPEG bytes, or None for an unknown (or forgotten) token."""
        job = self._jobs.get(token)
        if job is None:
            return None
        try:
            return await asyncio.shield(job)
        except asyncio.CancelledError:
            return None

    def close(self) -> None:
        self.pool.shutdown(wait=False, cancel_futures=True)
