"""A small recording stand-in for ``bot.app.Application`` for the playground's own tests.

It records what arrives and drives the port the way the application does: ``new <game> [seats]`` opens a
lobby (the host seated) whose buttons carry the application's payload kinds (``j`` join, ``c`` add a
computer, ``n`` seats, ``s`` start, with a lobby revision); the start turns it into a table message with a
picture; "Show my hand" sends a hand to the presser's private pane; every press gets one ``answer`` (a notice
for a button it did not offer, or an old one); accepted presses edit the same message in place. The hand's
"Think" redraws the hand at once but answers only when ``released`` is set (a press whose message changes
before its answer, as a move's hand does).
"""

from __future__ import annotations

import asyncio
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


DEFAULT_SEATS = {"thousand": 3, "deberts": 2, "kozel": 4}
RANGE = {"thousand": (2, 4), "deberts": (2, 3), "kozel": (2, 4)}


@dataclass
class Lobby:
    game: str
    seats: int
    sitting: list[str] = field(default_factory=list)  # names, computers as "computer (level)"
    rev: int = 0
    started: bool = False

    def message(self, table: int = 1) -> Message:
        lines = [f"{self.game}: a table for {self.seats} is open."]
        lines += [f"{i + 1}. {self.sitting[i] if i < len(self.sitting) else '-'}" for i in range(self.seats)]
        low, high = RANGE[self.game]
        nxt = self.seats + 1 if self.seats < high else low
        r = self.rev
        return Message(
            text="\n".join(lines),
            buttons=(
                (Button("Join", f"j.{table}", style="primary"), Button("Leave", f"l.{table}")),
                tuple(Button(f"+ {lv}", f"c.{table}.{r}.{lv}") for lv in ("easy", "normal", "strong")),
                (Button(f"Seats: {self.seats}", f"n.{table}.{r}.{nxt}"),),
                (Button("Start", f"s.{table}", style="primary"),),
            ),
        )


@dataclass
class StandIn:
    port: Port | None = None
    commands: list[Command] = field(default_factory=list)
    presses: list[Press] = field(default_factory=list)
    starts: list[PrivateStart] = field(default_factory=list)
    tables: dict[str, MessageRef] = field(default_factory=dict)  # room -> lobby, then table message
    moves: dict[str, int] = field(default_factory=dict)  # room -> moves so far (the "version")
    lobbies: dict[str, Lobby] = field(default_factory=dict)  # room -> its lobby (until started)
    released: asyncio.Event = field(default_factory=asyncio.Event)  # "Think" answers once it is set

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

    def hand(self, name: str, thinking: bool = False) -> Message:
        buttons = ((Button("Play", "p"), Button("Think", "t")),)
        text = f"{name}'s hand" + (" (thinking)" if thinking else "")
        return Message(text=text, image=jpeg("maroon"), buttons=buttons)

    async def command(self, cmd: Command) -> None:
        self.commands.append(cmd)
        assert self.port is not None
        if cmd.name == "new" and cmd.chat is not None:
            words = cmd.args.split() or ["thousand"]
            seats = int(words[1]) if len(words) > 1 else DEFAULT_SEATS.get(words[0], 3)
            lobby = self.lobbies[cmd.chat.id] = Lobby(words[0], seats, [cmd.user.name])  # the host sits down
            self.tables[cmd.chat.id] = await self.port.send_public(cmd.chat, lobby.message(), reply_to=cmd)
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
        lobby = self.lobbies.get(room) if room else None
        if lobby is not None and not lobby.started and press.payload[:1] in "jcns":
            await self.lobby_press(lobby, press)
        elif press.payload == "t" and press.message is not None:
            await self.port.edit_private(press.user, press.message, self.hand(press.user.name, thinking=True))
            await self.released.wait()
            await self.port.answer(press, "Thought")
        elif press.payload == "h" and room in self.moves:
            msg = self.hand(press.user.name)
            try:
                await self.port.send_private(press.user, msg, via=press)
            except Unreachable:
                await self.port.invite_private(press.chat, press.user, Message(text="Open your pane"), "hand-1")
            await self.port.answer(press)
        elif room in self.moves and press.payload == f"m.{self.moves[room]}":
            self.moves[room] += 1
            self.tables[room] = await self.port.edit_public(self.tables[room], self.table(room))
            await self.port.answer(press, "Moved")
        else:
            await self.port.answer(press, STALE, alert=press.payload.startswith("s."))

    async def lobby_press(self, lobby: Lobby, press: Press) -> None:
        assert self.port is not None and press.chat is not None
        kind, *rest = press.payload.split(".")
        room = press.chat.id
        if kind in "cn" and (len(rest) != 3 or rest[1] != str(lobby.rev)):
            await self.port.answer(press, STALE)
            return
        if kind == "j" and press.user.name not in lobby.sitting and len(lobby.sitting) < lobby.seats:
            lobby.sitting.append(press.user.name)
        elif kind == "c" and len(lobby.sitting) < lobby.seats:
            lobby.sitting.append(f"computer ({rest[2]})")
        elif kind == "n" and len(lobby.sitting) <= int(rest[2]):
            lobby.seats = int(rest[2])
        elif kind == "s" and len(lobby.sitting) == lobby.seats:
            lobby.started = True
            self.moves[room] = 0
            self.tables[room] = await self.port.send_public(press.chat, self.table(room))
            await self.port.answer(press)
            return
        else:
            await self.port.answer(press, "Not now.")
            return
        lobby.rev += 1
        self.tables[room] = await self.port.edit_public(self.tables[room], lobby.message())
        await self.port.answer(press)

    async def private_start(self, start: PrivateStart) -> None:
        self.starts.append(start)
        assert self.port is not None
        await self.port.send_private(start.user, Message(text="Here is your hand"), via=start)


def last(frames: list[dict[str, Any]], kind: str) -> dict[str, Any]:
    return [f for f in frames if f["type"] == kind][-1]
