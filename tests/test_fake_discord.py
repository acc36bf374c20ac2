"""The fake Discord speaks enough of Discord for a real discord.py ``AutoShardedClient``: login, gateway,
command sync, interaction callbacks and follow-ups, channel messages with files, token expiry."""

from __future__ import annotations

import asyncio
import io

import discord
import pytest
from discord import app_commands
from PIL import Image

from testkit.fake_discord import CHANNEL_ID, FakeDiscord, FakeUser


def _jpeg(color: str) -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (40, 30), color).save(buf, "JPEG")
    return buf.getvalue()


class EchoBot(discord.AutoShardedClient):
    def __init__(self) -> None:
        super().__init__(intents=discord.Intents.default())
        self.tree = app_commands.CommandTree(self)
        self.sent: list[discord.Message] = []

        @self.tree.command(name="ping", description="Answer with a picture")
        async def ping(interaction: discord.Interaction, word: str = "pong") -> None:
            await interaction.response.defer(thinking=True)
            picture = discord.File(io.BytesIO(_jpeg("red")), "a.jpg")
            await interaction.edit_original_response(content=word, attachments=[picture])
            secret = await interaction.followup.send("only you", ephemeral=True, wait=True)
            self.sent.append(secret)
            assert interaction.channel is not None
            msg = await interaction.channel.send("table", file=discord.File(io.BytesIO(_jpeg("blue")), "t.jpg"))  # type: ignore[union-attr]
            await msg.edit(content="table v2", attachments=[discord.File(io.BytesIO(_jpeg("green")), "t2.jpg")])
            self.sent.append(msg)

        @self.tree.command(name="peek", description="A private answer after a public defer")
        async def peek(interaction: discord.Interaction) -> None:
            await interaction.response.defer(thinking=True)
            self.sent.append(await interaction.followup.send("first", ephemeral=True, wait=True))
            self.sent.append(await interaction.followup.send("second", ephemeral=True, wait=True))

    async def setup_hook(self) -> None:
        await self.tree.sync()


@pytest.fixture
async def fake():
    async with FakeDiscord() as server:
        server.install()
        yield server


async def test_real_client_connects_answers_and_sends_files(fake: FakeDiscord) -> None:
    bot = EchoBot()
    runner = asyncio.create_task(bot.start(fake.token))
    try:
        await asyncio.wait_for(bot.wait_until_ready(), 10)
        assert [c["name"] for c in fake.commands] == ["ping", "peek"]
        alice = FakeUser(900_001, "alice")
        rec = await fake.slash(alice, "ping", {"word": "hello"})
        await asyncio.wait_for(rec.acked.wait(), 5)
        for _ in range(100):
            if len(bot.sent) == 2:
                break
            await asyncio.sleep(0.05)
        assert rec.acked_after is not None and rec.acked_after < 3
        public = fake.channel_messages()
        assert [m.content for m in public] == ["hello", "table v2"]
        picture = Image.open(io.BytesIO(public[1].image() or b""))
        red, green, blue = picture.getpixel((20, 15))
        assert green > 100 and blue < 60  # the green picture replaced the blue one
        assert len(public[1].attachments) == 1
        assert [m.content for m in fake.ephemeral_for(alice)] == ["only you"]
        assert fake.ephemeral_for(FakeUser(900_002, "bob")) == []
    finally:
        await bot.close()
        runner.cancel()


async def test_tokens_expire_and_ephemeral_messages_need_them(fake: FakeDiscord) -> None:
    bot = EchoBot()
    runner = asyncio.create_task(bot.start(fake.token))
    try:
        await asyncio.wait_for(bot.wait_until_ready(), 10)
        rec = await fake.slash(FakeUser(900_001, "alice"), "ping")
        for _ in range(100):
            if len(bot.sent) == 2:
                break
            await asyncio.sleep(0.05)
        secret = bot.sent[0]
        channel = bot.get_channel(CHANNEL_ID)
        assert isinstance(channel, discord.TextChannel)
        with pytest.raises(discord.NotFound):
            await channel.get_partial_message(secret.id).edit(content="x")
        fake.advance(16 * 60)
        with pytest.raises(discord.HTTPException) as err:
            await secret.edit(content="late")
        assert err.value.code == 50027
        assert rec.followups == [secret.id]
    finally:
        await bot.close()
        runner.cancel()


async def test_a_deferred_reply_keeps_the_visibility_it_was_deferred_with(fake: FakeDiscord) -> None:
    """As on Discord: the first follow-up after a public "thinking" defer takes the placeholder's place and is
    public whatever its flags; only the follow-ups after it can be ephemeral."""
    bot = EchoBot()
    runner = asyncio.create_task(bot.start(fake.token))
    try:
        await asyncio.wait_for(bot.wait_until_ready(), 10)
        alice = FakeUser(900_001, "alice")
        rec = await fake.slash(alice, "peek")
        for _ in range(100):
            if len(bot.sent) == 2:
                break
            await asyncio.sleep(0.05)
        assert [m.content for m in fake.channel_messages()] == ["first"]
        assert fake.channel_messages()[0].id == rec.original_id == bot.sent[0].id
        assert [m.content for m in fake.ephemeral_for(alice)] == ["second"]
    finally:
        await bot.close()
        runner.cancel()
