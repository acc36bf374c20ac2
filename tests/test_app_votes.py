"""Stopping a game by vote through the application, on a real SQLite file and a real PostgreSQL database: the
votes are in the database, so they survive a restart and count across workers; a repeated vote counts once, a
player who left is not counted, and nothing is left behind when the table stops."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.port import Command
from bot.storage import ABANDONED, FINISHED, PLAYING
from core.i18n import t
from tests import storage_support
from tests.app_support import World, db_path, make_world, open_table, play_to_end, press_kind, reopen, worker
from tests.storage_support import vote_rows

db_url = storage_support.db_url


def _wants(name: str, votes: int, players: int) -> str:
    return f"{name} wants to stop the game: {votes} of {players} players agree (more than half needed)."


async def _stop(world: World, name: str) -> str:
    """What the one who typed stop sees last (its first line): the group's answer, or a refusal told to him
    privately."""
    user = world.user(name)
    await user.say(world.chat, "stop")
    seen = world.group() + world.port.private(user.user.id)
    return max(seen, key=lambda s: int(s.id)).text.split("\n")[0]


async def _status(world: World) -> str:
    return (await world.app.storage.table(1)).status


async def test_a_vote_survives_a_restart(tmp_path: Path, db_url: str):
    world = await make_world(db_path(tmp_path), url=db_url)
    try:
        await open_table(world, "thousand", ["Ann", "Bob", "Cid"], [], 3)
        assert await _stop(world, "Bob") == _wants("Bob", 1, 3)
        world = await reopen(world)
        assert await _status(world) == PLAYING
        assert await _stop(world, "Cid") == "The table is closed; nobody is rated for a stopped game."
        assert await _status(world) == ABANDONED and await vote_rows(world.app.storage, 1) == 0
    finally:
        await world.app.close()


async def test_votes_through_two_workers_reach_the_majority(tmp_path: Path, db_url: str):
    world = await make_world(db_path(tmp_path), url=db_url)
    second = await worker(world.url, world.port, world.clock)
    try:
        await open_table(world, "kozel", ["Ann", "Bob", "Cid", "Dan"], [], 4)
        assert await _stop(world, "Bob") == _wants("Bob", 1, 4)
        await second.command(Command(world.user("Cid").user, world.chat, "stop"))
        assert world.group()[-1].text.startswith(_wants("Cid", 2, 4))
        await second.command(Command(world.user("Bob").user, world.chat, "stop"))  # redelivered to the other one
        assert world.group()[-1].text.startswith(_wants("Bob", 2, 4))
        assert await _stop(world, "Dan") == "The table is closed; nobody is rated for a stopped game."
        assert (await second.storage.table(1)).status == ABANDONED
    finally:
        await second.close()
        await world.app.close()


async def test_a_repeated_vote_counts_once_and_a_leaver_not_at_all(tmp_path: Path, db_url: str):
    world = await make_world(db_path(tmp_path), url=db_url)
    try:
        await open_table(world, "kozel", ["Ann", "Bob", "Cid", "Dan"], [], 4)
        assert await _stop(world, "Bob") == _wants("Bob", 1, 4)
        assert await _stop(world, "Bob") == _wants("Bob", 1, 4)
        assert await _stop(world, "Cid") == _wants("Cid", 2, 4)
        await world.user("Cid").say(world.chat, "leave")  # the computer plays for Cid now
        assert await _stop(world, "Cid") == "Only the host or the players can stop the game."
        # Cid's vote went with him: counted, it would make 2 of the 3 players left
        assert await _stop(world, "Bob") == _wants("Bob", 1, 3)
        assert await _status(world) == PLAYING
        assert await _stop(world, "Dan") == "The table is closed; nobody is rated for a stopped game."
        await world.app.idle()
        assert await _status(world) == ABANDONED
    finally:
        await world.app.close()


async def test_no_vote_is_left_when_the_game_ends(tmp_path: Path, db_url: str):
    world = await make_world(db_path(tmp_path), url=db_url)
    try:
        await open_table(world, "kozel", ["Ann", "Bob"], [], 2)
        assert await _stop(world, "Bob") == _wants("Bob", 1, 2)
        assert await vote_rows(world.app.storage, 1) == 1
        await play_to_end(world, ["Ann", "Bob"], 1)
        assert await _status(world) == FINISHED and await vote_rows(world.app.storage, 1) == 0
    finally:
        await world.app.close()


async def test_a_vote_to_close_the_lobby_does_not_count_in_the_game(tmp_path: Path, db_url: str):
    """Bob asked to close the lobby, then the host started the game anyway and Bob played on: his old vote is no
    vote to stop the game, so Cid's one vote is 1 of 3, not a majority."""
    world = await make_world(db_path(tmp_path), url=db_url)
    try:
        host = world.user("Ann")
        await host.say(world.chat, "new", "thousand 3")
        for name in ("Bob", "Cid"):
            await press_kind(world, world.user(name), "j")
        assert await _stop(world, "Bob") == _wants("Bob", 1, 3)
        text, _alert = await press_kind(world, host, "s")
        assert text is None, text
        assert await _status(world) == PLAYING and await vote_rows(world.app.storage, 1) == 0
        assert await _stop(world, "Cid") == _wants("Cid", 1, 3)
        assert await _status(world) == PLAYING
        assert await _stop(world, "Bob") == "The table is closed; nobody is rated for a stopped game."
    finally:
        await world.app.close()


