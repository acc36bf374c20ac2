"""Shared set-up for the chat application tests: a real SQLite file (or a given database), the fake port, users
and a clock."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from bot.app import Application
from bot.port import Chat
from bot.storage import Storage
from testkit.fakeport import FakePort, FakeUser, Shown


def fixed_deal(monkeypatch: pytest.MonkeyPatch, seed: str) -> None:
    """Every table opened from now on in this test has the deal seed ``seed`` (a table's seed is random; the whole
    game follows from it when the players choose like a seeded computer player)."""
    monkeypatch.setattr("bot.app.lobby.secrets", SimpleNamespace(token_hex=lambda n: seed))


def db_path(tmp_path: Path) -> Path:
    """A real SQLite file, on tmpfs where there is one (its syncs cost nothing there, so games play fast)."""
    shm = Path("/dev/shm")
    if shm.is_dir():
        import os
        import tempfile

        folder = Path(tempfile.mkdtemp(prefix=f"tablebot-{os.getpid()}-", dir=shm))
        return folder / "bot.sqlite3"
    return tmp_path / "bot.sqlite3"


class Clock:
    """A clock the tests move by hand."""

    def __init__(self) -> None:
        self.now = datetime(2026, 11, 23, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)


@dataclass
class World:
    app: Application
    port: FakePort
    clock: Clock
    chat: Chat
    path: Path
    url: str
    users: dict[str, FakeUser] = field(default_factory=dict)
    round_pause: float | None = 0
    sleep: Any = None

    def user(self, name: str, language: str | None = "en") -> FakeUser:
        if name not in self.users:
            self.users[name] = FakeUser(self.app, self.port, f"u{len(self.users) + 1}", name, language)
        return self.users[name]

    def group(self) -> list[Shown]:
        return self.port.public(self.chat.id)

    def lobby(self) -> Shown:
        return next(s for s in reversed(self.group()) if any(b.payload[:2] in ("j.", "m.") for b in s.buttons()))

    def table_message(self) -> Shown:
        return next(s for s in reversed(self.group()) if s.message.image_name == "table.jpg")


async def make_world(
    path: Path,
    *,
    clock: Clock | None = None,
    lang: str = "en",
    url: str | None = None,
    round_pause: float | None = 0,
    sleep: Any = None,
    port: FakePort | None = None,
) -> World:
    """A started application over the SQLite file ``path`` (or the database at ``url``) and the fake port (or
    ``port``, one of its kind).

    ``round_pause`` 0 shows the next deal at once (None: each table's own pause, slept through ``sleep``)."""
    url = url or f"sqlite+aiosqlite:///{path}"
    clock = clock or Clock()
    port = port or FakePort()
    app = await worker(url, port, clock, round_pause=round_pause, sleep=sleep)
    chat = Chat(port.platform, "g1", None, "Kitchen table", lang)
    return World(app, port, clock, chat, path, url, round_pause=round_pause, sleep=sleep)


async def worker(
    url: str, port: FakePort, clock: Clock, *, round_pause: float | None = 0, sleep: Any = None
) -> Application:
    """One started bot worker over the database at ``url``, sending through ``port``."""
    storage = await Storage.open(url)
    app = Application(
        storage, clock=clock, computer_pause=0, tick_interval=0, think_cap=30, round_pause=round_pause, sleep=sleep
    )
    app.attach(port)
    await app.start()
    return app


async def reopen(world: World) -> World:
    """A restart: a new application object over the same database (the platform stays)."""
    await world.app.close()
    app = await worker(world.url, world.port, world.clock, round_pause=world.round_pause, sleep=world.sleep)
    for u in world.users.values():
        u.app = app
    world.app = app
    return world


async def press_kind(world: World, user: FakeUser, kind: str, tail: str = "") -> tuple[str | None, bool]:
    """Press the lobby button of a kind (``j``, ``c``, ``s``...) whatever the chat's language."""
    shown = world.lobby()
    button = next(b for b in shown.buttons() if b.payload.startswith(kind + ".") and b.payload.endswith(tail))
    return await user.press(shown, button, world.chat)


async def open_table(world: World, game: str, humans: list[str], computers: list[str], players: int) -> None:
    host = world.user(humans[0])
    await host.say(world.chat, "new", f"{game} {players}")
    for name in humans[1:]:
        await press_kind(world, world.user(name), "j")
    for level in computers:
        await press_kind(world, host, "c", "." + level)
    text, alert = await press_kind(world, host, "s")
    assert text is None, text


class GameGoesOn(Exception):
    """``play_to_end`` made its ``max_presses`` and the game is still on (a test that stops early catches this
    alone: every assertion on the way still fails the test)."""


async def play_to_end(world: World, humans: list[str], table_id: int, max_presses: int = 5000) -> int:
    """Humans play their turns like a decent player (the core's normal computer player picks the move) by
    pressing the buttons of their own private keyboards; computer seats move by themselves. Raises
    ``GameGoesOn`` when the game has not ended after ``max_presses``."""
    from core.ai.player import ComputerPlayer

    presses = 0
    by_seat: dict[int, FakeUser] = {}
    while presses < max_presses:
        await world.app.idle()
        rec = await world.app.storage.table(table_id)
        if rec.status != "playing":
            return presses
        if not by_seat:
            for s in rec.seats:
                if s.user is not None:
                    by_seat[s.seat] = next(u for u in world.users.values() if u.user.id == s.user.platform_id)
        live = await world.app.live(rec)
        seat = live.state.to_act
        assert seat in by_seat, f"seat {seat} should move by itself"
        view = live.state.view(seat)
        action = ComputerPlayer(rec.game, "normal", seed=presses).decide(view, live.round_events)
        assert await by_seat[seat].play_code(action.code()), f"no button leads to {action.code()}"
        presses += 1
    raise GameGoesOn(f"the game did not end in {max_presses} presses")
