"""The private chat with the bot: ``/start <payload>`` (a deep-link invitation, or just opening the chat)
as ``bot.port.PrivateStart``."""

from __future__ import annotations

import re

from aiogram import F, Router
from aiogram.filters import CommandObject, CommandStart
from aiogram.types import Message as TgMessage

from bot.port import PrivateStart
from bot.telegram.convert import Application, user_of

START_PAYLOAD = re.compile(r"^[A-Za-z0-9_-]{0,64}$")


async def on_start(message: TgMessage, command: CommandObject, app: Application) -> None:
    if message.from_user is None or message.from_user.is_bot:
        return
    payload = (command.args or "").strip()
    if not START_PAYLOAD.match(payload):
        payload = ""  # typed by hand, not from one of our links: just opening the chat
    await app.private_start(PrivateStart(user_of(message.from_user), payload, handle=message.message_id))


def make_router() -> Router:
    router = Router(name="private")
    router.message(CommandStart(), F.chat.type == "private")(on_start)
    return router
