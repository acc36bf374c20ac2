"""The "Open the table" button the chats get when the web table is public (``WEBAPP_URL`` set).

The application adds it under each player's private hand and under the group's table message. It is a
``bot.port.Button`` with ``web_app`` set: Telegram shows it as a Mini App button in a private chat and as a link
in a group (``t.me/<bot>/<app>?startapp=t<table>`` when the app has a short name); other platforms show a link.
"""

from __future__ import annotations

from bot.port import Button, Message
from core.i18n import t


def table_url(base_url: str, table_id: int) -> str:
    """The page of one table: ``<WEBAPP_URL>/app/?t=<table>``."""
    return f"{base_url.rstrip('/')}/app/?t={table_id}"


def open_button(base_url: str, table_id: int, lang: str) -> Button:
    return Button("🃏 " + t(lang, "Open the table"), url=table_url(base_url, table_id), web_app=f"t{table_id}")


def with_open_button(msg: Message, base_url: str | None, table_id: int, lang: str) -> Message:
    """``msg`` with the button as its last row (unchanged when the web table is not public)."""
    if not base_url:
        return msg
    row = (open_button(base_url, table_id, lang),)
    return Message(
        msg.text,
        image=msg.image,
        image_name=msg.image_name,
        document=msg.document,
        buttons=(*msg.buttons, row),
    )
