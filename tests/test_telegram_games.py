"""Complete games through the real application and the Telegram adapter, over the fake Bot API (real aiogram,
real HTTP) with a temporary SQLite file. Users press only the buttons they see on their screens.

Thousand: three people in a group, one joins through the deep link; on the way a user not at the table, a
stale button, a forged button, a 429, the table message deleted by an admin and a restart of the bot.
Deberts and Kozel (in a forum topic) with computer seats. Checked: who got which message, that no hand ever
went to the group, and that a move costs at most one group edit and no new group message."""

from __future__ import annotations

import pytest

from testkit.fake_bot_api import FakeBotAPI, Limits, Shown
from testkit.telegram_players import PREFIX, Player, play_well
from tests.app_support import fixed_deal
from tests.telegram_bot_support import LiveBot, uploads, writes

GROUP = -1001
FORUM = -1002
TOPIC = 5


# hundreds of moves, each waited for: the flood limits are off, the answer deadline stays (the flood tests, the
# monkeys and the press checks keep every limit)
NO_FLOOD_LIMITS = Limits(per_chat_gap=None, per_private_second=None, per_group_minute=None, per_second=None)


@pytest.fixture
async def api():
    server = FakeBotAPI(limits=NO_FLOOD_LIMITS)
    await server.start()
    server.add_group(GROUP, "Kitchen")
    server.add_group(FORUM, "Club", forum=True)
    server.add_topic(FORUM, TOPIC)
    yield server
    await server.stop()


def lobby_of(api: FakeBotAPI, chat_id: int) -> Shown:
    return next(
        s
        for s in reversed(api.visible(chat_id))
        if any(b["callback_data"].startswith(PREFIX + "j.") for b in s.callback_buttons())
    )


def table_of(api: FakeBotAPI, chat_id: int) -> Shown:
    return next(s for s in reversed(api.visible(chat_id)) if s.kind == "photo" and s.photo_name == "table.jpg")


def no_hand_in_group(api: FakeBotAPI, chat_id: int) -> None:
    for call in writes(api.calls, chat_id):
        assert "hand.jpg" not in uploads(call), call.method
    for shown in api.messages.get(chat_id, {}).values():
        assert shown.photo_name != "hand.jpg"


class Counter:
    """Bot API writes caused by each move press, per chat."""

    def __init__(self, api: FakeBotAPI, chat_id: int) -> None:
        self.api = api
        self.chat_id = chat_id
        self.per_move: list[tuple[int, list[str]]] = []  # (edits, what each new message showed) in the group

    def wrap(self, player: Player) -> None:
        press = player.press

        async def counted(shown: Shown, data: str):
            before = len(self.api.calls)
            answer = await press(shown, data)
            if data.startswith(PREFIX + "a."):
                made = writes(self.api.calls[before:], self.chat_id)
                posts = [self.shows(c) for c in made if c.method.startswith("send")]
                self.per_move.append((sum(c.method.startswith("edit") for c in made), posts))
            return answer

        player.press = counted  # type: ignore[method-assign]

    def shows(self, call) -> str:
        shown = self.api.messages[self.chat_id][call.result["message_id"]]
        return shown.photo_name or shown.kind


class Here:
    """The bot that is running now (a restart replaces it); players settle through it."""

    def __init__(self, bot: LiveBot) -> None:
        self.bot = bot

    async def settle(self) -> None:
        await self.bot.settle()


# a short game: 338 moves where a random deal takes 850 on the median (found by playing seeds through the core)
SHORT_THOUSAND = "000000000000006c"


