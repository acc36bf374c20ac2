"""The fake Bot API answers a real ``aiogram.Bot`` over real HTTP the way Telegram does."""

from __future__ import annotations

import asyncio

import pytest
from aiogram import Bot
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.client.telegram import TelegramAPIServer
from aiogram.exceptions import TelegramBadRequest, TelegramForbiddenError, TelegramRetryAfter
from aiogram.types import BufferedInputFile, InlineKeyboardButton, InlineKeyboardMarkup, InputMediaPhoto
from aiohttp import web

from testkit.fake_bot_api import TOKEN, FakeBotAPI, Limits
from tests.telegram_support import KITCHEN, picture

GROUP = KITCHEN


@pytest.fixture
async def api():
    """The fake with one limit off: these tests check what Telegram validates, several writes to one group in a row
    (the limits have tests of their own below)."""
    server = FakeBotAPI(limits=Limits(per_chat_gap=None))
    await server.start()
    server.add_group(GROUP, "Kitchen")
    yield server
    await server.stop()


@pytest.fixture
async def bot(api):
    b = Bot(TOKEN, session=AiohttpSession(api=TelegramAPIServer.from_base(api.base_url)))
    yield b
    await b.session.close()


def keyboard(data: str) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup(inline_keyboard=[[InlineKeyboardButton(text="go", callback_data=data)]])


async def test_get_me_and_messages_with_limits(api, bot):
    me = await bot.get_me()
    assert me.username == api.username
    sent = await bot.send_message(GROUP, "hello", reply_markup=keyboard("t:x" * 21))
    assert api.last(GROUP).text == "hello"
    assert api.last(GROUP).callback_buttons()[0]["callback_data"] == "t:x" * 21
    with pytest.raises(TelegramBadRequest, match="message is too long"):
        await bot.send_message(GROUP, "x" * 4097)
    with pytest.raises(TelegramBadRequest, match="BUTTON_DATA_INVALID"):
        await bot.send_message(GROUP, "hi", reply_markup=keyboard("y" * 65))
    with pytest.raises(TelegramBadRequest, match="chat not found"):
        await bot.send_message(-5, "hi")
    with pytest.raises(TelegramBadRequest, match="message thread not found"):
        await bot.send_message(GROUP, "hi", message_thread_id=7)
    assert [m.message_id for m in api.visible(GROUP)] == [sent.message_id]


async def test_photos_are_decoded_and_checked(api, bot):
    sent = await bot.send_photo(GROUP, BufferedInputFile(picture(1), "t.jpg"), caption="table")
    assert sent.photo[-1].width == 48 and api.last(GROUP).photo == picture(1)
    with pytest.raises(TelegramBadRequest, match="caption is too long"):
        await bot.send_photo(GROUP, BufferedInputFile(picture(1), "t.jpg"), caption="c" * 1025)
    with pytest.raises(TelegramBadRequest, match="IMAGE_PROCESS_FAILED"):
        await bot.send_photo(GROUP, BufferedInputFile(b"not a picture", "t.jpg"))
    with pytest.raises(TelegramBadRequest, match="PHOTO_INVALID_DIMENSIONS"):
        await bot.send_photo(GROUP, BufferedInputFile(picture(1, (2100, 100)), "t.jpg"))
    again = await bot.send_photo(GROUP, sent.photo[-1].file_id)
    assert api.last(GROUP).photo == picture(1) and again.message_id == sent.message_id + 1


