"""``TelegramPort``: the application's ``bot.port.Port`` on the Telegram Bot API (aiogram 3).

Public messages go to the group (or forum topic) as a photo with a caption or as text, with inline buttons.
Table edits are queued per message and made in the background, so a press is answered without waiting for
the group: while one edit waits for the chat's turn (``bot.telegram.flood``), a newer one replaces it, so the
latest picture always wins and a move never costs more than one group edit.
Private messages go to the user's chat with the bot; Telegram answers 403 until he has pressed Start, which
becomes ``Unreachable``. A message that was deleted is posted again and later edits follow it there.

What a ``MessageRef`` carries: ``chat_id``, ``message_id``, ``thread`` (forum topic) and in ``extra`` what the
message shows (``photo:<hash>``, ``text`` or ``document``), so that the right edit method is used after a
restart; the coordinator keeps the newest of this, and where a re-posted message went, for every worker.

Order across workers (issue 36): every write reads, inside the chat's write slot (which no other worker's write
to that chat can share), where the message went and what it holds (``bot.written``: the table version and a
fingerprint), and is not sent when it is older (``Stale``) or changes nothing; what it showed is recorded before
the slot is given back. A hand shown anew posts the new message and leaves the forward from the old one in the
same slot, so another worker's edit of the old message, whenever it comes, is made to the new one; the old one
is retired after.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
from collections import OrderedDict
from dataclasses import replace

from aiogram import Bot
from aiogram.exceptions import (
    TelegramAPIError,
    TelegramBadRequest,
    TelegramForbiddenError,
    TelegramNetworkError,
    TelegramRetryAfter,
)
from aiogram.types import (
    BufferedInputFile,
    InlineKeyboardMarkup,
    InlineQueryResultArticle,
    InputMediaPhoto,
    InputTextMessageContent,
    ReplyParameters,
)
from aiogram.types import Message as TgMessage

from bot import written
from bot.port import (
    MAX_CAPTION,
    MAX_TEXT,
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
from bot.telegram import texts
from bot.telegram.flood import MAX_ATTEMPTS, FloodControl
from bot.telegram.keyboards import deep_link, markup

log = logging.getLogger(__name__)

PLATFORM = "telegram"
MAX_ANSWER = 200  # characters of a callback answer
ANSWERED_KEPT = 4096  # callback query ids remembered as answered (a second answer is dropped)
FILE_CACHE = 512  # pictures whose Telegram file_id is remembered (sent again without uploading)
CLOSE_WAIT = 10.0  # seconds a closing port shows its queued table edits for (a group's window may hold them a minute)


def clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def digest(data: bytes) -> str:
    return hashlib.blake2b(data, digest_size=10).hexdigest()


def shows(msg: Message) -> str:
    """What a message shows, as kept in ``MessageRef.extra``."""
    if msg.document is not None:
        return "document"
    if msg.image is not None:
        return f"photo:{digest(msg.image)}"
    return "text"


def key_of(ref: MessageRef) -> str:
    return f"{ref.chat_id}:{ref.message_id}"


class _Repost(Exception):
    """The message cannot be edited into the new content (gone, or another kind): post it again."""

    def __init__(self, delete_old: bool) -> None:
        self.delete_old = delete_old


class TelegramPort:
    platform = PLATFORM

    def __init__(self, bot: Bot, flood: FloodControl, *, username: str = "") -> None:
        self.bot = bot
        self.flood = flood
        self.coordinator = flood.coordinator
        self.username = username
        self.webapp_name: str | None = None  # the Mini App's short name (TELEGRAM_WEBAPP_NAME): direct links
        self._file_ids: OrderedDict[str, str] = OrderedDict()
        self._pending: dict[str, tuple[int, int | None, Message]] = {}  # message -> (order, version, content)
        self._lanes: dict[str, asyncio.Task] = {}
        self._answered: OrderedDict[str, None] = OrderedDict()  # callback queries answered here, newest last
        self._answer_watch: dict[str, asyncio.Event] = {}
        self.edits_coalesced = 0
        self.writes_unchanged = 0  # writes not sent: the message showed that content already
        self.writes_stale = 0  # writes not sent: the message showed a newer table version

    async def open(self) -> None:
        """Learn the bot's username (for deep links and ``/cmd@bot``)."""
        me = await self.flood.request(self.bot.me)
        self.username = me.username or self.username

    async def close(self) -> None:
        """Show the edits still waiting for their turn, for ``CLOSE_WAIT`` at most (an edit a group's window holds
        longer is left: the next worker to write shows the table's current version), then stop (renewing no write
        slot any more)."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.idle(), CLOSE_WAIT)
        for lane in list(self._lanes.values()):
            lane.cancel()
        await asyncio.gather(*list(self._lanes.values()), return_exceptions=True)
        self.flood.close()
        await self.coordinator.close()

    async def idle(self) -> None:
        """Wait until every queued table edit has been shown (or dropped for a newer one)."""
        while self._lanes:
            await asyncio.gather(*list(self._lanes.values()), return_exceptions=True)

    # ------------------------------------------------------------------------------------------ sending
    def _photo(self, msg: Message) -> BufferedInputFile | str:
        assert msg.image is not None
        file_id = self._file_ids.get(digest(msg.image))
        return file_id or BufferedInputFile(msg.image, filename=msg.image_name)

    def _learn_file(self, msg: Message, sent: TgMessage) -> None:
        if msg.image is not None and sent.photo:
            self._file_ids[digest(msg.image)] = sent.photo[-1].file_id
            while len(self._file_ids) > FILE_CACHE:
                self._file_ids.popitem(last=False)

    def _markup(self, msg: Message, chat_id: str) -> InlineKeyboardMarkup | None:
        """The message's keyboard for that chat (a private chat's id is the user's, positive; a group's negative)."""
        app = (self.username, self.webapp_name) if self.username and self.webapp_name else None
        return markup(msg.buttons, private=int(chat_id) > 0, app=app)

    async def _post(self, chat_id: str, msg: Message, thread: str | None, reply_to: int | None) -> TgMessage:
        """One ``sendMessage`` / ``sendPhoto`` / ``sendDocument``, no limiter (the caller holds the turn)."""
        kb = self._markup(msg, chat_id)
        common = {
            "chat_id": int(chat_id),
            "reply_markup": kb,
            "message_thread_id": int(thread) if thread else None,
            "reply_parameters": ReplyParameters(message_id=reply_to, allow_sending_without_reply=True)
            if reply_to
            else None,
        }
        if msg.document is not None:
            doc = BufferedInputFile(msg.document.data, filename=msg.document.filename)
            return await self.bot.send_document(document=doc, caption=clip(msg.text, MAX_CAPTION) or None, **common)
        if msg.image is not None:
            sent = await self.bot.send_photo(photo=self._photo(msg), caption=clip(msg.text, MAX_CAPTION), **common)
            self._learn_file(msg, sent)
            return sent
        return await self.bot.send_message(text=clip(msg.text, MAX_TEXT), **common)

    async def _remember(self, sent: TgMessage, msg: Message, thread: str | None, version: int | None) -> MessageRef:
        ref = MessageRef(PLATFORM, str(sent.chat.id), str(sent.message_id), thread, shows(msg))
        held = written.pack(version, written.fingerprint(msg))
        await self.coordinator.put_many({"shows:" + key_of(ref): ref.extra, "held:" + key_of(ref): held})
        return ref

    async def _look(self, ref: MessageRef) -> tuple[MessageRef, tuple[int | None, str]]:
        """Where the message is now (after re-posts), what kind it is and what it shows by its record: one round
        trip (more only for a message posted again)."""
        for _ in range(8):
            key = key_of(ref)
            moved, known, held = await self.coordinator.get_many(["moved:" + key, "shows:" + key, "held:" + key])
            if not moved:
                return (replace(ref, extra=known) if known else ref), written.unpack(held)
            ref = replace(ref, message_id=moved)
        return ref, written.unpack(await self.coordinator.get("held:" + key_of(ref)))

    async def _news(
        self, ref: MessageRef, msg: Message | None, version: int | None, held: tuple[int | None, str] | None = None
    ) -> bool:
        """In the chat's turn: whether ``msg`` at ``version`` is news for the message (``bot.written.verdict``;
        ``held``: its record, when just read). When it is not, the turn is given back unused (``Stale`` is raised
        for an older version)."""
        if held is None:
            held = written.unpack(await self.coordinator.get("held:" + key_of(ref)))
        try:
            fresh = written.verdict(held, msg, version)
        except Stale:
            self.writes_stale += 1
            await self.flood.done(ref.chat_id, used=False)
            raise
        if not fresh:
            self.writes_unchanged += 1
            await self.flood.done(ref.chat_id, used=False)
        return fresh

    async def record_of(self, ref: MessageRef) -> tuple[int | None, str]:
        """What the message (followed through its re-posts) shows, by the coordinator's record: no write slot."""
        return (await self._look(ref))[1]

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
        reply = reply_to.handle if reply_to is not None and isinstance(reply_to.handle, int) else None
        return await self._send(chat.id, chat.thread, msg, reply, True, version, replaces, retired)

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
        try:
            return await self._send(user.id, None, msg, None, False, version, replaces, retired)
        except TelegramForbiddenError as e:
            raise Unreachable(e.message) from e
        except TelegramBadRequest as e:
            if "chat not found" in e.message:
                raise Unreachable(e.message) from e
            raise

    async def _send(
        self,
        chat_id: str,
        thread: str | None,
        msg: Message,
        reply: int | None,
        group: bool,
        version: int | None,
        replaces: MessageRef | None,
        retired: Message | None,
    ) -> MessageRef:
        """Post ``msg``; with ``replaces``: in its place, in one turn with the forward from it (``Stale`` when
        it shows a newer version), then the old message is retired into ``retired``."""
        old: MessageRef | None = None

        async def post() -> MessageRef:
            nonlocal old
            if replaces is not None:
                old = await self.current(replaces)
                await self._news(old, None, version)
            new = await self._remember(await self._post(chat_id, msg, thread, reply), msg, thread, version)
            if old is not None and key_of(old) != key_of(new):
                await self.coordinator.put("moved:" + key_of(old), new.message_id)
            return new

        new = await self.flood.write(chat_id, post, group=group)
        if old is not None and retired is not None:
            try:
                await self.flood.write(
                    chat_id, lambda: self._show(old, retired, group=group, follow=False), group=group
                )
            except TelegramAPIError as e:  # best effort: an expired or deleted message needs nothing
                log.info("message %s not retired: %s", key_of(old), e)
        return new

    async def prepare_share(self, user: User, msg: Message) -> str:
        """``savePreparedInlineMessage``: ``msg`` as an article the user can send to any chat from the Mini App
        (``shareMessage``); a ``web_app`` button becomes the Mini App's direct link, as in a group."""
        article = InlineQueryResultArticle(
            id=hashlib.sha256(msg.text.encode()).hexdigest()[:32],
            title=msg.text.split("\n", 1)[0][:64],
            input_message_content=InputTextMessageContent(message_text=msg.text[:MAX_TEXT]),
            reply_markup=self._markup(msg, "-1"),
        )
        try:
            prepared = await self.flood.request(
                lambda: self.bot.save_prepared_inline_message(
                    user_id=int(user.id),
                    result=article,
                    allow_user_chats=True,
                    allow_group_chats=True,
                )
            )
        except (TelegramForbiddenError, TelegramBadRequest) as e:
            raise Unreachable(e.message) from e
        return prepared.id

    async def invite_private(
        self, chat: Chat, user: User, msg: Message, start_payload: str, *, label: str | None = None
    ) -> MessageRef | None:
        label = texts.open_private(user.language or chat.language)
        link = Button(label, url=deep_link(self.username, start_payload), style="primary")
        return await self.send_public(chat, replace(msg, buttons=(*msg.buttons, (link,))))

    async def answer(self, press: Press, text: str | None = None, *, alert: bool = False) -> None:
        """Answer a press once (a second answer of the same query is dropped); never waits for a chat's write
        slot, and never raises: a press Telegram no longer takes an answer for is only logged."""
        query_id = str(press.handle)
        if query_id in self._answered:
            return
        self._answered[query_id] = None
        while len(self._answered) > ANSWERED_KEPT:
            self._answered.popitem(last=False)
        short = clip(text, MAX_ANSWER) if text else None
        try:
            await self.flood.request(
                lambda: self.bot.answer_callback_query(query_id, text=short, show_alert=alert or None)
            )
        except TelegramBadRequest as e:  # too late (over 15 minutes, or after a restart): nothing to answer
            log.info("callback %s not answered: %s", query_id, e.message)
        except TelegramAPIError as e:
            log.warning("callback %s not answered: %s", query_id, e)
        finally:
            watch = self._answer_watch.get(query_id)
            if watch is not None:
                watch.set()

    def watch_answer(self, query_id: str) -> asyncio.Event:
        """An event set once the press ``query_id`` has been answered here (the webhook waits for it)."""
        return self._answer_watch.setdefault(query_id, asyncio.Event())

    def unwatch_answer(self, query_id: str) -> None:
        self._answer_watch.pop(query_id, None)

    # ------------------------------------------------------------------------------------------ editing
    async def current(self, ref: MessageRef) -> MessageRef:
        """The reference after following re-posts (a deleted table message posted again), with its kind."""
        return (await self._look(ref))[0]

    async def _show(
        self, ref: MessageRef, msg: Message, *, group: bool, version: int | None = None, follow: bool = True
    ) -> MessageRef:
        """Edit ``ref`` into ``msg`` (one attempt; the caller holds the chat's turn), or post it again; nothing when
        it shows that already, ``Stale`` when it shows a newer version. ``follow=False``: this very message (an
        old one being retired), never posted again."""
        if follow:
            ref, held = await self._look(ref)
        else:
            held = written.unpack(await self.coordinator.get("held:" + key_of(ref)))
        if not await self._news(ref, msg, version, held):
            return ref
        chat_id, message_id = int(ref.chat_id), int(ref.message_id)
        kb = self._markup(msg, ref.chat_id)
        state = shows(msg)
        try:
            if msg.document is not None or (state == "text") != (ref.extra == "text") or not ref.extra:
                raise _Repost(delete_old=True)
            if state == "text":
                await self.bot.edit_message_text(
                    text=clip(msg.text, MAX_TEXT), chat_id=chat_id, message_id=message_id, reply_markup=kb
                )
            elif state == ref.extra:
                await self.bot.edit_message_caption(
                    caption=clip(msg.text, MAX_CAPTION), chat_id=chat_id, message_id=message_id, reply_markup=kb
                )
            else:
                media = InputMediaPhoto(media=self._photo(msg), caption=clip(msg.text, MAX_CAPTION))
                sent = await self.bot.edit_message_media(
                    media=media, chat_id=chat_id, message_id=message_id, reply_markup=kb
                )
                if isinstance(sent, TgMessage):
                    self._learn_file(msg, sent)
        except TelegramBadRequest as e:
            text = e.message.lower()
            if "not modified" in text:
                self.writes_unchanged += 1
            elif not follow:
                raise
            elif "not found" in text or "message_id_invalid" in text:
                return await self._repost(ref, msg, group=group, delete_old=False, version=version)
            elif "there is no" in text or "can't be edited" in text:
                return await self._repost(ref, msg, group=group, delete_old=True, version=version)
            else:
                raise
        except _Repost as r:
            if not follow:
                return ref
            return await self._repost(ref, msg, group=group, delete_old=r.delete_old, version=version)
        record = written.pack(*written.newer(held, msg, version))
        await self.coordinator.put_many({"shows:" + key_of(ref): state, "held:" + key_of(ref): record})
        return replace(ref, extra=state)

    async def _repost(
        self, ref: MessageRef, msg: Message, *, group: bool, delete_old: bool, version: int | None
    ) -> MessageRef:
        if delete_old:
            with contextlib.suppress(TelegramBadRequest):
                await self.bot.delete_message(int(ref.chat_id), int(ref.message_id))
            await self.flood.turn(ref.chat_id, group=group)
        sent = await self._post(ref.chat_id, msg, ref.thread, None)
        new = await self._remember(sent, msg, ref.thread, version)
        await self.coordinator.put("moved:" + key_of(ref), new.message_id)
        log.info("message %s posted again as %s", key_of(ref), new.message_id)
        return new

    async def edit_public(self, ref: MessageRef, msg: Message, *, version: int | None = None) -> MessageRef:
        ref = await self.current(ref)  # where it is now (a re-post): the caller keeps it, also across restarts
        key = key_of(ref)
        if version is None:  # no table version: the order in which the edits were queued, by any worker
            order = await self.coordinator.bump(key)
        else:  # a table version: the message's record decides, in the chat's turn (``_news``: never older)
            order = version
        if key in self._pending:
            self.edits_coalesced += 1  # the edit still waiting for its turn will show this content instead
        self._pending[key] = (order, version, msg)
        if key not in self._lanes:
            self._lanes[key] = asyncio.create_task(self._drain(key, ref))
        return ref

    async def _superseded(self, key: str, item: tuple[int, int | None, Message]) -> bool:
        """Newer content of this unversioned message was queued (by this worker or another, which will show it);
        a versioned one is never older than its record lets through (``_news``, in the chat's turn)."""
        order, version, _ = item
        return version is None and order < await self.coordinator.latest(key)

    async def _drain(self, key: str, ref: MessageRef) -> None:
        """Show the newest pending content of one table message, one edit per turn, until none is left."""
        failures = 0
        try:
            while key in self._pending:
                if await self._superseded(key, self._pending[key]):
                    del self._pending[key]  # another worker holds newer content and will show it
                    break
                async with self.flood.lock(ref.chat_id):
                    try:  # whatever happens from the turn on (a failed look, a cancellation), the turn ends here
                        await self.flood.turn(ref.chat_id, group=True)
                        item = self._pending.pop(key, None)
                        if item is None or await self._superseded(key, item):
                            await self.flood.done(ref.chat_id, used=False)  # newer content shows elsewhere
                            continue
                        try:
                            ref = await self._show(ref, item[2], group=True, version=item[1])
                        except Stale:
                            pass  # the message shows a newer table already (the turn was given back)
                        except TelegramRetryAfter as e:
                            await self.flood.hold(ref.chat_id, e)
                            self._pending.setdefault(key, item)
                        except TelegramNetworkError:
                            failures += 1
                            if failures >= MAX_ATTEMPTS:
                                raise
                            self._pending.setdefault(key, item)
                            await asyncio.sleep(0.2 * failures)
                    finally:
                        await self.flood.done(ref.chat_id)
        except Exception:  # noqa: BLE001 - nobody waits for a queued edit: the log is where it goes
            self._pending.pop(key, None)
            log.exception("table edit of %s failed", key)
        finally:
            self._lanes.pop(key, None)

    async def edit_private(
        self, user: User, ref: MessageRef, msg: Message, *, version: int | None = None
    ) -> MessageRef:
        try:
            return await self.flood.write(
                ref.chat_id, lambda: self._show(ref, msg, group=False, version=version), group=False
            )
        except TelegramForbiddenError as e:
            raise Unreachable(e.message) from e
        except TelegramBadRequest as e:
            raise MessageGone(e.message) from e
