"""What several bot workers must agree on, in memory (one worker) or in Redis (``REDIS_URL``, many workers).

* the bot's pace: every message or edit, in any chat from any worker, takes the next free moment of one
  evenly spaced schedule (Telegram's ~30 messages a second count the bot, not a worker);
* the write slot of a chat: one request in flight at a time, the next one ``interval`` after the platform
  answered the previous one, and at most ``per_minute`` per minute in a group (counted at the answers),
  shared by every worker, and held for ``retry_after`` after a 429; a request in flight holds it for a short
  lease (``SLOT_LEASE``) that its worker renews (``keep``), so a worker that died frees it within seconds;
* the order of every table message's queued content (the newest table version queued, or a counter for a
  message of no table version), so that only the newest picture is shown (latest wins), even when the newest
  edit arrived at another worker;
* what every message shows (``held:``: the table version and a fingerprint, ``bot.written``), read and written
  under the chat's write slot: an older write or one that changes nothing is not sent;
* which updates a worker is handling (a lease it renews) or has handled, so that an update Telegram delivers
  again is handled once, and whether a worker already long-polls;
* where a table message went when it had to be posted again (deleted by an admin), and what it now shows
  (a photo and its hash, or text), so any worker can edit it the right way.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from typing import Protocol

from bot import metrics

REDIS_PREFIX = "tablebot:tg:"
KEEP_SECONDS = 30 * 24 * 3600  # message state and moves are kept a month

# Takes the chat's write slot for one request in flight: returns 0 when taken, else the milliseconds to wait.
# The slot is held by ``member`` for a short lease (ARGV[4]) that its worker renews with ``RENEW`` while the request
# is in flight; ``RELEASE`` then keeps it for ``interval`` from when the platform answered. The clock is Redis's
# own, shared by all workers.
ACQUIRE = """
local held = redis.call('PTTL', KEYS[1])
if held > 0 then
  if redis.call('GET', KEYS[1]) ~= '1' then return math.min(held, ARGV[6]) end  -- in flight: look again soon
  return held
end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local per_minute = tonumber(ARGV[2])
local window = tonumber(ARGV[5])
if per_minute > 0 then
  redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now - window)
  if redis.call('ZCARD', KEYS[2]) >= per_minute then
    local oldest = redis.call('ZRANGE', KEYS[2], 0, 0, 'WITHSCORES')
    return math.max(1, tonumber(oldest[2]) + window - now)
  end
  redis.call('ZADD', KEYS[2], now, ARGV[3])
  redis.call('PEXPIRE', KEYS[2], window + 1000)
end
if tonumber(ARGV[1]) > 0 then redis.call('SET', KEYS[1], ARGV[3], 'PX', ARGV[4]) end
return 0
"""

# The request of ``member`` was answered: the slot stays taken for ``interval`` from now (unless a 429 hold
# replaced it), and its place in the per-minute window moves to now. ARGV[3] = 0: nothing was sent after all,
# the slot and its place in the window are given back.
RELEASE = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
if ARGV[3] == '0' then
  if redis.call('GET', KEYS[1]) == ARGV[2] then redis.call('DEL', KEYS[1]) end
  redis.call('ZREM', KEYS[2], ARGV[2])
  return 0
end
if redis.call('GET', KEYS[1]) == ARGV[2] then
  if tonumber(ARGV[1]) > 0 then
    redis.call('SET', KEYS[1], '1', 'PX', ARGV[1])
  else
    redis.call('DEL', KEYS[1])
  end
end
if redis.call('ZSCORE', KEYS[2], ARGV[2]) then redis.call('ZADD', KEYS[2], 'XX', now, ARGV[2]) end
return 0
"""

# Seconds a write slot stays taken by a request in flight unless its worker renews it (every third of it, for as
# long as the request is in flight: ``bot.telegram.flood``): a worker that died frees its chats within this.
SLOT_LEASE = 3.0
POLL = 0.02  # seconds between two looks at a slot whose request is in flight


