"""Issue 26 in the chat application (fake port, real SQLite): a press never waits for the platform's flood window,
the next player's buttons go out before the round's score sheet, and expected conditions are notices.

``GatedPort`` holds every score sheet at a gate, the way a Telegram group's per-minute window holds a new
message for up to a minute: what players need must not wait behind it.
"""

from __future__ import annotations

import asyncio
import logging

from bot.port import Chat, Command, Message, MessageRef, Press, PrivateStart
from core.ai.player import ComputerPlayer
from testkit.fakeport import FakePort, FakeUser
from tests.app_support import db_path, make_world, open_table, press_kind, worker

SPINS = 400  # event-loop turns (with a short sleep each) a press gets to be answered: a hang bound, not a timing


class GatedPort(FakePort):
    """A platform whose group window is spent: score sheets wait at ``gate`` until it opens."""

    def __init__(self) -> None:
        super().__init__()
        self.gate = asyncio.Event()
        self.held = asyncio.Event()  # a sheet is waiting at the gate

    async def send_public(self, chat: Chat, msg: Message, *, reply_to: Command | None = None, **kw) -> MessageRef:
        if msg.image_name == "sheet.jpg":
            self.held.set()
            await self.gate.wait()
        return await super().send_public(chat, msg, reply_to=reply_to, **kw)

    async def edit_public(self, ref: MessageRef, msg: Message, *, version: int | None = None) -> MessageRef:
        if msg.image_name == "sheet.jpg":  # a finished round's table message becomes its sheet (issue 27)
            self.held.set()
            await self.gate.wait()
        return await super().edit_public(ref, msg, version=version)


async def answered(port: FakePort, press: Press) -> tuple[str | None, bool] | None:
    """The answer of ``press`` once the application gave it (None if it did not within the hang bound)."""
    for _ in range(SPINS):
        found = [(text, alert) for p, text, alert in port.answers if p is press]
        if found:
            return found[0]
        await asyncio.sleep(0.01)
    return None


async def press_soon(user: FakeUser, code: str) -> tuple[Press, asyncio.Task]:
    """Press the button of action ``code`` on my newest hand without waiting for the application to finish."""
    hand = user.hands()[0]
    button = next(b for b in hand.buttons() if b.payload.startswith("a.") and b.payload.endswith("." + code))
    ref = MessageRef(user.port.platform, hand.chat_id, hand.id)
    press = Press(user.user, None, button.payload, ref)
    return press, asyncio.create_task(user.app.press(press))


async def to_concede(world, names: list[str]) -> FakeUser:
    """Play Thousand until a declarer may concede; returns him (his hand has the concede button)."""
    by_seat = {}
    rec = await world.app.storage.table(1)
    for s in rec.seats:
        by_seat[s.seat] = next(world.users[n] for n in names if world.users[n].user.id == s.user.platform_id)
    for n in range(60):
        rec = await world.app.storage.table(1)
        live = await world.app.live(rec)
        seat = live.state.to_act
        codes = [a.code() for a in live.state.legal_actions(seat)]
        if "concede" in codes:
            return by_seat[seat]
        action = ComputerPlayer("thousand", "normal", seed=n).decide(live.state.view(seat), live.round_events)
        assert await by_seat[seat].play_code(action.code())
    raise AssertionError("no declarer could concede")


