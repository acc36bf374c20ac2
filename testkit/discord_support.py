"""Running the Discord adapter against the fake Discord: start a ``TableClient`` with a port and a handler,
wait until what a user would see has settled, and a small recording stand-in for the application."""

from __future__ import annotations

import asyncio
import contextlib
import io
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from PIL import Image

from bot.discord.client import Handler, TableClient
from bot.discord.port import DiscordPort
from bot.port import Button, Chat, Command, Message, MessageRef, Press, PrivateStart, Unreachable, User
from testkit.fake_discord import FakeDiscord, InteractionRecord


@dataclass
class Running:
    fake: FakeDiscord
    client: TableClient
    port: DiscordPort
    task: asyncio.Task[None]
    idle: Callable[[], Awaitable[None]] | None = None  # the application's own "wait until quiet", if any

    async def settle(self, *records: InteractionRecord, quiet: float = 0.02, limit: float = 10.0) -> None:
        """Wait until the given interactions were acknowledged and the bot has stopped talking to Discord."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + limit
        for rec in records:
            await asyncio.wait_for(rec.acked.wait(), max(0.1, deadline - loop.time()))
        seen = -1
        while loop.time() < deadline:
            if self.idle is not None:
                await self.idle()
            await self.port.flush()
            if len(self.fake.requests) == seen and not self.client.busy and not self.port.edits.waiting_any():
                return
            seen = len(self.fake.requests)
            await asyncio.sleep(quiet)
        raise TimeoutError("the bot did not settle")


@contextlib.asynccontextmanager
async def running(
    fake: FakeDiscord, handler: Handler, *, edit_interval: float = 0.0, activity: bool = False
) -> AsyncIterator[Running]:
    """A connected client with its port, ``handler`` attached (``handler.attach(port)`` if it has one);
    ``activity``: the web table runs as the application's Discord Activity."""
    fake.install()
    fake.identified.clear()
    client = TableClient(clock=fake.now, guild_ready_timeout=0.05, activity=activity)
    port = DiscordPort(client, edit_interval=edit_interval)
    client.handler = handler
    attach = getattr(handler, "attach", None)
    if attach is not None:
        attach(port)
    task = asyncio.create_task(client.start(fake.token))
    try:
        await asyncio.wait_for(client.wait_until_ready(), 10)
        await asyncio.wait_for(client.synced.wait(), 10)
        yield Running(fake, client, port, task)
    finally:
        await port.close()
        await client.close()
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await task


def jpeg(shade: int) -> bytes:
    """A small real JPEG picture whose grey shade tells versions apart."""
    buf = io.BytesIO()
    Image.new("RGB", (64, 48), (shade, shade, shade)).save(buf, "JPEG")
    return buf.getvalue()


HAND = tuple(f"{rank}{suit}" for suit in "SHDC" for rank in ("A", "K", "Q"))[:11]  # 11 cards


@dataclass
class StandIn:
    """A tiny application with the same habits as the real one: one table per channel, buttons whose payload
    carries the table version, hands sent privately through the user's press, stale presses refused."""

    port: Any = None
    version: int = 1
    table: MessageRef | None = None
    chat: Chat | None = None
    players: list[User] = field(default_factory=list)
    hands: dict[str, list[str]] = field(default_factory=dict)
    private: dict[str, MessageRef] = field(default_factory=dict)
    invited: list[str] = field(default_factory=list)
    received: list[Any] = field(default_factory=list)
    answers: int = 0
    bids: int = 30

    def attach(self, port: Any) -> None:
        self.port = port

    def table_message(self) -> Message:
        names = ", ".join(p.name for p in self.players) or "nobody"
        v = self.version
        return Message(
            f"Table v{v}: {names}",
            image=jpeg((40 * v) % 256),
            buttons=((Button("Join", f"j.{v}"), Button("Show my hand", f"h.{v}", style="primary")),),
        )

    def hand_message(self, user: User) -> Message:
        cards = self.hands[user.id]
        bids = tuple(Button(str(100 + 5 * i), f"b.{self.version}.{100 + 5 * i}") for i in range(self.bids))
        return Message(
            f"Your hand: {' '.join(cards)}",
            image=jpeg(len(cards) * 20),
            buttons=(
                tuple(Button(c, f"c.{self.version}.{c}") for c in cards),
                bids,
                (Button("Pass", f"p.{self.version}"), Button("Sort", f"u.{self.version}")),
            ),
        )

    async def command(self, cmd: Command) -> None:
        self.received.append(cmd)
        if cmd.name == "new":
            self.chat = cmd.chat
            assert cmd.chat is not None
            self.table = await self.port.send_public(cmd.chat, self.table_message(), reply_to=cmd)
        elif cmd.name == "me":
            await self.port.send_private(cmd.user, Message(f"{cmd.user.name}: rating 25"), via=cmd)
        elif cmd.name == "help":
            assert cmd.chat is not None
            await self.port.send_public(cmd.chat, Message("Help text " + cmd.args), reply_to=cmd)

    async def _bump(self) -> None:
        self.version += 1
        assert self.table is not None
        self.table = await self.port.edit_public(self.table, self.table_message())

    async def press(self, press: Press) -> None:
        self.received.append(press)
        kind, _, rest = press.payload.partition(".")
        version = rest.split(".")[0]
        if version != str(self.version):
            self.answers += 1
            await self.port.answer(press, "This button is from an earlier move.", alert=True)
            return
        if kind == "j":
            if press.user not in self.players:
                self.players.append(press.user)
                self.hands[press.user.id] = list(HAND)
            self.answers += 1
            await self.port.answer(press)
            await self._bump()
        elif kind == "h":
            self.answers += 1
            if press.user.id not in self.hands:
                await self.port.answer(press, "You are not playing at this table.")
                return
            await self.port.answer(press)
            await self._show(press.user, press)
        elif kind == "c":
            card = rest.split(".")[1]
            self.answers += 1
            await self.port.answer(press)
            self.hands[press.user.id].remove(card)
            await self._bump()
            try:
                self.private[press.user.id] = await self.port.edit_private(
                    press.user, self.private[press.user.id], self.hand_message(press.user)
                )
            except Unreachable:
                await self._invite(press.user)
        elif kind == "u":  # a picker step: the app redraws the user's keyboard through his press
            self.answers += 1
            await self.port.answer(press)
            self.hands[press.user.id].sort()
            self.private[press.user.id] = await self.port.send_private(
                press.user, self.hand_message(press.user), via=press
            )
        else:
            self.answers += 1
            await self.port.answer(press, f"you chose {press.payload}")

    async def _show(self, user: User, via: Press | PrivateStart | None) -> None:
        try:
            self.private[user.id] = await self.port.send_private(user, self.hand_message(user), via=via)
        except Unreachable:
            await self._invite(user)

    async def _invite(self, user: User) -> None:
        assert self.chat is not None
        self.invited.append(user.id)
        await self.port.invite_private(self.chat, user, Message(f"{user.name}, your cards are waiting."), "t1")

    async def private_start(self, start: PrivateStart) -> None:
        self.received.append(start)
        await self._show(start.user, start)

    async def refresh_hands(self) -> None:
        """What the app does after a move by somebody else: edit each player's private view (its buttons are of
        the new version: an edit that changed nothing would not be made)."""
        self.version += 1
        for user in self.players:
            ref = self.private.get(user.id)
            if ref is None:
                continue
            try:
                self.private[user.id] = await self.port.edit_private(user, ref, self.hand_message(user))
            except Unreachable:
                await self._invite(user)
