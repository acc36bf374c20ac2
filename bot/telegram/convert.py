"""Telegram objects as the application's neutral values (``bot.port``): users, chats, message references."""

from __future__ import annotations

from typing import Protocol

from aiogram.types import Chat as TgChat
from aiogram.types import InaccessibleMessage
from aiogram.types import Message as TgMessage
from aiogram.types import User as TgUser

from bot.port import Chat, Command, MessageRef, Press, PrivateStart, User
from bot.telegram.port import PLATFORM


class Application(Protocol):
    """The part of ``bot.app.Application`` the handlers call."""

    async def command(self, cmd: Command) -> None: ...

    async def press(self, press: Press) -> None: ...

    async def private_start(self, start: PrivateStart) -> None: ...


def user_of(u: TgUser) -> User:
    return User(PLATFORM, str(u.id), u.full_name, u.language_code)


def chat_of(chat: TgChat, message: TgMessage | InaccessibleMessage | None = None) -> Chat | None:
    """The group (with its forum topic), or None for the private chat with the bot."""
    if chat.type == "private":
        return None
    thread = None
    if isinstance(message, TgMessage) and message.is_topic_message and message.message_thread_id:
        thread = str(message.message_thread_id)
    return Chat(PLATFORM, str(chat.id), thread, chat.title or "")


def ref_of(message: TgMessage) -> MessageRef:
    """The message a button was on. What it shows: a photo of a picture we do not know yet, or text."""
    thread = str(message.message_thread_id) if message.is_topic_message and message.message_thread_id else None
    extra = "photo:" if message.photo else ("document" if message.document else "text")
    return MessageRef(PLATFORM, str(message.chat.id), str(message.message_id), thread, extra)