async def test_a_round_end_does_not_hold_the_table_while_the_sheet_waits(tmp_path):
    """Finding 1: the round-ending press is answered, the next player gets current buttons and can move while
    the round's score sheet still waits for the group's window."""
    world = await make_world(db_path(tmp_path))
    port = GatedPort()
    world.app.ports.clear()
    world.app.attach(port)
    world.port = port
    names = ["Ann", "Bob", "Cid"]
    for n in names:
        world.users[n] = FakeUser(world.app, port, f"u{len(world.users) + 1}", n)
    try:
        await open_table(world, "thousand", names, [], 3)
        declarer = await to_concede(world, names)
        press, task = await press_soon(declarer, "concede")
        await asyncio.wait_for(port.held.wait(), 30)  # the sheet of that round now waits for the group
        assert await answered(port, press) == (None, False)
        rec = await world.app.storage.table(1)
        live = await world.app.live(rec)
        nxt = live.state.to_act
        user = next(u for u in world.users.values() if rec.seats[nxt].user.platform_id == u.user.id)
        for _ in range(SPINS):  # the next player's hand (the new round) reaches him while the sheet waits
            if user.hands() and any(f".{rec.version}." in b.payload for b in user.hands()[0].buttons()):
                break
            await asyncio.sleep(0.01)
        hand = user.hands()[0] if user.hands() else None
        assert hand is not None and any(f".{rec.version}." in b.payload for b in hand.buttons()), (
            "the next player still has old buttons while the score sheet waits"
        )
        code = next(b.payload for b in hand.buttons() if b.payload.startswith(f"a.1.{rec.version}.")).split(".", 3)[3]
        second, second_task = await press_soon(user, code)  # any move on his keyboard (the deal is random)
        assert await answered(port, second) == (None, False), "a move waited for the previous round's sheet"
        assert (await world.app.storage.table(1)).version == rec.version + 1
        # and the move after it reaches the next player too: a group write held by the group's window (the
        # round's sheet, or the next deal's new table message) never holds back the hands of later moves
        rec2 = await world.app.storage.table(1)
        seat2 = (await world.app.live(rec2)).state.to_act
        after = next(u for u in world.users.values() if rec2.seats[seat2].user.platform_id == u.user.id)
        for _ in range(SPINS):
            if after.hands() and any(f".{rec2.version}." in b.payload for b in after.hands()[0].buttons()):
                break
            await asyncio.sleep(0.01)
        assert after.hands() and any(f".{rec2.version}." in b.payload for b in after.hands()[0].buttons()), (
            "the player after the next one still has old buttons while a group write waits"
        )
        port.gate.set()
        await asyncio.gather(task, second_task)
        await world.app.idle()
        sheets = [s for s in world.group() if s.message.image_name == "sheet.jpg"]
        assert len(sheets) == 1  # and the sheet is posted once the window opens
    finally:
        port.gate.set()
        await world.app.close()


async def test_choosing_a_game_while_a_table_is_open_is_a_notice(tmp_path, caplog):
    """Finding 9: a game pressed in the "Which game?" chooser while a table is open gets the notice a typed
    ``new`` gets, and nothing is logged as a crash."""
    world = await make_world(db_path(tmp_path))
    try:
        ann = world.user("Ann")
        await ann.say(world.chat, "new")
        chooser = world.group()[-1]
        assert [b.payload for b in chooser.buttons()] == ["N.thousand", "N.deberts", "N.kozel"]
        await ann.press(chooser, chooser.buttons()[1], world.chat)  # a Deberts table opens
        caplog.set_level(logging.INFO)
        caplog.clear()
        text, _alert = await world.user("Bob").press(chooser, chooser.buttons()[2], world.chat)
        assert text == "A table is already open here."
        assert not [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]
        rec = await world.app.storage.open_table((await world.app.storage.chat("fake", "g1", None, "")).id)
        assert rec is not None and rec.game == "deberts"
    finally:
        await world.app.close()


