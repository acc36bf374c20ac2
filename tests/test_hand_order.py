"""Issue 36: two Telegram workers (two adapters sharing Redis, real aiogram against the fake Bot API) write one
player's hand and one group's table message in every order, and the message the player holds always shows the
table's newest version: a hand shown anew and another worker's edit of the old message, both ways round; an old
edit that arrives after a newer one was answered; and the same content from both workers is sent once."""

from __future__ import annotations

import asyncio
import random

import pytest
from redis.asyncio import Redis

from bot.port import Button, Chat, Message, Stale, User
from testkit.fake_bot_api import FakeBotAPI
from tests.telegram_support import Worker, picture, webhook_options

RETIRED = "Your hand is shown again in a newer message."


@pytest.fixture
async def two(redis_url):
    """A fake Bot API, a player and a group of their own (Redis is shared with other runs), two workers."""
    api = FakeBotAPI()
    await api.start()
    rng = random.Random()
    uid = 10**9 + rng.randrange(10**9)
    group = -(10**12) - rng.randrange(10**9)
    api.add_user(uid, "Ann")
    api.add_group(group, "Kitchen")
    options = webhook_options(redis_url)
    try:
        async with Worker(api, **options) as w0, Worker(api, **options) as w1:
            yield api, w0.port, w1.port, User("telegram", str(uid), "Ann"), Chat("telegram", str(group))
    finally:
        await api.stop()
        redis = Redis.from_url(redis_url)
        keys = [k async for k in redis.scan_iter(match=f"tablebot:tg:*{uid}*")]
        keys += [k async for k in redis.scan_iter(match=f"tablebot:tg:*{group}*")]
        if keys:
            await redis.delete(*keys)
        await redis.aclose()


def hand(version: int, *, my_turn: bool = True) -> Message:
    """A hand at ``version``: with its move buttons when it is the player's turn."""
    buttons = ((Button("7♠", f"a.1.{version}.play"),),) if my_turn else ()
    text = f"Hand at version {version}" + ("" if my_turn else ": not your turn yet")
    return Message(text, image=picture(1), image_name="hand.jpg", buttons=buttons)


def retired() -> Message:
    return Message(RETIRED, image=picture(1), image_name="hand.jpg")


def live_hand(api: FakeBotAPI, user: User):
    """The player's newest private message (the one he plays from) and what the older ones show."""
    shown = api.visible(int(user.id))
    return shown[-1], shown[:-1]


def buttons_of(shown) -> list[str]:
    return [b["callback_data"] for b in shown.callback_buttons()]


class Gate:
    """Holds one worker's calls of one Bot API method until opened (the other worker goes meanwhile)."""

    def __init__(self, port, method: str) -> None:
        self.reached = asyncio.Event()
        self.open = asyncio.Event()
        self._real = getattr(port.bot, method)
        setattr(port.bot, method, self._call)

    async def _call(self, *args, **kwargs):
        self.reached.set()
        await self.open.wait()
        return await self._real(*args, **kwargs)


async def test_another_workers_edit_between_a_resend_and_the_retiring_of_the_old_message(two):
    """The finding: worker 0 shows the hand anew (version 89, not his turn) and, before it retires the old
    message, worker 1 edits the old message with the version-90 buttons. The edit is made to the new message:
    the player holds the version-90 buttons, the old message is retired."""
    api, w0, w1, ann, _ = two
    old = await w0.send_private(ann, hand(88), version=88)
    gate = Gate(w0, "edit_message_caption")  # worker 0's retiring of the old message waits here
    anew = asyncio.create_task(
        w0.send_private(ann, hand(89, my_turn=False), version=89, replaces=old, retired=retired())
    )
    await asyncio.wait_for(gate.reached.wait(), 10)
    assert len(api.visible(int(ann.id))) == 2  # the new message is out, the old one not yet retired
    edited = await w1.edit_private(ann, old, hand(90), version=90)
    gate.open.set()
    new = await anew
    live, older = live_hand(api, ann)
    assert edited.message_id == new.message_id == str(live.message_id)
    assert buttons_of(live) == ["t:a.1.90.play"] and live.text == "Hand at version 90"
    assert [(m.text, buttons_of(m)) for m in older] == [(RETIRED, [])]


