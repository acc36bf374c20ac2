"""A seeded monkey on Discord (issue 26): several users send random, foreign, stale, forged (huge ids, garbage
custom ids) and double presses and random commands to the real application through the real discord.py client
and the fake Discord, while the game goes on. Nothing may log a traceback, every interaction is answered within
Discord's 3 seconds, and nothing private (a hand, a note meant for one player) is ever shown in the channel.

Bounded for CI: ``DISCORD_MONKEY_ACTIONS`` actions (default 240) from ``DISCORD_MONKEY_SEED``; raise both for a
long run."""

from __future__ import annotations

import logging
import os
import random
import string
from pathlib import Path

import pytest

from testkit.fake_discord import OTHER_CHANNEL_ID, FakeDiscord, FakeUser, InteractionRecord, Limits, StoredMessage
from tests.test_discord_e2e import (
    ALICE,
    BOB,
    CAROL,
    MALLORY,
    Move,
    Player,
    all_acknowledged_in_time,
    bot,
    table_message,
)

ACTIONS = int(os.environ.get("DISCORD_MONKEY_ACTIONS", "240"))
SEED = int(os.environ.get("DISCORD_MONKEY_SEED", "26"))
HUGE = "9" * 25
QUIET = 0.005  # seconds without a request to Discord that count as "settled"
COMMANDS = {
    "new": [
        {"game": "thousand"},
        {"game": "kozel", "players": 2},
        {"game": "deberts", "players": 9},
        {"game": "x"},
        {},
    ],
    "join": [{}],
    "leave": [{}],
    "stop": [{}],
    "rules": [{}, {"game": "kozel"}],
    "settings": [{}],
    "lang": [{"language": "en"}, {"language": "zz"}],
    "score": [{}],
    "top": [{}],
    "me": [{}],
    "history": [{}],
    "export": [{}, {"number": 1}, {"number": 2**53 - 1}],
    "help": [{}],
}
PRIVATE_TEXTS = ("you have a seat", "Your cards and choices will come here")


@pytest.fixture
async def fake():
    # monkeys edit the table many times a second with the port's interval at 0: the per-route buckets are off (the
    # global limit and the 3 s acknowledgement deadline stay)
    async with FakeDiscord(limits=Limits(per_channel_route=None)) as server:
        yield server


def forged_ids(rng: random.Random, seen: list[str]) -> str:
    """A custom id nobody was shown: huge numbers, garbage, a real one bent."""
    choices = [
        f"p:t{HUGE}",
        f"p:t{2**31}",
        "p:",
        f"t:a.1.{HUGE}.pass",
        f"t:j.{2**31}",
        f"t:h.{HUGE[:12]}",
        f"t:y.1.{HUGE}",
        "t:g.1.0",
        "t:p.1",
        f"t:p.{2**31}",
        f"t99:a.{2**31 - 1}.{2**31 - 1}.pass",
        "t:",
        "s0:",
        "s9:" + "z" * 40,
        "".join(rng.choice(string.printable) for _ in range(rng.randint(1, 100))),
        "x" * 100,
    ]
    if seen:
        real = rng.choice(seen)
        choices.append(real[:-1] + rng.choice("019Zz.~"))
    return rng.choice(choices)


def visible_messages(fake: FakeDiscord, user: FakeUser) -> list[StoredMessage]:
    return [m for m in fake.visible_to(user) if m.custom_ids()]


