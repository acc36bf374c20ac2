"""The JSON frames a playground page sends, checked before anything reaches the application.

Every frame is one JSON object with a ``type``:

* ``{"type": "hello", "room": "kitchen", "name": "Anna", "lang": "en"}`` — who this tab is and where;
* ``{"type": "command", "req": 7, "where": "group" | "private", "text": "/new thousand"}``;
* ``{"type": "press", "req": 8, "message": "<message id>", "payload": "<button payload>"}``;
* ``{"type": "start", "req": 9, "payload": "<invitation payload>"}`` — the page's "open my private pane"
  button of an invitation (the playground's form of Telegram's ``/start <payload>``).

``parse`` returns a typed frame or raises ``BadFrame`` with a short code the page turns into a sentence in
its language. Nothing here decides whether a press is allowed: a well-formed press goes to the application,
which answers a forged or stale one with its own notice.
"""

from __future__ import annotations

import json
import re
import unicodedata
from dataclasses import dataclass
from typing import Any

from bot.port import COMMANDS, MAX_PAYLOAD, PAYLOAD_CHARS

MAX_FRAME = 4096  # bytes of one incoming frame
MAX_COMMAND = 300  # characters of a typed command line
MAX_NAME = 32
LANGUAGES = ("en", "ru", "uk")
ROOM_RE = re.compile(r"[a-z0-9][a-z0-9_-]{0,31}")
START_RE = re.compile(r"[A-Za-z0-9_-]{1,64}")
MESSAGE_ID_RE = re.compile(r"[0-9a-f]{1,16}-[0-9]{1,12}")


class BadFrame(Exception):
    """A frame the playground refuses; ``code`` names the reason for the page (``bad_request`` ...)."""

    def __init__(self, code: str, req: int | None = None) -> None:
        super().__init__(code)
        self.code = code
        self.req = req


@dataclass(frozen=True, slots=True)
class Hello:
    room: str
    name: str
    lang: str


@dataclass(frozen=True, slots=True)
class CommandFrame:
    req: int | None
    private: bool
    name: str
    args: str
    text: str  # the line as typed, cleaned, for the chat log


@dataclass(frozen=True, slots=True)
class PressFrame:
    req: int | None
    message: str
    payload: str


@dataclass(frozen=True, slots=True)
class StartFrame:
    req: int | None
    payload: str


@dataclass(frozen=True, slots=True)
class SayFrame:
    """Table talk: plain text typed in the group box (a command starts with ``/``), shown to the room only."""

    req: int | None
    text: str


Frame = Hello | CommandFrame | PressFrame | StartFrame | SayFrame


def _clean_line(raw: str) -> str:
    """One line of printable text: control characters become spaces, runs of spaces collapse."""
    return " ".join("".join(" " if unicodedata.category(ch)[0] == "C" else ch for ch in raw).split())


def clean_name(raw: Any) -> str | None:
    """A display name: printable, spaces collapsed, 1–32 characters; None if there is nothing left."""
    if not isinstance(raw, str):
        return None
    text = _clean_line(raw)[:MAX_NAME].strip()
    return text or None


def user_id(name: str) -> str:
    """The player behind a name: the same name in two tabs is the same player (case does not matter)."""
    return name.casefold()


def _req(data: dict[str, Any]) -> int | None:
    req = data.get("req")
    if req is None:
        return None
    if type(req) is not int or not 0 <= req < 2**31:
        raise BadFrame("bad_request")
    return req


def parse_command_line(text: str) -> tuple[str, str]:
    """``"/new thousand"`` → ``("new", "thousand")``; raises ``BadFrame("unknown_command")``."""
    line = text.strip()
    if line.startswith("/"):
        line = line[1:]
    head, _, rest = line.partition(" ")
    name = head.split("@", 1)[0].lower()  # "/new@bot" as chats write it
    if name not in COMMANDS:
        raise BadFrame("unknown_command")
    return name, " ".join(rest.split())


def parse(raw: str | bytes) -> Frame:
    """Check one incoming frame; raises ``BadFrame``."""
    if len(raw) > MAX_FRAME:
        raise BadFrame("too_long")
    try:
        data = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        raise BadFrame("bad_request") from None
    if not isinstance(data, dict):
        raise BadFrame("bad_request")
    kind = data.get("type")
    req = _req(data)
    if kind == "hello":
        room = data.get("room")
        name = clean_name(data.get("name"))
        lang = data.get("lang")
        if not isinstance(room, str) or not ROOM_RE.fullmatch(room) or name is None or lang not in LANGUAGES:
            raise BadFrame("bad_hello", req)
        return Hello(room, name, lang)
    if kind == "command":
        text = data.get("text")
        where = data.get("where", "group")
        if not isinstance(text, str) or where not in ("group", "private"):
            raise BadFrame("bad_request", req)
        if len(text) > MAX_COMMAND:
            raise BadFrame("too_long", req)
        text = _clean_line(text)
        if not text:
            raise BadFrame("unknown_command", req)
        try:
            name, args = parse_command_line(text)
        except BadFrame as e:
            raise BadFrame(e.code, req) from None
        return CommandFrame(req, where == "private", name, args, text)
    if kind == "say":
        text = data.get("text")
        if not isinstance(text, str):
            raise BadFrame("bad_request", req)
        if len(text) > MAX_COMMAND:
            raise BadFrame("too_long", req)
        text = _clean_line(text)
        if not text:
            raise BadFrame("bad_request", req)
        return SayFrame(req, text)
    if kind == "press":
        message = data.get("message")
        payload = data.get("payload")
        if not isinstance(message, str) or not MESSAGE_ID_RE.fullmatch(message):
            raise BadFrame("bad_request", req)
        if (
            not isinstance(payload, str)
            or not payload
            or len(payload.encode()) > MAX_PAYLOAD
            or not set(payload) <= PAYLOAD_CHARS
        ):
            raise BadFrame("bad_button", req)
        return PressFrame(req, message, payload)
    if kind == "start":
        payload = data.get("payload")
        if not isinstance(payload, str) or not START_RE.fullmatch(payload):
            raise BadFrame("bad_button", req)
        return StartFrame(req, payload)
    raise BadFrame("bad_request", req)
