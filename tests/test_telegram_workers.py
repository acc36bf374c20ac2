"""Two bot workers behind one webhook URL share a chat through Redis: at most one write per interval in the
chat across both, and the latest table picture wins whichever worker received the move."""

from __future__ import annotations

import asyncio
import os
import random

from redis.asyncio import Redis

from testkit.fake_bot_api import FakeBotAPI
from tests.telegram_support import HOOK, RecordingApp, Worker, picture, webhook_options

REDIS_URL = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")
INTERVAL = 0.4


async def cleanup(chat_id: int) -> None:
    redis = Redis.from_url(REDIS_URL)
    keys = [k async for k in redis.scan_iter(match=f"tablebot:tg:*{chat_id}*")]
    if keys:
        await redis.delete(*keys)
    await redis.aclose()


async def test_two_webhook_workers_one_chat(redis_url):
    api = FakeBotAPI()
    await api.start()
    chat = -(10**12) - random.randrange(10**9)  # a chat of its own: Redis is shared with other test runs
    api.add_group(chat, "Kitchen")
    ann, bob = api.add_user(11, "Ann"), api.add_user(12, "Bob")
    first = RecordingApp()
    second = first.twin()
    options = webhook_options(redis_url, telegram_edit_interval=INTERVAL)
    try:
        async with Worker(api, first, **options) as w1, Worker(api, second, **options) as w2:
            api.backends[HOOK] = [w1.runner.webhook_address, w2.runner.webhook_address]
            api.say(ann, chat, "/new")
            await api.wait_for(lambda: bool(api.visible(chat)))
            table = api.last(chat).message_id
            queries = []
            for i in range(8):
                queries.append(api.press(ann if i % 2 else bob, chat, table, "t:move"))
                await asyncio.sleep(0.08)
            for q in queries:
                await api.wait_answer(q)
            await asyncio.gather(w1.port.idle(), w2.port.idle())
            await api.settle()
    finally:
        await api.stop()
        await cleanup(chat)
    served_by = {target for _, target in api.deliveries}
    assert len(served_by) == 2  # both workers handled updates
    assert first.presses and second.presses and len(first.presses) + len(second.presses) == 8
    shown = api.visible(chat)
    assert [m.message_id for m in shown] == [table]  # one table message, no new ones
    assert shown[0].photo == picture(8)  # the latest picture won
    writes = [c for c in api.calls_to(chat) if c.ok]
    edits = [c for c in writes if c.method.startswith("edit")]
    assert 1 <= len(edits) < 8
    gaps = [b.at - a.at for a, b in zip(writes, writes[1:])]
    assert min(gaps) >= INTERVAL / 2  # one write per interval across both workers