async def test_monkeys_on_discord(fake: FakeDiscord, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING)
    rng = random.Random(SEED)
    users = [ALICE, BOB, CAROL, MALLORY]
    async with bot(fake, tmp_path / "bot.sqlite3") as (app, run):
        players = {u.id: Player(fake, run, u) for u in users}

        async def act(rec: InteractionRecord) -> None:
            await run.settle(rec, quiet=QUIET)

        async def press(mover: Player, move: Move) -> None:
            if move.kind == "button":
                await act(await fake.click(mover.user, move.message, move.label))
            else:
                await act(await fake.choose(mover.user, move.message, move.label))

        await players[ALICE.id].slash("new", game="thousand", players=3)
        for u in (BOB, CAROL):  # /join answers the joiner privately ("you have a seat") and the channel publicly
            await players[u.id].slash("join")
        await players[ALICE.id].click(table_message(fake), "Start")
        # a lobby in a second channel, where people keep joining and leaving by command
        await act(await fake.slash(MALLORY, "new", {"game": "kozel", "players": 4}, channel_id=OTHER_CHANNEL_ID))

        seen: list[tuple[StoredMessage, str]] = []  # (message, custom id) ever shown: stale presses later
        kinds: dict[str, int] = {}
        for _step in range(ACTIONS):
            user = rng.choice(users)
            mine = visible_messages(fake, user)
            for m in mine:
                seen.extend((m, c) for c in m.custom_ids() if (m, c) not in seen)
            kind = rng.choices(
                ["move", "click", "choose", "stale", "forged", "command", "double", "overlap", "lobby"],
                [40, 15, 8, 10, 10, 10, 7, 10, 10],
            )[0]
            kinds[kind] = kinds.get(kind, 0) + 1
            if kind == "move":  # whoever is to act plays one of his own controls (the game goes on)
                movers = [p for p in players.values() if p.moves()]
                if movers:
                    mover = rng.choice(movers)
                    await press(mover, rng.choice(mover.moves()))
                else:  # a vote's Agree or a /stop ended it (or nobody can move): the three open the next game
                    await act(await fake.slash(ALICE, "new", {"game": "thousand", "players": 3}))
                    for u in (BOB, CAROL):
                        await act(await fake.slash(u, "join", {}))
                    lobby = table_message(fake)
                    start = [b["label"] for b in lobby.buttons() if "Start" in (b.get("label") or "")]
                    if start:
                        await act(await fake.click(ALICE, lobby, start[0]))
            elif kind == "click" and mine:
                message = rng.choice(mine)
                await act(await fake.click(user, message, rng.choice(message.custom_ids())))
            elif kind == "choose":
                menus = [(m, o["label"]) for m in mine for s in m.selects() for o in s["options"]]
                if menus:
                    message, label = rng.choice(menus)
                    await act(await fake.choose(user, message, label))
            elif kind == "stale" and seen:  # an old button (maybe of somebody else's hand) pressed on a message he sees
                _message, custom_id = rng.choice(seen)
                on = rng.choice(mine or fake.channel_messages())
                await act(await fake.raw_click(user, on, custom_id))
            elif kind == "forged":
                on = rng.choice(mine or fake.channel_messages())
                await act(await fake.raw_click(user, on, forged_ids(rng, [c for _m, c in seen])))
            elif kind == "command":
                name = rng.choice(sorted(COMMANDS))
                await act(await fake.slash(user, name, rng.choice(COMMANDS[name])))
            elif kind == "lobby":
                name = rng.choice(["join", "join", "leave", "me", "settings"])
                await act(await fake.slash(user, name, {}, channel_id=OTHER_CHANNEL_ID))
            elif kind == "double" and mine:  # the same button twice, before the first is answered
                message = rng.choice(mine)
                custom_id = rng.choice(message.custom_ids())
                first = await fake.raw_click(user, message, custom_id)
                second = await fake.raw_click(user, message, custom_id)
                await run.settle(first, second, quiet=QUIET)
            elif kind == "overlap":  # a command of somebody's while a move is played: the answers cross
                movers = [p for p in players.values() if p.moves()]
                if movers:
                    mover = rng.choice(movers)
                    name = rng.choice(["score", "me", "join", "rules"])
                    command = await fake.slash(user, name, rng.choice(COMMANDS[name]))
                    move = rng.choice(mover.moves())
                    if move.kind == "button":
                        pressed = await fake.click(mover.user, move.message, move.label)
                    else:
                        pressed = await fake.choose(mover.user, move.message, move.label)
                    await run.settle(command, pressed, quiet=QUIET)
        await app.idle()
        await run.settle()
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert not errors, [r.getMessage() for r in errors][:5]
    all_acknowledged_in_time(fake)
    assert all(r.callback_type is not None for r in fake.interactions.values())  # every one answered
    public = fake.ever_public()
    assert not [text for text in public if any(p in text for p in PRIVATE_TEXTS)]
    assert "hand.jpg" not in fake.ever_public_files()  # no hand was ever shown in the channel
    assert len(fake.interactions) >= ACTIONS // 2 and kinds.get("move", 0) > ACTIONS // 4
