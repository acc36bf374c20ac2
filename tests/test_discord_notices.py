"""Notices to one person through the Discord adapter (discord.py over the fake Discord; issue 27 point 4): `/leave`
in a game gives the channel only a third-person line and the leaver one ephemeral message, his hand saying that the
computer plays for him, with "Take my seat back" that gives the seat back; a `/join` refusal is ephemeral, in the
refused user's language."""

from __future__ import annotations

from pathlib import Path

from core.i18n import normalize, t
from testkit.fake_discord import FakeDiscord
from tests.test_discord_e2e import CAROL, bot, fake, open_thousand, table_message  # noqa: F401 (fixture)


async def test_leave_and_a_join_refusal_are_ephemeral(fake: FakeDiscord, tmp_path: Path) -> None:  # noqa: F811
    async with bot(fake, tmp_path / "bot.sqlite3") as (app, run):
        alice, bob, carol = await open_thousand(fake, run)
        await app.idle()
        before = {m.id for m in fake.channel_messages()}
        await bob.slash("leave")
        await app.idle()
        await run.settle()
        new = [m for m in fake.channel_messages() if m.id not in before]
        assert [m.content for m in new] == ["bob has left the table: the computer plays for them."]
        assert not any("You have left" in (m.content or "") for m in fake.channel_messages())
        away = "The computer plays for you."  # told once: his hand again, saying so, with the way back
        told = [m for m in fake.ephemeral_for(bob.user) if away in (m.content or "")]
        assert len(told) == 1
        assert told and told[-1].visible_to == bob.user.id
        await bob.click(told[-1], "Take my seat back")
        await app.idle()
        rec = await app.storage.table(1)
        assert not next(s for s in rec.seats if s.user.name == "bob").taken_over

        await carol.slash("join")  # seated already, and the game is on: refused, to her alone, in Ukrainian
        said = fake.ephemeral_for(carol.user)[-1].content
        lang = normalize(CAROL.locale)
        assert said in (t(lang, "You already have a seat at this table."), t(lang, "The game has already started."))
        assert not any(said == m.content for m in fake.channel_messages())
        assert table_message(fake) is not None
