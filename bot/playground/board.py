"""What the playground shows: the messages of every room and every user's private pane, and their files.

A *box* is one scrolling list of messages: ``room:<name>`` for a room's group pane, ``user:<id>`` for one
user's private pane. Each entry is a plain dict ready for the page (``kind`` ``"message"`` for the bot's
messages, ``"said"`` for a command somebody typed). Pictures and files live in ``media`` under unguessable
tokens: a private picture's address is only ever sent to its owner.

Everything is in memory. Message ids carry a boot id, so a reference kept by the application from before a
restart is recognised as gone and the message is shown again instead.
"""

from __future__ import annotations

import itertools
import secrets
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from bot.port import Message

MAX_ENTRIES = 200  # entries kept per box; older ones (and their files) are dropped
RETIRED_MEDIA = 64  # replaced pictures kept a little longer for pages still loading them


@dataclass(slots=True)
class Media:
    data: bytes
    mime: str
    filename: str | None = None  # set for a downloadable document


@dataclass
class Box:
    """One pane's entries in order, by id."""

    entries: OrderedDict[str, dict[str, Any]] = field(default_factory=OrderedDict)
    dirty: set[str] = field(default_factory=set)  # ids changed since the last push


class Board:
    """All boxes and all files of one running playground."""

    def __init__(self) -> None:
        self.boot = secrets.token_hex(3)
        self._ids = itertools.count(1)
        self.boxes: dict[str, Box] = {}
        self.media: dict[str, Media] = {}
        self._retired: list[str] = []

    # ---- boxes -----------------------------------------------------------------------------------
    def box(self, key: str) -> Box:
        box = self.boxes.get(key)
        if box is None:
            box = self.boxes[key] = Box()
        return box

    def find(self, key: str, message_id: str) -> dict[str, Any] | None:
        box = self.boxes.get(key)
        return None if box is None else box.entries.get(message_id)

    def entries(self, key: str) -> list[dict[str, Any]]:
        box = self.boxes.get(key)
        return [] if box is None else list(box.entries.values())

    # ---- writing ---------------------------------------------------------------------------------
    def add_message(self, key: str, msg: Message, *, invite: dict[str, str] | None = None) -> dict[str, Any]:
        """Append a bot message to a box; returns its entry (with its new id)."""
        entry: dict[str, Any] = {"kind": "message", "id": f"{self.boot}-{next(self._ids)}", "version": 0}
        if invite is not None:
            entry["invite"] = invite
        self._fill(entry, msg)
        self._append(key, entry)
        return entry

    def add_said(self, key: str, user_name: str, text: str, *, talk: bool = False) -> dict[str, Any]:
        """Append what a user typed (shown as his own chat line): a command, or table talk."""
        entry = {"kind": "said", "id": f"{self.boot}-{next(self._ids)}", "version": 0, "user": user_name, "text": text}
        if talk:
            entry["talk"] = True
        self._append(key, entry)
        return entry

    def replace(self, key: str, message_id: str, msg: Message) -> dict[str, Any] | None:
        """Replace a message's content in place; None when the box does not hold it (any more)."""
        box = self.boxes.get(key)
        entry = None if box is None else box.entries.get(message_id)
        if entry is None or entry["kind"] != "message":
            return None
        self._drop_media(entry)
        entry["version"] += 1
        self._fill(entry, msg)
        box.dirty.add(message_id)
        return entry

    def take_dirty(self, key: str) -> list[dict[str, Any]]:
        """The entries changed since the last call, oldest first; clears the mark."""
        box = self.boxes.get(key)
        if box is None or not box.dirty:
            return []
        out = [box.entries[i] for i in box.entries if i in box.dirty]
        box.dirty.clear()
        return out

    # ---- files -----------------------------------------------------------------------------------
    def _put_media(self, media: Media) -> str:
        token = secrets.token_urlsafe(16)
        self.media[token] = media
        return token

    def _drop_media(self, entry: dict[str, Any]) -> None:
        for token in (entry.get("image"), (entry.get("document") or {}).get("token")):
            if token:
                self._retired.append(token)
        while len(self._retired) > RETIRED_MEDIA:
            self.media.pop(self._retired.pop(0), None)

    def _fill(self, entry: dict[str, Any], msg: Message) -> None:
        entry["text"] = msg.text
        entry["image"] = self._put_media(Media(msg.image, "image/jpeg")) if msg.image else None
        entry["image_name"] = msg.image_name if msg.image else None
        if msg.document is not None:
            doc = msg.document
            token = self._put_media(Media(doc.data, doc.mime, doc.filename))
            entry["document"] = {"token": token, "filename": doc.filename, "size": len(doc.data)}
        else:
            entry["document"] = None
        entry["buttons"] = [
            [{"label": b.label, "payload": b.payload, "url": b.url, "style": b.style} for b in row]
            for row in msg.buttons
        ]

    def _append(self, key: str, entry: dict[str, Any]) -> None:
        box = self.box(key)
        box.entries[entry["id"]] = entry
        box.dirty.add(entry["id"])
        while len(box.entries) > MAX_ENTRIES:
            _, old = box.entries.popitem(last=False)
            box.dirty.discard(old["id"])
            for token in (old.get("image"), (old.get("document") or {}).get("token")):
                if token:
                    self.media.pop(token, None)
