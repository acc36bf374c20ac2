"""The Telegram adapter through the fake Bot API (real aiogram, real HTTP): commands, presses, private hands
and deep links, flood control (coalesced table edits, 429, deleted table message), the command menu."""

from __future__ import annotations

import asyncio

import pytest

from bot import metrics
from bot.port import COMMANDS, Chat, Message, MessageRef, Unreachable, User
from testkit.fake_bot_api import FakeBotAPI, Limits
from tests.conftest import fake_limits
from tests.telegram_support import Worker, picture

GROUP = -1001
FORUM = -1002


@pytest.fixture
async def api(request: pytest.FixtureRequest):
    server = FakeBotAPI(limits=fake_limits(request))
    await server.start()
    server.add_group(GROUP, "Kitchen")
    server.add_group(FORUM, "Club", forum=True)
    server.add_topic(FORUM, 77)
    yield server
    await server.stop()


async def until(predicate, timeout: float = 10.0) -> None:
    for _ in range(int(timeout / 0.01)):
        if predicate():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("condition not reached")


async def press(api: FakeBotAPI, worker: Worker, user, chat_id: int, message_id: int, payload: str) -> dict:
    answer = await api.wait_answer(api.press(user, chat_id, message_id, "t:" + payload))
    await worker.port.idle()
    return answer


async def test_commands_in_groups_topics_and_private(api):
    ann = api.add_user(11, "Ann", language="ru")
    async with Worker(api) as w:
        api.say(ann, GROUP, "/new thousand  3 players")
        api.say(ann, GROUP, "/score@someone_else_bot")
        api.say(ann, FORUM, "/NEW@tablebot_test_bot kozel", thread=77)
        api.say(ann, ann.id, "/help")
        api.say(ann, GROUP, "just talking")
        await until(lambda: len(w.app.commands) == 3)
        await api.settle()
    new, topic, private = w.app.commands
    assert (new.name, new.args, new.chat) == (
        "new",
        "thousand  3 players",
        Chat("telegram", str(GROUP), None, "Kitchen"),
    )
    assert new.user == User("telegram", "11", "Ann", "ru")
    assert (topic.name, topic.args, topic.chat.thread) == ("new", "kozel", "77")
    assert (private.name, private.chat) == ("help", None)
    table = api.last(GROUP)
    topic_table = api.last(FORUM)
    assert table.kind == "photo" and table.photo == picture(0) and table.thread is None
    assert topic_table.thread == 77  # the topic's table stays in its topic
    sent = api.calls_to(GROUP, "sendPhoto")[0]
    assert sent.params["reply_parameters"]["message_id"] == 1  # the table answers the /new command


async def test_command_menu_in_three_languages(api):
    async with Worker(api):
        pass
    names = [c["command"] for c in api.commands[("default", "")]]
    assert names[:3] == ["new", "join", "leave"] and len(names) == len(COMMANDS) == 17
    ru = {c["command"]: c["description"] for c in api.commands[("default", "ru")]}
    uk = {c["command"]: c["description"] for c in api.commands[("default", "uk")]}
    assert ru["join"] == "Сесть за стол" and uk["join"] == "Сісти за стіл" and len(ru) == len(uk) == 17


@pytest.mark.limits(Limits(per_chat_gap=None))  # the bot's own interval is shortened and checked here
async def test_moves_edit_the_table_latest_picture_wins(api):
    ann = api.add_user(11, "Ann")
    async with Worker(api, telegram_edit_interval=0.3) as w:
        api.say(ann, GROUP, "/new")
        await until(lambda: GROUP in api.messages and api.visible(GROUP))
        table = api.last(GROUP).message_id
        queries = [api.press(ann, GROUP, table, "t:move") for _ in range(6)]
        for q in queries:
            await api.wait_answer(q)
        await w.port.idle()
    shown = api.visible(GROUP)
    assert [m.message_id for m in shown] == [table]  # no new group message
    assert shown[0].photo == picture(6) and shown[0].text == "Table, move 6"
    writes = [c for c in api.calls_to(GROUP) if c.ok]
    edits = [c for c in writes if c.method.startswith("edit")]
    assert 1 <= len(edits) < 6  # coalesced: at most one edit per move, fewer when moves come fast
    gaps = [b.at - a.at for a, b in zip(writes, writes[1:])]
    assert min(gaps) >= 0.2  # one write per interval (0.3 s) in the chat


async def test_same_content_and_caption_only_changes(api):
    async with Worker(api) as w:
        chat = Chat("telegram", str(GROUP))
        ref = await w.port.send_public(chat, Message("a", image=picture(1)))
        for text in ("a", "b"):  # "a": the same content, not sent (it would be "message is not modified")
            await w.port.edit_public(ref, Message(text, image=picture(1)))
            await w.port.idle()
        await w.port.edit_public(ref, Message("text now"))
        await w.port.idle()
    assert [c.method for c in api.calls_to(GROUP)][:2] == ["sendPhoto", "editMessageCaption"]
    assert all(c.ok for c in api.calls_to(GROUP)) and w.port.writes_unchanged == 1
    assert [m.text for m in api.visible(GROUP)] == ["text now"]  # a photo cannot become text: posted anew


