"""Issue 26 on Discord, through the fake Discord and the real discord.py client: private answers stay private
(finding 11b), forged ids are refused as invalid instead of crashing (11a), workers own distinct shards (8)."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import pytest

from bot.port import Command, Message
from testkit.discord_support import StandIn, running
from testkit.fake_discord import FakeDiscord
from tests.test_discord_e2e import ALICE, BOB, MALLORY, Player, all_acknowledged_in_time, bot, table_message

SEAT_NOTE = "you have a seat. Your cards and choices will come here."


@pytest.fixture
async def fake():
    async with FakeDiscord() as server:
        yield server


def public_texts(fake: FakeDiscord) -> list[str]:
    return fake.ever_public()


async def test_join_tells_the_joiner_privately_and_answers_publicly(fake: FakeDiscord, tmp_path: Path) -> None:
    async with bot(fake, tmp_path / "bot.sqlite3") as (app, run):
        alice, bob = Player(fake, run, ALICE), Player(fake, run, BOB)
        await alice.slash("new", game="thousand", players=3)
        rec = await bob.slash("join")
        assert not [c for c in public_texts(fake) if SEAT_NOTE in c]  # nobody else sees Bob's note
        assert [m for m in fake.ephemeral_for(BOB) if SEAT_NOTE in m.content]
        assert not [m for m in fake.ephemeral_for(ALICE) if SEAT_NOTE in m.content and "bob" in m.content.lower()]
        answer = fake.messages[rec.original_id]  # the public answer took the command's placeholder
        assert not answer.ephemeral and not answer.deleted and answer.content == "You have joined the table."
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
