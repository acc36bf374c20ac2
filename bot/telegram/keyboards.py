"""Inline keyboards: the application's rows of ``bot.port.Button`` as Telegram markup, and deep links."""

from __future__ import annotations

from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup, WebAppInfo

from bot.port import Button
from bot.telegram.callbacks import pack

STYLES = {"primary": "primary", "danger": "danger"}  # Telegram button styles; "default" has none


def deep_link(bot_username: str, start_payload: str) -> str:
    """``https://t.me/<bot>?start=<payload>``: opens the bot's private chat and sends ``/start <payload>``."""
    return f"https://t.me/{bot_username}?start={start_payload}"


def app_link(bot_username: str, app_name: str, start_param: str) -> str:
    """``https://t.me/<bot>/<app>?startapp=<param>``: opens the Mini App inside Telegram, from any chat."""
    return f"https://t.me/{bot_username}/{app_name}?startapp={start_param}"


def button(b: Button, *, private: bool = False, app: tuple[str, str] | None = None) -> InlineKeyboardButton:
    """One button. A ``web_app`` button is a Mini App button in a private chat (Telegram refuses them in groups);
    in a group it is a link: the Mini App's direct link when ``app`` (bot username, app short name) is known."""
    style = STYLES.get(b.style)
    if b.web_app and b.url:
        if private:
            return InlineKeyboardButton(text=b.label, web_app=WebAppInfo(url=b.url), style=style)
        url = app_link(app[0], app[1], b.web_app) if app else b.url
        return InlineKeyboardButton(text=b.label, url=url, style=style)
    if b.url:
        return InlineKeyboardButton(text=b.label, url=b.url, style=style)
    return InlineKeyboardButton(text=b.label, callback_data=pack(b.payload), style=style)


def markup(
    rows: tuple[tuple[Button, ...], ...] | list[list[Button]],
    *,
    private: bool = False,
    app: tuple[str, str] | None = None,
) -> InlineKeyboardMarkup | None:
    """The keyboard for a message, or None when it has no buttons (Telegram then removes the old keyboard)."""
    keyboard = [[button(b, private=private, app=app) for b in row] for row in rows if row]
    return InlineKeyboardMarkup(inline_keyboard=keyboard) if keyboard else None