async def test_an_edit_before_a_resend_of_an_older_version(two):
    """The other way round: worker 1 edits first (version 90), then worker 0's re-send of version 89 arrives.
    It is refused as stale (the application reads the table again and shows it anew at the newest version),
    and the player keeps his version-90 buttons."""
    api, w0, w1, ann, _ = two
    old = await w0.send_private(ann, hand(88), version=88)
    await w1.edit_private(ann, old, hand(90), version=90)
    with pytest.raises(Stale):
        await w0.send_private(ann, hand(89, my_turn=False), version=89, replaces=old, retired=retired())
    live, older = live_hand(api, ann)
    assert (buttons_of(live), older) == (["t:a.1.90.play"], [])
    new = await w0.send_private(ann, hand(90), version=90, replaces=old, retired=retired())  # read again: shown
    live, older = live_hand(api, ann)
    assert str(live.message_id) == new.message_id and buttons_of(live) == ["t:a.1.90.play"]
    assert [(m.text, buttons_of(m)) for m in older] == [(RETIRED, [])]


async def test_an_old_hand_edit_held_back_until_a_newer_one_was_answered(two):
    """Worker 0's edit of version 89 was held back (a busy lane) while worker 1's version 90 was shown: it is
    not made, and the player keeps the newer buttons."""
    api, w0, w1, ann, _ = two
    old = await w0.send_private(ann, hand(88), version=88)
    gate = Gate(w1, "edit_message_caption")
    newer = asyncio.create_task(w1.edit_private(ann, old, hand(90), version=90))
    await asyncio.wait_for(gate.reached.wait(), 10)
    gate.open.set()
    await newer
    with pytest.raises(Stale):
        await w0.edit_private(ann, old, hand(89, my_turn=False), version=89)
    live, _ = live_hand(api, ann)
    assert buttons_of(live) == ["t:a.1.90.play"]
    assert w0.writes_stale == 1 and len(api.calls_to(int(ann.id), "editMessageCaption")) == 1


async def test_an_old_table_edit_queued_after_a_newer_one_is_dropped(two):
    """The group's table message is ordered by table version, not by when the edit was queued: worker 0 queues
    version 89 after worker 1 showed version 90, and the group keeps version 90."""
    api, w0, w1, _, group = two
    ref = await w0.send_public(group, Message("Table at version 88", image=picture(2)), version=88)
    await w1.edit_public(ref, Message("Table at version 90", image=picture(4)), version=90)
    await w1.idle()
    await w0.edit_public(ref, Message("Table at version 89", image=picture(3)), version=89)
    await w0.idle()
    [table] = api.visible(int(group.id))
    assert table.text == "Table at version 90" and table.photo == picture(4)
    assert len([c for c in api.calls_to(int(group.id)) if c.method.startswith("edit")]) == 1


async def test_the_same_content_from_two_workers_is_sent_once(two):
    """Both workers publish the same table and the same hand (e.g. a press delivered to both): one edit each,
    no "message is not modified", no write slot of the group spent twice."""
    api, w0, w1, ann, group = two
    ref = await w0.send_public(group, Message("Table at version 1", image=picture(2)), version=1)
    same = Message("Table at version 2", image=picture(3))
    await w0.edit_public(ref, same, version=2)
    await w0.idle()
    await w1.edit_public(ref, same, version=2)
    await w1.idle()
    mine = await w0.send_private(ann, hand(1), version=1)
    await w0.edit_private(ann, mine, hand(2), version=2)
    await w1.edit_private(ann, mine, hand(2), version=2)
    edits = [c for c in api.calls if c.method.startswith("edit")]
    assert len(edits) == 2 and all(c.ok for c in edits)
    assert w1.writes_unchanged == 2
