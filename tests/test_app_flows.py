"""The chat application's flows through the fake port: refused presses, privacy, restarts, timers, the lobby."""

from __future__ import annotations

import json

import pytest

from bot.port import Press, PrivateStart
from bot.storage import ABANDONED, FINISHED, PLAYING
from core.i18n import t
from core.records import result_of
from tests.app_support import GameGoesOn, db_path, make_world, open_table, play_to_end, press_kind, reopen


async def _table_state(world, table_id=1):
    rec = await world.app.storage.table(table_id)
    moves = await world.app.storage.moves(table_id)
    return (rec.version, json.dumps(rec.state, sort_keys=True), len(moves), world.port.snapshot())


def _to_act_user(world, rec, live):
    seat = live.state.to_act
    uid = next(s.user.platform_id for s in rec.seats if s.seat == seat)
    return next(u for u in world.users.values() if u.user.id == uid)


async def test_refused_presses_change_nothing(tmp_path):
    world = await make_world(db_path(tmp_path))
    try:
        await open_table(world, "thousand", ["Ann", "Bob", "Cid"], [], 3)
        dan = world.user("Dan")
        rec = await world.app.storage.table(1)
        live = await world.app.live(rec)
        mover = _to_act_user(world, rec, live)
        hand = mover.hands()[0]
        good = next(b for b in hand.buttons() if b.payload.startswith("a."))
        other = next(u for u in world.users.values() if u is not mover and u is not dan)
        stale = good.payload.replace(f".{rec.version}.", f".{rec.version + 7}.", 1)
        cases = [
            (dan, good.payload, "You are not playing at this table."),
            (other, good.payload, "It is not your turn."),
            (mover, stale, "This button is out of date: the game has moved on."),
            (mover, f"a.1.{rec.version}.play,c=ZZ", "It is not your turn."),
            (mover, f"a.1.{rec.version}.bid,v=7", "That move is not allowed now."),
            (mover, f"a.1.{rec.version}.fly", "That move is not allowed now."),
            (mover, f"a.999.{rec.version}.pass", "This table no longer exists."),
            (mover, "a.1.x.pass", "This button is not valid."),
            (mover, "💥💥", "This button is not valid."),
            (mover, "", "This button is not valid."),
            (mover, "s.1", "The game has already started."),
            (dan, "k.1", "You are not playing at this table."),
        ]
        if live.state.phase == "bidding":
            cases[3] = (mover, f"a.1.{rec.version}.play,c=ZZ", "That move is not allowed now.")
        for user, payload, expected in cases:
            before = await _table_state(world)
            answers = len(world.port.answers)
            await world.app.press(Press(user.user, world.chat, payload, None))
            assert len(world.port.answers) == answers + 1, payload
            text, _alert = world.port.answers[-1][1:]
            assert text == expected, (payload, text)
            assert await _table_state(world) == before, payload
        # the real button still works afterwards, once: a second press of it is stale
        text, _ = await mover.press(hand, good)
        assert text is None
        again = await _table_state(world)
        await world.app.press(Press(mover.user, None, good.payload, None))
        assert world.port.answers[-1][1] == "This button is out of date: the game has moved on."
        assert await _table_state(world) == again
    finally:
        await world.app.close()


