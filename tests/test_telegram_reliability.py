"""Every press answered exactly once and at once (issue 26, findings 1 and 9, the Telegram side): a burst of
presses of one card button while Telegram (or a proxy in front of it) fails some answers, and presses while
the group's write budget is spent, through the fake Bot API with the real aiogram client."""

from __future__ import annotations

import asyncio
import logging

from testkit.fake_bot_api import FakeBotAPI
from testkit.telegram_players import PREFIX, Player
from tests.telegram_bot_support import LiveBot
from tests.telegram_support import KITCHEN, Worker, picture

GROUP = KITCHEN  # the shared ``api`` fixture's group (tests/conftest.py)


def ok_answers(api: FakeBotAPI) -> dict[str, int]:
    out: dict[str, int] = {}
    for call in api.calls:
        if call.method == "answerCallbackQuery" and call.ok:
            key = str(call.params.get("callback_query_id"))
            out[key] = out.get(key, 0) + 1
    return out


async def test_a_burst_of_presses_of_one_card_button_is_answered_once_each(api, tmp_path, caplog):
    caplog.set_level(logging.WARNING)
    bot = await LiveBot(api, tmp_path / "bot.sqlite3").start()
    try:
        ann = Player(api, api.add_user(11, "Ann"), bot.settle)
        await ann.say(GROUP, "/new deberts 2")
        await ann.press_label(api.last(GROUP), "🤖")
        await ann.press_label(api.last(GROUP), "Start")
        hand = ann.hands()[0]
        card = next(d for d in ann.moves(hand) if d.startswith(PREFIX + "a."))
        # a proxy in front of Telegram answers two of the answers with 502 Bad Gateway
        api.fail_next("answerCallbackQuery", code=502, description="Bad Gateway", count=2)
        queries = [api.press(ann.user, ann.user.id, hand.message_id, card) for _ in range(20)]
        await asyncio.gather(*(api.wait_answer(q, timeout=30) for q in queries))
        await bot.settle()
    finally:
        await bot.stop()
    per_query = ok_answers(api)
    assert [per_query.get(q, 0) for q in queries] == [1] * 20
    assert [c.status for c in api.calls if not c.ok] == [502, 502]
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


async def test_presses_are_answered_while_the_group_budget_is_spent(api):
    ann, bob = api.add_user(11, "Ann"), api.add_user(12, "Bob")
    # one group write per 3 s: the table message spends it, the table edits then wait for the next window
    async with Worker(api, telegram_group_per_minute=1, telegram_group_window=3.0) as w:
        api.say(ann, GROUP, "/new")
        while ("telegram", str(GROUP), None) not in w.app.tables:
            await asyncio.sleep(0.01)
        table = api.last(GROUP).message_id
        queries = [api.press(ann if i % 2 else bob, GROUP, table, "t:move") for i in range(5)]
        for q in queries:
            await api.wait_answer(q)
        await w.port.idle()
    edits = [c for c in api.calls_to(GROUP) if c.method.startswith("edit") and c.ok]
    assert len(edits) == 1  # the five moves' pictures coalesced into one edit, the latest
    assert api.visible(GROUP)[0].photo == picture(5)
    assert all(api.answered_at[q] < edits[0].at for q in queries)  # no answer waited for the group's window
