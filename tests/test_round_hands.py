"""Issue 36: a group that plays fast spends its window (20 writes a minute); the next deal's hands must not wait for
it. A finished round's sheet and the next deal's table are group writes that wait for the window, in the table's
lane; the next round's end queued behind them, so the deal after it reached nobody until the group's window had
passed: every fast table of ``bench.cluster`` stood still for 25-30 s with no buttons (seen as its ``fast_lost``).

Two people play Deberts as fast as they can press, through the real adapter against the fake Bot API with
Telegram's limits; the group's window is three writes (the lobby and the first table spend it), so every later group
write waits for it. They play three deals: each one's hands reach them while the group still shows the first
deal's table, with a pause after each round and without."""

from __future__ import annotations

import random

import pytest

from bot.payloads import parse
from testkit.fake_bot_api import FakeBotAPI, Limits
from testkit.telegram_players import PREFIX, Player
from tests.telegram_bot_support import LiveBot
from tests.telegram_support import KITCHEN as GROUP

WINDOW = 45.0  # seconds the group's window holds its writes: longer than the test plays, and than a stall it finds
STALL = 20.0  # seconds the player to act may be left without buttons before the test calls it a stall


async def nothing() -> None:
    return None


def current_buttons(api: FakeBotAPI, player: Player, version: int) -> list[str]:
    """The player's move buttons of the table's ``version`` (in his newest message with choices)."""
    for shown in player.hands()[:1]:
        return [d for d in player.moves(shown) if parse(d[len(PREFIX) :]).version == version]
    return []


@pytest.mark.parametrize("pause", [0.0, 1.0], ids=["no pause", "a pause"])
@pytest.mark.limits(Limits(per_group_minute=3, group_window=WINDOW))
async def test_the_next_deals_hands_go_out_while_the_group_waits_for_its_window(api, tmp_path, pause, monkeypatch):
    # the group writes still queued when the test ends wait for the window: the closing waits are cut by name
    monkeypatch.setattr("bot.app.application.CLOSE_WAIT", 0.5)
    monkeypatch.setattr("bot.telegram.port.CLOSE_WAIT", 0.5)
    bot = await LiveBot(api, tmp_path / "bot.sqlite3", round_pause=pause).start()
    try:
        ann, bob = (Player(api, api.add_user(11 + i, name), nothing) for i, name in enumerate(("Ann", "Bob")))
        api.say(ann.user, GROUP, "/new deberts 2")
        await api.wait_for(lambda: any(d.startswith(PREFIX + "j.") for s in api.visible(GROUP) for d in data(s)))
        lobby = api.visible(GROUP)[-1]
        await bob.press(lobby, next(d for d in data(lobby) if d.startswith(PREFIX + "j.")))
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
            # the player to act holds buttons of the table's current version (within the test, not the window)
            try:
                await api.wait_for(lambda: any(current_buttons(api, p, version) for p in (ann, bob)), timeout=STALL)  # noqa: B023
            except TimeoutError:
                raise AssertionError(f"deal {max(rounds)}, version {version}: nobody can move") from None
            player = next(p for p in (ann, bob) if current_buttons(api, p, version))
            await player.play_one(rng)
            await api.wait_for(lambda: storage_version(bot) > version, timeout=30)  # noqa: B023 - awaited here
        tables = [c for c in api.calls_to(GROUP, "sendPhoto") if c.ok]
        assert len(tables) == 1  # the group still shows the first deal's table: its window holds the rest
    finally:
        await bot.stop()


def data(shown) -> list[str]:
    return [b["callback_data"] for b in shown.callback_buttons()]


def storage_version(bot: LiveBot) -> int:
    live = bot.app.ctx.live_tables.get(1)
    return live.version if live is not None else 0
