"""A table one person plays alone in private (the chat's daily deal): its chat record stands for his private chat.

Such a chat is stored with the platform ``<platform>:solo`` and the person's platform id (``solo_platform``);
``bot.app.context.Context.port_for`` hands out a ``PrivateRoute`` for it, which sends what the application would
post in a group (the table message, the round's sheet) to that person privately instead: the bot's private chat
on Telegram, an ephemeral message on Discord, the playground's private pane. Everything else of a table (moves,
hands, computer seats, restarts) works as at any other table.
"""

from __future__ import annotations

import json

from bot.port import Chat, Command, Message, MessageGone, MessageRef, Port, Press, PrivateStart, Stale, User

SUFFIX = ":solo"


def solo_platform(platform: str) -> str:
    """The chat platform of a private table on ``platform``."""
    return platform + SUFFIX


def base_platform(platform: str) -> str | None:
    """The real platform of a private table's chat platform (None: not a private table's)."""
    return platform[: -len(SUFFIX)] if platform.endswith(SUFFIX) else None


class PrivateRoute:
    """The ``Port`` of private tables on one platform: public writes go to the chat's person, privately.

    A public message's reference keeps the private message's own reference in ``extra`` and the person's id in
    ``chat_id``, so an edit (also after a restart) reaches the same private message."""

    def __init__(self, inner: Port, platform: str) -> None:
        self.inner = inner
        self.base = platform
        self.platform = solo_platform(platform)

    def _person(self, user_id: str) -> User:
        return User(self.base, user_id, "")

    def _wrap(self, user_id: str, ref: MessageRef) -> MessageRef:
        return MessageRef(self.platform, user_id, ref.message_id, None, json.dumps(ref.to_json()))

    @staticmethod
    def _inner(ref: MessageRef) -> MessageRef | None:
        try:
            return MessageRef.from_json(json.loads(ref.extra))
        except ValueError:
            return None

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
        old = None if replaces is None else self._inner(replaces)
        ref = await self.inner.send_private(self._person(chat.id), msg, version=version, replaces=old, retired=retired)
        return self._wrap(chat.id, ref)

    async def edit_public(self, ref: MessageRef, msg: Message, *, version: int | None = None) -> MessageRef:
        person = self._person(ref.chat_id)
        inner = self._inner(ref)
        if inner is not None:
            try:
                return self._wrap(ref.chat_id, await self.inner.edit_private(person, inner, msg, version=version))
            except Stale:
                return ref  # it shows a newer table already
            except MessageGone:
                pass  # deleted, or too old to edit: shown anew
        return self._wrap(ref.chat_id, await self.inner.send_private(person, msg, version=version))

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
        return await self.inner.send_private(user, msg, via=via, version=version, replaces=replaces, retired=retired)

    async def edit_private(
        self, user: User, ref: MessageRef, msg: Message, *, version: int | None = None
    ) -> MessageRef:
        return await self.inner.edit_private(user, ref, msg, version=version)

    async def record_of(self, ref: MessageRef) -> tuple[int | None, str]:
        record_of = getattr(self.inner, "record_of", None)
        return (None, "") if record_of is None else await record_of(ref)

    async def answer(self, press: Press, text: str | None = None, *, alert: bool = False) -> None:
        await self.inner.answer(press, text, alert=alert)

    async def invite_private(
        self, chat: Chat, user: User, msg: Message, start_payload: str, *, label: str | None = None
    ) -> MessageRef | None:
        return None  # a private table's person started it from a button: there is no group to invite him in
