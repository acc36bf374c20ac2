"""The boundary between the chat application and a chat platform: small neutral types and the ``Port``.

An adapter (``bot/telegram``, ``bot/discord``, ``bot/playground``) does two things only:

* it turns what the platform delivers into ``Command``, ``Press`` and ``PrivateStart`` values and hands them
  to the application (``bot.app.Application.command / press / private_start``);
* it implements ``Port``: the application sends and edits messages only through these methods.

Everything here is plain data: no chat library, no database. Identifiers are strings whatever the platform
uses, so that a Telegram chat id, a Discord snowflake and a playground room name all fit.

Rules every adapter keeps:

* ``Button.payload`` is opaque ASCII of at most ``MAX_PAYLOAD`` bytes drawn from ``PAYLOAD_CHARS`` (no ``:``,
  no spaces); it comes back unchanged in ``Press``. (Telegram allows 64 bytes of callback data, Discord 100
  characters of custom id: the adapter may add a prefix of its own of up to 8 bytes.) A ``start_payload`` of
  ``invite_private`` uses only ``[A-Za-z0-9_-]`` and is at most 64 characters (Telegram's deep-link rule).
* ``edit_public`` keeps one message up to date. It may coalesce edits (the latest wins) and may re-send a
  message that was deleted; it returns the reference of the message that now shows the content.
* ``send_private`` / ``edit_private`` reach one user and nobody else (a Telegram private chat, a Discord
  ephemeral message, the playground's private pane). When the platform cannot reach the user now, they
  raise ``Unreachable``; the application then calls ``invite_private`` in the group.
* ``answer`` is called exactly once for every ``Press`` the application receives.
* Every write of a table's message or of a player's hand carries ``version``, the table version it shows
  (None: a message of no table version, the lobby, a notice). A port never sends a write older than what the
  message already shows (``edit_private`` / a re-send raise ``Stale``; a queued public edit is dropped), nor
  one that changes nothing, whichever worker wrote the message before (``bot.written``). ``send_private`` /
  ``send_public`` with ``replaces`` show the content anew as a new message and retire the old one into
  ``retired`` as one step: a later edit of the old message is made to the new one.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

MAX_PAYLOAD = 56  # bytes of a button payload made by the application
PAYLOAD_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-.,=~!*")
MAX_CAPTION = 1024  # the longest text the application puts under a picture (Telegram's caption limit)
MAX_TEXT = 4096  # the longest text message

COMMANDS = (
    "new",
    "join",
    "leave",
    "stop",
    "table",
    "rules",
    "settings",
    "lang",
    "score",
    "top",
    "me",
    "history",
    "export",
    "daily",
    "notify",
    "season",
    "help",
)


@dataclass(frozen=True, slots=True)
class User:
    """A person on one platform. ``language`` is the platform's language hint (``"ru"``, ``"en-US"``)."""

    platform: str
    id: str
    name: str
    language: str | None = None


@dataclass(frozen=True, slots=True)
class Chat:
    """A group, channel or playground room; ``thread`` is a forum topic where the platform has them.

    One table runs per (platform, id, thread). ``guild`` is the server the chat belongs to where the platform
    splits its chats between workers by it (Discord's guild id, a snowflake): it says which worker receives the
    chat's updates (``Shards``).
    """

    platform: str
    id: str
    thread: str | None = None
    title: str = ""
    language: str | None = None
    guild: int | None = None

    @property
    def key(self) -> tuple[str, str, str | None]:
        return (self.platform, self.id, self.thread)


@dataclass(frozen=True, slots=True)
class Shards:
    """The part of a platform's servers whose updates reach this worker: Discord sends a guild's events and
    interactions to shard ``(guild >> 22) % count`` only, and this worker connects the shards ``ids``."""

    count: int
    ids: frozenset[int]


@dataclass(frozen=True, slots=True)
class MessageRef:
    """Where a sent message lives, enough for the adapter to edit it later (also after a restart).

    ``chat_id`` is the group or the user's private chat; ``extra`` is any other string the adapter needs
    (kept by the application with the reference, never read by it).
    """

    platform: str
    chat_id: str
    message_id: str
    thread: str | None = None
    extra: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "platform": self.platform,
            "chat_id": self.chat_id,
            "message_id": self.message_id,
            "thread": self.thread,
            "extra": self.extra,
        }

    @classmethod
    def from_json(cls, data: Any) -> MessageRef | None:
        if not isinstance(data, dict):
            return None
        try:
            return cls(
                str(data["platform"]),
                str(data["chat_id"]),
                str(data["message_id"]),
                None if data.get("thread") is None else str(data["thread"]),
                str(data.get("extra") or ""),
            )
        except (KeyError, TypeError):
            return None


@dataclass(frozen=True, slots=True)
class Button:
    """One button. Either ``payload`` (comes back as a ``Press``) or ``url`` (a link, e.g. a deep link).

    ``style``: ``"primary"``, ``"danger"`` or ``"default"`` (platforms without styles ignore it).
    ``web_app``: the button opens ``url`` as the platform's web app (Telegram: a Mini App button in a private
    chat, a ``t.me/<bot>/<app>?startapp=<web_app>`` link in a group when the app has a short name); the value is
    the start parameter (``t<table>``). Platforms without web apps show a plain link to ``url``.
    """

    label: str
    payload: str = ""
    url: str | None = None
    style: str = "default"
    web_app: str | None = None


@dataclass(frozen=True, slots=True)
class Document:
    """A file attached to a message (the ``export`` JSON)."""

    filename: str
    data: bytes
    mime: str = "application/json"