async def test_one_table_edit_per_move_and_hands_only_in_private(tmp_path):
    world = await make_world(db_path(tmp_path))
    try:
        await open_table(world, "kozel", ["Ann", "Bob"], ["easy", "normal"], 4)
        await play_to_end(world, ["Ann", "Bob"], 1)
        await world.app.idle()
        rec = await world.app.storage.table(1)
        assert rec.status == FINISHED
        public = world.group()
        # at most one table picture per move: the first deal, then an edit (or at a round's end the next deal's
        # table posted below, while the finished round's message becomes its sheet); a move's edit not yet made
        # when the next move comes is replaced by the newer one (issue 26)
        tables = [m for shown in public for m in shown.history if m.image_name == "table.jpg"]
        assert 0 < len(tables) <= rec.version + 1
        sheets = [s for s in public if s.message.image_name == "sheet.jpg"]
        state = world.app._live[1].state
        played = [row for row in state.view(None)["score_sheet"] if not row["redeal"]]
        assert len(sheets) == len(played)  # one score sheet per round played (an automatic redeal has none)
        assert public[-1].message.image_name == "sheet.jpg" and public[-2] is world.table_message()
        for shown in public:  # no hand picture was ever public (FakePort refuses it too)
            assert all(m.image_name != "hand.jpg" for m in shown.history)
        for user in (world.users["Ann"], world.users["Bob"]):
            mine = world.port.private(user.user.id)
            assert mine and all(s.chat_id == f"private:{user.user.id}" for s in mine)
            hands = [s for s in mine if s.message.image_name == "hand.jpg"]
            assert len(hands) == 1  # one private hand message, edited in place
            assert hands[0].text.startswith("Kozel #1 · Kitchen table")
        record = await world.app.storage.record(1)
        assert result_of(record)["totals"] == state.totals
        history = await world.app.storage.recent_games(rec.chat_id)
        assert history[0].status == FINISHED
    finally:
        await world.app.close()


async def test_restart_in_the_middle_continues(tmp_path):
    world = await make_world(db_path(tmp_path))
    try:
        await open_table(world, "deberts", ["Ann", "Bob"], [], 2)
        await play_to_end(world, ["Ann", "Bob"], 1, max_presses=9)
    except GameGoesOn:  # the restart comes in the middle of the game; a failed check on the way still fails
        pass
    rec = await world.app.storage.table(1)
    assert rec.status == PLAYING and rec.version >= 9
    world = await reopen(world)
    try:
        await play_to_end(world, ["Ann", "Bob"], 1)
        rec = await world.app.storage.table(1)
        assert rec.status == FINISHED
        record = await world.app.storage.record(1)
        live = await world.app.live(rec)
        assert result_of(record)["totals"] == live.state.totals
    finally:
        await world.app.close()


async def test_turn_timers_remind_move_take_over_and_give_back(tmp_path):
    world = await make_world(db_path(tmp_path))
    app = world.app
    try:
        await open_table(world, "deberts", ["Ann", "Bob"], [], 2)
        ann, bob = world.users["Ann"], world.users["Bob"]
        timeouts = 0
        while timeouts < 3:
            rec = await app.storage.table(1)
            live = await app.live(rec)
            mover = _to_act_user(world, rec, live)
            if mover is bob:
                view = live.state.view(live.state.to_act)
                assert await bob.play_code(_first(view)), "Bob moves"
                await app.idle()
                continue
            assert rec.deadline is not None and rec.deadline_kind == "remind"
            world.clock.advance(89)
            assert await app.tick() == 0  # not yet
            world.clock.advance(2)
            assert await app.tick() == 1
            assert "your move — 30 s left" in world.port.private(ann.user.id)[-1].text
            if timeouts == 1:  # a restart between the reminder and the timeout keeps the timer
                world = await reopen(world)
                app = world.app
            world.clock.advance(31)
            assert await app.tick() == 1
            await app.idle()
            timeouts += 1
            rec = await app.storage.table(1)
            seat = next(s for s in rec.seats if s.user and s.user.name == "Ann")
            moves = await app.storage.moves(1)
            assert moves[-1].by in ("timeout", "computer") and moves[-1].seat == seat.seat
            assert seat.timeouts == timeouts and seat.taken_over == (timeouts >= 3)
            if timeouts < 3:
                assert "Ann ran out of time" in world.table_message().text
        assert any("missed 3 turns in a row" in s.text for s in world.group())
        assert "Take my seat back" in [b.label for b in world.table_message().buttons()]
        text, _ = await ann.press_label(world.table_message(), "Take my seat back", world.chat)
        assert text == "Welcome back: your seat is yours again."
        rec = await app.storage.table(1)
        seat = next(s for s in rec.seats if s.user and s.user.name == "Ann")
        assert not seat.taken_over and seat.timeouts == 0
        await play_to_end(world, ["Ann", "Bob"], 1)
        assert (await app.storage.table(1)).status == FINISHED
    finally:
        await app.close()


