"""The bot's aiogram routers, one per feature: commands, button presses, the private chat's Start."""

from __future__ import annotations

from aiogram import Router

from bot.telegram.routers import commands, presses, private


def all_routers() -> list[Router]:
    # private first: its /start (with a deep-link payload) must not fall through to the commands router
    return [private.make_router(), commands.make_router(), presses.make_router()]
