"""``DiscordPort``: the application's ``Port`` on Discord.

* Public messages are channel messages. The first public answer to a slash command replaces the command's
  "thinking…" placeholder (so the channel shows who ran it); any other is sent to the channel. Either kind
  is edited later through the channel endpoint with the bot token, which works for as long as the message
  exists, also after a restart. Edits go through ``EditQueue`` (one per second per channel, latest wins); a
  message deleted meanwhile is sent again and the new reference is returned from then on.
* Private messages are ephemeral messages: they need the user's own interaction (a slash command, a press,
  the invitation's button) and can be edited only with an interaction token, which lives 15 minutes. The
  reference keeps the token it was sent with (``extra``); a later press on the message itself gives a
  fresher one, remembered in memory. ``send_private`` through a press made on the user's own ephemeral
  message shows the new content in place of that message (one message per hand, not a new one per move).
  When no live token is left, ``Unreachable`` is raised and the user
  gets his view again with his next press ("Show my hand"). Whom each ephemeral message was sent to is recorded
  (``LiveInteractions.sent``): the client refuses a press on another user's, and a message is shown in place of a
  pressed one only when it was sent to that user.
* Order (issue 36): every table message and hand written here records the table version and fingerprint it
  shows (``bot.written``); an older write is not made, nor one that changes nothing. A hand shown anew leaves a
  forward from the old message, so a later edit of the old one is made to the new one; the old one is retired.
  (A Discord worker edits a user's ephemeral messages only through interactions it received itself, so these
  records live in its memory.)
* ``shards``: the part of Discord's guilds this worker serves (``bot.port.Sharded``), so that the application
  leaves the timers and computer seats of other guilds' tables to the worker that holds their interactions.
* ``answer`` sends the press's notice as an ephemeral message (Discord has no toasts); a press without a
  notice needs nothing more, it was acknowledged when it arrived.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

import discord

from bot.discord import texts
from bot.discord.client import TableClient
from bot.discord.interactions import PLATFORM, TOKEN_LIFETIME, Handle
from bot.discord.items import StartButton, build_view
from bot.discord.layout import MAX_CONTENT, clip, files, plan_rows, text_parts
from bot.discord.limiter import EditQueue
from bot.port import (
    Chat,
    Command,
    Message,
    MessageGone,
    MessageRef,
    Press,
    PrivateStart,
    Shards,
    Stale,
    Unreachable,
    User,
)
from bot.written import Written

log = logging.getLogger(__name__)

TOKEN_MARGIN = 30.0  # stop using a token this long before Discord does
INVALID_WEBHOOK_TOKEN = 50027


def _handle(via: Any) -> Handle | None:
    handle = getattr(via, "handle", None)
    return handle if isinstance(handle, Handle) else None


class DiscordPort:
    """The ``bot.port.Port`` of Discord, sending through a ``TableClient``."""

    platform = PLATFORM

    def __init__(self, client: TableClient, *, edit_interval: float = 1.0, clock: Callable[[], float] | None = None):
        self.client = client
        self.live = client.live  # the users' interactions, recorded by the client as they arrive
        self.clock = clock or client.clock or time.time
        self.edits = EditQueue(self._edit_now, edit_interval)
        self._moved: dict[str, MessageRef] = {}  # message id -> the message that shows its content now
        self.written = Written()  # message id -> the table version and fingerprint it shows
        self._invites: dict[tuple[str, str], tuple[MessageRef, list[str], list[str]]] = {}

    @property
    def shards(self) -> Shards | None:
        """The shards this worker connects (``DISCORD_SHARD_IDS`` of ``DISCORD_SHARD_COUNT``); None: all of them."""
        ids, count = self.client.shard_ids, self.client.shard_count
        if ids is None or not count:
            return None
        return Shards(count, frozenset(ids))

    # ------------------------------------------------------------------ helpers

    def _messageable(self, chat_id: str) -> discord.PartialMessageable:
        return self.client.get_partial_messageable(int(chat_id))

    def _view(self, msg: Message, extra: list[discord.ui.Item[Any]] | None = None) -> discord.ui.View | None:
        rows = plan_rows(msg.buttons)
        if not rows and not extra:
            return None
        return build_view(rows, extra, activity=self.client.web_activity)

    def _alive(self, received: float) -> bool:
        return self.clock() < received + TOKEN_LIFETIME - TOKEN_MARGIN

    def current(self, ref: MessageRef) -> MessageRef:
        """The reference that shows ``ref``'s content now (after re-sends)."""
        while ref.message_id in self._moved:
            ref = self._moved[ref.message_id]
        return ref

    async def _send_channel(self, chat_id: str, msg: Message) -> discord.Message:
        content, embed = text_parts(msg)
        view = self._view(msg)
        kwargs: dict[str, Any] = {"files": files(msg)}
        if embed is not None:
            kwargs["embed"] = embed
        if view is not None:
            kwargs["view"] = view
        return await self._messageable(chat_id).send(content or None, **kwargs)

    @staticmethod
    def _edit_kwargs(msg: Message, view: discord.ui.View | None) -> dict[str, Any]:
        content, embed = text_parts(msg)
        return {
            "content": content,
            "embeds": [embed] if embed is not None else [],
            "attachments": files(msg),
            "view": view,
        }

    # ------------------------------------------------------------------ public messages

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
        old = self._replacing(replaces, version)
        handle = _handle(reply_to)
        new: MessageRef | None = None
        if handle is not None and self._alive(handle.received) and await handle.take_placeholder():
            try:
                sent: discord.Message = await handle.interaction.edit_original_response(
                    **self._edit_kwargs(msg, self._view(msg))
                )
                new = MessageRef(PLATFORM, str(sent.channel.id), str(sent.id))
            except discord.HTTPException:
                log.warning("could not answer /%s in place; sending to the channel", reply_to and reply_to.name)
        if new is None:
            sent = await self._send_channel(chat.id, msg)
            new = MessageRef(PLATFORM, str(sent.channel.id), str(sent.id), chat.thread)
        self.written.record(new.message_id, msg, version)
        if old is not None and old.message_id != new.message_id:
            self._moved[old.message_id] = new
            if retired is not None:  # through the channel's queue, to this very message (not followed)
                self.edits.submit(old, retired, follow=False)
        return new

    def _replacing(self, replaces: MessageRef | None, version: int | None) -> MessageRef | None:
        """The message a new one is shown in place of (after forwards); ``Stale`` when it shows a newer version."""
        if replaces is None:
            return None
        old = self.current(replaces)
        self.written.news(old.message_id, None, version)
        return old

    async def edit_public(self, ref: MessageRef, msg: Message, *, version: int | None = None) -> MessageRef:
        ref = self.current(ref)
        self.edits.submit(ref, msg, version=version)
        return ref

    async def _edit_now(self, ref: MessageRef, msg: Message, version: int | None = None, follow: bool = True) -> None:
        if follow:
            ref = self.current(ref)
        try:
            if not self.written.news(ref.message_id, msg, version):
                return
        except Stale:
            return  # the message shows a newer table already
        try:
            await (
                self._messageable(ref.chat_id)
                .get_partial_message(int(ref.message_id))
                .edit(**self._edit_kwargs(msg, self._view(msg)))
            )
            self.written.record(ref.message_id, msg, version)
        except discord.NotFound:
            if not follow:
                return  # a retired message that is gone needs nothing
            sent = await self._send_channel(ref.chat_id, msg)
            self._moved[ref.message_id] = MessageRef(PLATFORM, ref.chat_id, str(sent.id), ref.thread)
            self.written.record(str(sent.id), msg, version)
            log.info("message %s was gone; its content is now message %s", ref.message_id, sent.id)

    async def flush(self) -> None:
        """Wait until every coalesced table edit has been made."""
        await self.edits.flush()

    # ------------------------------------------------------------------ private (ephemeral) messages

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
        old = self._replacing(replaces, version)
        new = await self._send_private(user, msg, via)
        self.written.record(new.message_id, msg, version)
        if old is not None and old.message_id != new.message_id:
            self._moved[old.message_id] = new
            if retired is not None:
                try:
                    await self._edit_private(user, old, retired)
                except (Unreachable, MessageGone) as exc:  # best effort: its token may have expired
                    log.info("hand message %s not retired: %s", old.message_id, exc)
        return new

    async def _send_private(self, user: User, msg: Message, via: Press | Command | PrivateStart | None) -> MessageRef:
        handle = _handle(via)
        if handle is None or str(handle.interaction.user.id) != user.id or not self._alive(handle.received):
            handle = self.live.latest(user.id)
        if handle is None or str(handle.interaction.user.id) != user.id or not self._alive(handle.received):
            raise Unreachable(f"no live interaction of user {user.id} to answer through")
        pressed = via.message if isinstance(via, Press) else None
        mine = pressed is not None and self.live.owner(pressed.message_id, handle.interaction.message) == user.id
        if pressed is not None and pressed.extra == "e" and mine and not handle.used:
            # a press on the user's own ephemeral message: show the new content in place of it
            handle.used = True
            try:
                await handle.interaction.edit_original_response(**self._edit_kwargs(msg, self._view(msg)))
            except discord.HTTPException as exc:
                raise Unreachable(str(exc)) from exc
            self.live.remember_press(pressed.message_id, handle)
            self.live.sent(pressed.message_id, user.id)
            extra = f"{handle.received:.3f}|{handle.interaction.token}|original"
            return MessageRef(PLATFORM, pressed.chat_id, pressed.message_id, extra=extra)
        content, embed = text_parts(msg)
        kwargs: dict[str, Any] = {"files": files(msg), "ephemeral": True, "wait": True}
        try:
            await handle.open_followups()  # else a command's public "thinking…" would become this private message
        except discord.HTTPException as exc:
            raise Unreachable(str(exc)) from exc
        if embed is not None:
            kwargs["embed"] = embed
        view = self._view(msg)
        if view is not None:
            kwargs["view"] = view
        try:
            sent = await handle.interaction.followup.send(content, **kwargs)
        except discord.HTTPException as exc:
            raise Unreachable(str(exc)) from exc
        channel_id = handle.interaction.channel_id or sent.channel.id
        self.live.sent(str(sent.id), user.id)
        extra = f"{handle.received:.3f}|{handle.interaction.token}"
        return MessageRef(PLATFORM, str(channel_id), str(sent.id), extra=extra)

    async def edit_private(
        self, user: User, ref: MessageRef, msg: Message, *, version: int | None = None
    ) -> MessageRef:
        ref = self.current(ref)
        if not self.written.news(ref.message_id, msg, version):
            return ref
        ref = await self._edit_private(user, ref, msg)
        self.written.record(ref.message_id, msg, version)
        return ref

    async def _edit_private(self, user: User, ref: MessageRef, msg: Message) -> MessageRef:
        kwargs = self._edit_kwargs(msg, self._view(msg))
        press = self.live.press_on(ref.message_id)
        if press is not None and self._alive(press.received) and str(press.interaction.user.id) == user.id:
            try:
                await press.interaction.edit_original_response(**kwargs)
                return ref
            except discord.NotFound as exc:
                raise MessageGone(str(exc)) from exc
            except discord.HTTPException as exc:
                if exc.code != INVALID_WEBHOOK_TOKEN:
                    raise Unreachable(str(exc)) from exc
        received_text, _, token = ref.extra.partition("|")
        token, _, original = token.partition("|")
        try:
            received = float(received_text)
        except ValueError:
            raise Unreachable("the message was not sent through an interaction") from None
        if original:
            # shown in place of a pressed message: only that press's live interaction could edit it
            raise Unreachable("the press that showed this message is no longer known")
        if not token or not self._alive(received):
            raise Unreachable("the interaction token of this message has expired")
        application_id = self.client.application_id
        if application_id is None:
            raise Unreachable("not logged in")
        webhook = discord.Webhook.partial(application_id, token, client=self.client)
        try:
            await webhook.edit_message(int(ref.message_id), **kwargs)
        except discord.NotFound as exc:
            raise MessageGone(str(exc)) from exc
        except discord.HTTPException as exc:
            raise Unreachable(str(exc)) from exc
        return ref

    async def answer(self, press: Press, text: str | None = None, *, alert: bool = False) -> None:
        handle = _handle(press)
        if handle is None or not text:
            return
        await self.client.tell(handle, text)

    async def invite_private(
        self, chat: Chat, user: User, msg: Message, start_payload: str, *, label: str | None = None
    ) -> MessageRef | None:
        """A channel message mentioning the user, with a button that shows him his private view.

        Invitations to the same table (same start payload) in one channel share one message: a second user
        is added to it (his mention and the application's line for him) instead of a new message each."""
        lang = chat.language or user.language  # one message for everyone invited: the channel's language
        key = (chat.id, start_payload)
        known = self._invites.get(key)
        mentions, lines = ([], []) if known is None else (known[1], known[2])
        if user.id not in mentions:
            mentions.append(user.id)
            lines.append(msg.text)
        content = clip(" ".join(f"<@{uid}>" for uid in mentions) + "\n" + "\n".join(lines), MAX_CONTENT)
        view = self._view(msg, [StartButton.make(label or texts.open_hand(lang), start_payload)])
        mentions_allowed = discord.AllowedMentions(users=True, everyone=False, roles=False)
        if known is not None:
            try:
                await (
                    self._messageable(chat.id)
                    .get_partial_message(int(known[0].message_id))
                    .edit(content=content, view=view, allowed_mentions=mentions_allowed)
                )
                self._invites[key] = (known[0], mentions, lines)
                return known[0]
            except discord.NotFound:
                pass
        sent = await self._messageable(chat.id).send(
            content, files=files(msg), view=view, allowed_mentions=mentions_allowed
        )
        ref = MessageRef(PLATFORM, str(sent.channel.id), str(sent.id), chat.thread)
        self._invites[key] = (ref, mentions, lines)
        return ref

    async def close(self) -> None:
        await self.edits.close()
