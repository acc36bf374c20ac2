"""A small recording stand-in for ``bot.app.Application`` for the playground's own tests.

It records what arrives and drives the port the way the application does: a table message with a picture
and buttons in the room, a hand in the presser's private pane, one ``answer`` per press (with a notice for a
button it did not offer, or an old one), edits of the same table message after every accepted press.
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field
from typing import Any

from PIL import Image

from bot.port import Button, Command, Document, Message, MessageRef, Port, Press, PrivateStart, Unreachable

STALE = "This button is no longer valid; nothing changed."


def jpeg(color: str, size: tuple[int, int] = (240, 120)) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", size, color).save(out, "JPEG", quality=80)
    return out.getvalue()


@dataclass
class StandIn:
    port: Port | None = None
    commands: list[Command] = field(default_factory=list)
    presses: list[Press] = field(default_factory=list)
    starts: list[PrivateStart] = field(default_factory=list)
    tables: dict[str, MessageRef] = field(default_factory=dict)  # room -> table message
    moves: dict[str, int] = field(default_factory=dict)  # room -> moves so far (the "version")

    def attach(self, port: Port) -> None:
        self.port = port

    def table(self, room: str) -> Message:
        v = self.moves[room]
        return Message(
            text=f"Table in {room}: {v} moves",
            image=jpeg("darkgreen" if v % 2 == 0 else "navy"),
            buttons=(
                (Button("Show my hand", "h"),),
                (Button("Move", f"m.{v}", style="primary"), Button("Stop", f"s.{v}", style="danger")),
            ),
        )

    async def command(self, cmd: Command) -> None:
        self.commands.append(cmd)
        assert self.port is not None
        if cmd.name == "new" and cmd.chat is not None:
            self.moves[cmd.chat.id] = 0
            self.tables[cmd.chat.id] = await self.port.send_public(cmd.chat, self.table(cmd.chat.id), reply_to=cmd)
        elif cmd.name == "export":
            doc = Document("game.json", b'{"game": "thousand"}')
            msg = Message(text="Your export", document=doc)
            if cmd.chat is None:
                await self.port.send_private(cmd.user, msg, via=cmd)
            else:
                await self.port.send_public(cmd.chat, msg, reply_to=cmd)
        elif cmd.chat is None:
            await self.port.send_private(cmd.user, Message(text=f"You said /{cmd.name} {cmd.args}"), via=cmd)
        else:
            await self.port.send_public(cmd.chat, Message(text=f"/{cmd.name} {cmd.args}".strip()), reply_to=cmd)

    async def press(self, press: Press) -> None:
        self.presses.append(press)
        assert self.port is not None
        room = press.chat.id if press.chat is not None else None
        if press.payload == "h" and room in self.tables:
            msg = Message(text=f"{press.user.name}'s hand", image=jpeg("maroon"), buttons=((Button("Play", "p"),),))
            try:
                await self.port.send_private(press.user, msg, via=press)
            except Unreachable:
                await self.port.invite_private(press.chat, press.user, Message(text="Open your pane"), "hand-1")
            await self.port.answer(press)
        elif room in self.tables and press.payload == f"m.{self.moves[room]}":
            self.moves[room] += 1
            self.tables[room] = await self.port.edit_public(self.tables[room], self.table(room))
            await self.port.answer(press, "Moved")
        else:
            await self.port.answer(press, STALE, alert=press.payload.startswith("s."))

    async def private_start(self, start: PrivateStart) -> None:
        self.starts.append(start)
        assert self.port is not None
        await self.port.send_private(start.user, Message(text="Here is your hand"), via=start)


def last(frames: list[dict[str, Any]], kind: str) -> dict[str, Any]:
    return [f for f in frames if f["type"] == kind][-1]