def _first(view):
    from core.base import Action

    return Action.from_json(view["legal"][0]).code()


async def test_lobby_rules(tmp_path):
    world = await make_world(db_path(tmp_path))
    try:
        ann, bob, cid = world.user("Ann"), world.user("Bob"), world.user("Cid")
        await ann.say(world.chat, "new", "kozel 2")
        assert world.lobby().text.startswith("Kozel: a table for 2 is open.")
        await ann.say(world.chat, "new", "thousand")
        assert world.port.private(ann.user.id)[-1].text == "A table is already open here."  # to her alone
        text, _ = await ann.press_label(world.lobby(), "Join", world.chat)
        assert text == "You already have a seat at this table."
        text, alert = await bob.press_label(world.lobby(), "Settings", world.chat)
        assert text == "Only the host can do that." and alert
        await ann.press_label(world.lobby(), "Settings", world.chat)
        text, _ = await ann.press_label(world.lobby(), "Fish", world.chat)
        assert text == "Fish: the most takes all"
        await ann.press_label(world.lobby(), "Back", world.chat)
        await bob.press_label(world.lobby(), "Join", world.chat)
        text, _ = await cid.press_label(world.lobby(), "Join", world.chat)
        assert text == "The table is full."
        text, _ = await bob.press_label(world.lobby(), "Leave", world.chat)
        assert text == "You have left the table."
        await ann.say(world.chat, "stop")
        assert (await world.app.storage.table(1)).status == ABANDONED
        chat = await world.app.storage.chat(world.port.platform, world.chat.id)
        assert chat.defaults["kozel"]["fish"] == "one"  # the chat remembers the host's choice
        await ann.say(world.chat, "new", "kozel 2")
        assert "House rules: Fish: the most takes all" in world.lobby().text
    finally:
        await world.app.close()


async def test_a_player_who_cannot_be_reached_is_invited(tmp_path):
    world = await make_world(db_path(tmp_path))
    try:
        ann, bob = world.user("Ann"), world.user("Bob")
        world.port.blocked.add(bob.user.id)
        await ann.say(world.chat, "new", "deberts")
        await bob.press_label(world.lobby(), "Join", world.chat)
        chat, user, _msg, payload = world.port.invites[-1]
        assert user.id == bob.user.id and payload == "t1"
        text, alert = await ann.press_label(world.lobby(), "Start", world.chat)
        assert text == "Waiting for Bob to open a private chat with me." and alert
        await bob.open_private(payload)
        assert "you have a seat" in world.port.private(bob.user.id)[-1].text
        text, _ = await ann.press_label(world.lobby(), "Start", world.chat)
        assert text is None
        assert bob.hands() or world.port.private(bob.user.id)[-1].message.image_name == "hand.jpg"
    finally:
        await world.app.close()


@pytest.mark.parametrize("lang", ["en", "ru"])
async def test_a_kozel_invitation_speaks_of_tiles(tmp_path, lang):
    """Dominoes are tiles: the group's invitation and its button say so (issue 27 point 9)."""
    world = await make_world(db_path(tmp_path), lang=lang)
    try:
        ann, bob = world.user("Ann", lang), world.user("Bob", lang)
        world.port.blocked.add(bob.user.id)
        await ann.say(world.chat, "new", "kozel 2")
        await press_kind(world, bob, "j")
        _chat, _user, msg, _payload = world.port.invites[-1]
        said = t(
            lang, "{name}, I cannot write to you privately yet: press the button below to get your tiles.", name="Bob"
        )
        assert msg.text == said
        invitation = next(s for s in world.group() if s.text == said)
        assert [b.label for b in invitation.buttons()] == [t(lang, "Show my tiles")]
    finally:
        await world.app.close()


