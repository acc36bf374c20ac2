"""The command menu (``setMyCommands``) in English (the default), Russian and Ukrainian."""

from __future__ import annotations

from aiogram import Bot
from aiogram.types import BotCommand

from bot.port import COMMANDS
from bot.telegram import texts

MENU_LANGS = ("en", "ru", "uk")


def menu(lang: str) -> list[BotCommand]:
    return [BotCommand(command=name, description=texts.command_help(lang, name)) for name in COMMANDS]


async def register_commands(bot: Bot) -> None:
    """One menu per language; users whose app speaks none of them get the English default."""
    await bot.set_my_commands(menu("en"))
    for lang in MENU_LANGS:
        await bot.set_my_commands(menu(lang), language_code=lang)