async def test_a_press_delivered_to_two_workers_is_answered_as_done_by_both(tmp_path):
    """Finding 2: Telegram delivers one press to two workers; one stores the move, the other loses the race
    (or finds the table moved on) and, seeing that the stored move is this very press, answers as the winner
    does. A second tap of the same button (another press) still gets its notice."""
    world = await make_world(db_path(tmp_path))
    second_port = FakePort()
    second = await worker(world.url, second_port, world.clock)
    try:
        await open_table(world, "deberts", ["Ann", "Bob"], [], 2)
        rec = await world.app.storage.table(1)
        live = await world.app.live(rec)
        seat = live.state.to_act
        user = next(u for u in world.users.values() if rec.seats[seat].user.platform_id == u.user.id)
        hand = user.hands()[0]
        payload = next(b.payload for b in hand.buttons() if b.payload.startswith(f"a.1.{rec.version}."))
        ref = MessageRef(world.port.platform, hand.chat_id, hand.id)
        press = Press(user.user, None, payload, ref, key="cb-1")
        again = Press(user.user, None, payload, ref, key="cb-1")  # the same callback query, re-delivered
        await asyncio.gather(world.app.press(press), second.press(again))
        answers = [a for p, a, _ in world.port.answers if p is press] + [a for p, a, _ in second_port.answers]
        assert answers == [None, None]
        assert (await world.app.storage.table(1)).version == rec.version + 1
        moves = await world.app.storage.moves(1)
        assert [m.seq for m in moves].count(rec.version + 1) == 1
        tap = Press(user.user, None, payload, ref, key="cb-2")  # a second tap: another press
        await second.press(tap)
        assert second_port.answers[-1][0] is tap and second_port.answers[-1][1] is not None
    finally:
        await second.close()
        await world.app.close()


async def test_an_invitation_answered_on_one_worker_counts_on_the_other(tmp_path):
    """Finding 3: Bob could not be written to privately when he joined (worker 1); he opens the private chat
    through worker 2; the host's Start on worker 1 starts the game."""
    world = await make_world(db_path(tmp_path))
    second_port = FakePort()
    second = await worker(world.url, second_port, world.clock)
    try:
        ann, bob = world.user("Ann"), world.user("Bob")
        world.port.blocked.add(bob.user.id)
        await ann.say(world.chat, "new", "deberts 2")
        text, _ = await press_kind(world, bob, "j")
        assert world.port.invites and world.port.invites[-1][3] == "t1"
        await second.private_start(PrivateStart(bob.user, "t1"))  # Bob presses Start in the private chat
        world.port.blocked.discard(bob.user.id)
        text, _ = await press_kind(world, ann, "s")
        assert text is None, text
        assert (await world.app.storage.table(1)).status == "playing"
    finally:
        await second.close()
        await world.app.close()


async def test_the_table_command_shows_the_table_and_the_hands_again(tmp_path):
    """Finding 10: ``table`` posts the game's table message anew (the next move edits that one) and sends the
    asker and the player to act their hands again as new messages; in the lobby it posts the lobby again."""
    world = await make_world(db_path(tmp_path))
    try:
        ann, bob = world.user("Ann"), world.user("Bob")
        await bob.say(world.chat, "table")  # a refusal is told to the asker alone (issue 27 point 4)
        assert world.port.private(bob.user.id)[-1].text == "No table is open here. Start one with /new."
        assert not world.group()
        await ann.say(world.chat, "new", "deberts 2")
        await bob.say(world.chat, "table")
        lobbies = [s for s in world.group() if any(b.payload.startswith("j.") for b in s.buttons())]
        assert len(lobbies) == 2 and world.group()[-1].id == lobbies[-1].id  # the lobby, posted again
        await open_table_started(world)
        rec = await world.app.storage.table(1)
        live = await world.app.live(rec)
        to_act = next(u for u in (ann, bob) if rec.seats[live.state.to_act].user.platform_id == u.user.id)
        other = bob if to_act is ann else ann
        old_table = world.table_message()
        buttons = old_table.buttons()
        private_before = {u.user.id: len(world.port.private(u.user.id)) for u in (ann, bob)}
        await other.say(world.chat, "table")
        new_table = world.table_message()
        assert new_table.id != old_table.id and new_table.buttons() == buttons
        # the old table message is retired (issue 27 point 1): its picture stays, its buttons are gone
        assert old_table.message.image_name == "table.jpg" and not old_table.buttons()
        for u in (ann, bob):  # the asker and the player to act: a new hand message each
            assert len(world.port.private(u.user.id)) == private_before[u.user.id] + 1
        assert to_act.hands()[0].id == world.port.private(to_act.user.id)[-1].id
        action = ComputerPlayer("deberts", "normal", seed=5).decide(live.state.view(live.state.to_act), [])
        assert await to_act.play_code(action.code())
        await world.app.idle()
        assert world.table_message().id == new_table.id and new_table.edits == 1  # the move edited the new one
    finally:
        await world.app.close()


