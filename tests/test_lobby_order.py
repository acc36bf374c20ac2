"""Issue 36: a lobby message shows the newest lobby, whichever worker's refresh arrives last. Lobby refreshes were
ordered by when they were queued, not by the lobby they show: a refresh another worker drew before Bob joined,
arriving after the one that shows him, put the old lobby back (its buttons of the old revision: the host's Start
was refused as out of date), and one arriving after the start put a lobby back over "The game has started".
Seen in ``bench.cluster`` with two workers opening 21 and 81 tables at once: one lobby never showed its Start."""

from __future__ import annotations

from tests.app_support import make_world, press_kind


async def test_an_older_lobby_refresh_never_replaces_a_newer_lobby(tmp_path):
    world = await make_world(tmp_path / "bot.sqlite3")
    try:
        ann, bob = world.user("Ann"), world.user("Bob")
        await ann.say(world.chat, "new", "deberts 2")
        before = await world.app.storage.table(1)  # what another worker read before Bob joined
        await press_kind(world, bob, "j")
        with_bob = world.lobby().message
        assert "Bob" in with_bob.text
        await world.app.publishing.refresh_lobby(before)  # ...and its refresh arrives now
        assert world.lobby().message == with_bob
        lobby_id = world.lobby().id
        text, _ = await press_kind(world, ann, "s")
        assert text is None
        started = world.port.shown[lobby_id].message
        assert "The game has started" in started.text
        await world.app.publishing.refresh_lobby(before)  # a refresh drawn before the start, arriving after it
        assert world.port.shown[lobby_id].message == started
    finally:
        await world.app.close()
