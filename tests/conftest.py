"""Fixtures many test modules share: ``api``, the fake Bot API on 127.0.0.1 with one group, "Kitchen"
(``tests.telegram_support.KITCHEN``), with Telegram's flood limits unless the test is marked
``@pytest.mark.limits(Limits(...))`` (``fake_limits``). A module that needs more chats (a forum, topics) defines its own
``api``. ``redis_url``: ``REDIS_URL`` (default database 0 on this machine), or the test is skipped when no Redis
answers."""

from __future__ import annotations

import os

import pytest

REDIS_URL = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")


def fake_limits(request: pytest.FixtureRequest):
    """The limits a test asks for with ``@pytest.mark.limits(Limits(...))``; None: Telegram's."""
    marker = request.node.get_closest_marker("limits")
    return marker.args[0] if marker is not None else None


@pytest.fixture
async def api(request: pytest.FixtureRequest):
    from testkit.fake_bot_api import FakeBotAPI
    from tests.telegram_support import KITCHEN  # imported here: a test that uses no Telegram pays nothing

    server = FakeBotAPI(limits=fake_limits(request))
    await server.start()
    server.add_group(KITCHEN, "Kitchen")
    yield server
    await server.stop()


@pytest.fixture
def fast_taps(monkeypatch: pytest.MonkeyPatch) -> None:
    """The web table's press rate per socket lifted by name (``bot.webapp.hub.PRESS_RATE``): a test that plays a
    whole game by tapping, against computers that answer at once, taps faster than the rate a person needs and was
    told "Too many taps" (the tap then changed nothing). ``tests/test_webapp_limits.py`` keeps the real rate."""
    import bot.webapp.hub

    monkeypatch.setattr(bot.webapp.hub, "PRESS_RATE", 10_000)


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