async def test_edits_need_the_message_and_a_change(api, bot):
    sent = await bot.send_photo(GROUP, BufferedInputFile(picture(1), "t.jpg"), caption="a")
    await bot.edit_message_caption(chat_id=GROUP, message_id=sent.message_id, caption="b")
    with pytest.raises(TelegramBadRequest, match="message is not modified"):
        await bot.edit_message_caption(chat_id=GROUP, message_id=sent.message_id, caption="b")
    await bot.edit_message_media(
        InputMediaPhoto(media=BufferedInputFile(picture(2), "t.jpg"), caption="c"),
        chat_id=GROUP,
        message_id=sent.message_id,
    )
    assert api.last(GROUP).photo == picture(2) and api.last(GROUP).text == "c"
    with pytest.raises(TelegramBadRequest, match="no text in the message"):
        await bot.edit_message_text("x", chat_id=GROUP, message_id=sent.message_id)
    api.delete(GROUP, sent.message_id)
    with pytest.raises(TelegramBadRequest, match="message to edit not found"):
        await bot.edit_message_caption(chat_id=GROUP, message_id=sent.message_id, caption="d")


async def test_private_chat_needs_start_and_no_block(api, bot):
    ann = api.add_user(11, "Ann", started=False)
    with pytest.raises(TelegramForbiddenError, match="can't initiate conversation"):
        await bot.send_message(ann.id, "your hand")
    api.start_private(ann, "seat-1")
    await bot.send_message(ann.id, "your hand")
    api.block(ann)
    with pytest.raises(TelegramForbiddenError, match="blocked by the user"):
        await bot.send_message(ann.id, "your hand")


async def test_429_on_demand_with_retry_after(api, bot):
    api.fail_next("sendMessage", chat_id=GROUP, retry_after=3)
    with pytest.raises(TelegramRetryAfter) as info:
        await bot.send_message(GROUP, "one")
    assert info.value.retry_after == 3
    await bot.send_message(GROUP, "two")
    assert [m.text for m in api.visible(GROUP)] == ["two"]


async def test_updates_by_polling_and_callback_answers(api, bot):
    ann = api.add_user(11, "Ann")
    sent = await bot.send_message(GROUP, "table", reply_markup=keyboard("t:move"))
    api.say(ann, GROUP, "/new@tablebot_test_bot thousand")
    query = api.press(ann, GROUP, sent.message_id, "t:move")
    updates = await bot.get_updates(timeout=1)
    assert updates[0].message.text.startswith("/new") and updates[1].callback_query.data == "t:move"
    assert await bot.get_updates(offset=updates[-1].update_id + 1, timeout=0) == []
    await bot.answer_callback_query(query, text="ok")
    with pytest.raises(TelegramBadRequest, match="query is too old"):
        await bot.answer_callback_query(query, text="again")
    with pytest.raises(ValueError):
        api.press(ann, GROUP, sent.message_id, "t:forged")


async def test_updates_by_webhook(api, bot):
    got: list[dict] = []

    async def receive(request: web.Request) -> web.Response:
        assert request.headers["X-Telegram-Bot-Api-Secret-Token"] == "s3cret"
        got.append(await request.json())
        return web.Response()

    server = web.Application()
    server.router.add_post("/hook", receive)
    runner = web.AppRunner(server)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]
    try:
        with pytest.raises(TelegramBadRequest, match="HTTPS URL must be provided"):
            await bot.set_webhook(f"http://127.0.0.1:{port}/hook", secret_token="s3cret")
        assert api.webhook is None
        api.backends["https://bot.example.org/hook"] = [f"http://127.0.0.1:{port}/hook"]  # the proxy before it
        await bot.set_webhook("https://bot.example.org/hook", secret_token="s3cret")
        with pytest.raises(Exception, match="webhook is active"):
            await bot.get_updates()
        api.say(api.add_user(11, "Ann"), GROUP, "/help")
        for _ in range(200):
            if got:
                break
            await asyncio.sleep(0.01)
        assert got[0]["message"]["text"] == "/help"
    finally:
        await bot.delete_webhook()
        await runner.cleanup()


