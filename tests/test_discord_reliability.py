"""Issue 26 on Discord, through the fake Discord and the real discord.py client: private answers stay private
(finding 11b), forged ids are refused as invalid instead of crashing (11a), workers own distinct shards (8)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from pydantic import ValidationError

from bot.app import create_application
from bot.config import Settings
from bot.discord import serve
from bot.discord.client import TableClient
from bot.discord.port import DiscordPort
from bot.port import Command, Message
from testkit.discord_support import Running, StandIn, running
from testkit.fake_discord import GUILD_ID, FakeDiscord, Limits
from tests.app_support import fixed_deal
from tests.test_discord_e2e import ALICE, BOB, MALLORY, Player, all_acknowledged_in_time, bot, table_message
from tests.test_discord_e2e import settings as e2e_settings

SEAT_NOTE = "you have a seat. Your cards and choices will come here."


@pytest.fixture
async def fake():
    async with FakeDiscord() as server:
        yield server


def public_texts(fake: FakeDiscord) -> list[str]:
    return fake.ever_public()


async def test_join_tells_the_joiner_privately_and_nothing_in_the_channel(fake: FakeDiscord, tmp_path: Path) -> None:
    async with bot(fake, tmp_path / "bot.sqlite3") as (app, run):
        alice, bob = Player(fake, run, ALICE), Player(fake, run, BOB)
        await alice.slash("new", game="thousand", players=3)
        rec = await bob.slash("join")
        assert not [c for c in public_texts(fake) if SEAT_NOTE in c]  # nobody else sees Bob's note
        assert [m for m in fake.ephemeral_for(BOB) if SEAT_NOTE in m.content]
        assert not [m for m in fake.ephemeral_for(ALICE) if SEAT_NOTE in m.content and "bob" in m.content.lower()]
        # "You have joined the table." is Bob's alone (issue 27 point 4): ephemeral, never in the channel
        assert [m for m in fake.ephemeral_for(BOB) if m.content == "You have joined the table."]
        assert "You have joined the table." not in public_texts(fake)
        placeholder = fake.messages[rec.original_id]  # the command's public "thinking…" did not stay
        assert placeholder.deleted or placeholder.ephemeral
        assert "bob" in table_message(fake).content
        all_acknowledged_in_time(fake)


class SlowCommand(StandIn):
    """A stand-in whose /score waits until released: meanwhile the app sends the user his hand."""

    def __init__(self) -> None:
        super().__init__()
        self.release = asyncio.Event()
        self.waiting = asyncio.Event()

    async def command(self, cmd: Command) -> None:
        if cmd.name != "score":
            await super().command(cmd)
            return
        self.waiting.set()
        await self.release.wait()
        assert cmd.chat is not None
        await self.port.send_public(cmd.chat, Message("Score: 120 to 80"), reply_to=cmd)


async def test_a_hand_sent_while_the_users_command_is_thinking_stays_private(fake: FakeDiscord) -> None:
    app = SlowCommand()
    async with running(fake, app) as run:
        await run.settle(await fake.slash(ALICE, "new", {"game": "thousand"}))
        await run.settle(await fake.click(BOB, table_message(fake), "Join"))
        score = await fake.slash(BOB, "score")
        await asyncio.wait_for(app.waiting.wait(), 5)
        await asyncio.wait_for(score.acked.wait(), 5)
        # his newest interaction is the public "thinking…" of /score: the hand must not take its place
        await app.port.send_private(app.players[0], app.hand_message(app.players[0]))
        assert not [c for c in public_texts(fake) if c.startswith("Your hand")]
        assert [m for m in fake.ephemeral_for(BOB) if m.content.startswith("Your hand")]
        app.release.set()
        await run.settle()
        assert fake.messages[score.original_id].content == "Score: 120 to 80"
        assert not fake.messages[score.original_id].ephemeral
        all_acknowledged_in_time(fake)


HUGE = "1" + "0" * 30  # bigger than any database integer
FORGED = [
    f"p:t{HUGE}",  # a forged invitation: a private start for a table id no database can hold
    f"p:t{2**31}",  # just past the database's signed 32-bit integer
    f"t:j.{2**31}",  # a join button of such a table
    f"t:h.{10**12 - 1}",  # twelve digits
    f"t:a.1.{2**31}.pass",  # a version out of range
    f"t:r.1.{2**40}.{2**33}",  # a lobby revision and a seat number out of range
]


@pytest.mark.parametrize("custom_id", FORGED)
async def test_forged_huge_ids_are_refused_as_invalid(
    fake: FakeDiscord, tmp_path: Path, caplog: pytest.LogCaptureFixture, custom_id: str
) -> None:
    caplog.set_level(logging.WARNING)
    async with bot(fake, tmp_path / "bot.sqlite3") as (app, run):
        alice, mallory = Player(fake, run, ALICE), Player(fake, run, MALLORY)
        await alice.slash("new", game="thousand", players=2)
        lobby = table_message(fake)
        before = (await app.storage.table(1)).lobby_rev
        await mallory.act(await fake.raw_click(MALLORY, lobby, custom_id))
        assert [m.content for m in fake.ephemeral_for(MALLORY)] == ["This button is not valid."]
        assert not [r for r in caplog.records if r.levelno >= logging.ERROR], [r.getMessage() for r in caplog.records]
        assert (await app.storage.table(1)).lobby_rev == before
        all_acknowledged_in_time(fake)


async def test_a_button_press_carrying_a_menus_id_is_answered(fake: FakeDiscord, tmp_path: Path) -> None:
    """Found by the Discord monkey: a press of type button with the custom id of a select menu on the same
    message (a forged or confused client) was matched to the menu by its id alone, so nobody answered it and the
    user's client showed "This interaction failed". It is answered now, and nothing changes."""
    async with bot(fake, tmp_path / "bot.sqlite3") as (app, run):
        alice = Player(fake, run, ALICE)
        await alice.slash("new", game="deberts", players=3)
        await alice.click(table_message(fake), "Settings")  # the conventions: more rows than fit, select menus
        lobby = next(m for m in fake.channel_messages() if m.selects())
        menus = [s["custom_id"] for s in lobby.selects()]
        assert menus, [b.get("label") for b in lobby.buttons()]
        before = (await app.storage.table(1)).lobby_rev
        pressed = await fake.raw_click(ALICE, lobby, menus[0])
        await run.settle(pressed)
        assert pressed.acked.is_set()
        assert fake.ephemeral_for(ALICE)[-1].content == "This button is out of date."
        assert (await app.storage.table(1)).lobby_rev == before
        all_acknowledged_in_time(fake)


