"""One Discord interaction as the adapter holds it, and the live ones it remembers.

What both sides of the adapter need, in a module of its own so that imports flow one way
(``interactions`` <- ``items`` <- ``client`` <- ``port``): the client receives interactions and records them
here; the components hand their presses to a ``Receiver`` (the client); the port answers through the
``Handle`` of an interaction and looks up the user's latest live one here. An interaction token reaches the
user for 15 minutes after the interaction arrived.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

import discord

from bot.port import Chat, MessageRef, User

PLATFORM = "discord"
TOKEN_LIFETIME = 15 * 60.0
STAND_IN = "…"  # what a command's public placeholder shows between a private follow-up and the public answer
OWNERS_KEPT = 100_000  # ephemeral messages whose user is remembered (the oldest are forgotten first)


@dataclass(eq=False)
class Handle:
    """The adapter's handle on one interaction (``Command.handle``, ``Press.handle``, ``PrivateStart.handle``).

    ``received`` is when it arrived (the port's clock): its token can reach the user for 15 minutes after.
    ``used`` is set once the public "thinking" placeholder of a command has been replaced or removed.
    ``loading`` is set while that placeholder is still "thinking": Discord fixes a deferred reply's visibility
    when it is deferred and turns the next follow-up into the placeholder itself, public whatever its flags.
    """

    interaction: discord.Interaction[Any]
    received: float
    used: bool = False
    loading: bool = False
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)  # one change of the placeholder at a time

    @property
    def locale(self) -> str:
        return str(self.interaction.locale)

    async def open_followups(self) -> None:
        """Make sure the next follow-up is a message of its own, so that ``ephemeral=True`` is kept: while the
        public placeholder is still thinking, it is first resolved with a neutral stand-in (which the command's
        public answer replaces later, or which is removed when the command ends without one). Raises
        ``discord.HTTPException`` when Discord refuses."""
        async with self.lock:
            if self.loading and not self.used:
                await self.interaction.edit_original_response(content=STAND_IN)
            self.loading = False

    async def take_placeholder(self) -> bool:
        """Claim the command's public placeholder for its public answer; False when it was already used."""
        async with self.lock:
            if self.used:
                return False
            self.used = True
            self.loading = False
            return True


class Receiver(Protocol):
    """Where the persistent components hand their presses (``bot.discord.client.TableClient``)."""

    async def on_payload(self, interaction: discord.Interaction[Any], payload: str) -> None: ...

    async def on_start(self, interaction: discord.Interaction[Any], start_payload: str) -> None: ...

    async def on_launch(self, interaction: discord.Interaction[Any]) -> None: ...


def user_of(interaction: discord.Interaction[Any]) -> User:
    u = interaction.user
    return User(PLATFORM, str(u.id), u.display_name, str(interaction.locale))


def chat_of(interaction: discord.Interaction[Any]) -> Chat | None:
    if interaction.guild_id is None or interaction.channel_id is None:
        return None
    channel = interaction.channel
    title = getattr(channel, "name", "") or ""
    language = str(interaction.guild_locale) if interaction.guild_locale else None
    return Chat(PLATFORM, str(interaction.channel_id), None, title, language, guild=interaction.guild_id)


def sent_to(message: discord.Message | None) -> str | None:
    """The user Discord says a message was sent to: the user of the interaction it answers (None for a message
    that answers none, e.g. a channel message)."""
    metadata = getattr(message, "interaction_metadata", None)
    user = getattr(metadata, "user", None)
    return None if user is None else str(user.id)


def message_of(interaction: discord.Interaction[Any]) -> MessageRef | None:
    m = interaction.message
    if m is None:
        return None
    return MessageRef(PLATFORM, str(m.channel.id), str(m.id), extra="e" if m.flags.ephemeral else "")


class LiveInteractions:
    """Each user's latest interaction (private messages reach him through it) and, for each ephemeral message,
    the latest press made on it (its token can edit that message) and the user it was sent to. Interactions older
    than a token's life go."""

    def __init__(self, clock: Callable[[], float]) -> None:
        self.clock = clock
        self._latest: dict[str, Handle] = {}  # user id -> his latest interaction (any command or press)
        self._presses: dict[str, Handle] = {}  # ephemeral message id -> the latest press made on it
        self._owners: OrderedDict[str, str] = OrderedDict()  # ephemeral message id -> the user it was sent to

    def sent(self, message_id: str, user_id: str) -> None:
        """The port sent (or showed anew in) this ephemeral message to this user."""
        self._owners[message_id] = user_id
        self._owners.move_to_end(message_id)
        while len(self._owners) > OWNERS_KEPT:
            self._owners.popitem(last=False)

    def owner(self, message_id: str, message: discord.Message | None = None) -> str | None:
        """The user an ephemeral message was sent to: as this worker recorded it when it sent it, else (a message of
        before a restart) as Discord says with the message; None when neither knows."""
        return self._owners.get(message_id) or sent_to(message)

    def remember_user(self, user_id: str, handle: Handle) -> None:
        """The user's latest interaction: private messages can reach him through it for 15 minutes."""
        known = self._latest.get(user_id)
        if known is None or known.received <= handle.received:
            self._latest[user_id] = handle
        if len(self._latest) > 10_000:
            now = self.clock()
            for uid in [u for u, h in self._latest.items() if now > h.received + TOKEN_LIFETIME]:
                del self._latest[uid]

    def remember_press(self, message_id: str, handle: Handle) -> None:
        """A press on an ephemeral message sent to the presser (``owner``): its token can edit that message for the
        next 15 minutes."""
        known = self._presses.get(message_id)
        if known is None or known.received <= handle.received:
            self._presses[message_id] = handle
        now = self.clock()
        for mid in [m for m, h in self._presses.items() if now > h.received + TOKEN_LIFETIME]:
            del self._presses[mid]

    def latest(self, user_id: str) -> Handle | None:
        return self._latest.get(user_id)

    def press_on(self, message_id: str) -> Handle | None:
        return self._presses.get(message_id)
