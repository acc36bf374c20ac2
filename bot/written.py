"""What each message a port wrote shows: the table version and a fingerprint of its content (issue 36).

Every write of a table message or a hand carries the table version it shows (``None``: no version, e.g. the
lobby). A port sends a write only when it is news (``verdict``): one older than what the message holds raises
``bot.port.Stale``; content the message already shows is not sent again (no edit that changes nothing, no
write slot spent on it). A message shown anew as a new one leaves a forward (``moved``): a later edit of the
old message is made to the new one, so that retiring the old message never takes the newest content along.

``Written`` keeps this in one process's memory (the playground, Discord, the tests' port); the Telegram port
keeps the same records in its ``Coordinator`` (Redis: every worker reads them under the chat's write slot).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

from bot.port import Message, Stale

MOVES_FOLLOWED = 8  # forwards followed at most (a hand shown anew many times in a row)


def keyed(key: str) -> str:
    """The fingerprint of a message whose sender said what it shows (``Message.key``)."""
    return "k" + key


def fingerprint(msg: Message) -> str:
    """What a message shows: its key when its sender gave one, else its text, picture, file and buttons (an edit
    to the same fingerprint changes nothing)."""
    if msg.key is not None:
        return keyed(msg.key)
    h = hashlib.blake2b(digest_size=10)
    h.update(msg.text.encode())
    h.update(b"\0" + (hashlib.blake2b(msg.image, digest_size=10).digest() if msg.image else b""))
    if msg.document is not None:
        h.update(b"\0" + msg.document.filename.encode() + hashlib.blake2b(msg.document.data, digest_size=10).digest())
    h.update(repr(msg.buttons).encode())
    return h.hexdigest()


def pack(version: int | None, print_: str) -> str:
    return f"{'' if version is None else version}|{print_}"


def unpack(value: str | None) -> tuple[int | None, str]:
    """A stored record: (version, fingerprint); (None, "") when nothing was recorded."""
    if not value:
        return None, ""
    version, _, print_ = value.partition("|")
    return (int(version) if version.lstrip("-").isdigit() else None), print_


def verdict(held: tuple[int | None, str], msg: Message | None, version: int | None) -> bool:
    """Whether ``msg`` at ``version`` is news for a message that holds ``held``: raises ``Stale`` when the
    message shows a newer version already; False when it shows exactly this content (``msg`` None: the order
    only, for content shown anew in a new message)."""
    held_version, held_print = held
    if version is not None and held_version is not None and version < held_version:
        raise Stale(f"the message shows version {held_version}, this write {version}")
    return msg is None or fingerprint(msg) != held_print


def newer(held: tuple[int | None, str], msg: Message, version: int | None) -> tuple[int | None, str]:
    """The record after ``msg`` was shown: the newest version seen, the new fingerprint."""
    held_version = held[0]
    if version is None or (held_version is not None and held_version > version):
        version = held_version
    return version, fingerprint(msg)


@dataclass
class Written:
    """The records of one process: message key -> (version, fingerprint), and forwards of re-sent messages."""

    held: dict[str, tuple[int | None, str]] = field(default_factory=dict)
    moved: dict[str, str] = field(default_factory=dict)
    unchanged: int = 0  # writes not sent: the message showed that content already
    stale: int = 0  # writes not sent: the message showed a newer version

    def current(self, key: str) -> str:
        for _ in range(MOVES_FOLLOWED):
            if key not in self.moved:
                break
            key = self.moved[key]
        return key

    def news(self, key: str, msg: Message | None, version: int | None) -> bool:
        """``verdict`` for ``key`` (counted)."""
        try:
            fresh = verdict(self.held.get(key, (None, "")), msg, version)
        except Stale:
            self.stale += 1
            raise
        if not fresh:
            self.unchanged += 1
        return fresh

    def of(self, key: str) -> tuple[int | None, str]:
        """What the message ``key`` (followed through its forwards) shows: (version, fingerprint)."""
        return self.held.get(self.current(key), (None, ""))

    def record(self, key: str, msg: Message, version: int | None) -> None:
        self.held[key] = newer(self.held.get(key, (None, "")), msg, version)

    def move(self, old: str, new: str) -> None:
        if old != new:
            self.moved[old] = new