async def test_an_export_number_bigger_than_a_database_integer_is_no_such_game(
    fake: FakeDiscord, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    async with bot(fake, tmp_path / "bot.sqlite3") as (app, run):
        alice = Player(fake, run, ALICE)
        await alice.slash("new", game="thousand", players=2)
        await alice.slash("export", number=2**53 - 1)  # Discord's largest integer option
        assert "No such game in this chat." in fake.ever_public() + [m.content for m in fake.ephemeral_for(ALICE)]
        assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
        all_acknowledged_in_time(fake)


# ---------------------------------------------------------------- finding 8: workers own distinct shards


def discord_settings(fake: FakeDiscord, monkeypatch: pytest.MonkeyPatch, **env: str) -> Settings:
    monkeypatch.setenv("DISCORD_BOT_TOKEN", fake.token)
    monkeypatch.setenv("DISCORD_API_URL", fake.base)
    for name in ("DISCORD_SHARD_COUNT", "DISCORD_SHARD_IDS"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    return Settings(_env_file=None)  # type: ignore[call-arg]


async def serving(fake: FakeDiscord, settings: Settings, app: StandIn, shards: int) -> asyncio.Task[None]:
    """``serve`` started; returns once the fake has seen ``shards`` gateway connections in all and synced commands."""
    task = asyncio.create_task(serve(app, settings))
    for _ in range(500):
        if len(fake.shards) >= shards and fake.commands and app.port is not None and app.port.client.is_ready():
            return task
        await asyncio.sleep(0.02)
    raise AssertionError(f"not connected: {fake.shards}")


async def stop(*tasks: asyncio.Task[None]) -> None:
    for task in tasks:
        task.cancel()
    for task in tasks:
        with contextlib.suppress(asyncio.CancelledError):
            await task


async def test_one_worker_connects_every_shard_by_default(fake: FakeDiscord, monkeypatch: pytest.MonkeyPatch) -> None:
    settings = discord_settings(fake, monkeypatch)
    assert settings.discord_shards() is None
    task = await serving(fake, settings, StandIn(), 1)
    try:
        assert fake.shards == [(0, 1)]  # Discord's recommendation (one shard), all of it
    finally:
        await stop(task)


async def test_two_workers_own_distinct_shards_and_each_interaction_reaches_one(
    fake: FakeDiscord, monkeypatch: pytest.MonkeyPatch
) -> None:
    first_settings = discord_settings(fake, monkeypatch, DISCORD_SHARD_COUNT="3", DISCORD_SHARD_IDS="0,2")
    second_settings = discord_settings(fake, monkeypatch, DISCORD_SHARD_COUNT="3", DISCORD_SHARD_IDS="1")
    assert first_settings.discord_shards() == [0, 2] and second_settings.discord_shards() == [1]
    first, second = StandIn(), StandIn()
    tasks = [await serving(fake, first_settings, first, 2)]
    tasks.append(await serving(fake, second_settings, second, 3))
    try:
        assert sorted(fake.shards) == [(0, 3), (1, 3), (2, 3)]  # each shard connected once, by one worker
        client = first.port.client
        assert client.shard_count == 3 and sorted(client.shards) == [0, 2]
        assert second.port.client.shard_count == 3 and list(second.port.client.shards) == [1]
        rec = await fake.slash(ALICE, "new", {"game": "thousand"})
        await asyncio.wait_for(rec.acked.wait(), 5)
        for _ in range(250):
            if fake.channel_messages():
                break
            await asyncio.sleep(0.02)
        await asyncio.sleep(0.2)
        owner = (GUILD_ID >> 22) % 3  # the shard of the guild: worker one holds shard 0
        assert owner == 0
        assert [type(r).__name__ for r in first.received] == ["Command"] and second.received == []
        assert [m.content for m in fake.channel_messages()] == ["Table v1: nobody"]
    finally:
        await stop(*tasks)


@pytest.mark.parametrize(
    ("count", "ids", "error"),
    [
        (None, "0,1", "needs DISCORD_SHARD_COUNT"),
        ("2", "0,2", "from 0 to 1"),
        ("2", "1,1", "distinct"),
        ("2", "one", "comma-separated"),
        ("0", "", "at least 1"),
    ],
)
def test_wrong_shard_settings_stop_the_start_with_a_clear_message(
    monkeypatch: pytest.MonkeyPatch, count: str | None, ids: str, error: str
) -> None:
    monkeypatch.delenv("DISCORD_SHARD_COUNT", raising=False)
    if count is not None:
        monkeypatch.setenv("DISCORD_SHARD_COUNT", count)
    monkeypatch.setenv("DISCORD_SHARD_IDS", ids)
    with pytest.raises(ValidationError, match=error):
        Settings(_env_file=None)  # type: ignore[call-arg]


async def test_a_game_chosen_while_a_table_is_open_is_a_notice_not_a_crash(
    fake: FakeDiscord, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    async with bot(fake, tmp_path / "bot.sqlite3") as (app, run):
        alice, bob = Player(fake, run, ALICE), Player(fake, run, BOB)
        chooser_rec = await alice.slash("new", game="chess")  # "Which game?" with a button per game
        chooser = fake.messages[chooser_rec.original_id]
        await bob.slash("new", game="thousand")
        await alice.click(chooser, "Kozel")
        assert fake.ephemeral_for(ALICE)[-1].content == "A table is already open here."
        assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
        all_acknowledged_in_time(fake)


async def test_a_command_discord_py_cannot_read_is_answered_privately(
    fake: FakeDiscord, caplog: pytest.LogCaptureFixture
) -> None:
    """/new without its required game: forged, or from a Discord client that knows an older version of it."""
    app = StandIn()
    async with running(fake, app) as run:
        rec = await fake.slash(BOB, "new", {})
        await run.settle(rec)
        assert [m.content for m in fake.ephemeral_for(BOB)] == ["Unknown command. /help lists what I understand."]
        assert fake.channel_messages() == [] and app.received == []
        assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
        all_acknowledged_in_time(fake)


# ---------------------------------------------------------------- issue 36: a timer fires where its guild is served


@contextlib.asynccontextmanager
async def shard_worker(fake: FakeDiscord, path: Path, shard: int):
    """The real application over the SQLite file ``path`` with the Discord adapter connecting shard ``shard`` of 2
    (what ``serve`` builds from ``DISCORD_SHARD_IDS``, on Discord's clock), started."""
    fake.install()
    app = await create_application(e2e_settings(path))
    client = TableClient(clock=fake.now, guild_ready_timeout=0.05, shard_count=2, shard_ids=[shard])
    port = DiscordPort(client, edit_interval=0.0)
    client.handler = app
    app.attach(port)
    task = asyncio.create_task(client.start(fake.token))
    try:
        await asyncio.wait_for(client.wait_until_ready(), 10)
        await asyncio.wait_for(client.synced.wait(), 10)
        await app.start()
        yield app, Running(fake, client, port, task, idle=app.idle)
        await app.idle()
    finally:
        await app.close()
        await port.close()
        await client.close()
        await stop(task)


@pytest.fixture
async def quick_fake():
    """The fake Discord with its per-route buckets off by name (the game's moves edit the table in quick
    succession; the global limit and the acknowledgement deadline stay)."""
    async with FakeDiscord(limits=Limits(per_channel_route=None)) as server:
        yield server


async def test_a_turn_timer_fires_on_the_worker_that_serves_the_guild(
    quick_fake: FakeDiscord, tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two workers with shards ``0`` and ``1`` of 2; the guild is on shard 0, so its interactions reach worker one
    alone, and only worker one knows the players' latest presses on their hands. The game has run for 16 minutes:
    the tokens the hands were sent with have expired, the players' presses of a few minutes ago have not. Worker
    two looks at the due timeout first. The computer moves for the player who ran out of time, and the player to
    act next holds buttons of the table's current version in his ephemeral hand, and they work."""
    caplog.set_level(logging.WARNING)
    fake = quick_fake
    fixed_deal(monkeypatch, "00000000000000a2")
    path = tmp_path / "bot.sqlite3"
    async with shard_worker(fake, path, 0) as (first, run), shard_worker(fake, path, 1) as (second, other):
        assert sorted(fake.shards) == [(0, 2), (1, 2)] and (GUILD_ID >> 22) % 2 == 0
        alice, bob = Player(fake, run, ALICE), Player(fake, run, BOB)
        await alice.slash("new", game="deberts", players=2)
        await bob.click(table_message(fake), "Join")
        await alice.click(table_message(fake), "Start")
        fake.advance(10 * 60)
        pressed: set[str] = set()
        while len(pressed) < 2:  # each player makes a move on his hand
            rec = await first.storage.table(1)
            seat = (await first.live(rec)).state.to_act
            mover = alice if rec.seats[seat].user.platform_id == str(ALICE.id) else bob
            await mover.press(next(m for m in mover.moves() if m.action is not None))
            pressed.add(mover.user.name)
        fake.advance(6 * 60)
        rec = await first.storage.table(1)
        assert rec.status == "playing" and rec.deadline_kind == "remind"
        await first.storage.set_deadline(1, rec.version, datetime.now(UTC) - timedelta(seconds=1), "timeout")
        for app in (second, first):
            await app.tick()
            await app.idle()
        await run.settle()
        await other.settle()
        after = await first.storage.table(1)
        assert after.version == rec.version + 1  # the computer moved for the player who ran out of time
        to_act = (await first.live(after)).state.to_act
        player = alice if after.seats[to_act].user.platform_id == str(ALICE.id) else bob
        moves = player.moves()
        assert moves and {m.payload.split(".")[2] for m in moves} == {str(after.version)}, [m.payload for m in moves]
        await player.press(next(m for m in moves if m.action is not None))
        assert (await first.storage.table(1)).version == after.version + 1
        assert not [r for r in caplog.records if r.levelno >= logging.ERROR], [r.getMessage() for r in caplog.records]
        all_acknowledged_in_time(fake)
