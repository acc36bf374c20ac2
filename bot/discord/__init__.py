"""The Discord adapter (discord.py 2): slash commands, the table as a channel message edited in place, hands as
ephemeral messages, persistent buttons. ``serve(app, settings)`` runs it; ``docs/discord.md`` explains it."""

from __future__ import annotations

from bot.discord.client import TableClient
from bot.discord.port import DiscordPort
from bot.discord.serve import serve

__all__ = ["DiscordPort", "TableClient", "serve"]
