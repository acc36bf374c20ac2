"""Issue 36: a worker SIGKILLed with a write in flight frees that chat within seconds, not after a 30 s lease (every
other worker waited for it, so the group's table and every hand in that chat froze), while a live worker's long
upload keeps its chat's write slot: the slot's lease is short and the worker renews it while its request is in
flight. The renewal ends with its request on every path and never outlives it."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator, Callable

import pytest
from aiogram.exceptions import TelegramBadRequest, TelegramRetryAfter
from aiogram.methods import SendMessage

from bot.telegram.coordination import SLOT_LEASE, Coordinator, LocalCoordinator, RedisCoordinator
from bot.telegram.flood import RENEWAL, FloodControl

LEASE = 1.5  # the tests with a live holder shorten the slot's lease (renewed every 0.5 s) to stay short
GIVE_UP = 10.0  # seconds of waits after which another worker has clearly not got the slot "within seconds"
KINDS = ["one worker", "workers sharing Redis"]


def new_chat() -> str:
    return str(-(10**12) - random.randrange(10**9))


@pytest.fixture
async def workers(request: pytest.FixtureRequest, redis_url: str) -> AsyncIterator[tuple[Coordinator, Coordinator]]:
    """The coordinators of two workers: one in memory (a worker alone has one), or two sharing Redis."""
    if request.param == "one worker":
        local = LocalCoordinator()
        yield local, local
        return
    namespace = f"test-{random.randrange(10**9)}"
    a, b = RedisCoordinator(redis_url, namespace), RedisCoordinator(redis_url, namespace)
    try:
        yield a, b
    finally:
        await a.close()
        await b.close()


async def slot_after(coordinator: Coordinator, chat: str, member: str, lease: float = SLOT_LEASE) -> float:
    """Another worker asks for the chat's slot until it has it: the seconds of waits it was asked for on the way
    (more than ``GIVE_UP`` when it never got it)."""
    waited = 0.0
    while waited <= GIVE_UP:
        wait = await coordinator.acquire(chat, 1.0, 20, member, 60, lease)
        if wait <= 0:
            return waited
        waited += wait
        await asyncio.sleep(wait)
    return waited


def renewals() -> list[asyncio.Task]:
    """This worker's renewals still running (one cancelled ends at its next step and renews nothing more)."""
    return [t for t in asyncio.all_tasks() if t.get_name().startswith(RENEWAL) and not t.done() and not t.cancelling()]


async def until(condition: Callable[[], bool], timeout: float = 5.0) -> None:
    async with asyncio.timeout(timeout):
        while not condition():
            await asyncio.sleep(0.01)


async def test_a_dead_workers_write_slot_is_free_within_seconds(redis_url):
    namespace = f"test-{random.randrange(10**9)}"
    dead, alive = RedisCoordinator(redis_url, namespace), RedisCoordinator(redis_url, namespace)
    chat = new_chat()
    try:
        # worker A takes the chat's slot for a write and is SIGKILLed: it never answers, releases nor renews
        assert await dead.acquire(chat, 1.0, 20, "A-1", 60) == 0
        waited = await slot_after(alive, chat, "B-1")
        assert waited < GIVE_UP, f"worker B waited {waited:.1f} s for the chat of a dead worker"
    finally:
        await dead.close()
        await alive.close()


@pytest.mark.parametrize("workers", KINDS, indirect=True)
async def test_a_live_workers_long_upload_keeps_its_chats_slot(workers):
    a, b = workers
    flood = FloodControl(a, lease=LEASE)
    chat = new_chat()
    started, finish = asyncio.Event(), asyncio.Event()

    async def upload() -> str:
        started.set()
        await finish.wait()
        return "sent"

    writing = asyncio.create_task(flood.write(chat, upload, group=True))
    await started.wait()
    waited = 0.0
    while waited < 2 * LEASE:  # twice the lease: without renewals it would have lapsed by now
        wait = await b.acquire(chat, 1.0, 20, "B-1", 60, LEASE)
        assert wait > 0, f"another worker wrote to the chat {waited:.1f} s into the upload"
        waited += wait
        await asyncio.sleep(wait)
    finish.set()
    assert await writing == "sent"
    assert await slot_after(b, chat, "B-1", LEASE) < GIVE_UP  # the chat's next write, once the interval passed
    await until(lambda: not renewals())


def failing(error: Exception) -> Callable[[], object]:
    async def call() -> None:
        raise error

    return call


@pytest.mark.parametrize("workers", KINDS, indirect=True)
async def test_no_renewal_outlives_its_request(workers):
    """Whatever ends the request, its renewal ends with it and the chat is free for the next write: the answer, an
    error, a cancellation, a 429 (the hold replaces the lease), a turn given back unused, a task that took its turn
    and ended without giving it back, and a worker that stops with a request in flight."""
    a, b = workers
    flood = FloodControl(a, lease=LEASE, interval=0.1)  # the chat's writes follow each other quickly
    chat = new_chat()
    method = SendMessage(chat_id=int(chat), text="hi")

    async def answered() -> str:
        assert len(renewals()) == 1
        return "sent"

    assert await flood.write(chat, answered, group=True) == "sent"
    assert not renewals()  # ended with ``done``, before the answer was handed back
    with pytest.raises(TelegramBadRequest):
        await flood.write(chat, failing(TelegramBadRequest(method, "chat not found")), group=True)
    assert not renewals()

    in_flight = asyncio.Event()

    async def never_answered() -> None:
        in_flight.set()
        await asyncio.Event().wait()

    writing = asyncio.create_task(flood.write(chat, never_answered, group=True))
    await in_flight.wait()
    assert len(renewals()) == 1
    writing.cancel()
    with pytest.raises(asyncio.CancelledError):
        await writing
    await until(lambda: not renewals())

    calls = 0

    async def refused_once() -> str:
        nonlocal calls
        calls += 1
        if calls == 1:
            raise TelegramRetryAfter(method, "Too Many Requests", retry_after=0)
        assert len(renewals()) == 1  # the first request's renewal ended with the hold
        return "sent"

    assert await flood.write(chat, refused_once, group=True) == "sent"
    await until(lambda: not renewals())

    await flood.turn(chat, group=True)
    await flood.done(chat, used=False)  # nothing was sent in the turn after all
    await until(lambda: not renewals())
    assert await slot_after(b, chat, "B-1", LEASE) == 0  # an unused turn costs nothing

    other = new_chat()
    await asyncio.create_task(flood.turn(other, group=True))  # took the turn and ended without ``done``
    await until(lambda: not renewals())
    assert await slot_after(b, other, "B-2", LEASE) < GIVE_UP

    in_flight.clear()
    last = new_chat()
    writing = asyncio.create_task(flood.write(last, never_answered, group=True))
    await in_flight.wait()
    flood.close()  # the worker stops with this request in flight
    await until(lambda: not renewals())
    assert await slot_after(b, last, "B-3", LEASE) < GIVE_UP
    writing.cancel()
    with pytest.raises(asyncio.CancelledError):
        await writing
