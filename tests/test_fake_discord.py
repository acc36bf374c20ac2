"""The fake Discord speaks enough of Discord for a real discord.py ``AutoShardedClient``: login, gateway,
command sync, interaction callbacks and follow-ups, channel messages with files, token expiry; and it is as strict
as Discord: content and component limits, 429s with rate-limit headers that discord.py reads and waits out."""

from __future__ import annotations

import asyncio
import io

import discord
import pytest
from discord import app_commands
from PIL import Image

from testkit.fake_discord import CHANNEL_ID, OTHER_CHANNEL_ID, FakeDiscord, FakeUser, Limits


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
        assert rec.acked.is_set() and not rec.late  # within Discord's 3 s: the fake refuses a later callback
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


# ---------------------------------------------------------------------------------------- Discord's limits
async def logged_in(fake: FakeDiscord) -> discord.Client:
    """A discord.py client with its HTTP session only (no gateway): enough to send and edit channel messages."""
    client = discord.Client(intents=discord.Intents.none())
    await client.login(fake.token)
    return client


async def raw(fake: FakeDiscord, method: str, path: str, payload: dict) -> tuple[int, dict]:
    """A request discord.py would refuse to build (it checks some limits itself): straight to the fake."""
    import aiohttp

    headers = {"Authorization": f"Bot {fake.token}"}
    async with (
        aiohttp.ClientSession() as session,
        session.request(method, fake.base + path, json=payload, headers=headers) as resp,
    ):
        return resp.status, await resp.json()


def row(*items: dict) -> dict:
    return {"type": 1, "components": list(items)}


def button(custom_id: str, label: str = "go") -> dict:
    return {"type": 2, "style": 1, "custom_id": custom_id, "label": label}


async def test_content_and_components_over_discords_limits_are_refused() -> None:
    async with FakeDiscord(limits=Limits(per_channel_route=None)) as fake:  # many requests to one route at once
        await refusals(fake)


async def refusals(fake: FakeDiscord) -> None:
    path = f"/channels/{CHANNEL_ID}/messages"
    ok = {"content": "x" * 2000, "components": [row(*(button(f"b{r}{i}") for i in range(5))) for r in range(5)]}
    assert (await raw(fake, "POST", path, ok))[0] == 200
    select = {"type": 3, "custom_id": "menu", "options": [{"label": str(i), "value": str(i)} for i in range(26)]}
    refused = {
        "content": {"content": "x" * 2001},
        "rows": {"components": [row(button(f"r{r}")) for r in range(6)]},
        "buttons": {"components": [row(*(button(f"b{i}") for i in range(6)))]},
        "options": {"components": [row(select)]},
        "custom id": {"components": [row(button("c" * 101))]},
        "label": {"components": [row(button("b", "l" * 81))]},
        "duplicate": {"components": [row(button("same"), button("same"))]},
        "select beside a button": {"components": [row(button("b"), dict(select, options=select["options"][:3]))]},
    }
    for what, payload in refused.items():
        status, body = await raw(fake, "POST", path, payload)
        assert (status, body["code"]) == (400, 50035), what
    [kept] = fake.channel_messages()
    assert kept.content == "x" * 2000 and len(kept.components) == 5
    status, _ = await raw(fake, "PATCH", f"{path}/{kept.id}", {"content": "y" * 2001})
    assert status == 400 and kept.content == "x" * 2000  # an edit is checked the same way


async def test_a_429_on_an_edit_is_waited_out_by_discord_py(fake: FakeDiscord) -> None:
    client = await logged_in(fake)
    try:
        channel = client.get_partial_messageable(CHANNEL_ID)
        msg = await channel.send("v1")
        fake.rate_limit_next("PATCH", retry_after=0.3)
        await channel.get_partial_message(msg.id).edit(content="v2")
        fake.rate_limit_next("PATCH", retry_after=0.2, is_global=True)
        await channel.get_partial_message(msg.id).edit(content="v3")
        assert [m.content for m in fake.channel_messages()] == ["v3"]
        assert [(method, is_global) for method, _path, is_global in fake.refused] == [("PATCH", False), ("PATCH", True)]
    finally:
        await client.close()


