"""The application's commands in groups, supergroups, forum topics and the private chat
(``/new``, ``/new@botname thousand``, ...) as ``bot.port.Command``."""

from __future__ import annotations

from aiogram import Router
from aiogram.filters import Command as CommandFilter
from aiogram.filters import CommandObject
from aiogram.types import Message as TgMessage

from bot.port import COMMANDS, Command
from bot.telegram.convert import Application, chat_of, user_of


async def on_command(message: TgMessage, command: CommandObject, app: Application) -> None:
    if message.from_user is None or message.from_user.is_bot:
        return
    await app.command(
        Command(
            user=user_of(message.from_user),
            chat=chat_of(message.chat, message),
            name=command.command.lower(),
            args=(command.args or "").strip(),
            handle=message.message_id,
        )
    )


def make_router() -> Router:
    router = Router(name="commands")
    router.message(CommandFilter(*COMMANDS, ignore_case=True))(on_command)
    return router
