"""Every press answered exactly once and at once, in every state of a table (issue 36, finding 2): through the real
application and the Telegram adapter over the fake Bot API with all of Telegram's limits on, and the group's write
window spent right before each press (Telegram answers the group's next write 429 until the window has passed); and
through the application and the in-memory port for the states a short Telegram run does not reach.

People press every button they can see, in turn: the game chooser with no table, every lobby button (as the host and
as another), Start, every button of the table and of a hand while playing, a vote to stop, then every old button
again once the table is stopped. For each press: one accepted ``answerCallbackQuery``, none refused as too old, and
the answer arrives before any group write that followed the press (a group write waits for the window; the answer
must not: Telegram keeps the button spinning until it comes, and refuses a late one).
"""

from __future__ import annotations

import logging

import pytest
from sqlalchemy import text

from bot.storage import FINISHED, LOBBY, PLAYING
from testkit.fake_bot_api import FakeBotAPI, Limits, Shown
from testkit.fakeport import FakeUser as AppUser
from testkit.telegram_players import Player
from tests.app_support import World, db_path, fixed_deal, make_world, open_table, play_to_end, press_kind
from tests.telegram_bot_support import WRITES, LiveBot
from tests.telegram_support import KITCHEN
from tests.test_app_rounds import ROUND_SEED, Gate, play_until_round_ends

GROUP = KITCHEN  # the shared ``api`` fixture's group (tests/conftest.py)
WINDOW = 1.0  # seconds of the group's window: Telegram's 60, shortened so that each wait for it is short


def buttons(shown: Shown) -> list[str]:
    return [b["callback_data"] for b in shown.callback_buttons()]


class Presses:
    """Presses with the group's window spent, each checked when the bot is quiet again."""

    def __init__(self, api: FakeBotAPI, bot: LiveBot) -> None:
        self.api = api
        self.bot = bot
        self.checked = 0
        self.kinds: set[str] = set()

    async def press(self, player: Player, shown: Shown, data: str) -> dict:
        api = self.api
        shown = api.messages[shown.chat_id][shown.message_id]
        if shown.deleted:
            return {}
        api.spend_window(GROUP)
        before = len(api.calls)
        query = api.press(player.user, shown.chat_id, shown.message_id, data, forged=True)  # also gone buttons
        await api.wait_answer(query, timeout=30)
        await self.bot.settle()
        calls = api.calls[before:]
        answers = [
            c for c in calls if c.method == "answerCallbackQuery" and str(c.params.get("callback_query_id")) == query
        ]
        what = f"{player.name} pressed {data!r}"
        assert [c.status for c in answers] == [200], f"{what}: answered {[c.status for c in answers]}"
        group = [c for c in calls if c.ok and c.chat_id == GROUP and c.method in WRITES]
        assert all(answers[0].at < c.at for c in group), f"{what}: answered after a group write"
        self.checked += 1
        self.kinds.add(data.split(":", 1)[1].split(".", 1)[0])
        return api.answers[query]

    async def every_button(self, player: Player, shown: Shown, *, skip: tuple[str, ...] = ()) -> None:
        for data in buttons(shown):
            if not any(data.startswith("t:" + prefix) for prefix in skip):
                await self.press(player, shown, data)


def lobby(api: FakeBotAPI) -> Shown:
    return next(s for s in reversed(api.visible(GROUP)) if any(d.startswith(("t:j.", "t:m.")) for d in buttons(s)))


