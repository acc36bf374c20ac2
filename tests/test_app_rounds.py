"""The end of a round through the application and the fake port (issue 27 point 1): the finished round stays on
view before the next deal, the live table is posted again at the bottom of the chat (the old one becomes the
round's sheet, without buttons), at most one new group message per round, and a restart during the pause still
shows the next deal. The pause is held by a gate (the application's injected sleep), never by wall time."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest

from bot.storage import TableRec
from core.ai.player import ComputerPlayer
from core.i18n import t
from testkit.fakeport import FakeUser
from tests.app_support import World, db_path, fixed_deal, make_world, open_table, reopen, worker

# The tables of these tests deal from this seed: a random deal can end the whole game in its first round (a player
# who drew the bazaar holds 101 points or more: 3 deals in 4,000 with these players), and then no next deal comes.
ROUND_SEED = "0000000000000003"


@pytest.fixture(autouse=True)
def same_deals(monkeypatch: pytest.MonkeyPatch) -> None:
    fixed_deal(monkeypatch, ROUND_SEED)


class Gate:
    """The application's sleep, held until the test lets it go."""

    def __init__(self) -> None:
        self.asked: list[float] = []
        self.open = asyncio.Event()

    async def sleep(self, seconds: float) -> None:
        self.asked.append(seconds)
        await self.open.wait()


async def play_until_round_ends(world: World, humans: list[str], table_id: int = 1) -> int:
    """Humans press their way through the round (the normal computer player picks each move) until the round's
    end is on view (the pause has begun). Returns how many moves were pressed."""
    by_id = {world.users[n].user.id: world.users[n] for n in humans}
    first = None
    for presses in range(400):
        await world.app.ctx.showing.kept_shown(("table", table_id))  # a round's end is on view (its pause began)
        rec = await world.app.storage.table(table_id)
        live = await world.app.live(rec)
        first = first or live.state.view(None)["round"]
        if live.state.view(None)["round"] > first:
            return presses
        assert not live.state.finished, "the game ended in its first round"
        seat = live.state.to_act
        user = by_id[rec.seats[seat].user.platform_id]
        action = ComputerPlayer(rec.game, "normal", seed=presses).decide(live.state.view(seat), live.round_events)
        assert await user.play_code(action.code()), f"no button leads to {action.code()}"
    raise AssertionError("the round did not end")


@pytest.mark.parametrize("lang", ["en", "ru"])
async def test_a_round_end_shows_the_result_before_the_next_deal(tmp_path, lang):
    gate = Gate()
    world = await make_world(db_path(tmp_path), lang=lang, round_pause=None, sleep=gate.sleep)
    try:
        await open_table(world, "kozel", ["Ann", "Bob"], [], 2)
        first = world.table_message()
        # other messages push the table up during the round: a /help answer in the group
        await world.user("Bob").say(world.chat, "help")
        assert world.group()[-1] is not first
        await play_until_round_ends(world, ["Ann", "Bob"])
        assert gate.asked == [5]  # the table's default pause
        calls = len(world.port.calls)
        hands = {u: [s.message for s in world.port.private(world.users[u].user.id)] for u in ("Ann", "Bob")}
        # the finished round is on view in the table message: its result, when the next deal comes, no buttons
        assert first.message.image_name == "table.jpg" and not first.buttons()
        assert t(lang, "Next deal in {n} s.", n=5) in first.text
        state = (await world.app.live(await world.app.storage.table(1))).state
        assert state.view(None)["round"] == 2  # the next deal is stored already; only what is shown waits
        assert world.table_message() is first
        # nobody's hand shows the next deal yet
        assert {u: [s.message for s in world.port.private(world.users[u].user.id)] for u in hands} == hands
        gate.open.set()
        await world.app.idle()
        after = world.port.calls[calls:]
        # the hands of the next deal first (a group write may wait for the group's window: issue 26), then the
        # finished round's message became its sheet and the next deal's table was posted below it
        assert ("edit_public", first.id) in after
        assert [c for c in after if c[0] == "send_public"] == [("send_public", world.table_message().id)]
        first_hand = after.index(next(c for c in after if c[0] in ("edit_private", "send_private")))
        assert (
            first_hand < after.index(("edit_public", first.id)) < after.index(("send_public", world.table_message().id))
        )
        assert first.message.image_name == "sheet.jpg" and not first.buttons()
        table = world.table_message()
        assert world.group()[-1] is table and table is not first  # at the bottom again
        assert table.buttons()  # the live table keeps its buttons
        # the new table tells the new round only: the finished round's plays are on the sheet just above it
        assert len(first.text.splitlines()) > 2
        assert not set(first.text.splitlines()[1:]) & set(table.text.splitlines()[1:]), (first.text, table.text)
        assert all(not s.buttons() for s in world.group()[:-1] if s.message.image_name in ("table.jpg", "sheet.jpg"))
        for u in ("Ann", "Bob"):  # each hand shows the next deal now
            assert world.port.private(world.users[u].user.id)[-1].message not in hands[u]
        assert await hand_to_play(world)
        # and after the new round's first move the table still tells this round only
        _, mover, code = await next_mover(world)
        assert await mover.play_code(code)
        await world.app.idle()
        assert world.table_message() is table
        assert not set(first.text.splitlines()[1:]) & set(table.text.splitlines()[1:]), (first.text, table.text)
    finally:
        gate.open.set()
        await world.app.close()