# Renews ``member``'s lease on a key (an update being handled, the long poll, a chat's write slot) only while it
# still holds it.
RENEW = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 0
"""

# Raises a number to ARGV[1] unless it is higher already (the newest table version queued for a message).
ADVANCE = """
local now = tonumber(redis.call('GET', KEYS[1]) or '0')
local value = tonumber(ARGV[1])
if value > now then
  redis.call('SET', KEYS[1], value, 'EX', ARGV[2])
  return value
end
return now
"""

# Reserves the next free moment of the bot's evenly spaced schedule (one every ARGV[1] microseconds), for every
# worker: returns the microseconds to wait until it. The clock is Redis's own.
PACE = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
local spacing = tonumber(ARGV[1])
local at = math.max(now, tonumber(redis.call('GET', KEYS[1]) or '0'))
local keep = string.format('%d', (at + spacing - now) / 1000 + 1000)
redis.call('SET', KEYS[1], string.format('%d', at + spacing), 'PX', keep)
return at - now
"""

MINE, BUSY, DONE = "mine", "busy", "done"  # what ``claim`` found
DONE_KEEP = 24 * 3600  # seconds a handled update id is remembered (Telegram gives up re-delivering long before)
# One worker in memory: an update is delivered again within minutes of its failed call, so an hour is plenty, and
# at most this many handled ids are kept (the oldest forgotten first): O(1) per update, bounded memory.
LOCAL_DONE_KEEP = 3600
DONE_LIMIT = 50_000


class Coordinator(Protocol):
    async def claim(self, key: str, member: str, lease: float) -> str:
        """Take ``key`` (an update id, the long poll) for ``lease`` seconds: ``MINE``; or ``BUSY`` (another holds
        it), or ``DONE`` (``finish`` was called for it)."""
        ...

    async def renew(self, key: str, member: str, lease: float) -> bool:
        """Keep holding ``key`` for ``lease`` more seconds; False when it is no longer ours."""
        ...

    async def finish(self, key: str) -> None:
        """``key``'s work is done: every later ``claim`` finds ``DONE``."""
        ...

    async def drop(self, key: str, member: str) -> None:
        """Give ``key`` up (it is free for the next ``claim``), if ``member`` still holds it."""
        ...

    async def acquire(
        self, chat_id: str, interval: float, per_minute: int, member: str, window: float = 60, lease: float = SLOT_LEASE
    ) -> float:
        """Take the chat's write slot for the request ``member`` (held until ``release``, or for ``lease`` seconds
        unless ``keep`` renews it): 0.0 when taken, else the seconds to wait before trying again."""
        ...

    async def keep(self, chat_id: str, member: str, lease: float = SLOT_LEASE) -> bool:
        """``member``'s request is still in flight: its slot stays taken ``lease`` seconds from now; False when the
        slot is no longer ``member``'s (released, held after a 429, or its lease lapsed)."""
        ...

    async def release(self, chat_id: str, interval: float, member: str, used: bool = True) -> None:
        """The platform answered ``member``'s request: the chat's next write may go ``interval`` from now
        (``used=False``: no request was made, the slot and its place in the per-minute window are given back)."""
        ...

    async def hold(self, chat_id: str, seconds: float) -> None:
        """Nobody writes to this chat for ``seconds`` (Telegram answered 429 with ``retry_after``)."""
        ...

    async def pace(self, spacing: float) -> float:
        """Reserve the bot's next free moment, ``spacing`` seconds after the one reserved before it (by any
        worker): the seconds to wait until it."""
        ...

    async def bump(self, key: str) -> int:
        """A new version of a message's content; returns it."""
        ...

    async def advance(self, key: str, value: int) -> int:
        """Raise ``key``'s number to ``value`` unless it is higher already; returns the number now."""
        ...

    async def latest(self, key: str) -> int: ...

    async def get(self, key: str) -> str | None: ...

    async def put(self, key: str, value: str) -> None: ...

    async def close(self) -> None: ...