@pytest.mark.limits(Limits(group_window=WINDOW))
async def test_every_press_in_every_state_is_answered_once_before_the_group_waits(api, tmp_path, caplog):
    caplog.set_level(logging.WARNING)
    bot = await LiveBot(api, tmp_path / "bot.sqlite3").start()
    try:
        ann, bob, cid = (Player(api, api.add_user(11 + i, n), bot.settle) for i, n in enumerate(("Ann", "Bob", "Cid")))
        run = Presses(api, bot)
        # no table yet: the game chooser (the first choice opens the table and posts its lobby)
        await ann.say(GROUP, "/new")
        chooser = api.last(GROUP)
        for data in sorted(buttons(chooser), key=lambda d: not d.endswith("kozel")):
            await run.press(ann, chooser, data)
        # the lobby: every button as another person, then as the host (settings, computers, seats, pages)
        first = lobby(api)
        await run.every_button(bob, first, skip=("l.",))
        await run.every_button(ann, lobby(api), skip=("l.", "s.", "m."))
        current = lobby(api)
        await run.press(ann, current, next(d for d in buttons(current) if d.startswith("t:m.") and d.endswith(".set")))
        await run.every_button(ann, lobby(api), skip=("l.", "s."))  # the settings page's own buttons
        current = lobby(api)
        await run.press(ann, current, next(d for d in buttons(current) if d.endswith(".main")))
        for kind in ("c.", "r.", "c.", "c.", "c."):  # computers in, one out again, the seats filled; then start
            current = lobby(api)
            found = [d for d in buttons(current) if d.startswith("t:" + kind)]
            if found:
                await run.press(ann, current, found[0])
        current = lobby(api)
        await run.press(ann, current, next(d for d in buttons(current) if d.startswith("t:s.")))
        assert (await bot.app.storage.table(1)).status == "playing"
        # playing: every button of the table (a stranger too), and of the hands (moves, pickers, hints)
        table = next(s for s in reversed(api.visible(GROUP)) if s.kind == "photo")
        for player in (cid, bob, ann):
            await run.every_button(player, table)
        for player in (ann, bob):
            for hand in player.hands()[:1]:
                await run.every_button(player, hand)
        # a vote to stop: kept, then agreed
        await bob.say(GROUP, "/stop")
        vote = api.last(GROUP)
        await run.every_button(ann, vote, skip=("y.",))
        await bob.say(GROUP, "/stop")
        vote = api.last(GROUP)
        await run.press(ann, vote, next(d for d in buttons(vote) if d.startswith("t:y.")))
        assert (await bot.app.storage.table(1)).status == "abandoned"
        # stopped: every old button still gets its one answer
        for shown in (chooser, first, table, vote):
            await run.every_button(cid, shown)
    finally:
        await bot.stop()
    assert not [c for c in api.calls if c.method == "answerCallbackQuery" and not c.ok]  # none refused as late
    assert {"N", "j", "s", "c", "r", "o", "m", "n", "h", "a", "g", "y"} <= run.kinds, (run.kinds, run.checked)
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


# ---------------------------------------------------------------------------------------- through the application
async def press_everything(world: World, users: list[AppUser], *, settle: bool = True) -> int:
    """Each user presses every button he can see (the group's messages and his own private ones), in turn, each
    while it is still shown. ``FakeUser.press`` checks the one answer, ``FakePort`` that it came before any group
    message its handling sent. ``settle``: wait for the application's work after each press (not while a round's
    pause is held: that work waits for it)."""
    pressed = 0
    for user in users:
        mine = world.group() + world.port.private(user.user.id)
        for shown in mine:
            for button in list(shown.buttons()):
                current = world.port.shown[shown.id]
                if button.url is not None or button not in current.buttons():
                    continue
                await user.press(current, button, world.chat)
                if settle:
                    await world.app.idle()
                pressed += 1
    return pressed


async def test_every_press_in_every_state_through_the_application(tmp_path, monkeypatch):
    """The states the Telegram run above does not reach, through the application and the in-memory port: a finished
    round on view (its pause held), a finished game (Play again), a rematch lobby stopped, a damaged table, and the
    game chooser when a table is open already."""
    fixed_deal(monkeypatch, ROUND_SEED)
    gate = Gate()
    world = await make_world(db_path(tmp_path), round_pause=None, sleep=gate.sleep)
    try:
        ann, bob, cid = world.user("Ann"), world.user("Bob"), world.user("Cid")
        await open_table(world, "kozel", ["Ann", "Bob"], [], 2)
        await play_until_round_ends(world, ["Ann", "Bob"])  # the round's end on view, the next deal held
        assert gate.asked and await press_everything(world, [cid, bob, ann], settle=False)
        gate.open.set()
        await world.app.idle()
        await play_to_end(world, ["Ann", "Bob"], 1)  # finished: the sheet's Play again, old buttons
        assert (await world.app.storage.table(1)).status == FINISHED
        assert await press_everything(world, [cid, bob, ann])
        rematch = await world.app.storage.open_table((await world.app.storage.table(1)).chat_id)
        assert rematch is not None and rematch.status == LOBBY  # Play again opened it
        await ann.say(world.chat, "stop")  # stopped: every old button once more
        assert await press_everything(world, [cid, bob, ann])
        await ann.say(world.chat, "new kozel 2")
        await press_kind(world, bob, "j")
        await press_kind(world, ann, "s")
        table = await world.app.storage.open_table(rematch.chat_id)
        assert table is not None and table.status == PLAYING
        async with world.app.storage.engine.begin() as conn:  # damaged: its stored state no longer verifies
            await conn.execute(
                text("UPDATE game_tables SET state = replace(state, '\"totals\"', '\"totalz\"') WHERE id = :i"),
                {"i": table.id},
            )
        world.app.ctx.forget(table.id)
        assert (await world.app.storage.table(table.id)).broken
        assert await press_everything(world, [cid, bob, ann])
        await cid.say(world.chat, "new")  # the chooser while a table is open (or after it was closed)
        assert await press_everything(world, [cid])
    finally:
        await world.app.close()