async def test_commands_tell_results_and_refuse_bad_input(tmp_path):
    world = await make_world(db_path(tmp_path), lang="ru")
    try:
        ann = world.user("Аня", "ru")
        await ann.say(world.chat, "new", "domino 9")  # refusals go to the one who typed, privately
        assert world.port.private(ann.user.id)[-1].text == "В Козёл играют от 2 до 4 игроков."
        await ann.say(world.chat, "fly")
        assert world.port.private(ann.user.id)[-1].text == "Неизвестная команда. /help покажет, что я понимаю."
        await ann.say(world.chat, "top")
        assert world.port.private(ann.user.id)[-1].text == "Здесь ещё нет законченных партий."
        assert world.group() == []
        await open_table(world, "kozel", ["Аня"], ["easy"], 2)
        await play_to_end(world, ["Аня"], 1)
        await ann.say(world.chat, "top")
        assert "1. " in world.group()[-1].text and "рейтинг" in world.group()[-1].text
        await ann.say(world.chat, "me")
        assert "Козёл: 1 партия, " in world.group()[-1].text  # each count with its own plural
        await ann.say(world.chat, "history")
        assert "#1 Козёл" in world.group()[-1].text
        await ann.say(world.chat, "export")
        doc = world.group()[-1].message.document
        assert doc is not None and doc.filename == "kozel-1.json"
        assert result_of(json.loads(doc.data))["totals"] == world.app._live[1].state.totals
        await ann.say(world.chat, "lang", "uk")
        assert world.group()[-1].text == "Мова чату тепер українська."
        await ann.say(world.chat, "help")
        assert world.group()[-1].text.startswith("Грайте з друзями")
        await ann.open_private()
        await world.app.private_start(PrivateStart(ann.user, "t999"))
        assert "/new" in world.port.private(ann.user.id)[-1].text
    finally:
        await world.app.close()


async def test_computer_seeds_are_not_the_deal_seed_and_thinking_is_capped(tmp_path):
    world = await make_world(db_path(tmp_path))
    try:
        await open_table(world, "deberts", ["Ann"], ["strong"], 2)
        rec = await world.app.storage.table(1)
        seed = world.app.ai_seed(rec.id, 1)
        assert rec.seed not in seed and seed != world.app.ai_seed(rec.id, 0)
        other = await make_world(db_path(tmp_path))
        try:
            assert other.app.ai_seed(rec.id, 1) != seed  # a keyed hash: not computable from the table alone
        finally:
            await other.app.close()
        assert world.app.computer(rec, 1, "strong").budget.cap_ms == 300  # its search stops in time
        world.app.think_cap = 1e-6  # a strong player that cannot finish in time: the normal level moves
        assert world.app.computer(rec, 1, "strong").budget.cap_ms == pytest.approx(1e-3)  # never above the bot's
        live = await world.app.live(rec)
        if live.state.to_act == 1:
            action = await world.app.decide(rec, live, 1, "strong")
            assert action in live.state.legal_actions(1)
        await play_to_end(world, ["Ann"], 1)
        assert (await world.app.storage.table(1)).status == FINISHED
    finally:
        await world.app.close()


async def test_show_my_hand_sends_it_again_and_retires_the_old_one(tmp_path):
    world = await make_world(db_path(tmp_path))
    try:
        await open_table(world, "kozel", ["Ann"], ["easy"], 2)
        ann = world.users["Ann"]
        await world.app.idle()
        old = [s for s in world.port.private(ann.user.id) if s.message.image_name == "hand.jpg"][-1]
        text, _ = await ann.press_label(world.table_message(), "Show my", world.chat)
        assert text is None
        hands = [s for s in world.port.private(ann.user.id) if s.message.image_name == "hand.jpg"]
        assert hands[-1] is not old and hands[-1].buttons() == old.history[-2].all_buttons()
        assert old.buttons() == [] and "shown again" in old.text
        dan = world.user("Dan")
        text, alert = await dan.press_label(world.table_message(), "Show my", world.chat)
        assert text == "You are not playing at this table." and alert
    finally:
        await world.app.close()
