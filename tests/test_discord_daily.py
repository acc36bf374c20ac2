"""The daily deal on Discord, end to end: ``/daily game:kozel`` in the channel; the attempt's table and cards come as
the player's own ephemeral messages (never in the channel), he plays it there, and the channel's one daily message
shows his result."""

from __future__ import annotations

import random

import pytest

from bot.storage import FINISHED
from testkit.fake_discord import GUILD_ID, FakeDiscord
from tests.test_discord_e2e import ALICE, Player, bot, random_policy


@pytest.fixture
async def fake():
    async with FakeDiscord() as server:
        yield server


async def test_daily_deal_is_played_in_ephemeral_messages(fake: FakeDiscord, tmp_path):
    async with bot(fake, tmp_path / "bot.sqlite3") as (app, run):
        alice = Player(fake, run, ALICE)
        await alice.slash("daily", game="kozel")
        await app.idle()
        posts = [m for m in fake.channel_messages() if m.content.startswith("📅") or "Today's deal" in m.content]
        assert len(posts) == 1
        mine = fake.ephemeral_for(ALICE)
        assert any(a.filename == "table.jpg" for m in mine for a in m.attachments)  # the table, privately
        assert not any(a.filename in ("hand.jpg", "table.jpg") for m in fake.channel_messages() for a in m.attachments)
        user = await app.storage.user("discord", str(ALICE.id), "alice")
        (table,) = await app.storage.tables_for_user(user.id)  # his attempt, at a table of his own
        assert table.options["daily"]["day"] and table.players == 4
        # his private table's chat carries the group's guild: the worker of its shard, which gets his presses,
        # is the one that resumes it after a restart (issue 36)
        group = await app.storage.get_chat(table.options["daily"]["chat"])
        assert group.guild == GUILD_ID and (await app.storage.get_chat(table.chat_id)).guild == GUILD_ID
        table_id = table.id
        assert table_id is not None
        choose, presses = random_policy(random.Random(7)), 0
        while (await app.storage.table(table_id)).status != FINISHED and presses < 300:
            await app.idle()
            await run.settle()  # what the adapter still sends to Discord (the hand after the computers' moves)
            moves = alice.moves()
            assert moves, "my ephemeral hand has my moves"
            await alice.press(choose(alice, moves, [], 0, None))
            presses += 1
        await app.idle()
        await run.settle()
        post = next(m for m in fake.channel_messages() if m.id == posts[0].id)
        assert "1. alice" in post.content and post.edits >= 1  # edited in place with the result
        assert [m for m in fake.channel_messages() if "Today's deal" in m.content] == [post]
        assert any("Today's Kozel (" in m.content for m in fake.ephemeral_for(ALICE))  # the forwardable line
