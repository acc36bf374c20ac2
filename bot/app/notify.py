""" "Call me when a table opens" (``notify on`` / ``notify off``, per chat): when a table opens in a chat, each of its
subscribers gets one private message with a **Join** button — at most one per table (claimed in the database, so
across workers too), none to the host, none to someone seated at another open table (a daily deal played alone
does not count). Sent in the outbox, never holding the ``new`` that opened the table."""

from __future__ import annotations

import logging

from bot import payloads, texts
from bot.app.context import Context
from bot.app.lobby import Lobby
from bot.app.people import People
from bot.app.publishing import Publishing
from bot.notice import Notice
from bot.port import Button, Command, Message, Unreachable
from bot.solo import base_platform
from bot.storage import ChatRec, TableRec, UserRec
from core.i18n import t

log = logging.getLogger(__name__)


class Notify:
    def __init__(self, ctx: Context, people: People, publishing: Publishing, lobby: Lobby) -> None:
        self.ctx = ctx
        self.people = people
        self.publishing = publishing

    async def cmd_notify(self, cmd: Command, user: UserRec, chat: ChatRec | None, lang: str) -> None:
        """``notify on`` / ``notify off`` in a group; ``notify`` alone says which it is."""
        plang = self.people.user_lang(user, cmd.user)
        if chat is None or base_platform(chat.platform) is not None:
            raise Notice(t(lang, "Ask for it in a group: type /notify on there."))
        wanted = cmd.args.strip().lower()
        if wanted not in ("", "on", "off"):
            raise Notice(t(lang, "Type /notify on or /notify off."))
        where = chat.title or t(plang, "your group")
        if wanted:
            await self.ctx.storage.set_notify(chat.id, user.id, wanted == "on")
        on = await self.ctx.storage.notify_on(chat.id, user.id) if not wanted else wanted == "on"
        if on:
            text = t(plang, "🔔 I will write to you when a table opens in {chat}. /notify off stops it.", chat=where)
        else:
            text = t(plang, "🔕 No messages when a table opens in {chat}. /notify on asks for them.", chat=where)
        await self.publishing.tell(cmd.user, cmd.chat, Message(text), via=cmd)

    def table_opened(self, rec: TableRec) -> None:
        self.ctx.outbox.append(("notify", rec.id), lambda: self.tell_subscribers(rec))

    async def tell_subscribers(self, rec: TableRec) -> None:
        chat = await self.people.chat_by_id(rec.chat_id)
        host = next((s.user.name for s in rec.seats if s.user_id == rec.host_user_id and s.user), "—")
        for user in await self.ctx.storage.free_subscribers(rec.chat_id):
            if user.id == rec.host_user_id or self.ctx.seat_of(rec, user.id) is not None:
                continue
            if not await self.ctx.storage.claim_notice(rec.id, user.id):
                continue  # told already (by this worker or another)
            lang = self.people.user_lang(user)
            text = t(
                lang,
                "🔔 {host} opened a table of {game} in {chat}: join?",
                host=host,
                game=texts.game_name(rec.game, lang),
                chat=chat.title or t(lang, "your group"),
            )
            join = Button(t(lang, "Join"), payloads.make("join", table=rec.id), style="primary")
            try:
                await self.publishing.send_private(self.ctx.user_value(user), Message(text, buttons=((join,),)))
            except Unreachable:
                log.info("a subscriber could not be told of table %s", rec.id)
