"""Issue 36: a group that plays fast spends its window (20 writes a minute); the next deal's hands must not wait for
it. A finished round's sheet and the next deal's table are group writes that wait for the window, in the table's
lane; the next round's end queued behind them, so the deal after it reached nobody until the group's window had
passed: every fast table of ``bench.cluster`` stood still for 25-30 s with no buttons (seen as its ``fast_lost``).

Two people (or a person and a computer, which moves once the next deal's hands are out) play Deberts as fast as
they can press, through the real adapter against the fake Bot API with
Telegram's limits; the group's window is three writes (the lobby and the first table spend it), so every later group
write waits for it. They play three deals: each one's hands reach them while the group still shows the first
deal's table, with a pause after each round and without."""

from __future__ import annotations

import asyncio
import os
import random
from typing import Any

import pytest

from bot.payloads import parse
from bot.port import Chat, Message, MessageRef
from core.ai.player import ComputerPlayer
from testkit.fake_bot_api import FakeBotAPI, Limits
from testkit.fakeport import FakePort
from testkit.telegram_players import PREFIX, Player
from tests.app_support import make_world, open_table
from tests.telegram_bot_support import LiveBot
from tests.telegram_support import KITCHEN as GROUP

WINDOW = 45.0  # seconds the group's window holds its writes: longer than the test plays, and than a stall it finds
STALL = 20.0  # seconds the player to act may be left without buttons before the test calls it a stall
# runs of each variant (``tools/repeat_round_hands.sh`` sets it to run them many times; CI runs each once)
REPEAT = range(int(os.environ.get("ROUND_HANDS_REPEAT", "1")))


async def nothing() -> None:
    return None


def current_buttons(api: FakeBotAPI, player: Player, version: int) -> list[str]:
    """The player's move buttons of the table's ``version`` (in his newest message with choices)."""
    for shown in player.hands()[:1]:
        return [d for d in player.moves(shown) if parse(d[len(PREFIX) :]).version == version]
    return []


@pytest.mark.parametrize("run", REPEAT)
@pytest.mark.parametrize("pause", [0.0, 1.0], ids=["no pause", "a pause"])
@pytest.mark.parametrize("against", ["Bob", "a computer"])
@pytest.mark.limits(Limits(per_group_minute=3, group_window=WINDOW))
async def test_the_next_deals_hands_go_out_while_the_group_waits_for_its_window(
    api, tmp_path, pause, against, monkeypatch, run
):
    # the group writes still queued when the test ends wait for the window: the closing waits are cut by name
    monkeypatch.setattr("bot.app.application.CLOSE_WAIT", 0.5)
    monkeypatch.setattr("bot.telegram.port.CLOSE_WAIT", 0.5)
    bot = await LiveBot(api, tmp_path / "bot.sqlite3", round_pause=pause).start()
    try:
        ann, bob = (Player(api, api.add_user(11 + i, name), nothing) for i, name in enumerate(("Ann", "Bob")))
        people = (ann, bob) if against == "Bob" else (ann,)
        api.say(ann.user, GROUP, "/new deberts 2")
        await api.wait_for(lambda: any(d.startswith(PREFIX + "j.") for s in api.visible(GROUP) for d in data(s)))
        lobby = api.visible(GROUP)[-1]
        if against == "Bob":
            await bob.press(lobby, next(d for d in data(lobby) if d.startswith(PREFIX + "j.")))
        else:  # a computer seat: the first to act in every other deal
            await ann.press(lobby, next(d for d in data(lobby) if d.startswith(PREFIX + "c.")))
        await api.wait_for(
            lambda: any(d.startswith(PREFIX + "s.") for d in data(api.messages[GROUP][lobby.message_id]))
        )
        lobby = api.messages[GROUP][lobby.message_id]
        await ann.press(lobby, next(d for d in data(lobby) if d.startswith(PREFIX + "s.")))
        storage = bot.app.ctx.storage
        rng = random.Random(7)
        rounds = set()
        while len(rounds) < 3:
            rec = await storage.table(1)
            assert rec.status == "playing"
            version = rec.version
            rounds.add(bot.app.ctx.live_tables[1].state.view(None)["round"])

            def can_go_on() -> bool:  # a person holds buttons of the current version, or the computer moved
                return storage_version(bot) > version or any(current_buttons(api, p, version) for p in people)  # noqa: B023

            try:  # within the test's patience, not the group's window
                await api.wait_for(can_go_on, timeout=STALL)
            except TimeoutError:
                raise AssertionError(f"deal {max(rounds)}, version {version}: nobody moves; {state(bot)}") from None
            player = next((p for p in people if current_buttons(api, p, version)), None)
            if player is not None:
                await player.play_one(rng)
                await api.wait_for(lambda: storage_version(bot) > version, timeout=30)  # noqa: B023 - awaited here
        tables = [c for c in api.calls_to(GROUP, "sendPhoto") if c.ok]
        assert len(tables) == 1  # the group still shows the first deal's table: its window holds the rest
    finally:
        await bot.stop()


