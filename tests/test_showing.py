"""One way to show a table (issue 40): every message shows the table at a version, drawn when it is sent.

Deterministic interleavings through the application and the fake port (which keeps, like every port, what each
message shows: ``bot.written``). Each time the test looks at what the people end up holding: every seated person's
newest hand carries buttons of the table's current version when it is his turn, and no hand shows an older deal.
"""

from __future__ import annotations

import asyncio
from typing import Any

from bot.payloads import parse
from bot.port import Message, MessageRef, Press, Stale, User
from core.ai.player import ComputerPlayer
from testkit.fakeport import FakePort
from tests.app_support import World, db_path, make_world, open_table


async def version(world: World) -> int:
    return (await world.app.storage.table(1)).version


async def to_act(world: World) -> str | None:
    """The person to act (None: a computer seat, or nobody)."""
    rec = await world.app.storage.table(1)
    seat = (await world.app.live(rec)).state.to_act
    if seat is None or rec.seats[seat].user is None:
        return None
    return next(n for n, u in world.users.items() if u.user.id == rec.seats[seat].user.platform_id)


def move_versions(world: World, name: str) -> set[int]:
    """The versions of the move buttons in the person's newest private message with moves."""
    hands = world.users[name].hands()
    return {parse(b.payload).version for b in hands[0].buttons() if b.payload.startswith("a.")} if hands else set()


async def assert_everyone_current(world: World) -> None:
    await world.app.idle()
    v = await version(world)
    mover = await to_act(world)
    if mover is not None:
        assert move_versions(world, mover) == {v}, (mover, move_versions(world, mover), v)
    rec = await world.app.storage.table(1)
    live = await world.app.live(rec)
    for s in rec.seats:  # every person's newest hand shows his cards of now
        if s.user is None:
            continue
        name = next(n for n, u in world.users.items() if u.user.id == s.user.platform_id)
        newest = world.port.shown[world.port.written.current(_ref(s.private_ref).message_id)]
        assert newest.message.key == world.app.publishing.hand_key(
            rec, s.seat, live.state.view(s.seat), await world.app.people.chat_by_id(rec.chat_id)
        ), name


def _ref(raw: Any) -> MessageRef:
    ref = MessageRef.from_json(raw)
    assert ref is not None
    return ref


async def play_one(world: World, seed: int) -> None:
    rec = await world.app.storage.table(1)
    live = await world.app.live(rec)
    seat = live.state.to_act
    name = await to_act(world)
    assert name is not None, "a computer seat is to act"
    action = ComputerPlayer(rec.game, "normal", seed=seed).decide(live.state.view(seat), live.round_events)
    assert await world.users[name].play_code(action.code()), action.code()


class HeldHands(FakePort):
    """Private writes wait while ``gate`` is clear (a slow private chat): moves are stored meanwhile."""

    def __init__(self) -> None:
        super().__init__()
        self.gate = asyncio.Event()
        self.gate.set()
        self.waiting = 0

    async def edit_private(self, user: User, ref: MessageRef, msg: Message, **kw: Any) -> MessageRef:
        self.waiting += 1
        await self.gate.wait()
        self.waiting -= 1
        return await super().edit_private(user, ref, msg, **kw)


async def test_moves_stored_while_the_hands_are_on_their_way_end_with_everyone_on_the_current_version(tmp_path):
    """The hands of a move are on their way (the private chat is slow) when the next moves are stored: when the
    lane gets to write, it draws the table as stored then. Nobody is left with an older deal or older buttons."""
    port = HeldHands()
    world = await make_world(db_path(tmp_path), port=port)
    try:
        await open_table(world, "thousand", ["Ann", "Bob", "Cid"], [], 3)
        port.gate.clear()
        start = await version(world)
        pressing = []
        for seed in range(3):  # three moves, each pressed while the hands of the ones before wait
            v = await version(world)
            rec = await world.app.storage.table(1)
            live = await world.app.live(rec)
            seat = live.state.to_act
            name = await to_act(world)
            action = ComputerPlayer(rec.game, "normal", seed=seed).decide(live.state.view(seat), live.round_events)
            # the mover's buttons of now are the ones he was sent last: pressed straight from the record
            pressing.append(asyncio.create_task(world.app.press(_press(world, name, rec.id, v, action.code()))))
            for _ in range(200):
                if await version(world) > v:
                    break
                await asyncio.sleep(0.005)
        assert await version(world) == start + 3
        port.gate.set()
        await asyncio.gather(*pressing)
        await assert_everyone_current(world)
    finally:
        port.gate.set()
        await world.app.close()