# ---------------------------------------------------------------------------------------- Telegram's flood limits
@pytest.fixture
async def strict():
    """A fake of its own per test, its limits given by the test (``await strict(Limits(...))``)."""
    made: list[tuple[FakeBotAPI, Bot]] = []

    async def make(limits: Limits | None = None) -> tuple[FakeBotAPI, Bot]:
        server = FakeBotAPI(limits=limits)
        await server.start()
        server.add_group(GROUP, "Kitchen")
        b = Bot(TOKEN, session=AiohttpSession(api=TelegramAPIServer.from_base(server.base_url)))
        made.append((server, b))
        return server, b

    yield make
    for server, b in made:
        await b.session.close()
        await server.stop()


async def test_one_write_a_second_in_a_group_else_429(strict):
    api, bot = await strict()
    first = await bot.send_photo(GROUP, BufferedInputFile(picture(1), "t.jpg"), caption="table")
    with pytest.raises(TelegramRetryAfter) as info:  # an edit is a write like a message
        await bot.edit_message_caption(chat_id=GROUP, message_id=first.message_id, caption="moved")
    assert info.value.retry_after == 1
    with pytest.raises(TelegramRetryAfter):
        await bot.send_message(GROUP, "too soon")
    await asyncio.sleep(1.0)
    await bot.edit_message_caption(chat_id=GROUP, message_id=first.message_id, caption="moved")
    assert api.last(GROUP).text == "moved" and len(api.refused) == 2
    ann = api.add_user(11, "Ann")  # another chat has a turn of its own
    await bot.send_message(ann.id, "your hand")


async def test_twenty_writes_a_minute_in_a_group(strict):
    api, bot = await strict(Limits(per_chat_gap=None))
    for i in range(20):
        await bot.send_message(GROUP, f"line {i}")
    with pytest.raises(TelegramRetryAfter) as info:
        await bot.send_message(GROUP, "the 21st")
    assert 55 <= info.value.retry_after <= 60
    assert len(api.visible(GROUP)) == 20


async def test_short_bursts_in_a_private_chat(strict):
    api, bot = await strict()
    ann = api.add_user(11, "Ann")
    for i in range(3):
        await bot.send_message(ann.id, f"line {i}")
    with pytest.raises(TelegramRetryAfter) as info:
        await bot.send_message(ann.id, "a fourth in the same second")
    assert info.value.retry_after == 1


async def test_thirty_messages_a_second_in_all_answers_not_counted(strict):
    api, bot = await strict(Limits(per_second=4))
    users = [api.add_user(11 + i, f"U{i}") for i in range(5)]
    sent = await bot.send_message(GROUP, "table", reply_markup=keyboard("t:move"))
    queries = [api.press(u, GROUP, sent.message_id, "t:move") for u in users]
    for u in users[:3]:
        await bot.send_message(u.id, "hand")
    for query in queries:  # answers are no messages: never refused for the bot's pace
        await bot.answer_callback_query(query)
    with pytest.raises(TelegramRetryAfter):
        await bot.send_message(users[4].id, "hand")  # the fifth message of this second
    await asyncio.sleep(1.0)
    await bot.send_message(users[4].id, "hand")
    assert set(api.answers) == set(queries)


async def test_an_answer_after_the_deadline_is_refused(strict):
    api, bot = await strict(Limits(answer_deadline=0.3))
    ann = api.add_user(11, "Ann")
    sent = await bot.send_message(GROUP, "table", reply_markup=keyboard("t:move"))
    on_time = api.press(ann, GROUP, sent.message_id, "t:move")
    late = api.press(ann, GROUP, sent.message_id, "t:move")
    await bot.answer_callback_query(on_time)
    await asyncio.sleep(0.4)
    with pytest.raises(TelegramBadRequest, match="query is too old"):
        await bot.answer_callback_query(late)
    assert on_time in api.answers and late not in api.answers


async def test_the_default_limits_are_telegrams():
    assert Limits() == Limits(
        per_chat_gap=1.0,
        per_private_second=3,
        per_group_minute=20,
        per_second=30,
        answer_deadline=15.0,
        group_window=60.0,
    )
    assert FakeBotAPI().limits == Limits()