async def test_join_unreachable_then_deep_link_then_private_hand(api):
    ann = api.add_user(11, "Ann", language="uk", started=False)
    async with Worker(api) as w:
        api.say(ann, GROUP, "/new")
        api.say(ann, GROUP, "/join")
        await until(lambda: len(api.visible(GROUP)) == 2)
        invite = api.last(GROUP)
        link = invite.buttons()[-1]
        assert link["url"] == "https://t.me/tablebot_test_bot?start=seat-11"
        assert link["text"] == "Відкрити чат із ботом"
        api.start_private(ann, link["url"].split("start=")[1])
        await until(lambda: api.visible(ann.id))
        hand = api.last(ann.id)
        assert w.app.starts[0].payload == "seat-11"
        assert hand.text == "Your hand, Ann" and hand.kind == "photo"
        await press(api, w, ann, ann.id, hand.message_id, "play")
    assert api.last(ann.id).message_id == hand.message_id  # edited in place
    assert api.last(ann.id).photo == picture(300)
    assert not any("hand" in m.text for m in api.visible(GROUP))  # no hand in the group


async def test_blocked_user_is_unreachable_and_private_edits(api):
    bob = api.add_user(12, "Bob")
    async with Worker(api) as w:
        user = User("telegram", "12", "Bob")
        ref = await w.port.send_private(user, Message("hand"))
        ref = await w.port.edit_private(user, ref, Message("hand 2"))
        api.delete(bob.id, int(ref.message_id))
        ref2 = await w.port.edit_private(user, ref, Message("hand 3"))  # deleted by the user: shown again
        assert ref2.message_id != ref.message_id
        api.block(bob)
        with pytest.raises(Unreachable):
            await w.port.send_private(user, Message("hand"))
        with pytest.raises(Unreachable):
            await w.port.edit_private(user, ref2, Message("hand 4"))
    assert [m.text for m in api.visible(bob.id)] == ["hand 3"]


async def test_forged_and_foreign_buttons_answered_by_the_adapter(api):
    ann = api.add_user(11, "Ann", language="ru-RU")
    async with Worker(api) as w:
        api.say(ann, GROUP, "/new")
        await until(lambda: api.visible(GROUP))
        table = api.last(GROUP).message_id
        forged = [api.press(ann, GROUP, table, data, forged=True) for data in ("zz:move", "t:a b", "t:" + "x" * 57)]
        answers = [await api.wait_answer(q) for q in forged]
        stale = await press(api, w, ann, GROUP, table, "hand")
    assert all(a == {"text": "Эта кнопка больше не действует.", "show_alert": True} for a in answers)
    assert [p.payload for p in w.app.presses] == ["hand"]
    assert stale["text"] == "Sent to your private chat"


async def test_429_in_the_middle_is_waited_out(api):
    ann = api.add_user(11, "Ann")
    async with Worker(api) as w:
        api.say(ann, GROUP, "/new")
        await until(lambda: api.visible(GROUP))
        table = api.last(GROUP).message_id
        api.fail_next("editMessageMedia", chat_id=GROUP, retry_after=1)
        limited = metrics.RATE_LIMITED.labels("telegram", "editMessageMedia")
        before = limited._value.get()
        await press(api, w, ann, GROUP, table, "move")
    edits = api.calls_to(GROUP, "editMessageMedia")
    assert [c.status for c in edits] == [429, 200]
    assert limited._value.get() == before + 1  # the operator sees it (docs/operations.md)
    assert edits[1].at - edits[0].at >= 0.9  # retry_after honoured
    assert api.last(GROUP).photo == picture(1)


async def test_429_on_a_send_and_on_an_answer_are_waited_out(api):
    """Telegram answers 429 to any method: the table is still posted and the press still answered, once."""
    ann = api.add_user(11, "Ann")
    async with Worker(api) as w:
        api.fail_next("sendPhoto", chat_id=GROUP, retry_after=1)
        api.fail_next("answerCallbackQuery", retry_after=1)
        api.say(ann, GROUP, "/new")
        await until(lambda: api.visible(GROUP))
        table = api.last(GROUP).message_id
        answer = await press(api, w, ann, GROUP, table, "hand")
    assert [c.status for c in api.calls_to(GROUP, "sendPhoto")] == [429, 200]
    answers = [c for c in api.calls if c.method == "answerCallbackQuery"]
    assert [c.status for c in answers] == [429, 200]
    assert answers[1].at - answers[0].at >= 0.9  # retry_after honoured
    assert answer["text"] == "Sent to your private chat"


async def test_deleted_table_message_is_posted_again_and_followed(api):
    ann = api.add_user(11, "Ann")
    async with Worker(api) as w:
        api.say(ann, GROUP, "/new")
        await until(lambda: ("telegram", str(GROUP), None) in w.app.tables)
        first = api.last(GROUP).message_id
        old_ref = w.app.tables[("telegram", str(GROUP), None)]
        api.delete(GROUP, first)
        await w.port.edit_public(old_ref, w.app.table(1))
        await w.port.idle()
        moved = await w.port.current(old_ref)
        assert moved.message_id != str(first)
        await w.port.edit_public(old_ref, w.app.table(2))  # an old reference follows the re-post
        await w.port.idle()
        assert (await w.port.current(old_ref)).message_id == moved.message_id
    shown = api.visible(GROUP)
    assert len(shown) == 1 and shown[0].photo == picture(2)


async def test_refs_survive_a_restart(api):
    async with Worker(api) as w:
        ref = await w.port.send_public(Chat("telegram", str(GROUP)), Message("t", image=picture(1)))
    saved = MessageRef.from_json(ref.to_json())
    async with Worker(api) as w2:
        await w2.port.edit_public(saved, Message("t2", image=picture(1)))
        await w2.port.idle()
        await w2.port.edit_public(saved, Message("u", image=picture(2)))
        await w2.port.idle()
    assert [c.method for c in api.calls_to(GROUP) if c.ok] == ["sendPhoto", "editMessageCaption", "editMessageMedia"]
