"""``serve(app, settings)``: connect to Discord with ``DISCORD_BOT_TOKEN``, attach the port, run until cancelled."""

from __future__ import annotations

import logging
from typing import Protocol

import discord.http

from bot.config import Settings
from bot.discord.client import Handler, TableClient
from bot.discord.port import DiscordPort
from bot.port import Port

log = logging.getLogger(__name__)


class Attachable(Handler, Protocol):
    def attach(self, port: Port) -> None: ...


async def serve(app: Attachable, settings: Settings) -> None:
    """Run the Discord adapter for ``app`` until cancelled; waiting table edits are made before closing."""
    if not settings.discord_bot_token:
        raise ValueError("DISCORD_BOT_TOKEN is not set")
    if settings.discord_api_url:
        discord.http.Route.BASE = settings.discord_api_url.rstrip("/")
    client = TableClient(
        shard_count=settings.discord_shard_count,
        shard_ids=settings.discord_shards(),
        activity=settings.discord_activity(),
    )
    port = DiscordPort(client, edit_interval=settings.discord_edit_interval)
    client.handler = app
    app.attach(port)
    try:
        await client.start(settings.discord_bot_token)
    finally:
        try:
            await port.close()
        finally:
            await client.close()
            log.info("discord adapter stopped")