async def hand_to_play(world: World) -> bool:
    """The player to act has his hand with buttons."""
    rec = await world.app.storage.table(1)
    seat = (await world.app.live(rec)).state.to_act
    return any(s.buttons() for s in world.port.private(rec.seats[seat].user.platform_id))


async def test_a_pause_of_none_deals_at_once_and_one_new_message_a_round(tmp_path):
    gate = Gate()
    world = await make_world(db_path(tmp_path), round_pause=None, sleep=gate.sleep)
    try:
        host = world.user("Ann")
        await host.say(world.chat, "new", "kozel 2")
        await world.user("Bob").press_label(world.lobby(), "Join", world.chat)
        await host.press_label(world.lobby(), "Settings", world.chat)
        lobby = world.lobby()
        assert any(b.label == "Pause after a round: 5 s" for b in lobby.buttons())
        for label in ("Pause after a round: 5 s", "Pause after a round: 10 s"):
            await host.press_label(world.lobby(), label, world.chat)
        assert any(b.label == "Pause after a round: none" for b in world.lobby().buttons())
        await host.press_label(world.lobby(), "Back", world.chat)
        await host.press_label(world.lobby(), "Start", world.chat)
        public = len(world.group())
        first = world.table_message()
        await play_until_round_ends(world, ["Ann", "Bob"])
        await world.app.idle()
        assert gate.asked == []  # no pause
        assert len(world.group()) == public + 1  # the round's one new group message: the next deal's table
        assert first.message.image_name == "sheet.jpg" and world.group()[-1] is world.table_message()
    finally:
        gate.open.set()
        await world.app.close()


async def test_a_restart_during_the_pause_shows_the_next_deal(tmp_path):
    gate = Gate()
    world = await make_world(db_path(tmp_path), lang="ru", round_pause=None, sleep=gate.sleep)
    try:
        await open_table(world, "kozel", ["Ann", "Bob"], [], 2)
        first = world.table_message()
        await play_until_round_ends(world, ["Ann", "Bob"])
        assert t("ru", "Next deal in {n} s.", n=5) in first.text
        on_view = first.text.splitlines()[1:-1]  # the round's end as the finished round showed it
        world = await reopen(world)  # the worker dies during the pause; the new one finishes the round's end
        await world.app.idle()
        assert first.message.image_name == "sheet.jpg" and not first.buttons()
        # the new worker tells the round's end again on the sheet, from the table's events (nothing in memory)
        assert on_view and on_view[-1] in first.text.splitlines(), (on_view, first.text)
        table = world.table_message()
        assert table is not first and world.group()[-1] is table and table.buttons()
        rec = await world.app.storage.table(1)
        assert rec.deal_pending is None and rec.message_ref["message_id"] == table.id
        assert await hand_to_play(world)
    finally:
        gate.open.set()
        await world.app.close()


async def test_the_next_deals_turn_timer_starts_when_the_deal_is_shown(tmp_path):
    """The round's pause is not taken from the first player of the next deal: his reminder comes the pause later."""
    gate = Gate()
    world = await make_world(db_path(tmp_path), round_pause=None, sleep=gate.sleep)
    try:
        await open_table(world, "kozel", ["Ann", "Bob"], [], 2)
        rec = await world.app.storage.table(1)
        timer = world.app.ctx.timer_of(rec)
        assert timer >= 60  # the table's turn timer runs: a reminder before its end
        lead = world.app.turns.reminder_lead(timer)
        await play_until_round_ends(world, ["Ann", "Bob"])
        rec = await world.app.storage.table(1)
        assert rec.deadline_kind == "remind"
        assert rec.deadline == world.clock.now + timedelta(seconds=5 + timer - lead)
    finally:
        gate.open.set()
        await world.app.close()