async def open_table_started(world) -> None:
    """Bob joins the Deberts lobby Ann opened, Ann starts it."""
    await press_kind(world, world.user("Bob"), "j")
    text, _ = await press_kind(world, world.user("Ann"), "s")
    assert text is None, text


async def test_a_reminder_has_a_button_that_shows_the_hand_again(tmp_path):
    """Finding 10: the turn reminder carries "Show my hand", which sends the hand again."""
    world = await make_world(db_path(tmp_path))
    try:
        ann = world.user("Ann")
        await ann.say(world.chat, "new", "deberts 2")
        await open_table_started(world)
        rec = await world.app.storage.table(1)
        assert rec.deadline_kind == "remind"
        world.clock.advance(91)
        assert await world.app.tick() == 1
        await world.app.idle()
        rec = await world.app.storage.table(1)
        seat = (await world.app.live(rec)).state.to_act
        user = next(u for u in world.users.values() if rec.seats[seat].user.platform_id == u.user.id)
        reminder = world.port.private(user.user.id)[-1]
        assert "your move — 30 s left" in reminder.text
        before = len(world.port.private(user.user.id))
        text, _ = await user.press_label(reminder, "Show my hand")
        assert text is None
        assert len(world.port.private(user.user.id)) == before + 1
        assert user.hands()[0].id == world.port.private(user.user.id)[-1].id
    finally:
        await world.app.close()


async def test_a_worker_that_died_before_showing_its_move_is_covered_by_the_redelivery(tmp_path):
    """Issue 36, seen in the chaos run: a worker stored a press's move and was killed before it showed it (the
    hands, the table); Telegram delivered the press again to the other worker, which found the move stored by this
    very press. It answers as done and shows the table's current state: the player to act holds the new
    version's buttons (he was left with the old, out-of-date ones), the group the current table."""
    world = await make_world(db_path(tmp_path))
    dying = await worker(world.url, world.port, world.clock)  # shares the platform: a second worker
    try:
        await open_table(world, "deberts", ["Ann", "Bob"], [], 2)
        await world.app.idle()
        rec = await world.app.storage.table(1)
        seat = (await world.app.live(rec)).state.to_act
        user = next(u for u in world.users.values() if rec.seats[seat].user.platform_id == u.user.id)
        hand = user.hands()[0]
        payload = next(b.payload for b in hand.buttons() if b.payload.startswith(f"a.1.{rec.version}."))
        ref = MessageRef(world.port.platform, hand.chat_id, hand.id)
        table_before = world.table_message().message
        dying.publishing.publish = lambda *args, **kwargs: asyncio.Event()  # killed before it showed anything
        await dying.press(Press(user.user, None, payload, ref, key="cb-1"))
        assert (await world.app.storage.table(1)).version == rec.version + 1
        again = Press(user.user, None, payload, ref, key="cb-1")  # the same callback query, delivered again
        await world.app.press(again)
        await world.app.idle()
        assert [a for p, a, _ in world.port.answers if p is again] == [None]
        rec = await world.app.storage.table(1)
        to_act = (await world.app.live(rec)).state.to_act
        mover = next(u for u in world.users.values() if rec.seats[to_act].user.platform_id == u.user.id)
        versions = {b.payload.split(".")[2] for b in mover.hands()[0].buttons() if b.payload.startswith("a.")}
        assert versions == {str(rec.version)}
        assert world.table_message().message != table_before
    finally:
        await dying.close()
        await world.app.close()


