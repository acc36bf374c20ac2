"""What several bot workers must agree on, in memory (one worker) or in Redis (``REDIS_URL``, many workers).

* the write slot of a chat: at most one message or edit per ``interval`` and ``per_minute`` per minute in a
  group, shared by every worker, and held for ``retry_after`` after a 429;
* the version of every table message's content, so that only the newest picture is shown (latest wins), even
  when the newest edit arrived at another worker;
* where a table message went when it had to be posted again (deleted by an admin), and what it now shows
  (a photo and its hash, or text), so any worker can edit it the right way.
"""

from __future__ import annotations

import time
from collections import deque
from typing import Protocol

REDIS_PREFIX = "tablebot:tg:"
KEEP_SECONDS = 30 * 24 * 3600  # message state and moves are kept a month

# Returns 0 when the slot was taken, else the milliseconds to wait. The clock is Redis's own, shared by all.
ACQUIRE = """
local held = redis.call('PTTL', KEYS[1])
if held > 0 then return held end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local per_minute = tonumber(ARGV[2])
if per_minute > 0 then
  redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now - 60000)
  if redis.call('ZCARD', KEYS[2]) >= per_minute then
    local oldest = redis.call('ZRANGE', KEYS[2], 0, 0, 'WITHSCORES')
    return math.max(1, tonumber(oldest[2]) + 60000 - now)
  end
  redis.call('ZADD', KEYS[2], now, ARGV[3])
  redis.call('PEXPIRE', KEYS[2], 61000)
end
if tonumber(ARGV[1]) > 0 then redis.call('SET', KEYS[1], '1', 'PX', ARGV[1]) end
return 0
"""


class Coordinator(Protocol):
    async def acquire(self, chat_id: str, interval: float, per_minute: int) -> float:
        """Take the chat's write slot: 0.0 when taken, else the seconds to wait before trying again."""
        ...

    async def hold(self, chat_id: str, seconds: float) -> None:
        """Nobody writes to this chat for ``seconds`` (Telegram answered 429 with ``retry_after``)."""
        ...

    async def bump(self, key: str) -> int:
        """A new version of a message's content; returns it."""
        ...

    async def latest(self, key: str) -> int: ...

    async def get(self, key: str) -> str | None: ...

    async def put(self, key: str, value: str) -> None: ...

    async def close(self) -> None: ...


class LocalCoordinator:
    """One worker: everything in this process's memory."""

    def __init__(self) -> None:
        self._free_at: dict[str, float] = {}
        self._window: dict[str, deque[float]] = {}
        self._versions: dict[str, int] = {}
        self._values: dict[str, str] = {}
        self._counter = 0

    async def acquire(self, chat_id: str, interval: float, per_minute: int) -> float:
        now = time.monotonic()
        free_at = self._free_at.get(chat_id, 0.0)
        if free_at > now:
            return free_at - now
        if per_minute > 0:
            window = self._window.setdefault(chat_id, deque())
            while window and window[0] <= now - 60:
                window.popleft()
            if len(window) >= per_minute:
                return window[0] + 60 - now
            window.append(now)
        self._free_at[chat_id] = now + interval
        return 0.0

    async def hold(self, chat_id: str, seconds: float) -> None:
        self._free_at[chat_id] = max(self._free_at.get(chat_id, 0.0), time.monotonic() + seconds)

    async def bump(self, key: str) -> int:
        self._versions[key] = self._versions.get(key, 0) + 1
        return self._versions[key]

    async def latest(self, key: str) -> int:
        return self._versions.get(key, 0)

    async def get(self, key: str) -> str | None:
        return self._values.get(key)

    async def put(self, key: str, value: str) -> None:
        self._values[key] = value

    async def close(self) -> None:
        return None


class RedisCoordinator:
    """Many workers: the same state in Redis, under ``tablebot:tg:<bot id>:``."""

    def __init__(self, url: str, namespace: str) -> None:
        from redis.asyncio import Redis

        self._redis = Redis.from_url(url, decode_responses=True)
        self._prefix = f"{REDIS_PREFIX}{namespace}:"
        self._acquire = self._redis.register_script(ACQUIRE)
        self._counter = 0

    async def acquire(self, chat_id: str, interval: float, per_minute: int) -> float:
        self._counter += 1
        member = f"{id(self)}-{self._counter}-{time.time()}"
        keys = [f"{self._prefix}slot:{chat_id}", f"{self._prefix}window:{chat_id}"]
        wait_ms = await self._acquire(keys=keys, args=[int(interval * 1000), per_minute, member])
        return int(wait_ms) / 1000

    async def hold(self, chat_id: str, seconds: float) -> None:
        await self._redis.set(f"{self._prefix}slot:{chat_id}", "1", px=max(1, int(seconds * 1000)))

    async def bump(self, key: str) -> int:
        full = f"{self._prefix}v:{key}"
        async with self._redis.pipeline(transaction=True) as pipe:
            pipe.incr(full)
            pipe.expire(full, KEEP_SECONDS)
            version, _ = await pipe.execute()
        return int(version)

    async def latest(self, key: str) -> int:
        return int(await self._redis.get(f"{self._prefix}v:{key}") or 0)

    async def get(self, key: str) -> str | None:
        return await self._redis.get(f"{self._prefix}k:{key}")

    async def put(self, key: str, value: str) -> None:
        await self._redis.set(f"{self._prefix}k:{key}", value, ex=KEEP_SECONDS)

    async def close(self) -> None:
        await self._redis.aclose()