# ---- the vote's buttons (issue 27 point 3) ------------------------------------------------------------------


def _vote(world: World):
    """The newest vote message in the group."""
    return next(s for s in reversed(world.group()) if any(b.payload.startswith("y.") for b in s.buttons()))


@pytest.mark.parametrize("lang", ["en", "ru"])
async def test_a_stop_vote_passes_by_buttons(tmp_path: Path, lang: str):
    world = await make_world(db_path(tmp_path), lang=lang)
    try:
        for name in ("Ann", "Bob", "Cid", "Dan"):
            world.user(name, lang)
        await open_table(world, "kozel", ["Ann", "Bob", "Cid", "Dan"], [], 4)
        await world.user("Bob").say(world.chat, "stop")
        vote = _vote(world)
        labels = [b.label for b in vote.buttons()]
        assert labels == [t(lang, "Agree ({votes} of {players})", votes=1, players=4), t(lang, "Keep playing")]
        assert t(lang, "The vote lasts {n} min.", n=2) in vote.text
        text, _alert = await world.user("Cid").press(vote, vote.buttons()[0], world.chat)
        assert text == t(lang, "Your vote counts.")
        assert vote.buttons()[0].label == t(lang, "Agree ({votes} of {players})", votes=2, players=4)
        assert await _status(world) == PLAYING
        # a spectator's press changes nothing
        text, _alert = await world.user("Eve", lang).press(vote, vote.buttons()[0], world.chat)
        assert text == t(lang, "Only the players of this table can answer.")
        await world.user("Dan").press(vote, vote.buttons()[0], world.chat)
        await world.app.idle()
        assert await _status(world) == ABANDONED
        assert vote.text == t(lang, "The table is closed; nobody is rated for a stopped game.") and not vote.buttons()
    finally:
        await world.app.close()


@pytest.mark.parametrize("lang", ["en", "ru"])
async def test_keep_playing_keeps_the_game(tmp_path: Path, lang: str):
    world = await make_world(db_path(tmp_path), lang=lang)
    try:
        for name in ("Ann", "Bob", "Cid"):
            world.user(name, lang)
        await open_table(world, "thousand", ["Ann", "Bob", "Cid"], [], 3)
        await world.user("Bob").say(world.chat, "stop")
        vote = _vote(world)
        text, _alert = await world.user("Cid").press(vote, vote.buttons()[1], world.chat)
        assert text == t(lang, "The game goes on.")
        assert vote.text == t(lang, "{name} wants to keep playing: the game goes on.", name="Cid")
        assert not vote.buttons() and await vote_rows(world.app.storage, 1) == 0
        # Bob's vote is gone with the vote: Cid's own vote is now 1 of 3, not a majority
        wants = "{name} wants to stop the game: {votes} of {players} players agree (more than half needed)."
        assert await _stop(world, "Cid") == t(lang, wants, name="Cid", votes=1, players=3)
        assert await _status(world) == PLAYING
    finally:
        await world.app.close()


async def test_an_expired_vote_does_not_count(tmp_path: Path, db_url: str):
    world = await make_world(db_path(tmp_path), url=db_url)
    try:
        await open_table(world, "thousand", ["Ann", "Bob", "Cid"], [], 3)
        assert await _stop(world, "Bob") == _wants("Bob", 1, 3)
        old = _vote(world)
        world.clock.advance(121)  # the vote lasts two minutes
        text, alert = await world.user("Cid").press(old, old.buttons()[0], world.chat)
        assert text == "This vote has expired: type /stop to ask again." and alert
        assert old.text == "This vote has expired." and not old.buttons()
        assert await _status(world) == PLAYING
        # Bob's vote has expired: Cid's is the only one that counts
        assert await _stop(world, "Cid") == _wants("Cid", 1, 3)
        assert await vote_rows(world.app.storage, 1) == 1
        world.clock.advance(60)  # within the two minutes of Cid's vote
        assert await _stop(world, "Bob") == "The table is closed; nobody is rated for a stopped game."
        assert await _status(world) == ABANDONED
    finally:
        await world.app.close()
