"""``PlaygroundPort``: the ``bot.port.Port`` of the local web playground.

A room (``Chat(platform="playground", id=<room>)``) is a group pane that every tab in that room shows; a
user (``User(platform="playground", id=<name, case folded>)``) is whoever chose that name in a tab, and his
private pane is shown in each of his tabs. Messages are kept on a ``Board`` and pushed to the tabs over their
WebSockets; edits of one pane are coalesced (the latest wins) and pushed at most once per ``edit_interval``.
Every message records the table version and fingerprint it shows (``bot.written``): an older write, or one that
changes nothing, is not made; a hand shown anew forwards later edits of the old message to the new one.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass, replace
from typing import ClassVar

from bot.frames import FrameQueue
from bot.playground.board import Board
from bot.port import Chat, Command, Message, MessageRef, Press, PrivateStart, Stale, Unreachable, User
from bot.written import Written

log = logging.getLogger(__name__)

PLATFORM = "playground"
QUEUE_LIMIT = 2000  # frames waiting for one tab; a tab that cannot keep up is disconnected


def room_key(room: str) -> str:
    return f"room:{room}"


def user_key(user_id: str) -> str:
    return f"user:{user_id}"


@dataclass(eq=False)
class Client(FrameQueue):
    """One open tab: its WebSocket and outgoing frames, who it is and which room it shows."""

    user: User | None = None
    room: str | None = None
    limit: ClassVar[int] = QUEUE_LIMIT


@dataclass(frozen=True, slots=True)
class Handle:
    """What the playground keeps in ``Press.handle`` / ``Command.handle``: the tab and its request number."""

    client: Client
    req: int | None


class PlaygroundPort:
    """The playground's side of ``bot.port.Port``."""

    platform = PLATFORM

    def __init__(self, *, edit_interval: float = 0.05) -> None:
        self.board = Board()
        self.written = Written()  # message id -> the table version and fingerprint it shows
        self.clients: set[Client] = set()
        self.users: dict[str, User] = {}
        self.edit_interval = edit_interval
        self._pending: dict[str, asyncio.TimerHandle] = {}
        self._last_push: dict[str, float] = {}

    # ---- tabs --------------------------------------------------------------------------------------
    def register(self, client: Client, user: User, room: str) -> None:
        """A tab said who it is: remember the user and send it its room and private pane as they are."""
        client.user, client.room = user, room
        self.users[user.id] = user
        self.clients.add(client)
        client.send(
            {
                "type": "snapshot",
                "room": room,
                "user": {"id": user.id, "name": user.name},
                "group": self.board.entries(room_key(room)),
                "private": self.board.entries(user_key(user.id)),
            }
        )

    def unregister(self, client: Client) -> None:
        self.clients.discard(client)

    def chat(self, room: str, language: str | None = None) -> Chat:
        return Chat(platform=PLATFORM, id=room, title=room, language=language)

    def said(self, client: Client, text: str, *, private: bool, talk: bool = False) -> None:
        """Show what a user typed in his pane (the group's, or his own private one): a command or table talk."""
        assert client.user is not None and client.room is not None
        key = user_key(client.user.id) if private else room_key(client.room)
        self.board.add_said(key, client.user.name, text, talk=talk)
        self._touch(key)

    def locate(self, client: Client, message_id: str) -> tuple[Chat | None, MessageRef | None]:
        """Where a pressed message is for this tab: its room's pane, the user's private pane, or nowhere."""
        assert client.user is not None and client.room is not None
        room = self.chat(client.room, client.user.language)
        if self.board.find(room_key(client.room), message_id) is not None:
            return room, MessageRef(PLATFORM, client.room, message_id)
        if self.board.find(user_key(client.user.id), message_id) is not None:
            return None, MessageRef(PLATFORM, client.user.id, message_id, extra="private")
        return room, None

    # ---- pushing -----------------------------------------------------------------------------------
    def _touch(self, key: str) -> None:
        """Schedule a push of the pane's changes: at once if quiet, else when ``edit_interval`` has passed."""
        if key in self._pending:
            return
        loop = asyncio.get_running_loop()
        delay = max(0.0, self._last_push.get(key, 0.0) + self.edit_interval - loop.time())
        self._pending[key] = loop.call_later(delay, self._push, key)

    def _push(self, key: str) -> None:
        self._pending.pop(key, None)
        self._last_push[key] = asyncio.get_running_loop().time()
        entries = self.board.take_dirty(key)
        if not entries:
            return
        kind, _, name = key.partition(":")
        if kind == "room":
            frame = {"type": "upsert", "box": "group", "room": name, "entries": entries}
            targets = [c for c in self.clients if c.room == name]
        else:
            frame = {"type": "upsert", "box": "private", "entries": entries}
            targets = [c for c in self.clients if c.user is not None and c.user.id == name]
        for client in targets:
            client.send(frame)

    def flush(self) -> None:
        """Push every pending change now (used at shutdown)."""
        for key in list(self._pending):
            self._pending.pop(key).cancel()
            self._push(key)

    # ---- the Port ----------------------------------------------------------------------------------
    async def send_public(
        self,
        chat: Chat,
        msg: Message,
        *,
        reply_to: Command | None = None,
        version: int | None = None,
        replaces: MessageRef | None = None,
        retired: Message | None = None,
    ) -> MessageRef:
        return await self._send(room_key(chat.id), chat.id, chat.thread, "", msg, version, replaces, retired)

    async def edit_public(self, ref: MessageRef, msg: Message, *, version: int | None = None) -> MessageRef:
        try:
            return await self._edit(room_key(ref.chat_id), ref, msg, version)
        except Stale:
            return ref  # the message shows a newer table already

    async def send_private(
        self,
        user: User,
        msg: Message,
        *,
        via: Press | Command | PrivateStart | None = None,
        version: int | None = None,
        replaces: MessageRef | None = None,
        retired: Message | None = None,
    ) -> MessageRef:
        if user.id not in self.users:
            raise Unreachable(f"{user.name} has no playground tab open since the start")
        return await self._send(user_key(user.id), user.id, None, "private", msg, version, replaces, retired)

    async def record_of(self, ref: MessageRef) -> tuple[int | None, str]:
        return self.written.of(ref.message_id)

    async def edit_private(
        self, user: User, ref: MessageRef, msg: Message, *, version: int | None = None
    ) -> MessageRef:
        if user.id not in self.users:
            raise Unreachable(f"{user.name} has no playground tab open since the start")
        if ref.chat_id != user.id:  # not his pane: shown in his pane as a new message
            return await self._send(user_key(user.id), user.id, None, "private", msg, version, None, None)
        return await self._edit(user_key(user.id), ref, msg, version)

    async def _send(
        self,
        key: str,
        chat_id: str,
        thread: str | None,
        extra: str,
        msg: Message,
        version: int | None,
        replaces: MessageRef | None,
        retired: Message | None,
    ) -> MessageRef:
        """A new message in a pane; with ``replaces``, in its place (``Stale`` when that shows a newer version),
        the old one becoming ``retired``."""
        old = None if replaces is None else self.written.current(replaces.message_id)
        if old is not None:
            self.written.news(old, None, version)
        entry = self.board.add_message(key, msg)
        self.written.record(entry["id"], msg, version)
        if old is not None:
            self.written.move(old, entry["id"])
            if retired is not None and self.board.replace(key, old, retired) is not None:
                self.written.record(old, retired, None)
        self._touch(key)
        return MessageRef(PLATFORM, chat_id, entry["id"], thread, extra)

    async def _edit(self, key: str, ref: MessageRef, msg: Message, version: int | None) -> MessageRef:
        """Edit the message (after forwards) unless it shows this or newer; shown again when gone."""
        message_id = self.written.current(ref.message_id)
        if not self.written.news(message_id, msg, version):
            return replace(ref, message_id=message_id)
        entry = self.board.replace(key, message_id, msg)
        if entry is None:  # gone (a restart, or scrolled out): show it again
            entry = self.board.add_message(key, msg)
            self.written.move(message_id, entry["id"])
        self.written.record(entry["id"], msg, version)
        self._touch(key)
        return replace(ref, message_id=entry["id"])

    async def answer(self, press: Press, text: str | None = None, *, alert: bool = False) -> None:
        handle = press.handle
        if isinstance(handle, Handle):
            handle.client.send({"type": "answer", "req": handle.req, "text": text, "alert": alert})

    async def invite_private(
        self, chat: Chat, user: User, msg: Message, start_payload: str, *, label: str | None = None
    ) -> MessageRef | None:
        invite = {"payload": start_payload, "user": user.name, "user_id": user.id}
        entry = self.board.add_message(room_key(chat.id), msg, invite=invite)
        self._touch(room_key(chat.id))
        return MessageRef(PLATFORM, chat.id, entry["id"], chat.thread)

    # ---- replies the adapter gives itself ----------------------------------------------------------
    @staticmethod
    def refuse(client: Client, code: str, req: int | None) -> None:
        """Tell a tab its frame was refused; the page words ``code`` in its language."""
        client.send({"type": "error", "code": code, "req": req})

    async def close(self) -> None:
        self.flush()
        for client in list(self.clients):
            client.close_soon()
        for client in list(self.clients):
            with contextlib.suppress(Exception):
                await client.ws.close()
        self.clients.clear()