class LocalCoordinator:
    """One worker: everything in this process's memory."""

    def __init__(self) -> None:
        self._free_at: dict[str, float] = {}
        self._holder: dict[str, str] = {}
        self._window: dict[str, dict[str, float]] = {}
        self._versions: dict[str, int] = {}
        self._values: dict[str, str] = {}
        self._claims: dict[str, tuple[str, float]] = {}  # key in hand -> (holder, until)
        self._done: OrderedDict[str, float] = OrderedDict()  # handled key -> until, oldest first (one expiry for all)
        self._next_free = 0.0  # the bot's next free moment (``pace``)

    async def acquire(
        self, chat_id: str, interval: float, per_minute: int, member: str, window: float = 60, lease: float = SLOT_LEASE
    ) -> float:
        now = time.monotonic()
        free_at = self._free_at.get(chat_id, 0.0)
        if free_at > now:
            return min(free_at - now, POLL) if chat_id in self._holder else free_at - now
        if per_minute > 0:
            entries = self._window.setdefault(chat_id, {})
            for old, at in list(entries.items()):
                if at <= now - window:
                    del entries[old]
            if len(entries) >= per_minute:
                return min(entries.values()) + window - now
            entries[member] = now
        if interval > 0:
            self._free_at[chat_id] = now + lease
            self._holder[chat_id] = member
        return 0.0

    async def keep(self, chat_id: str, member: str, lease: float = SLOT_LEASE) -> bool:
        now = time.monotonic()
        if self._holder.get(chat_id) != member or self._free_at.get(chat_id, 0.0) <= now:
            return False
        self._free_at[chat_id] = now + lease
        return True

    async def release(self, chat_id: str, interval: float, member: str, used: bool = True) -> None:
        now = time.monotonic()
        if self._holder.get(chat_id) == member:
            del self._holder[chat_id]
            self._free_at[chat_id] = now + interval if used else 0.0
        entries = self._window.get(chat_id, {})
        if member in entries:
            if used:
                entries[member] = now
            else:
                del entries[member]

    async def hold(self, chat_id: str, seconds: float) -> None:
        # the request that got the 429 is answered: its slot's lease ends here, and the chat waits ``seconds``
        # (an earlier hold that lasts longer still counts; a lease in flight does not, as in Redis)
        until = 0.0 if self._holder.pop(chat_id, None) is not None else self._free_at.get(chat_id, 0.0)
        self._free_at[chat_id] = max(until, time.monotonic() + seconds)

    def _forget(self, now: float) -> None:
        """Drop handled keys past their time (the oldest are first: every one is kept as long) and beyond
        ``DONE_LIMIT``; leases of keys nobody finished are dropped once they lapse, when there are many."""
        done = self._done
        while done and (len(done) > DONE_LIMIT or next(iter(done.values())) <= now):
            done.popitem(last=False)
        if len(self._claims) > DONE_LIMIT:
            self._claims = {k: v for k, v in self._claims.items() if v[1] > now}

    async def claim(self, key: str, member: str, lease: float) -> str:
        now = time.monotonic()
        self._forget(now)
        if key in self._done:
            return DONE
        holder, until = self._claims.get(key, ("", 0.0))
        if until > now:
            return MINE if holder == member else BUSY
        self._claims[key] = (member, now + lease)
        return MINE

    async def renew(self, key: str, member: str, lease: float) -> bool:
        holder, until = self._claims.get(key, ("", 0.0))
        if holder != member or until <= time.monotonic():
            return False
        self._claims[key] = (member, time.monotonic() + lease)
        return True

    async def finish(self, key: str) -> None:
        self._claims.pop(key, None)
        self._done.pop(key, None)
        self._done[key] = time.monotonic() + LOCAL_DONE_KEEP
        self._forget(time.monotonic())

    async def drop(self, key: str, member: str) -> None:
        if self._claims.get(key, ("", 0.0))[0] == member:
            del self._claims[key]

    async def pace(self, spacing: float) -> float:
        now = time.monotonic()
        at = max(now, self._next_free)
        self._next_free = at + spacing
        return at - now

    async def bump(self, key: str) -> int:
        self._versions[key] = self._versions.get(key, 0) + 1
        return self._versions[key]

    async def advance(self, key: str, value: int) -> int:
        self._versions[key] = max(self._versions.get(key, 0), value)
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
        metrics.count_redis(self._redis, "telegram")
        self._prefix = f"{REDIS_PREFIX}{namespace}:"
        self._acquire = self._redis.register_script(ACQUIRE)
        self._release = self._redis.register_script(RELEASE)
        self._renew = self._redis.register_script(RENEW)
        self._advance = self._redis.register_script(ADVANCE)
        self._pace = self._redis.register_script(PACE)

    def _keys(self, chat_id: str) -> list[str]:
        return [f"{self._prefix}slot:{chat_id}", f"{self._prefix}window:{chat_id}"]

    async def acquire(
        self, chat_id: str, interval: float, per_minute: int, member: str, window: float = 60, lease: float = SLOT_LEASE
    ) -> float:
        lease_ms = max(1, int(lease * 1000))
        args = [int(interval * 1000), per_minute, member, lease_ms, int(window * 1000), int(POLL * 1000)]
        wait_ms = await self._acquire(keys=self._keys(chat_id), args=args)
        return int(wait_ms) / 1000

    async def keep(self, chat_id: str, member: str, lease: float = SLOT_LEASE) -> bool:
        return bool(await self._renew(keys=self._keys(chat_id)[:1], args=[member, max(1, int(lease * 1000))]))

    async def release(self, chat_id: str, interval: float, member: str, used: bool = True) -> None:
        await self._release(keys=self._keys(chat_id), args=[int(interval * 1000), member, int(used)])

    async def hold(self, chat_id: str, seconds: float) -> None:
        await self._redis.set(f"{self._prefix}slot:{chat_id}", "1", px=max(1, int(seconds * 1000)))

    async def claim(self, key: str, member: str, lease: float) -> str:
        full = f"{self._prefix}c:{key}"
        if await self._redis.set(full, member, nx=True, px=max(1, int(lease * 1000))):
            return MINE
        holder = await self._redis.get(full)
        if holder is None:  # it expired just now: try once more
            return MINE if await self._redis.set(full, member, nx=True, px=max(1, int(lease * 1000))) else BUSY
        return DONE if holder == DONE else MINE if holder == member else BUSY

    async def renew(self, key: str, member: str, lease: float) -> bool:
        return bool(await self._renew(keys=[f"{self._prefix}c:{key}"], args=[member, max(1, int(lease * 1000))]))

    async def finish(self, key: str) -> None:
        await self._redis.set(f"{self._prefix}c:{key}", DONE, ex=DONE_KEEP)

    async def drop(self, key: str, member: str) -> None:
        full = f"{self._prefix}c:{key}"
        if await self._redis.get(full) == member:
            await self._redis.delete(full)

    async def pace(self, spacing: float) -> float:
        wait_us = await self._pace(keys=[f"{self._prefix}pace"], args=[max(1, int(spacing * 1_000_000))])
        return int(wait_us) / 1_000_000

    async def bump(self, key: str) -> int:
        full = f"{self._prefix}v:{key}"
        async with self._redis.pipeline(transaction=True) as pipe:
            pipe.incr(full)
            pipe.expire(full, KEEP_SECONDS)
            version, _ = await pipe.execute()
        return int(version)

    async def advance(self, key: str, value: int) -> int:
        return int(await self._advance(keys=[f"{self._prefix}v:{key}"], args=[value, KEEP_SECONDS]))

    async def latest(self, key: str) -> int:
        return int(await self._redis.get(f"{self._prefix}v:{key}") or 0)

    async def get(self, key: str) -> str | None:
        return await self._redis.get(f"{self._prefix}k:{key}")

    async def put(self, key: str, value: str) -> None:
        await self._redis.set(f"{self._prefix}k:{key}", value, ex=KEEP_SECONDS)

    async def close(self) -> None:
        await self._redis.aclose()
