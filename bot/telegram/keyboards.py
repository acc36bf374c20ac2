"""Inline keyboards: the application's rows of ``bot.port.Button`` as Telegram markup, and deep links."""

from __future__ import annotations

from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

from bot.port import Button
from bot.telegram.callbacks import pack

STYLES = {"primary": "primary", "danger": "danger"}  # Telegram button styles; "default" has none


def deep_link(bot_username: str, start_payload: str) -> str:
    """``https://t.me/<bot>?start=<payload>``: opens the bot's private chat and sends ``/start <payload>``."""
    return f"https://t.me/{bot_username}?start={start_payload}"


def button(b: Button) -> InlineKeyboardButton:
    style = STYLES.get(b.style)
    if b.url:
        return InlineKeyboardButton(text=b.label, url=b.url, style=style)
    return InlineKeyboardButton(text=b.label, callback_data=pack(b.payload), style=style)


def markup(rows: tuple[tuple[Button, ...], ...] | list[list[Button]]) -> InlineKeyboardMarkup | None:
    """The keyboard for a message, or None when it has no buttons (Telegram then removes the old keyboard)."""
    keyboard = [[button(b) for b in row] for row in rows if row]
    return InlineKeyboardMarkup(inline_keyboard=keyboard) if keyboard else None
