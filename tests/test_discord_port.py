"""The Discord adapter over real HTTP and a websocket (the fake Discord), driven by a recording stand-in for
the application: the table edited in place, ephemeral hands with select menus, stale and unknown presses,
expired tokens and the invitation, a restart that keeps the old buttons working, coalesced table edits."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from bot.discord.commands import SPECS
from bot.port import COMMANDS, Message
from testkit.discord_support import HAND, StandIn, running
from testkit.fake_discord import FakeDiscord, FakeUser, StoredMessage

ALICE = FakeUser(910_001, "alice")
BOB = FakeUser(910_002, "bob", locale="ru")


@pytest.fixture
async def fake():
    async with FakeDiscord() as server:
        yield server


def shade(msg: StoredMessage) -> int:
    picture = Image.open(io.BytesIO(msg.image() or b""))
    assert picture.format == "JPEG"
    return picture.convert("L").getpixel((10, 10))


async def open_table(run, fake: FakeDiscord) -> StoredMessage:
    rec = await fake.slash(ALICE, "new", {"game": "thousand"})
    await run.settle(rec)
    [table] = fake.channel_messages()
    return table


async def test_commands_are_synced_and_new_opens_the_table_in_place_of_the_placeholder(fake: FakeDiscord) -> None:
    app = StandIn()
    async with running(fake, app) as run:
        assert [c["name"] for c in fake.commands] == list(COMMANDS) == list(SPECS)
        new = next(c for c in fake.commands if c["name"] == "new")
        assert [o["value"] for o in new["options"][0]["choices"]] == ["thousand", "deberts", "kozel"]
        rec = await fake.slash(ALICE, "new", {"game": "kozel", "players": 4})
        await run.settle(rec)
        cmd = app.received[0]
        assert (cmd.name, cmd.args, cmd.user.id, cmd.user.language) == ("new", "kozel 4", str(ALICE.id), "en-US")
        assert cmd.chat is not None and cmd.chat.id == str(rec.channel_id)
        [table] = fake.channel_messages()
        assert table.id == rec.original_id  # the answer replaced "thinking…", it is not a second message
        assert table.content == "Table v1: nobody"
        assert shade(table) == pytest.approx(40, abs=3)
        assert [b["label"] for b in table.buttons()] == ["Join", "Show my hand"]
        assert rec.callback_type == 5 and not rec.late  # acknowledged within Discord's 3 s (the fake refuses later)


async def test_join_edits_the_table_in_place_and_hands_are_ephemeral(fake: FakeDiscord) -> None:
    app = StandIn()
    async with running(fake, app) as run:
        table = await open_table(run, fake)
        for user in (ALICE, BOB):
            await run.settle(await fake.click(user, table, "Join"))
        assert [m.id for m in fake.channel_messages()] == [table.id]
        assert table.content == "Table v3: alice, bob" and table.edits == 3  # the answer to /new, two joins
        assert shade(table) == pytest.approx(120, abs=3)
        rec = await fake.click(ALICE, table, "Show my hand")
        await run.settle(rec)
        [hand] = fake.ephemeral_for(ALICE)
        assert fake.ephemeral_for(BOB) == [] and hand not in fake.channel_messages()
        assert hand.content.startswith("Your hand: AS KS")
        assert shade(hand) == pytest.approx(len(HAND) * 20, abs=3)
        # 11 cards, 30 bids and Pass cannot be buttons (25 at most): the big rows became select menus
        assert len(hand.components) <= 5
        assert [len(s["options"]) for s in hand.selects()] == [11, 25, 5]
        assert [b["label"] for b in hand.buttons()] == ["Pass", "Sort"]
        rec = await fake.choose(ALICE, hand, "KS")
        await run.settle(rec)
        assert rec.callback_type == 6  # a silent acknowledgement: the hand is edited, nothing new appears
        assert [m.id for m in fake.ephemeral_for(ALICE)] == [hand.id]
        assert hand.content == "Your hand: AS QS AH KH QH AD KD QD AC KC"
        # ten cards fit as two rows of buttons again, next to the two bid menus and Pass
        assert [b["label"] for b in hand.buttons()][:3] == ["AS", "QS", "AH"] and len(hand.selects()) == 2
        assert table.content == "Table v4: alice, bob"
        # a keyboard step sent "privately through the press" replaces the pressed hand, no second message
        await run.settle(await fake.click(ALICE, hand, "Sort"))
        assert [m.id for m in fake.ephemeral_for(ALICE)] == [hand.id]
        assert hand.content == "Your hand: AC AD AH AS KC KD KH QD QH QS"
        await app.refresh_hands()  # and later edits reach it through that press's token
        await run.settle()
        assert hand.edits == 3
        assert all(r.acked.is_set() and not r.late for r in fake.interactions.values())  # each within Discord's 3 s


async def test_stale_and_unknown_presses_get_an_ephemeral_answer(fake: FakeDiscord) -> None:
    app = StandIn()
    async with running(fake, app) as run:
        table = await open_table(run, fake)
        old_join = table.button("Join")["custom_id"]
        await run.settle(await fake.click(ALICE, table, "Join"))
        rec = await fake.raw_click(BOB, table, old_join)
        await run.settle(rec)
        assert [m.content for m in fake.ephemeral_for(BOB)] == ["This button is from an earlier move."]
        assert app.players == [app.players[0]] and len(app.players) == 1
        rec = await fake.raw_click(BOB, table, "legacy_join_button_v0")
        await run.settle(rec)
        assert rec.callback_type == 4
        assert fake.ephemeral_for(BOB)[-1].content == "Эта кнопка устарела."  # in Bob's language
        assert fake.ephemeral_for(ALICE) == []


async def test_private_messages_need_a_live_interaction_and_the_invitation_brings_the_user_back(
    fake: FakeDiscord,
) -> None:
    app = StandIn()
    async with running(fake, app) as run:
        table = await open_table(run, fake)
        for user in (ALICE, BOB):
            await run.settle(await fake.click(user, table, "Join"))
        await run.settle(await fake.click(ALICE, table, "Show my hand"))
        [hand] = fake.ephemeral_for(ALICE)
        # Bob never asked for his hand: his Join press is a live interaction, so it reaches him privately
        await app._show(app.players[1], None)
        await run.settle()
        assert [m.content[:10] for m in fake.ephemeral_for(BOB)] == ["Your hand:"]
        fake.advance(16 * 60)  # every token is dead now
        await app.refresh_hands()
        await run.settle()
        assert app.invited == [str(ALICE.id), str(BOB.id)]
        # one invitation for the table, mentioning both
        [invitation] = [m for m in fake.channel_messages() if m.id != table.id]
        assert invitation.content == (
            f"<@{ALICE.id}> <@{BOB.id}>\nalice, your cards are waiting.\nbob, your cards are waiting."
        )
        rec = await fake.click(ALICE, invitation, "Show my hand")
        await run.settle(rec)
        start = app.received[-1]
        assert type(start).__name__ == "PrivateStart" and start.payload == "t1"
        fresh = fake.ephemeral_for(ALICE)[-1]
        assert fresh.id != hand.id and fresh.content.startswith("Your hand:")
        # a press on the fresh hand gives a fresh token: the hand is edited through it
        await run.settle(await fake.choose(ALICE, fresh, "AS"))
        assert fresh.edits == 1 and fresh.content == "Your hand: KS QS AH KH QH AD KD QD AC KC"


async def test_slash_me_is_private_and_the_placeholder_disappears(fake: FakeDiscord) -> None:
    app = StandIn()
    async with running(fake, app) as run:
        rec = await fake.slash(BOB, "me")
        await run.settle(rec)
        assert fake.channel_messages() == []
        assert [m.content for m in fake.ephemeral_for(BOB)] == ["bob: rating 25"]
        assert app.received[0].user.language == "ru"


async def test_a_restart_keeps_the_old_buttons_working(fake: FakeDiscord) -> None:
    app = StandIn()
    async with running(fake, app) as run:
        table = await open_table(run, fake)
        await run.settle(await fake.click(ALICE, table, "Join"))
    stored = app.table
    async with running(fake, app) as run:  # a new process: nothing in memory but the app's stored reference
        assert app.port is run.port
        await run.settle(await fake.click(BOB, table, "Join"))
        assert table.content == "Table v3: alice, bob"
        assert app.table == stored and [m.id for m in fake.channel_messages()] == [table.id]


async def test_table_edits_are_coalesced_and_a_deleted_table_is_sent_again(fake: FakeDiscord) -> None:
    app = StandIn()
    async with running(fake, app, edit_interval=0.3) as run:
        table = await open_table(run, fake)
        assert app.table is not None
        for n in range(10):
            await run.port.edit_public(app.table, Message(f"move {n}"))
        await run.settle()
        assert table.content == "move 9"
        assert table.edits <= 2  # the first at once, then only the latest after the interval
        times = fake.channel_edits[table.channel_id]
        assert all(b - a >= 0.25 for a, b in zip(times, times[1:], strict=False))
        table.deleted = True
        ref = await run.port.edit_public(app.table, Message("after delete"))
        await run.settle()
        [again] = fake.channel_messages()
        assert again.content == "after delete" and again.id != table.id
        assert (await run.port.edit_public(ref, Message("next"))).message_id == str(again.id)
