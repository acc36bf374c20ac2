"""Users and chats as the application knows them: their stored records (created on first sight, cached), their
languages, and how a table is named to them."""

from __future__ import annotations

from bot import texts
from bot.app.context import Context
from bot.port import Chat, User
from bot.storage import ChatRec, TableRec, UserRec
from core.i18n import normalize, t


class People:
    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx

    async def user_rec(self, user: User) -> UserRec:
        """The stored user (created on first sight, renamed when the platform name changed); cached."""
        key = (user.platform, user.id)
        name = user.name[:64] or user.id
        rec = self.ctx.users.get(key)
        if rec is not None and rec.name == name:
            return rec
        rec = await self.ctx.storage.user(user.platform, user.id, name)
        if rec.language is None and user.language:
            rec = await self.ctx.storage.set_user_language(rec.id, normalize(user.language))
        self.ctx.users[key] = rec
        return rec

    async def chat_rec(self, chat: Chat, user: User | None = None) -> ChatRec:
        """The stored chat or topic (created on first sight, its title and guild kept current); cached."""
        key = (chat.platform, chat.id, chat.thread)
        title = chat.title[:128]
        cached = self.ctx.chat_keys.get(key)
        if cached is not None:
            rec = self.ctx.chats.get(cached)
            if rec is not None and rec.title == title and chat.guild in (None, rec.guild):
                return rec
        rec = await self.ctx.storage.chat(chat.platform, chat.id, chat.thread, title, guild=chat.guild)
        if rec.language is None:
            hint = chat.language or (user.language if user is not None else None)
            if hint:
                rec = await self.ctx.storage.set_chat_language(rec.id, normalize(hint))
        self.ctx.chats[rec.id] = rec
        self.ctx.chat_keys[key] = rec.id
        return rec

    async def chat_by_id(self, chat_id: int) -> ChatRec:
        rec = self.ctx.chats.get(chat_id)
        if rec is None:
            rec = self.ctx.chats[chat_id] = await self.ctx.storage.get_chat(chat_id)
        return rec

    def lang_for(self, chat: ChatRec | None, user: UserRec, platform_user: User | None = None) -> str:
        if chat is not None:
            return normalize(chat.language or user.language or (platform_user.language if platform_user else None))
        return self.user_lang(user, platform_user)

    def user_lang(self, user: UserRec | None, platform_user: User | None = None) -> str:
        return normalize((user.language if user else None) or (platform_user.language if platform_user else None))

    def chat_lang(self, chat: ChatRec) -> str:
        return normalize(chat.language)

    def where(self, rec: TableRec, chat: ChatRec, lang: str) -> str:
        title = chat.title or t(lang, "your group")
        return f"{texts.game_name(rec.game, lang)} #{rec.id} · {title}"
