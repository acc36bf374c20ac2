"""The Mini App's buttons in Telegram, through the real application and the Telegram adapter over the fake Bot API
(which refuses a web_app button outside a private chat, as Telegram does): only with ``WEBAPP_URL`` set, a
``web_app`` button under each player's hand in the private chat, a link under the table in the group."""

from __future__ import annotations

import pytest

from bot import tablepass
from testkit.fake_bot_api import TOKEN, FakeBotAPI
from testkit.telegram_players import Player
from tests.telegram_bot_support import LiveBot
from tests.telegram_support import KITCHEN

GROUP = KITCHEN  # the shared ``api`` fixture's group (tests/conftest.py)
BASE = "https://cards.example.org"


def all_buttons(api: FakeBotAPI, chat_id: int) -> list[dict]:
    return [b for s in api.messages.get(chat_id, {}).values() for b in s.buttons()]


@pytest.mark.parametrize("setup", ["no web table", "WEBAPP_URL", "WEBAPP_URL and TELEGRAM_WEBAPP_NAME"])
async def test_the_mini_app_buttons_appear_only_with_webapp_url_and_web_app_only_in_private(api, tmp_path, setup):
    overrides = {}
    if setup != "no web table":
        overrides["webapp_url"] = BASE
    if setup.endswith("NAME"):
        overrides["telegram_webapp_name"] = "table"
    bot = await LiveBot(api, tmp_path / "bot.sqlite3", **overrides).start()
    try:
        ann = Player(api, api.add_user(11, "Ann"), bot.settle)
        await ann.say(GROUP, "/new kozel 2")
        lobby = next(s for s in reversed(api.visible(GROUP)) if any("Start" in b["text"] for b in s.buttons()))
        await ann.press_label(lobby, "🤖")
        lobby = next(s for s in reversed(api.visible(GROUP)) if any("Start" in b["text"] for b in s.buttons()))
        await ann.press_label(lobby, "Start")
        await bot.settle()
        table = next(s for s in reversed(api.visible(GROUP)) if s.photo_name == "table.jpg")
        hand = next(s for s in reversed(ann.private()) if s.photo_name == "hand.jpg")
        table_id = 1
    finally:
        await bot.stop()
    group, private = all_buttons(api, GROUP), all_buttons(api, ann.user.id)
    assert not [b for b in group if "web_app" in b]  # never in a group: Telegram refuses them there
    opens = [b for b in table.buttons() if "Open the table" in b["text"]]
    web = [b for b in hand.buttons() if "web_app" in b]
    if setup == "no web table":
        assert not opens and not web
        assert not [b for b in group + private if "web_app" in b or "Open the table" in b["text"]]
        return
    ticket = tablepass.make(tablepass.key_of(TOKEN), table_id)  # the table's pass, signed by this bot
    assert ticket.startswith(f"t{table_id}-") and tablepass.check(tablepass.key_of(TOKEN), ticket) == table_id
    assert web == [{"text": "🃏 Open the table", "web_app": {"url": f"{BASE}/app/?t={ticket}"}}]
    if setup.endswith("NAME"):
        assert [b["url"] for b in opens] == [f"https://t.me/{api.username}/table?startapp={ticket}"]
    else:
        assert [b["url"] for b in opens] == [f"{BASE}/app/?t={ticket}"]
