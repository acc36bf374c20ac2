"""Issue 27's game flows through the Discord adapter (discord.py over the fake Discord, the real application on a
SQLite file): a non-host's `/stop` shows the channel "Agree / Keep playing" with its count and passes by a button,
after which no ephemeral hand keeps a move button (points 3 and 10); a finished game's "Play again" opens a lobby
with the same seats, and the other player confirms with one tap (point 2)."""

from __future__ import annotations

import random
from pathlib import Path

from bot.storage import FINISHED, LOBBY, PLAYING
from core.i18n import t
from testkit.fake_discord import FakeDiscord
from tests.test_discord_e2e import (  # noqa: F401 (fixture)
    ALICE,
    BOB,
    CAROL,
    Player,
    bot,
    fake,
    open_thousand,
    play_to_end,
    random_policy,
    table_message,
)


async def test_a_stop_vote_passes_by_buttons_and_the_hands_lose_their_moves(fake: FakeDiscord, tmp_path: Path):  # noqa: F811
    async with bot(fake, tmp_path / "bot.sqlite3") as (app, run):
        alice, bob, carol = await open_thousand(fake, run)
        await app.idle()
        assert any(p.moves() for p in (alice, bob, carol))  # the first bidder has his choices
        await bob.slash("stop")
        await app.idle()
        vote = next(m for m in sorted(fake.channel_messages(), key=lambda m: -m.id) if m.buttons())
        labels = [b.get("label") for b in vote.buttons()]
        assert labels == ["Agree (1 of 3)", "Keep playing"]
        # Carol's Discord speaks Ukrainian: her answer is hers, the channel keeps the table's English
        await carol.click(vote, "Agree")
        await app.idle()
        await run.settle()
        assert (await app.storage.table(1)).status == "abandoned"
        vote = next(m for m in fake.channel_messages() if m.id == vote.id)
        assert vote.content == "The table is closed; nobody is rated for a stopped game."
        assert not vote.buttons()
        for p in (alice, bob, carol):
            assert p.moves() == [], p.user.name  # no ephemeral message keeps a move
        stopped = [m for m in fake.ephemeral_for(CAROL) if t("uk", "The game was stopped.") in m.content]
        assert stopped and stopped[-1].image() is not None  # her hand stays on view, in her language


async def test_keep_playing_keeps_the_game(fake: FakeDiscord, tmp_path: Path):  # noqa: F811
    async with bot(fake, tmp_path / "bot.sqlite3") as (app, run):
        alice, bob, carol = await open_thousand(fake, run)
        await app.idle()
        await bob.slash("stop")
        await app.idle()
        vote = next(m for m in sorted(fake.channel_messages(), key=lambda m: -m.id) if m.buttons())
        await alice.click(vote, "Keep playing")
        await app.idle()
        await run.settle()
        assert (await app.storage.table(1)).status == PLAYING
        vote = next(m for m in fake.channel_messages() if m.id == vote.id)
        assert not vote.buttons()
        assert any(p.moves() for p in (alice, bob, carol))  # the game goes on


async def test_play_again_opens_the_same_seats_and_the_other_confirms_with_one_tap(fake: FakeDiscord, tmp_path: Path):  # noqa: F811
    async with bot(fake, tmp_path / "bot.sqlite3") as (app, run):
        alice, bob = Player(fake, run, ALICE), Player(fake, run, BOB)
        await alice.slash("new", game="kozel", players=3)
        await bob.click(table_message(fake), "Join")
        await alice.click(table_message(fake), "+🤖")
        await alice.click(table_message(fake), "Start")
        await play_to_end(app, [alice, bob], random_policy(random.Random(11)))
        old = await app.storage.table(1)
        assert old.status == FINISHED
        sheet = next(m for m in sorted(fake.channel_messages(), key=lambda m: -m.id) if "sheet.jpg" in m.shown_files)
        assert [b.get("label") for b in sheet.buttons()] == ["🔁 Play again"]
        await bob.click(sheet, "Play again")
        await app.idle()
        await run.settle()
        assert fake.ephemeral_for(BOB)[-1].content == "You are in: the others confirm with one tap."
        new = await app.storage.table(2)
        assert new.status == LOBBY and new.game == "kozel" and new.players == 3
        assert [(s.seat, s.user_id, s.computer) for s in new.seats] == [
            (s.seat, s.user_id, s.computer) for s in old.seats
        ]
        lobby = table_message(fake)
        assert "⏳" in lobby.content and "alice" in lobby.content
        await alice.click(sheet, "Play again")  # her one tap
        await app.idle()
        await run.settle()
        assert fake.ephemeral_for(ALICE)[-1].content == "You are in."
        assert "⏳" not in table_message(fake).content
        await bob.click(table_message(fake), "Start")
        await app.idle()
        started = await app.storage.table(2)
        assert started.status == PLAYING
        assert [(s.seat, s.user_id, s.computer) for s in started.seats] == [
            (s.seat, s.user_id, s.computer) for s in old.seats
        ]