@dataclass(frozen=True, slots=True)
class Message:
    """One outgoing message: text (a caption when there is a picture), an optional JPEG picture, an
    optional file, and rows of buttons. ``key``: what it shows, said by its sender (a hand: the seat's hand and
    choices), so that a port can tell it is no news without comparing its picture (``bot.written``)."""

    text: str
    image: bytes | None = None
    image_name: str = "picture.jpg"
    document: Document | None = None
    buttons: tuple[tuple[Button, ...], ...] = ()
    key: str | None = None

    def all_buttons(self) -> list[Button]:
        return [b for row in self.buttons for b in row]


@dataclass(frozen=True, slots=True)
class Command:
    """A command typed by a user: ``name`` is one of ``COMMANDS``; ``args`` the rest of the line.

    ``chat`` is None when the command was given in the private chat with the bot. ``handle`` belongs to
    the adapter (a Telegram message id, a Discord interaction) and is passed back in ``reply_to``.
    """

    user: User
    chat: Chat | None
    name: str
    args: str = ""
    handle: Any = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class Press:
    """A button press. ``chat`` is where the button was (None: the user's private chat);
    ``message`` the message that carried it; ``handle`` the adapter's own (callback query, interaction);
    ``key`` the platform's id of the press (Telegram's callback query id, Discord's interaction id), the same
    when the platform delivers one press twice, so that a move stored by it is answered as done everywhere."""

    user: User
    chat: Chat | None
    payload: str
    message: MessageRef | None = None
    handle: Any = field(default=None, compare=False)
    key: str | None = None  # the platform's id of this press (a delivered-twice press has the same key)


@dataclass(frozen=True, slots=True)
class PrivateStart:
    """The user opened the private chat with the bot through an invitation (Telegram ``/start <payload>``)."""

    user: User
    payload: str = ""
    handle: Any = field(default=None, compare=False)


class Answering:
    """A ``Press.handle`` that answers its press itself (a press made in the web table's page, ``bot.webapp``):
    the application calls its ``answer`` instead of the platform port's."""

    async def answer(self, press: Press, text: str | None = None, *, alert: bool = False) -> None:
        raise NotImplementedError


class Unreachable(Exception):
    """The platform cannot deliver a private message to this user now (never started the bot, blocked it,
    or no live interaction to answer through)."""


class Stale(Exception):
    """The message already shows a newer version of the table than this write: nothing was sent."""


class MessageGone(Exception):
    """The message to edit no longer exists and the adapter could not show the content again."""


@runtime_checkable
class Sharing(Protocol):
    """A port whose web app can share a message the bot prepared (Telegram: ``savePreparedInlineMessage``, then the
    Mini App's ``shareMessage`` lets the user pick the chats)."""

    async def prepare_share(self, user: User, msg: Message) -> str:
        """Prepare ``msg`` (its text and link buttons) for ``user`` to share; returns the prepared message's id.
        Raises ``Unreachable`` when the platform refuses."""
        ...


@runtime_checkable
class Sharded(Protocol):
    """A port whose platform hands each worker a part of its chats (Discord's shards): ``shards`` is this worker's
    part, None when it serves them all. Work nobody pressed for (a turn timer, a computer seat after a restart) on
    a chat of another part is left to the worker that serves it: only that one holds the players' interactions."""

    shards: Shards | None


@runtime_checkable
class Port(Protocol):
    """What the application needs from a chat platform."""

    platform: str

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
        """Post a message in the group (as the answer to ``reply_to`` where the platform needs one); with
        ``replaces``, in place of that message, which becomes ``retired`` (raises ``Stale``)."""
        ...

    async def edit_public(self, ref: MessageRef, msg: Message, *, version: int | None = None) -> MessageRef:
        """Replace a public message's text, picture and buttons; may coalesce and may re-send; a write older than
        the message's ``version`` or equal to what it shows is dropped."""
        ...

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
        """Send a message only this user sees; ``via`` is the user's own press or command being handled,
        when there is one; ``replaces``: the message this one shows anew, which becomes ``retired``. Raises
        ``Unreachable``, and ``Stale`` when ``replaces`` already shows a newer ``version``."""
        ...

    async def edit_private(
        self, user: User, ref: MessageRef, msg: Message, *, version: int | None = None
    ) -> MessageRef:
        """Replace a private message in place (or show it again); raises ``Unreachable`` / ``MessageGone``, and
        ``Stale`` when it already shows a newer ``version``; content it already shows is not sent again."""
        ...

    async def record_of(self, ref: MessageRef) -> tuple[int | None, str]:
        """What the message ``ref`` (or the one that shows it anew) shows by its record (``bot.written``): the
        table version and fingerprint; ``(None, "")`` when nothing is recorded. Read without any write slot: the
        application asks it to leave alone a hand that shows its content already, without drawing it."""
        ...

    async def answer(self, press: Press, text: str | None = None, *, alert: bool = False) -> None:
        """Acknowledge a press, with a short notice (a toast, or an alert the user must close)."""
        ...

    async def invite_private(
        self, chat: Chat, user: User, msg: Message, start_payload: str, *, label: str | None = None
    ) -> MessageRef | None:
        """Tell the group that ``user`` cannot be reached privately, with a way to open the private chat
        (Telegram: a deep-link button ``t.me/<bot>?start=<start_payload>``). Returns the message, if any.
        ``label``: what the application calls the private view (``Show my tiles``), for a platform whose button
        shows it at once (Discord); a button that opens a private chat keeps the platform's own words."""
        ...
