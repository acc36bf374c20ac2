"""The chat's daily deal through the fake port: the same deal and the same computer answers for every member, one
attempt a day, the day on the application's clock, one deal per chat, one group message edited in place, restarts."""

from __future__ import annotations

from datetime import timedelta

from bot import daily
from bot.port import Chat
from bot.storage import DAILY_DONE, DAILY_STOPPED, FINISHED, PLAYING
from core.ai.player import ComputerPlayer
from tests.app_support import World, db_path, make_world, reopen


def daily_posts(world: World, chat: Chat | None = None) -> list:
    chat = chat or world.chat
    return [s for s in world.port.public(chat.id) if s.text.startswith("📅")]


async def press_daily(world: World, name: str, game: str, chat: Chat | None = None) -> tuple[str | None, bool]:
    """``name`` presses ▶ game under the group's daily message (posting it first with /daily when it is not up)."""
    chat = chat or world.chat
    user = world.user(name)
    if not daily_posts(world, chat):
        await user.say(chat, "daily")
        await world.app.idle()
    post = daily_posts(world, chat)[-1]
    button = next(b for b in post.buttons() if b.payload.endswith("." + game))
    return await user.press(post, button, chat)


async def attempt_table(world: World, name: str, game: str) -> int:
    user = world.users[name]
    rec = await world.app.storage.user(world.port.platform, user.user.id, name)
    for group in (world.chat,):
        chat = await world.app.storage.chat(group.platform, group.id, group.thread)
        mine = await world.app.storage.attempts(chat.id, user_id=rec.id)
        rows = [a for a in mine if a.game == game and a.table_id is not None]
        if rows:
            return rows[-1].table_id  # type: ignore[return-value]
    raise AssertionError("no attempt")


async def play_attempt(world: World, name: str, table_id: int, stop_after: int | None = None) -> int:
    """The person plays his seat like a decent player (a seeded normal computer picks each move), pressing the
    buttons of his private keyboard; ``stop_after`` presses, or to the round's end."""
    user = world.users[name]
    presses = 0
    while stop_after is None or presses < stop_after:
        await world.app.idle()
        rec = await world.app.storage.table(table_id)
        if rec.status != PLAYING:
            return presses
        live = await world.app.live(rec)
        assert live.state.to_act == 0, "the computer seats move by themselves"
        action = ComputerPlayer(rec.game, "normal", seed=presses).decide(live.state.view(0), live.round_events)
        assert await user.play_code(action.code()), f"no button leads to {action.code()}"
        presses += 1
    return presses


async def test_two_members_get_the_same_deal_and_the_same_computer_answers(tmp_path):
    world = await make_world(db_path(tmp_path))
    try:
        for name in ("Ann", "Bob"):
            text, alert = await press_daily(world, name, "thousand")
            assert not alert and "private chat" in (text or ""), text
            table = await attempt_table(world, name, "thousand")
            await play_attempt(world, name, table)
        await world.app.idle()
        ann, bob = await attempt_table(world, "Ann", "thousand"), await attempt_table(world, "Bob", "thousand")
        assert ann != bob
        rec_a, rec_b = await world.app.storage.record(ann), await world.app.storage.record(bob)
        assert rec_a["rounds"][0]["deal"] == rec_b["rounds"][0]["deal"]  # the same deal
        assert rec_a["rounds"] == rec_b["rounds"]  # same plays, same computer answers: the same round move by move
        for table in (ann, bob):
            rec = await world.app.storage.table(table)
            assert rec.status == FINISHED and rec.state["phase"] == "round_over"  # one round, never the next deal
        chat = await world.app.storage.chat(world.chat.platform, world.chat.id, None)
        board = await world.app.storage.attempts(chat.id)
        assert [a.status for a in board] == [DAILY_DONE, DAILY_DONE] and board[0].score == board[1].score
        # nothing of the attempts went to the group but its one daily message; each got a forwardable line
        assert [s.message.image for s in world.port.public(world.chat.id)] == [None]
        for name in ("Ann", "Bob"):
            lines = [s.text for s in world.port.private(world.users[name].user.id) if "Today's Thousand (" in s.text]
            assert len(lines) == 1 and daily.score_text(board[0].score or 0) in lines[0]
        post = daily_posts(world)[0]
        assert "Ann" in post.text and "Bob" in post.text and "best:" in post.text
    finally:
        await world.app.close()