async def test_a_press_of_an_out_of_date_button_catches_the_screens_up(tmp_path):
    """Issue 36, seen in the chaos run: a worker stored a move and was killed before it showed it, having already
    accepted the update (Telegram does not deliver it again). The players' screens stayed a move behind: every
    press was "out of date" until the turn timer moved. The first out-of-date press shows the current state: the
    player to act gets the new version's buttons, the group the current table."""
    world = await make_world(db_path(tmp_path))
    dying = await worker(world.url, world.port, world.clock)
    try:
        await open_table(world, "deberts", ["Ann", "Bob"], [], 2)
        await world.app.idle()
        rec = await world.app.storage.table(1)
        seat = (await world.app.live(rec)).state.to_act
        user = next(u for u in world.users.values() if rec.seats[seat].user.platform_id == u.user.id)
        hand = user.hands()[0]
        payload = next(b.payload for b in hand.buttons() if b.payload.startswith(f"a.1.{rec.version}."))
        ref = MessageRef(world.port.platform, hand.chat_id, hand.id)
        table_before = world.table_message().message
        dying.publishing.publish = lambda *args, **kwargs: asyncio.Event()  # killed before it showed anything
        await dying.press(Press(user.user, None, payload, ref, key="cb-1"))
        tap = Press(user.user, None, payload, ref, key="cb-2")  # his screen is behind: he presses again
        await world.app.press(tap)
        await world.app.idle()
        assert "out of date" in [a for p, a, _ in world.port.answers if p is tap][0]
        rec = await world.app.storage.table(1)
        to_act = (await world.app.live(rec)).state.to_act
        mover = next(u for u in world.users.values() if rec.seats[to_act].user.platform_id == u.user.id)
        versions = {b.payload.split(".")[2] for b in mover.hands()[0].buttons() if b.payload.startswith("a.")}
        assert versions == {str(rec.version)}
        assert world.table_message().message != table_before
    finally:
        await dying.close()
        await world.app.close()


async def test_a_reader_catching_the_table_up_while_a_move_is_stored_does_not_tell_it_twice(tmp_path):
    """A web table page's poll reads the table between the move's compare-and-set and the application's own update
    of its cached table: the cache was caught up from the log by the reader and then advanced again by the mover,
    so the move's sentence appeared twice in the lines (seen once in a Thousand)."""
    from bot import payloads
    from bot.live import replay
    from bot.playground import PlaygroundPort
    from core.base import Action
    from tests.webapp_support import new_app, open_game, person

    app = await new_app(tmp_path)
    app.attach(PlaygroundPort(edit_interval=0.01))
    anna, boris = person("Anna"), person("Boris")
    rec = await open_game(app, "race", anna, "kozel", 2, people=(boris,))
    storage = app.storage
    commit_move = storage.commit_move

    async def commit_then_read(*args, **kwargs):
        stored = await commit_move(*args, **kwargs)
        await app.live(await storage.table(stored.id))  # the page's poll, right after the commit
        return stored

    storage.commit_move = commit_then_read  # type: ignore[method-assign]
    try:
        for _ in range(3):
            rec = await storage.table(rec.id)
            live = await app.live(rec)
            view = live.state.view(live.state.view(None)["to_act"])
            action = Action.from_json(view["legal"][0])
            mover = anna if rec.seats[action.seat].user.name == "Anna" else boris
            payload = payloads.make("a", table=rec.id, version=rec.version, code=action.code())
            await app.press(Press(mover, Chat("playground", "race", title="race"), payload))
            await app.idle()
    finally:
        storage.commit_move = commit_move  # type: ignore[method-assign]
    rec = await storage.table(rec.id)
    told = (await app.live(rec)).recent
    once = replay(rec, await storage.moves(rec.id), app.ctx.core_options(rec)).recent
    assert [e.to_json() for e in told] == [e.to_json() for e in once]
    await app.close()