def data(shown) -> list[str]:
    return [b["callback_data"] for b in shown.callback_buttons()]


def state(bot: LiveBot) -> str:
    """What the application holds at a stall: whose turn, the computer's driver, the table's lanes."""
    ctx = bot.app.ctx
    live = ctx.live_tables.get(1)
    driver = ctx.drivers.get(1)
    lanes = {k: (v.wanted, v.shown, v.dirty, len(v.kept), v.task is not None) for k, v in ctx.showing._lanes.items()}
    to_act = live.state.to_act if live is not None else None
    return f"to act {to_act}, driver {driver}, kicks {bot.app.turns.kicks.get(1)}, lanes {lanes}"


def storage_version(bot: LiveBot) -> int:
    live = bot.app.ctx.live_tables.get(1)
    return live.version if live is not None else 0


class SpentWindow(FakePort):
    """A group whose window is spent while ``window`` is clear: its new messages wait for it (edits pass)."""

    def __init__(self) -> None:
        super().__init__()
        self.window = asyncio.Event()
        self.window.set()

    async def send_public(self, chat: Chat, msg: Message, **kwargs: Any) -> MessageRef:
        await self.window.wait()
        return await super().send_public(chat, msg, **kwargs)


async def test_each_rounds_result_is_shown_though_the_players_moved_on_before_the_group_could_see_it(tmp_path):
    """Two people play into the third deal while the group's window holds its new messages: the first round's
    sheet and the second deal's table wait for it, and the second round's end with them. The players move on
    meanwhile, and the newer table edits their moves queue must not replace that waiting round's end: once the
    window lets them through, the group shows every deal's table posted below the last round's sheet, one per
    deal."""
    port = SpentWindow()
    world = await make_world(tmp_path / "bot.sqlite3", port=port)
    pressing: list[asyncio.Task] = []
    try:
        await open_table(world, "deberts", ["Ann", "Bob"], [], 2)
        port.window.clear()
        storage = world.app.storage
        deals: list[int] = []  # the deal of each move made
        while deals.count(max(deals, default=0)) < 3 or len(set(deals)) < 3:  # into the third deal
            rec = await storage.table(1)
            live = await world.app.live(rec)
            deals.append(live.state.view(None)["round"])
            seat = live.state.to_act
            user = next(u for u in world.users.values() if u.user.id == rec.seats[seat].user.platform_id)
            action = ComputerPlayer(rec.game, "normal", seed=rec.version).decide(
                live.state.view(seat), live.round_events
            )
            task = None
            for _ in range(2000):  # until the move is stored (his hand may still be on its way: he presses again)
                if (await storage.table(1)).version > rec.version:
                    break
                if task is None or task.done():  # a stored move's press is still waiting: this one came too early
                    # a move's press waits for its table's publication after its answer: it is left to finish later
                    task = asyncio.create_task(user.play_code(action.code()))
                    pressing.append(task)
                await asyncio.sleep(0.005)
            else:
                raise AssertionError(f"deal {deals[-1]}: the move at version {rec.version} was not stored")
        port.window.set()
        await asyncio.gather(*pressing, return_exceptions=True)
        await world.app.idle()
        posted = [mid for call, mid in port.calls if call == "send_public"]
        tables = [mid for mid in posted if port.shown[mid].history[0].image_name == "table.jpg"]
        assert len(tables) == 3  # one per deal: the second round's end was shown, not replaced by later moves
        sheets = [mid for mid in tables[:2] if port.shown[mid].message.image_name != "table.jpg"]
        assert len(sheets) == 2  # each finished round's table became its score sheet
    finally:
        await world.app.close()
