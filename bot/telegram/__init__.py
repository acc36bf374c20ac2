"""The Telegram adapter (aiogram 3): tables in groups and forum topics, hands in the bot's private chat.

``serve(app, settings)`` runs it; ``TelegramPort`` is the application's ``Port`` on Telegram. See
``docs/telegram.md``.
"""

from __future__ import annotations

from bot.telegram.port import TelegramPort
from bot.telegram.runner import TelegramRunner, serve

__all__ = ["TelegramPort", "TelegramRunner", "serve"]
