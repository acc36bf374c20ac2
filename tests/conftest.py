"""Fixtures many test modules share: ``api``, the fake Bot API on 127.0.0.1 with one group, "Kitchen"
(``tests.telegram_support.KITCHEN``). A module that needs more chats (a forum, topics) defines its own ``api``.
``redis_url``: ``REDIS_URL`` (default database 0 on this machine), or the test is skipped when no Redis answers."""

from __future__ import annotations

import os

import pytest

REDIS_URL = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")


@pytest.fixture
async def api():
    from testkit.fake_bot_api import FakeBotAPI
    from tests.telegram_support import KITCHEN  # imported here: a test that uses no Telegram pays nothing

    server = FakeBotAPI()
    await server.start()
    server.add_group(KITCHEN, "Kitchen")
    yield server
    await server.stop()


@pytest.fixture
async def redis_url():
    from redis.asyncio import Redis

    redis = Redis.from_url(REDIS_URL)
    try:
        await redis.ping()
    except OSError:
        pytest.skip(f"no Redis at {REDIS_URL}")
    yield REDIS_URL
    await redis.aclose()
