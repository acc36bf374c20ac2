"""Fixtures many test modules share: ``api``, the fake Bot API on 127.0.0.1 with one group, "Kitchen"
(``tests.telegram_support.KITCHEN``). A module that needs more chats (a forum, topics) defines its own ``api``."""

from __future__ import annotations

import pytest


@pytest.fixture
async def api():
    from testkit.fake_bot_api import FakeBotAPI
    from tests.telegram_support import KITCHEN  # imported here: a test that uses no Telegram pays nothing

    server = FakeBotAPI()
    await server.start()
    server.add_group(KITCHEN, "Kitchen")
    yield server
    await server.stop()