async def test_thousand_three_people_in_a_group(api, tmp_path, monkeypatch):
    fixed_deal(monkeypatch, SHORT_THOUSAND)
    db = tmp_path / "bot.sqlite3"
    here = Here(await LiveBot(api, db).start())
    try:
        ann, bob, cid, eve = (
            Player(api, api.add_user(11 + i, name, started=name != "Cid"), here.settle)
            for i, name in enumerate(("Ann", "Bob", "Cid", "Eve"))
        )
        people = [ann, bob, cid]
        count = Counter(api, GROUP)
        for p in people:
            count.wrap(p)
        await ann.say(GROUP, "/new thousand 3")
        await bob.press_label(lobby_of(api, GROUP), "Join")
        await cid.press_label(lobby_of(api, GROUP), "Join")
        # Cid never opened the bot's chat: the group gets a deep link for him; Start waits for him
        links = [b["url"] for s in api.visible(GROUP) for b in s.buttons() if "url" in b]
        assert len(links) == 1 and links[0].startswith("https://t.me/tablebot_test_bot?start=")
        assert not cid.private()
        assert (await ann.press_label(lobby_of(api, GROUP), "Start"))["show_alert"]
        api.start_private(cid.user, links[0].split("start=")[1])
        await here.settle()
        await ann.press_label(lobby_of(api, GROUP), "Start")
        for p in people:  # every hand in its owner's private chat
            assert [s.photo_name for s in p.private()].count("hand.jpg") == 1

        await play_well(here.bot.app, people, 1, presses=12)
        table = table_of(api, GROUP)
        # a user not at the table asks for a hand: told so, gets nothing
        show = next(b["callback_data"] for b in table.callback_buttons() if b["callback_data"].startswith("t:h."))
        assert (await eve.press(table, show))["text"] and not eve.private()
        # a stale move (an old version), a forged move and foreign data change nothing
        screens = snapshot(api)
        for data in ("t:a.1.1.pass", "t:a.1.99999.pass", "t:a.7.1.pass", "zz:x"):
            query = api.press(eve.user, GROUP, table.message_id, data, forged=True)
            assert (await api.wait_answer(query))["text"]
        hand = ann.private()[-1]
        query = api.press(ann.user, ann.user.id, hand.message_id, "t:a.1.1.pass", forged=True)
        assert (await api.wait_answer(query))["text"]
        await here.settle()
        assert snapshot(api) == screens

        # Telegram answers 429 in the middle of the game: the edit waits its retry_after and goes through
        api.fail_next("editMessageMedia", chat_id=GROUP, retry_after=1)
        await play_well(here.bot.app, people, 1, presses=3)
        assert [c.status for c in api.calls if c.status == 429] == [429]
        # an admin deletes the table message: the next move shows it again
        api.delete(GROUP, table_of(api, GROUP).message_id)
        await play_well(here.bot.app, people, 1, presses=2)
        assert len([s for s in api.visible(GROUP) if s.photo_name == "table.jpg"]) == 1
        # the bot restarts in the middle of the game, and the game goes on to its end
        await here.bot.stop()
        here.bot = await LiveBot(api, db).start()
        await here.settle()
        assert await play_well(here.bot.app, people, 1) > 0
        table_rec = await here.bot.app.storage.table(1)
        assert table_rec.status == "finished"
    finally:
        await here.bot.stop()
    no_hand_in_group(api, GROUP)
    assert not eve.private()
    final = [s for s in api.visible(GROUP) if s.photo_name == "sheet.jpg"][-1]
    assert "wins the game" in final.text
    # every move: at most one edit of the group's table and at most one new group message: at a finished deal
    # the table message becomes the deal's score sheet and the next deal's table is posted below it (and once
    # the table is posted again after the admin deleted it); the game's end posts the final sheet
    assert len(count.per_move) > 20 and all(edits <= 1 for edits, _ in count.per_move)
    posts = [p for _, ps in count.per_move for p in ps]
    assert all(len(ps) <= 1 for _, ps in count.per_move)
    sheets = [s for s in api.visible(GROUP) if s.photo_name == "sheet.jpg"]
    assert posts.count("sheet.jpg") == 1 and set(posts) <= {"table.jpg", "sheet.jpg"}, posts
    assert posts.count("table.jpg") == len(sheets), posts  # one per finished deal, plus the admin's deletion


async def test_deberts_with_a_computer_seat(api, tmp_path):
    here = Here(await LiveBot(api, tmp_path / "bot.sqlite3").start())
    try:
        ann = Player(api, api.add_user(11, "Ann", language="ru"), here.settle)
        await ann.say(GROUP, "/new deberts 2")
        await ann.press_label(lobby_of(api, GROUP), "🤖")
        await ann.press_label(lobby_of(api, GROUP), "▶")  # "Start", in Russian here
        assert await play_well(here.bot.app, [ann], 1) > 0
        assert (await here.bot.app.storage.table(1)).status == "finished"
    finally:
        await here.bot.stop()
    no_hand_in_group(api, GROUP)
    assert [s.photo_name for s in api.visible(GROUP)].count("sheet.jpg") >= 1
    assert all(s.chat_id == ann.user.id for s in ann.private())


async def test_kozel_in_a_forum_topic_with_computer_seats(api, tmp_path):
    here = Here(await LiveBot(api, tmp_path / "bot.sqlite3").start())
    try:
        ann = Player(api, api.add_user(11, "Ann"), here.settle)
        bob = Player(api, api.add_user(12, "Bob"), here.settle)
        await ann.say(FORUM, "/new kozel 4", thread=TOPIC)
        await bob.press_label(lobby_of(api, FORUM), "Join")
        for _ in range(2):
            await ann.press_label(lobby_of(api, FORUM), "🤖")
        await ann.press_label(lobby_of(api, FORUM), "Start")
        assert await play_well(here.bot.app, [ann, bob], 1) > 0
        assert (await here.bot.app.storage.table(1)).status == "finished"
    finally:
        await here.bot.stop()
    no_hand_in_group(api, FORUM)
    shown = api.visible(FORUM)
    assert shown and all(s.thread == TOPIC for s in shown)  # the table lives in its topic
    assert not api.visible(FORUM, thread=None) or all(s.thread == TOPIC for s in api.visible(FORUM))


def snapshot(api: FakeBotAPI) -> list[tuple]:
    return [(s.chat_id, s.message_id, s.text, s.edits, s.deleted) for c in api.messages.values() for s in c.values()]