def hold_new_tables(world: World, gate: Gate) -> tuple[asyncio.Event, asyncio.Event]:
    """The group's window is spent once the pause is over: a new table message waits (``held`` is set) until
    ``release`` is set."""
    held, release = asyncio.Event(), asyncio.Event()
    send_public = world.port.send_public

    async def slow_group(chat, msg, **kw):
        if msg.image_name == "table.jpg" and gate.open.is_set() and not release.is_set():
            held.set()
            await release.wait()
        return await send_public(chat, msg, **kw)

    world.port.send_public = slow_group
    return held, release


async def next_mover(world: World) -> tuple[TableRec, FakeUser, str]:
    """The table, the player to act, and the code of the move the normal computer player would make for him."""
    rec = await world.app.storage.table(1)
    live = await world.app.live(rec)
    seat = live.state.to_act
    user = next(u for u in world.users.values() if rec.seats[seat].user.platform_id == u.user.id)
    action = ComputerPlayer(rec.game, "normal", seed=1).decide(live.state.view(seat), live.round_events)
    return rec, user, action.code()


async def round_over_next_table_held(world: World, gate: Gate, held: asyncio.Event):
    """Ann and Bob play Kozel to the first round's end; the pause passes and the next deal's table message waits
    for the group (``hold_new_tables``). Returns the finished round's message and ``next_mover``."""
    await open_table(world, "kozel", ["Ann", "Bob"], [], 2)
    first = world.table_message()
    await play_until_round_ends(world, ["Ann", "Bob"])
    gate.open.set()
    await asyncio.wait_for(held.wait(), 30)
    return first, await next_mover(world)


async def test_a_move_while_the_next_table_waits_for_the_group_keeps_the_sheet(tmp_path):
    """After the pause the next deal's hands go out first and the new table message may wait for the group's
    window; a player who moves meanwhile must not turn the finished round's sheet back into a table."""
    gate = Gate()
    world = await make_world(db_path(tmp_path), round_pause=None, sleep=gate.sleep)
    held, release = hold_new_tables(world, gate)
    mover = None
    try:
        first, (rec, user, code) = await round_over_next_table_held(world, gate, held)
        mover = asyncio.create_task(user.play_code(code))  # his hand of the next deal is here already
        for _ in range(50):
            await asyncio.sleep(0.01)
            if (await world.app.storage.table(1)).version > rec.version:
                break
        assert (await world.app.storage.table(1)).version == rec.version + 1
        release.set()
        assert await asyncio.wait_for(mover, 30)
        await world.app.idle()
        assert first.message.image_name == "sheet.jpg" and not first.buttons()  # the round's sheet stays
        tables = [s for s in world.group() if s.message.image_name == "table.jpg" and s.buttons()]
        assert tables == [world.table_message()] and world.group()[-1] is tables[0]
        version = (await world.app.storage.table(1)).version
        assert any(f".{version}." in b.payload for s in world.port.private(user.user.id) for b in s.buttons()) or (
            await hand_to_play(world)
        )
    finally:
        gate.open.set()
        release.set()
        if mover is not None and not mover.done():
            mover.cancel()
        await world.app.close()


async def test_two_workers_post_the_next_deal_once(tmp_path):
    """Worker A ends the round and posts the next deal's table, which waits for the group's window; a move
    delivered to worker B meanwhile must neither deal again nor write over the sheet: A shows B's move once its
    table is up (the deal is claimed by a compare-and-set on the table's message reference)."""
    gate = Gate()
    world = await make_world(db_path(tmp_path), round_pause=None, sleep=gate.sleep)
    second = await worker(world.url, world.port, world.clock, round_pause=None, sleep=gate.sleep)
    held, release = hold_new_tables(world, gate)
    mover = None
    try:
        first, (rec, user, code) = await round_over_next_table_held(world, gate, held)
        user.app = second  # his press reaches the other worker
        mover = asyncio.create_task(user.play_code(code))
        assert await asyncio.wait_for(mover, 30)  # answered by B while A's table waits for the group
        assert (await world.app.storage.table(1)).version == rec.version + 1
        release.set()
        await world.app.idle()
        await second.idle()
        assert first.message.image_name == "sheet.jpg" and not first.buttons()
        tables = [s for s in world.group() if s.message.image_name == "table.jpg" and s.buttons()]
        assert tables == [world.table_message()] and world.group()[-1] is tables[0]  # one deal, at the bottom
        assert tables[0].edits >= 1  # and it shows B's move
    finally:
        gate.open.set()
        release.set()
        if mover is not None and not mover.done():
            mover.cancel()
        await second.close()
        await world.app.close()