async def test_a_second_attempt_the_same_day_is_refused_and_the_next_day_is_a_new_deal(tmp_path):
    world = await make_world(db_path(tmp_path))
    try:
        await press_daily(world, "Ann", "kozel")
        first = await attempt_table(world, "Ann", "kozel")
        await play_attempt(world, "Ann", first)
        text, alert = await press_daily(world, "Ann", "kozel")
        assert alert and text == "You have played today's Kozel already. A new deal comes tomorrow."
        assert await attempt_table(world, "Ann", "kozel") == first
        world.clock.advance(timedelta(days=1).total_seconds())  # the application's clock says tomorrow
        text, alert = await press_daily(world, "Ann", "kozel")
        assert not alert, text
        second = await attempt_table(world, "Ann", "kozel")
        assert second != first
        one, two = await world.app.storage.table(first), await world.app.storage.table(second)
        assert one.seed != two.seed and one.options["daily"]["day"] != two.options["daily"]["day"]
        await world.app.idle()  # the day's first attempt posts the day's message in the group's lane, after its answer
        assert len(daily_posts(world)) == 2  # one message a day
    finally:
        await world.app.close()


async def test_two_chats_get_different_deals(tmp_path):
    world = await make_world(db_path(tmp_path))
    try:
        other = Chat(world.port.platform, "g2", None, "Garage", "en")
        await press_daily(world, "Ann", "deberts")
        await press_daily(world, "Ann", "deberts", chat=other)
        tables = [
            await world.app.storage.table(a.table_id)
            for chat in (world.chat, other)
            for a in await world.app.storage.attempts((await world.app.storage.chat(chat.platform, chat.id, None)).id)
        ]
        assert len(tables) == 2 and tables[0].seed != tables[1].seed
        assert tables[0].state["hands"] != tables[1].state["hands"]
    finally:
        await world.app.close()


async def test_a_stopped_attempt_counts_as_played(tmp_path):
    world = await make_world(db_path(tmp_path))
    try:
        await press_daily(world, "Ann", "thousand")
        intro = next(s for s in world.port.private(world.users["Ann"].user.id) if s.text.startswith("📅"))
        text, _ = await world.users["Ann"].press_label(intro, "Stop the attempt")
        assert text == "Stopped: it counts as today's attempt."
        chat = await world.app.storage.chat(world.chat.platform, world.chat.id, None)
        assert [a.status for a in await world.app.storage.attempts(chat.id)] == [DAILY_STOPPED]
        text, alert = await press_daily(world, "Ann", "thousand")
        assert alert and "already" in (text or "")
        await world.app.idle()
        assert "Ann: stopped" in daily_posts(world)[0].text
    finally:
        await world.app.close()


async def test_the_group_message_is_edited_never_sent_again_under_a_burst(tmp_path):
    world = await make_world(db_path(tmp_path))
    try:
        names = [f"P{i}" for i in range(6)]
        for name in names:
            await press_daily(world, name, "kozel")
        for name in names:
            await play_attempt(world, name, await attempt_table(world, name, "kozel"))
        await world.app.idle()
        posts = daily_posts(world)
        assert len(posts) == 1 and posts[0].edits >= 1
        assert all(f"{n} " in posts[0].text for n in names)  # the last edit shows every result
        assert not any("playing…" in line for line in posts[0].text.splitlines())
    finally:
        await world.app.close()


async def test_a_restart_mid_attempt_resumes_it(tmp_path):
    world = await make_world(db_path(tmp_path))
    try:
        await press_daily(world, "Ann", "deberts")
        table = await attempt_table(world, "Ann", "deberts")
        await play_attempt(world, "Ann", table, stop_after=3)
        world = await reopen(world)
        text, alert = await press_daily(world, "Ann", "deberts")  # shows the running attempt's hand again
        assert not alert and "under way" in (text or "")
        await play_attempt(world, "Ann", table)
        await world.app.idle()
        chat = await world.app.storage.chat(world.chat.platform, world.chat.id, None)
        assert [a.status for a in await world.app.storage.attempts(chat.id)] == [DAILY_DONE]
    finally:
        await world.app.close()


async def test_daily_in_private_is_refused(tmp_path):
    world = await make_world(db_path(tmp_path))
    try:
        ann = world.user("Ann")
        await ann.say(None, "daily", "thousand")
        assert world.port.private(ann.user.id)[-1].text == "The daily deal belongs to a group: type /daily there."
    finally:
        await world.app.close()


async def test_daily_with_a_game_tells_its_author_before_the_groups_message(tmp_path):
    """``/daily kozel`` before today's message is up: the author's note comes first, the group's message after it
    through the chat's lane (a group write may wait for the group's window; his cards must not)."""
    world = await make_world(db_path(tmp_path))
    try:
        ann = world.user("Ann")
        await ann.say(world.chat, "daily", "kozel")
        await world.app.idle()
        [post] = daily_posts(world)
        [note] = [
            s for s in world.port.private(ann.user.id) if s.text == "Today's Kozel: your cards are in our private chat."
        ]
        calls = world.port.calls
        assert calls.index(("send_private", note.id)) < calls.index(("send_public", post.id))
    finally:
        await world.app.close()