def _press(world: World, name: str | None, table: int, v: int, code: str) -> Press:
    assert name is not None
    return Press(world.users[name].user, None, f"a.{table}.{v}.{code}")


class RefusesOnce(FakePort):
    """Refuses the private writes of some people as stale while armed (another worker showed a newer hand, then
    that worker died before its next one): nothing is written."""

    def __init__(self) -> None:
        super().__init__()
        self.refuse: set[str] = set()
        self.refused = 0

    async def edit_private(self, user: User, ref: MessageRef, msg: Message, **kw: Any) -> MessageRef:
        if user.id in self.refuse:
            self.refused += 1
            raise Stale("another worker showed a newer hand")
        return await super().edit_private(user, ref, msg, **kw)


async def test_a_write_refused_as_stale_is_followed_by_the_newer_hand(tmp_path):
    """A hand write refused as stale is not remembered as shown: the next drawing of that person's hand, though
    it shows the same cards and choices as the refused one, is written (the message's record decides)."""
    port = RefusesOnce()
    world = await make_world(db_path(tmp_path), port=port)
    try:
        await open_table(world, "thousand", ["Ann", "Bob", "Cid"], [], 3)
        mover = await to_act(world)
        port.refuse = {world.users[n].user.id for n in ("Ann", "Bob", "Cid") if n != mover}
        await play_one(world, 1)  # the next person's hand changes (his turn now): refused
        await world.app.idle()
        assert port.refused
        port.refuse = set()
        world.app.publishing.show_current(1)  # the same table drawn again (e.g. a press of an old button)
        await assert_everyone_current(world)
    finally:
        await world.app.close()


async def test_the_cached_table_never_goes_back_to_an_older_version(tmp_path):
    """A reader with an older row (a web table's poll, a press that read before a move) gets the table at that
    row's version, and the cache keeps the newer table: later moves are drawn from the newest."""
    world = await make_world(db_path(tmp_path))
    try:
        await open_table(world, "kozel", ["Ann", "Bob"], [], 2)
        old = await world.app.storage.table(1)
        await play_one(world, 1)
        await world.app.idle()
        new = await world.app.storage.table(1)
        assert (await world.app.ctx.live(old)).version == old.version
        assert world.app.ctx.live_tables[1].version == new.version
        await play_one(world, 2)
        await assert_everyone_current(world)
    finally:
        await world.app.close()


async def test_a_rounds_end_then_a_next_deal_reach_everyone_with_a_computer_seat(tmp_path):
    """Through several deals with a computer seat and no pause: after each move everyone holds the current
    version (the one signal the computer moves on: the hands of the move before it are out)."""
    world = await make_world(db_path(tmp_path))
    try:
        await open_table(world, "deberts", ["Ann"], ["normal"], 2)
        first = (await world.app.live(await world.app.storage.table(1))).state.view(None)["round"]
        for seed in range(400):
            await world.app.idle()
            rec = await world.app.storage.table(1)
            live = await world.app.live(rec)
            if live.state.finished or live.state.view(None)["round"] >= first + 2:
                break
            await play_one(world, seed)
        await assert_everyone_current(world)
    finally:
        await world.app.close()


async def test_a_move_stored_while_the_computer_driver_looks_gives_the_computer_its_turn(tmp_path, monkeypatch):
    """The computer's driver reads the table (a person's turn: it is about to end) when that person's move is
    stored and kicks it: the driver, still running, must look once more. Before, the kick found it running and did
    nothing, the driver ended on its old look, and the computer never moved: the person waited without buttons
    (issue 40's "nobody moves" at a new deal, seen 1 run in 4)."""
    world = await make_world(db_path(tmp_path))
    try:
        await open_table(world, "deberts", ["Ann"], ["normal"], 2)
        await world.app.idle()
        assert await to_act(world) == "Ann"
        app = world.app
        real = app.ctx.storage.table
        looking, go_on = asyncio.Event(), asyncio.Event()

        async def slow_look(table_id: int):
            rec = await real(table_id)
            if asyncio.current_task() is app.ctx.drivers.get(table_id) and not go_on.is_set():
                looking.set()  # the driver has read the table: Ann's turn
                await go_on.wait()
            return rec

        monkeypatch.setattr(app.ctx.storage, "table", slow_look)
        app.turns.kick(1)
        await looking.wait()
        before = await version(world)
        await play_one(world, 3)  # Ann's move: the computer's turn now, and a kick
        assert await version(world) == before + 1
        go_on.set()
        await app.idle()
        assert await version(world) > before + 1 or await to_act(world) == "Ann"  # the computer moved
        assert await to_act(world) in ("Ann", None)
    finally:
        await world.app.close()
