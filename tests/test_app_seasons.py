"""Seasons through the fake port: ``top`` shows this season above all time, the season rolls over on the
application's clock with one summary, the all-time ratings stay as they were; the host chooses the season's length.

Games are stamped with the time they end; the application's clock starts at that time here (as in production,
where both are the same clock) and is then moved on."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from bot import seasons
from bot.storage import ResultSpec, SeatSpec
from core import games
from tests.app_support import Clock, db_path, make_world


async def finished_game(world, winner: str, loser: str, seed: str) -> None:
    """A Kozel game of two people of the chat, ended now with ``winner`` first (stored as the bot stores one)."""
    st = world.app.storage
    chat = await st.chat(world.chat.platform, world.chat.id, None, world.chat.title)
    a = await st.user("fake", world.user(winner).user.id, winner)
    b = await st.user("fake", world.user(loser).user.id, loser)
    table = await st.create_table(chat.id, "kozel", 2, {}, seed, a.id, [SeatSpec(0, a.id), SeatSpec(1, b.id)])
    state = games.get("kozel").new_game(2, {}, seed=seed)
    table = await st.start_table(table.id, table.lobby_rev, state.to_json())
    action = state.legal_actions(state.to_act)[0]
    new, _events = state.apply(action)
    before = await st.ratings(chat.id, "kozel", [a.id, b.id])
    rows = []
    for seat, uid, place, delta in ((0, a.id, 1, 1.5), (1, b.id, 2, -1.0)):
        old = before[uid].rating if uid in before and before[uid].rating is not None else 25.0
        rows.append(ResultSpec(seat, uid, 0, place, old, old + delta, 25.0 + delta, 8.0, None, None, None, False, 1))
    await st.commit_move(
        table.id,
        0,
        seat=action.seat,
        action=action.to_json(),
        actor_user_id=None,
        by="test",
        state=new.to_json(),
        results=rows,
    )


async def test_top_by_season_the_rollover_summary_and_all_time_kept(tmp_path):
    clock = Clock()
    clock.now = datetime.now(UTC)
    world = await make_world(db_path(tmp_path), clock=clock)
    try:
        await finished_game(world, "Ann", "Bob", "s-1")
        await finished_game(world, "Ann", "Bob", "s-2")
        st = world.app.storage
        chat = await st.chat(world.chat.platform, world.chat.id, None)
        all_time = await st.leaderboard(chat.id, "kozel")
        now = seasons.season_of("month", clock.now)
        assert now is not None
        await world.user("Bob").say(world.chat, "top")
        assert world.group()[-1].message.image_name == "top.jpg" and world.group()[-1].message.image
        top = world.group()[-1].text
        assert f"🏁 season {now.key} (this month):" in top and "1. Ann: +3.0 rating, 2 games, 2 wins (100%)" in top
        assert top.index("All time:") > top.index("1. Ann: +3.0") and "rating 28.0" in top
        assert await world.app.seasons.tick() == 0  # nothing has ended yet
        clock.now = now.end + timedelta(minutes=1)  # the application's clock: the next month has begun
        assert await world.app.seasons.tick() == 1
        await world.app.idle()
        summary = world.group()[-1].text
        assert summary.startswith(f"🏁 Season {now.key} is over.") and "Kozel: Ann (+3.0 rating" in summary
        assert "Most games: Ann (2)." in summary
        clock.advance(60)
        assert await world.app.seasons.tick() == 0  # one summary a season
        assert await st.leaderboard(chat.id, "kozel") == all_time  # the all-time ratings are as they were
        await world.user("Bob").say(world.chat, "top")
        top = world.group()[-1].text
        assert "No finished games this season yet." in top and "All time:" in top and "Ann: rating 28.0" in top
    finally:
        await world.app.close()


async def test_the_host_chooses_the_season(tmp_path):
    world = await make_world(db_path(tmp_path))
    try:
        ann, bob = world.user("Ann"), world.user("Bob")
        await bob.say(world.chat, "season", "quarter")
        assert "Only the host of the table open here" in world.port.private(bob.user.id)[-1].text
        await ann.say(world.chat, "new", "kozel")
        await bob.say(world.chat, "season", "quarter")  # not the host
        assert "Only the host" in world.port.private(bob.user.id)[-1].text
        await ann.say(world.chat, "season", "quarter")
        assert world.group()[-1].text == "This chat's leaderboard goes by season 2026-Q4 (this quarter)."
        await bob.say(world.chat, "season")
        assert world.group()[-1].text == "This chat's leaderboard goes by season 2026-Q4 (this quarter)."
        await ann.say(world.chat, "season", "none")
        assert world.group()[-1].text == "This chat plays without seasons: /top shows all time."
        await ann.say(world.chat, "season", "weekly")
        assert world.port.private(ann.user.id)[-1].text == "Type /season month, /season quarter or /season none."
    finally:
        await world.app.close()


def test_seasons_on_the_calendar():
    at = datetime(2026, 12, 31, 23, 59, tzinfo=UTC)
    month, quarter = seasons.season_of("month", at), seasons.season_of("quarter", at)
    assert month is not None and quarter is not None
    assert (month.key, month.end) == ("2026-12", datetime(2027, 1, 1, tzinfo=UTC))
    assert (quarter.key, quarter.start) == ("2026-Q4", datetime(2026, 10, 1, tzinfo=UTC))
    assert seasons.previous("month", datetime(2027, 1, 1, tzinfo=UTC)) == month
    assert seasons.previous("quarter", datetime(2027, 2, 1, tzinfo=UTC)) == quarter
    assert seasons.season_of("none", at) is None and seasons.previous("none", at) is None