async def test_buckets_carry_rate_limit_headers_that_discord_py_follows() -> None:
    async with FakeDiscord(limits=Limits(per_channel_route=(2, 1.0))) as fake:
        fake.install()
        client = await logged_in(fake)
        try:
            channel = client.get_partial_messageable(CHANNEL_ID)
            msg = await channel.send("v0")
            for i in range(1, 6):  # five edits, two a second allowed: discord.py waits for the bucket's reset
                await channel.get_partial_message(msg.id).edit(content=f"v{i}")
            posts = [await raw(fake, "POST", f"/channels/{CHANNEL_ID}/messages", {"content": c}) for c in "abc"]
        finally:
            await client.close()
    assert not [r for r in fake.refused if r[0] == "PATCH"]  # it never ran into the limit: it read the headers
    assert fake.channel_messages()[0].content == "v5"
    assert 429 in [status for status, _ in posts]  # a client that reads no headers does run into it
    body = next(body for status, body in posts if status == 429)
    assert body["global"] is False and 0 < body["retry_after"] <= 1.0


async def test_global_limit_of_the_bot_token() -> None:
    async with FakeDiscord(limits=Limits(per_channel_route=None, per_second=3)) as fake:
        results = [
            (await raw(fake, "POST", f"/channels/{CHANNEL_ID}/messages", {"content": str(i)}))[0] for i in range(4)
        ]
    assert results == [200, 200, 200, 429] and fake.refused[-1][2] is True


async def test_an_interaction_takes_one_initial_response_within_3_seconds(fake: FakeDiscord) -> None:
    """As on Discord: a second response is refused with 40060 ("already acknowledged"), one after 3 seconds with
    10062 ("Unknown interaction"); each try is kept on the interaction, in order."""
    _status, body = await raw(fake, "POST", f"/channels/{CHANNEL_ID}/messages", {"components": [row(button("b"))]})
    message = fake.messages[int(body["id"])]
    alice = FakeUser(900_001, "alice")
    answered, late = [await fake.raw_click(alice, message, "b") for _ in range(2)]
    for _ in range(2):
        await raw(fake, "POST", f"/interactions/{answered.id}/{answered.token}/callback", {"type": 6})
    assert answered.callbacks == [(200, None), (400, 40060)] and answered.refused == [40060]
    assert answered.callback_type == 6 and not answered.late
    fake.advance(3.5)
    status, body = await raw(fake, "POST", f"/interactions/{late.id}/{late.token}/callback", {"type": 6})
    assert (status, body["code"], body["message"]) == (404, 10062, "Unknown interaction")
    assert late.late and late.callback_type is None and late.refused == [10062]
    callbacks = [(c.method, c.status) for c in fake.calls if c.path.endswith("/callback")]
    assert callbacks == [("POST", 200), ("POST", 400), ("POST", 404)]  # every request is logged with its answer


async def test_a_spent_channel_answers_429_until_its_bucket_resets() -> None:
    """``spend_channel``: requests this process did not see spent the channel's buckets; its next message, edit
    or deletion gets 429 with the time left, which discord.py waits out before it tries again."""
    async with FakeDiscord(limits=Limits(per_channel_route=(5, 0.3))) as fake:
        fake.install()
        client = await logged_in(fake)
        try:
            channel = client.get_partial_messageable(CHANNEL_ID)
            msg = await channel.send("v1")
            fake.spend_channel(CHANNEL_ID)
            await channel.get_partial_message(msg.id).edit(content="v2")
            fake.spend_channel(CHANNEL_ID)
            await channel.send("next")
            fake.spend_channel(OTHER_CHANNEL_ID)  # another channel's buckets are its own
            await channel.send("more")
        finally:
            await client.close()
    writes = [(c.method, c.status) for c in fake.calls if c.channel_write]
    assert writes == [("POST", 200), ("PATCH", 429), ("PATCH", 200), ("POST", 429), ("POST", 200), ("POST", 200)]
    assert [m.content for m in fake.channel_messages()] == ["v2", "next", "more"]
    assert all(c.channel_id == CHANNEL_ID for c in fake.calls if c.channel_write)


def test_the_default_limits_are_discords() -> None:
    assert Limits() == Limits(per_channel_route=(5, 5.0), per_second=50)
