"""Issue 40: the web table reads a page's next tap while its previous press is still being published.

A press's answer comes when the move is stored; what the move shows then goes out, and a group's write may wait for
the group's window (Telegram's 20 a minute) a long while. The page's socket used to read its next message only
after the whole press was settled, so a player's next tap waited for the group's window.

Two people play Kozel through their web table pages over the real application and the Telegram adapter against the
fake Bot API (with Telegram's limits), with no pause after a round; the group's window is spent right before each
tap. They play through the first round's end into the next deal. Each tap's answer must reach its page before any
group write the window lets through: a page's second tap is answered while its first is still being published.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import aiohttp
import pytest
from aiohttp import web

from bot.port import User
from bot.webapp import install
from bot.webapp.auth import Session
from core.ai.player import ComputerPlayer
from testkit.fake_bot_api import FakeBotAPI, Limits
from testkit.telegram_players import PREFIX, Player
from tests.telegram_bot_support import LiveBot, writes
from tests.telegram_support import KITCHEN as GROUP
from tests.test_discord_press_answers import action_for
from tests.webapp_support import Page

WINDOW = 5.0  # seconds the group's window holds its writes once spent: Telegram's 60, shortened


def data(shown) -> list[str]:
    return [b["callback_data"] for b in shown.callback_buttons()]


async def open_kozel(api: FakeBotAPI, ann: Player, bob: Player) -> None:
    """Ann opens a Kozel for two in the group, Bob joins, Ann starts it (through the group's buttons)."""
    await ann.say(GROUP, "/new kozel 2")
    lobby = api.visible(GROUP)[-1]
    await bob.press(lobby, next(d for d in data(lobby) if d.startswith(PREFIX + "j.")))
    lobby = api.messages[GROUP][lobby.message_id]
    await ann.press(lobby, next(d for d in data(lobby) if d.startswith(PREFIX + "s.")))


async def tap(api: FakeBotAPI, page: Page, payload: str) -> dict[str, Any]:
    """A tap with the group's window spent: its answer must come before any group write that follows it."""
    api.spend_window(GROUP)
    mark = len(api.calls)
    page.req += 1
    req = page.req
    await page.ws.send_json({"type": "press", "payload": payload, "req": req})
    answer = await page.wait(lambda f: f.get("req") == req and f.get("type") == "answer", timeout=3 * WINDOW)
    written = [(c.method, round(c.at, 2)) for c in writes(api.calls[mark:], GROUP)]
    assert not written, f"the tap {payload!r} was answered after the group's writes {written}: it waited for them"
    return answer


@pytest.mark.limits(Limits(group_window=WINDOW))
async def test_a_pages_next_tap_is_answered_while_the_group_waits_for_its_window(api, tmp_path: Path, fast_taps):
    bot = await LiveBot(api, tmp_path / "bot.sqlite3", round_pause=0).start()
    runner: web.AppRunner | None = None
    try:
        ann, bob = (Player(api, api.add_user(11 + i, name), bot.settle) for i, name in enumerate(("Ann", "Bob")))
        await open_kozel(api, ann, bob)
        app = bot.app
        assert app is not None
        web_app = web.Application()
        webtable = install(web_app, app, bot_token=api.token)
        runner = web.AppRunner(web_app, access_log=None)
        await runner.setup()
        await web.TCPSite(runner, "127.0.0.1", 0).start()
        url = f"http://127.0.0.1:{runner.addresses[0][1]}"
        async with aiohttp.ClientSession() as http:
            pages: dict[str, Page] = {}
            for player in (ann, bob):
                user = User("telegram", str(player.user.id), player.name, "en")
                ws = await http.ws_connect(url + "/app/ws")
                await ws.send_json({"type": "hello", "session": webtable.sessions.issue(Session(user, (1,)))})
                pages[user.id] = page = Page(ws)
                page.start()
                await page.wait(lambda f: f.get("type") == "table")
            next_deal: dict[str, int] = {}  # taps of each page in the next deal
            for n in range(300):
                rec = await app.storage.table(1)
                live = await app.live(rec)
                deal = live.state.view(None)["round"]
                if deal > 1 and len(next_deal) == 2:
                    break
                seat = live.state.to_act
                user_id = next(s.user.platform_id for s in rec.seats if s.seat == seat and s.user is not None)
                page = pages[user_id]
                frame = await page.wait(lambda f, v=rec.version: f.get("type") == "table" and f["version"] == v)
                action = ComputerPlayer("kozel", "normal", seed=n).decide(
                    live.state.view(seat), list(live.round_events)
                )
                answer = await tap(api, page, action_for(frame, action.code()))
                assert not answer.get("text"), answer  # a move, stored
                if deal > 1:
                    next_deal[user_id] = next_deal.get(user_id, 0) + 1
            else:
                raise AssertionError("the first round did not end")
            for page in pages.values():
                await page.close()
        await bot.settle()  # the group's writes go out once its window has passed
    finally:
        if runner is not None:
            await runner.cleanup()
        await bot.stop()
