"""An in-memory platform for tests and benchmarks: a ``Port`` that records everything, and users who play.

``FakePort`` keeps every message (public in a chat, private to one user) with its current content, every edit,
every answer to a press and every invitation, and refuses what a real platform would refuse (editing a message
that is not there, a private message to a user who never opened the private chat). It also checks the two
promises of the application: no private message goes to a group and no hand picture is ever shown publicly;
and that a press is answered before any group message its handling sends (which may wait for the group's
window). Like every port it keeps what each message shows (``bot.written``): a write older than the message's
table version raises ``Stale`` (a public one is dropped), one that changes nothing is not made (``unchanged``).

``FakeUser`` plays a user: types commands and presses only buttons he was actually shown.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bot.app.context import PRESSED
from bot.port import (
    MAX_CAPTION,
    MAX_PAYLOAD,
    MAX_TEXT,
    PAYLOAD_CHARS,
    Button,
    Chat,
    Command,
    Message,
    MessageGone,
    MessageRef,
    Press,
    PrivateStart,
    Stale,
    Unreachable,
    User,
)
from bot.written import Written


class BrokenPromise(AssertionError):
    """The application showed something where it must never be shown."""


@dataclass
class Shown:
    """One message as it is now on the fake platform."""

    id: str
    chat_id: str  # a group id, or "private:<user id>"
    private_to: str | None
    message: Message
    edits: int = 0
    history: list[Message] = field(default_factory=list)

    @property
    def text(self) -> str:
        return self.message.text

    def buttons(self) -> list[Button]:
        return self.message.all_buttons()


class FakePort:
    """A chat platform in memory (see the module's docstring)."""

    def __init__(self, platform: str = "fake") -> None:
        self.platform = platform
        self.shown: dict[str, Shown] = {}
        self.calls: list[tuple[str, Any]] = []
        self.answers: list[tuple[Press, str | None, bool]] = []
        self.invites: list[tuple[Chat, User, Message, str]] = []
        self.blocked: set[str] = set()  # users the platform cannot reach privately
        self.written = Written()  # message id -> the table version and fingerprint it shows; forwards
        self._next = 0

    def _id(self) -> str:
        self._next += 1
        return str(self._next)

    # ---- the Port ----------------------------------------------------------------------------------------
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
        self._check_public(msg)
        pressed = PRESSED.get()
        if pressed is not None and not pressed.answered:  # a group send may wait for the group's window
            raise BrokenPromise(f"a group message was sent before the press {pressed.press.payload!r} was answered")
        old = self._replacing(replaces, version)
        mid = self._id()
        self.shown[mid] = Shown(mid, chat.id, None, msg, 0, [msg])
        self.calls.append(("send_public", mid))
        self._replaced(old, mid, msg, version, retired)
        return MessageRef(self.platform, chat.id, mid, chat.thread)

    async def edit_public(self, ref: MessageRef, msg: Message, *, version: int | None = None) -> MessageRef:
        self._check_public(msg)
        mid = self.written.current(ref.message_id)
        shown = self.shown.get(mid)
        if shown is None or shown.private_to is not None or shown.chat_id != ref.chat_id:
            raise MessageGone(ref.message_id)
        try:
            if self.written.news(mid, msg, version):
                self._edit(shown, msg, version, "edit_public")
        except Stale:
            pass  # a queued table edit older than what the message shows is dropped
        return MessageRef(self.platform, ref.chat_id, mid, ref.thread)

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
        self._check_buttons(msg)
        if user.id in self.blocked and not isinstance(via, PrivateStart):
            raise Unreachable(user.id)
        old = self._replacing(replaces, version)
        mid = self._id()
        chat_id = f"private:{user.id}"
        self.shown[mid] = Shown(mid, chat_id, user.id, msg, 0, [msg])
        self.calls.append(("send_private", mid))
        self._replaced(old, mid, msg, version, retired)
        return MessageRef(self.platform, chat_id, mid)

    async def record_of(self, ref: MessageRef) -> tuple[int | None, str]:
        return self.written.of(ref.message_id)

    async def edit_private(
        self, user: User, ref: MessageRef, msg: Message, *, version: int | None = None
    ) -> MessageRef:
        self._check_buttons(msg)
        if user.id in self.blocked:
            raise Unreachable(user.id)
        mid = self.written.current(ref.message_id)
        shown = self.shown.get(mid)
        if shown is None or shown.private_to != user.id:
            raise MessageGone(ref.message_id)
        if self.written.news(mid, msg, version):
            self._edit(shown, msg, version, "edit_private")
        return MessageRef(self.platform, ref.chat_id, mid)

    def _replacing(self, replaces: MessageRef | None, version: int | None) -> str | None:
        """The message a new one replaces (after forwards); ``Stale`` when it shows a newer version."""
        if replaces is None:
            return None
        old = self.written.current(replaces.message_id)
        self.written.news(old, None, version)
        return old

    def _replaced(self, old: str | None, mid: str, msg: Message, version: int | None, retired: Message | None) -> None:
        self.written.record(mid, msg, version)
        if old is None:
            return
        self.written.move(old, mid)
        shown = self.shown.get(old)
        if retired is not None and shown is not None:
            self._edit(shown, retired, None, "edit_private" if shown.private_to else "edit_public")

    def _edit(self, shown: Shown, msg: Message, version: int | None, call: str) -> None:
        shown.message = msg
        shown.edits += 1
        shown.history.append(msg)
        self.written.record(shown.id, msg, version)
        self.calls.append((call, shown.id))

    async def answer(self, press: Press, text: str | None = None, *, alert: bool = False) -> None:
        self.answers.append((press, text, alert))
        self.calls.append(("answer", press.payload))

    async def invite_private(
        self, chat: Chat, user: User, msg: Message, start_payload: str, *, label: str | None = None
    ) -> MessageRef | None:
        self.invites.append((chat, user, msg, start_payload))
        link = Button(label or "Start", url=f"https://example.invalid/start?{start_payload}")
        return await self.send_public(chat, Message(msg.text, buttons=((link,),)))

    # ---- checks ------------------------------------------------------------------------------------------
    @staticmethod
    def _check_public(msg: Message) -> None:
        if msg.image is not None and msg.image_name == "hand.jpg":
            raise BrokenPromise("a hand picture was about to be shown in a group")
        FakePort._check_buttons(msg)

    @staticmethod
    def _check_buttons(msg: Message) -> None:
        """What every platform requires of a message: payloads that fit, texts within the limits."""
        if len(msg.text) > (MAX_CAPTION if msg.image is not None else MAX_TEXT):
            raise BrokenPromise(f"a text of {len(msg.text)} characters")
        for b in msg.all_buttons():
            if b.url is None and (len(b.payload.encode()) > MAX_PAYLOAD or not set(b.payload) <= PAYLOAD_CHARS):
                raise BrokenPromise(f"the payload {b.payload!r} does not fit a button")

    # ---- what users see ----------------------------------------------------------------------------------
    def public(self, chat_id: str) -> list[Shown]:
        return [s for s in self.shown.values() if s.private_to is None and s.chat_id == chat_id]

    def private(self, user_id: str) -> list[Shown]:
        return [s for s in self.shown.values() if s.private_to == user_id]

    def last_answer(self) -> tuple[str | None, bool]:
        _press, text, alert = self.answers[-1]
        return text, alert

    def snapshot(self) -> list[tuple[str, str, int]]:
        """Every message with its text and edit count (to compare before/after a refused press)."""
        return [(s.id, s.message.text, s.edits) for s in self.shown.values()]


class FakeUser:
    """A user of the fake platform who types commands and presses buttons he can see."""

    def __init__(self, app: Any, port: FakePort, uid: str, name: str, language: str | None = "en") -> None:
        self.app = app
        self.port = port
        self.user = User(port.platform, uid, name, language)

    async def say(self, chat: Chat | None, name: str, args: str = "") -> None:
        await self.app.command(Command(self.user, chat, name, args))

    async def open_private(self, payload: str = "") -> None:
        self.port.blocked.discard(self.user.id)
        await self.app.private_start(PrivateStart(self.user, payload))

    async def press(self, shown: Shown, button: Button, chat: Chat | None = None) -> tuple[str | None, bool]:
        if button not in shown.buttons():
            raise AssertionError(f"{self.user.name} cannot see the button {button.label!r}")
        ref = MessageRef(self.port.platform, shown.chat_id, shown.id)
        press = Press(self.user, None if shown.private_to else chat, button.payload, ref)
        before = len(self.port.answers)
        await self.app.press(press)
        answers = [a for a in self.port.answers[before:] if a[0] is press]
        assert len(answers) == 1, f"a press must be answered exactly once, got {len(answers)}"
        return answers[0][1], answers[0][2]

    async def press_label(self, shown: Shown, label: str, chat: Chat | None = None) -> tuple[str | None, bool]:
        for b in shown.buttons():
            if b.label == label or label in b.label:
                return await self.press(shown, b, chat)
        raise AssertionError(f"no button {label!r} in {[b.label for b in shown.buttons()]}")

    def hands(self) -> list[Shown]:
        """My private messages with move or picker buttons (hands with choices), newest first."""
        return [
            s
            for s in reversed(self.port.private(self.user.id))
            if any(b.payload.startswith(("a.", "u.")) for b in s.buttons())
        ]

    async def play_code(self, code: str) -> bool:
        """Press my way to one action (by its code), through the pickers, using only buttons I was shown.

        False when no keyboard of mine leads to it."""
        for _ in range(4):
            hands = self.hands()
            if not hands:
                return False
            shown = hands[0]
            payload = next_press(code, [b.payload for b in shown.buttons()])
            if payload is None:
                return False
            await self.press(shown, next(b for b in shown.buttons() if b.payload == payload))
            if payload.startswith("a."):
                return True
        return False


def next_press(code: str, payloads: list[str]) -> str | None:
    """Which payload of a keyboard leads to the action ``code`` (``bot.keyboards``' pickers): the action's own
    button, the picker step toward it, or the way back to the first page. None: this keyboard cannot lead there.

    Shared by every fake platform's players (here, and the Telegram tests' players)."""
    fields = dict(part.split("=", 1) for part in code.split(",")[1:] if "=" in part)
    typ = code.split(",")[0]
    finals = {p.split(".", 3)[3]: p for p in payloads if p.startswith("a.") and p.count(".") >= 3}
    if code in finals:
        return finals[code]
    if typ == "play" and "l" in fields:  # a Kozel tile whose two ends lead to the same game has one button
        same_tile = [p for final, p in finals.items() if final.startswith("play,") and f",l={fields['l']}," in final]
        if len(same_tile) == 1 and f"tile~l={fields['l']}" not in {p.split(".", 3)[3] for p in payloads}:
            return same_tile[0]
    steps = {p.split(".", 3)[3]: p for p in payloads if p.startswith("u.") and p.count(".") >= 3}
    want = None
    if typ == "give" and f"give~c={fields.get('c')}" in steps:
        want = f"give~c={fields.get('c')}"
    elif typ == "play" and f"tile~l={fields.get('l')}" in steps:
        want = f"tile~l={fields.get('l')}"
    elif typ in ("bid", "contract") and "v" in fields:
        value = int(fields["v"])
        ranges = []
        for step_code in steps:
            head, _, start = step_code.partition("~")
            if head == typ and start.isdigit() and int(start) <= value:
                ranges.append((int(start), step_code))
        if ranges:
            want = max(ranges)[1]
        elif f"{typ}~more" in steps:
            want = f"{typ}~more"
    if want is not None:
        return steps[want]
    return steps.get("main")
