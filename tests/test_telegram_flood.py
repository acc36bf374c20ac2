"""Flood limits across workers, measured where Telegram measures them: at the fake Bot API's receive times.
Two workers share one group through Redis; pictures take a while to upload, texts do not."""

from __future__ import annotations

import asyncio
import random

import pytest

from bot.port import Chat, Message, Press, User
from bot.telegram.coordination import LocalCoordinator, RedisCoordinator
from testkit.fake_bot_api import FakeBotAPI, Limits
from tests.telegram_support import KITCHEN as GROUP
from tests.telegram_support import Worker, picture, webhook_options
from tests.test_telegram_workers import cleanup

PER_WINDOW = 3
WINDOW = 3.0  # the real limit is 20 a minute; the window is shortened so that the test stays short


async def test_group_writes_are_timed_at_the_send_across_two_workers(redis_url):  # noqa: F811
    api = FakeBotAPI()
    await api.start()
    chat_id = -(10**12) - random.randrange(10**9)
    api.add_group(chat_id, "Kitchen")
    api.upload_delay["sendPhoto"] = 0.3
    options = webhook_options(
        redis_url, telegram_edit_interval=1.0, telegram_group_per_minute=PER_WINDOW, telegram_group_window=WINDOW
    )
    chat = Chat("telegram", str(chat_id))
    try:
        async with Worker(api, **options) as w1, Worker(api, **options) as w2:
            for n in range(3):  # a picture from one worker, then a text from the other, and so on
                await w1.port.send_public(chat, Message(f"picture {n}", image=picture(n)))
                await w2.port.send_public(chat, Message(f"text {n}"))
    finally:
        await api.stop()
        await cleanup(chat_id)
    received = sorted(c.at for c in api.calls_to(chat_id) if c.ok)
    assert len(received) == 6
    gaps = [b - a for a, b in zip(received, received[1:])]
    assert min(gaps) >= 1.0, gaps  # one write a second, from when Telegram received the previous one
    for i, start in enumerate(received):  # no more than PER_WINDOW in any window
        assert sum(1 for at in received[i:] if at < start + WINDOW) <= PER_WINDOW


@pytest.mark.parametrize("kind", ["one worker", "workers sharing Redis"])
async def test_a_429_holds_the_chat_for_its_retry_after_not_for_the_slots_lease(kind, redis_url):  # noqa: F811
    """Telegram answers 429 "retry after 1": the chat's next write may go in a second. Before, one worker held the
    chat for the whole lease of the request that got the 429 (30 s), so a table's next edit came half a minute
    late (seen as a 30 s test)."""
    if kind == "one worker":
        coordinator = LocalCoordinator()
    else:
        coordinator = RedisCoordinator(redis_url, namespace=f"test-{random.randrange(10**9)}")
    chat = str(-(10**12) - random.randrange(10**9))
    try:
        assert await coordinator.acquire(chat, 1.0, 20, "first", 60) == 0  # the edit goes out in its turn...
        await coordinator.hold(chat, 1.0)  # ...and Telegram answers 429, retry after 1 s
        await coordinator.release(chat, 1.0, "first", used=True)  # the answer is in
        wait = await coordinator.acquire(chat, 1.0, 20, "second", 60)
        assert 0 < wait <= 1.0
    finally:
        await coordinator.close()


PACE = 10  # messages a second for the whole bot: Telegram's is 30, lowered so that the test stays short


async def test_two_workers_together_keep_the_bots_pace(redis_url):  # noqa: F811
    """Telegram counts a bot's messages a second, whichever worker sends them. Each worker kept the pace on its own
    before, so two workers sent twice as many and Telegram answered 429 (seen as a bench run's retries)."""
    api = FakeBotAPI(limits=Limits(per_second=PACE))
    await api.start()
    first = 10**9 + random.randrange(10**9)  # people of their own: Redis is shared with other test runs
    users = [api.add_user(first + i, f"P{i}") for i in range(2 * PACE)]
    options = webhook_options(redis_url, telegram_global_per_second=PACE)
    try:
        async with Worker(api, **options) as w1, Worker(api, **options) as w2:
            sends = [
                worker.port.send_private(User("telegram", str(u.id), u.first_name), Message(f"hand {n}"))
                for n, u in enumerate(users)
                for worker in (w1, w2)
            ]
            await asyncio.gather(*sends)
    finally:
        await api.stop()
        for u in users:
            await cleanup(u.id)
    writes = [c for c in api.calls if c.method == "sendMessage"]
    assert [c.status for c in writes if not c.ok] == []  # not one 429
    received = sorted(c.at for c in writes)
    assert len(received) == 4 * PACE
    for i, start in enumerate(received):  # no more than PACE in any second
        assert sum(1 for at in received[i:] if at < start + 1.0) <= PACE


async def test_an_answer_does_not_wait_behind_the_bots_queued_messages():
    """A press is answered at once while many messages wait for the bot's pace: the answer is no message. It
    queued behind them before, so at 40 busy tables an answer took over a second (docs/capacity.md)."""
    api = FakeBotAPI(limits=Limits(per_second=PACE))
    await api.start()
    api.add_group(GROUP, "Kitchen")
    users = [api.add_user(800 + i, f"P{i}") for i in range(3 * PACE)]
    try:
        async with Worker(api, telegram_global_per_second=PACE) as w:
            table = await w.port.send_public(Chat("telegram", str(GROUP)), Message("table"))
            sends = [
                asyncio.create_task(
                    w.port.send_private(User("telegram", str(u.id), u.first_name), Message(f"hand {n}"))
                )
                for n, u in enumerate(users)  # three seconds of the bot's messages, queued
            ]
            await api.wait_for(lambda: len(api.calls) >= 3)
            query = api.press(users[0], GROUP, int(table.message_id), "t:move", forged=True)
            user = User("telegram", str(users[0].id), users[0].first_name)
            await w.port.answer(Press(user, Chat("telegram", str(GROUP)), "t:move", handle=query))
            await asyncio.gather(*sends)
    finally:
        await api.stop()
    answered = next(c.at for c in api.calls if c.method == "answerCallbackQuery")
    hands_after = [c for c in api.calls if c.method == "sendMessage" and c.at > answered]
    assert len(hands_after) > 2 * PACE  # the answer went before the queued hands, not after them
