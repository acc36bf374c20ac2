"""Inline button presses as ``bot.port.Press`` (the payload unchanged). Presses of buttons that are not ours
(forged or foreign callback data), and presses on a message of another user's private chat (a private message counts
only for the user it was sent to: the private chat's id is his), are answered here, in the user's language, and never
reach the application."""

from __future__ import annotations

from aiogram import Router
from aiogram.types import CallbackQuery
from aiogram.types import Message as TgMessage

from bot.port import Press
from bot.telegram import texts
from bot.telegram.callbacks import unpack
from bot.telegram.convert import Application, chat_of, ref_of, user_of
from bot.telegram.port import TelegramPort


async def on_press(query: CallbackQuery, app: Application, port: TelegramPort) -> None:
    payload = unpack(query.data)
    user = user_of(query.from_user)
    if payload is None:
        await port.answer(
            Press(user, None, query.data or "", handle=query.id), texts.unknown_button(user.language), alert=True
        )
        return
    message = query.message
    if message is not None and message.chat.type == "private" and message.chat.id != query.from_user.id:
        # a message of another user's private chat with the bot (a forged callback): sent to him, not to the presser
        await port.answer(
            Press(user, None, query.data or "", handle=query.id), texts.not_yours(user.language), alert=True
        )
        return
    chat = chat_of(message.chat, message) if message is not None else None
    ref = ref_of(message) if isinstance(message, TgMessage) else None
    await app.press(Press(user, chat, payload, ref, handle=query.id, key=query.id))


def make_router() -> Router:
    router = Router(name="presses")
    router.callback_query()(on_press)
    return router
