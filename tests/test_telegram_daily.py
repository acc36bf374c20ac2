"""The daily deal on Telegram, end to end (real aiogram over the fake Bot API): ``/daily kozel`` in the group; the
attempt's table and cards come to the bot's private chat, never to the group; the group's one daily message is
edited with the result."""

from __future__ import annotations

import pytest

from testkit.fake_bot_api import FakeBotAPI
from testkit.telegram_players import Player, play_well
from tests.telegram_bot_support import LiveBot, uploads, writes

GROUP = -1001


@pytest.fixture
async def api():
    server = FakeBotAPI()
    await server.start()
    server.add_group(GROUP, "Kitchen")
    yield server
    await server.stop()


async def test_daily_deal_in_the_private_chat(api, tmp_path):
    bot = await LiveBot(api, tmp_path / "bot.sqlite3").start()
    try:
        ann = Player(api, api.add_user(11, "Ann"), bot.settle)
        await ann.say(GROUP, "/daily kozel")
        user = await bot.app.storage.user("telegram", "11", "Ann")
        (table,) = await bot.app.storage.tables_for_user(user.id)
        assert table.options["daily"]
        assert any(s.photo_name == "table.jpg" for s in ann.private())  # the table, privately
        assert await play_well(bot.app, [ann], table.id) > 0
        await bot.settle()
        assert (await bot.app.storage.table(table.id)).status == "finished"
    finally:
        await bot.stop()
    group = api.visible(GROUP)
    posts = [s for s in group if "Today's deal" in (s.text or "")]
    assert len(posts) == 1 and "1. Ann" in posts[0].text and posts[0].edits >= 1
    for call in writes(api.calls, GROUP):  # nothing of the attempt went to the group
        assert not {"table.jpg", "hand.jpg", "sheet.jpg"} & set(uploads(call)), call.method
    assert any("Today's Kozel (" in (s.text or "") for s in ann.private())
