"""The discord.py client: slash commands and component presses in, ``Command`` / ``Press`` / ``PrivateStart`` out.

Every interaction is acknowledged before anything else happens (a slash command with a public "thinking"
defer, a component with a silent deferred update), so Discord never shows "This interaction failed" however
long the application takes to decide and draw. Presses on components this bot did not make (an old
version's buttons) are answered ephemerally, and so is a press on an ephemeral message sent to another user (only a
forged interaction can make one): neither reaches the application. ``AutoShardedClient`` asks Discord how many
shards to run, unless the worker is given its own shards (``shard_ids`` of ``shard_count``: several workers, each a
distinct part).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from typing import Any, Protocol, cast

import discord
import discord.http
import yarl
from discord import app_commands
from discord.gateway import DiscordWebSocket

from bot.discord import commands, ids, texts
from bot.discord.interactions import Handle, LiveInteractions, chat_of, message_of, user_of
from bot.discord.items import DYNAMIC_ITEMS
from bot.port import Command, Press, PrivateStart

log = logging.getLogger(__name__)

DISCORD_API = "https://discord.com/api/v10"  # discord.py's own REST base


class Handler(Protocol):
    """What receives the users' actions: ``bot.app.Application`` (or a test's stand-in)."""

    async def command(self, cmd: Command) -> None: ...

    async def press(self, press: Press) -> None: ...

    async def private_start(self, start: PrivateStart) -> None: ...


class TableClient(discord.AutoShardedClient):
    """The bot's connection to Discord; ``handler`` gets the users' actions. Every interaction is recorded in
    ``live``, through which the port (``bot.discord.port``) sends private messages for the app."""

    def __init__(
        self,
        *,
        shard_count: int | None = None,
        shard_ids: list[int] | None = None,
        clock: Callable[[], float] = time.time,
        activity: bool = False,
        **options: Any,
    ) -> None:
        super().__init__(intents=discord.Intents(guilds=True), shard_count=shard_count, shard_ids=shard_ids, **options)
        self.web_activity = activity  # the web table runs as this application's Activity (bot.webapp.activity)
        self.tree: app_commands.CommandTree[TableClient] = app_commands.CommandTree(self)
        for command in commands.build(self._run_command):
            self.tree.add_command(command)
        self.tree.error(self._unreadable_command)
        self.handler: Handler | None = None
        self.clock = clock
        self.live = LiveInteractions(clock)
        self.ack_delays: list[float] = []  # seconds from receipt to acknowledgement, for every interaction
        self.synced = asyncio.Event()
        self.busy = 0  # interactions being handled now

    async def setup_hook(self) -> None:
        if self.shard_count is not None and discord.http.Route.BASE != DISCORD_API:
            # discord.py connects fixed shards to Discord's own gateway; another API (DISCORD_API_URL, the tests'
            # fake Discord) names its gateway in GET /gateway/bot, as it does when the shard count is not fixed
            _count, url, _limits = await self.http.get_bot_gateway()
            DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(url)
        self.add_dynamic_items(*DYNAMIC_ITEMS)
        await self.tree.set_translator(commands.CatalogTranslator())
        await self.sync_commands()
        self.synced.set()

    async def sync_commands(self) -> None:
        """The slash commands, and with the Activity its entry-point command, in one bulk overwrite."""
        if not self.web_activity:
            await self.tree.sync()
            return
        translator = self.tree.translator
        payload = [
            await c.get_translated_payload(self.tree, translator) if translator else c.to_dict(self.tree)
            for c in self.tree.get_commands()
        ]
        assert self.application_id is not None
        await self.http.bulk_upsert_global_commands(self.application_id, payload=[*payload, commands.entry_point()])

    def _handler(self) -> Handler:
        if self.handler is None:
            raise RuntimeError("TableClient has no handler attached")
        return self.handler

    async def _ack(self, handle: Handle, *, thinking: bool = False) -> bool:
        """Acknowledge at once; False when Discord refused (too late, or answered elsewhere)."""
        try:
            await handle.interaction.response.defer(thinking=thinking)
        except discord.HTTPException:
            log.warning("interaction %s could not be acknowledged", handle.interaction.id)
            return False
        finally:
            self.ack_delays.append(self.clock() - handle.received)
        return True

    def _remember(self, handle: Handle) -> None:
        self.live.remember_user(str(handle.interaction.user.id), handle)

    async def tell(self, handle: Handle, text: str) -> None:
        """A short ephemeral note to the user behind ``handle`` (after the acknowledgement)."""
        try:
            await handle.open_followups()
            await handle.interaction.followup.send(text, ephemeral=True)
        except discord.HTTPException:
            log.warning("could not tell the user of interaction %s: %s", handle.interaction.id, text)

    # ------------------------------------------------------------------ slash commands

    async def _run_command(self, interaction: discord.Interaction[Any], name: str, args: str) -> None:
        self.busy += 1
        try:
            await self._command(interaction, name, args)
        finally:
            self.busy -= 1

    async def _command(self, interaction: discord.Interaction[Any], name: str, args: str) -> None:
        handle = Handle(interaction, self.clock())
        if not await self._ack(handle, thinking=True):
            return
        handle.loading = True  # a public "thinking…": see Handle.open_followups before any private follow-up
        self._remember(handle)
        cmd = Command(user_of(interaction), chat_of(interaction), name, args, handle=handle)
        try:
            await self._handler().command(cmd)
        except Exception:
            log.exception("the application failed on /%s %s", name, args)
            await self.tell(handle, texts.failed(handle.locale))
        if await handle.take_placeholder():
            # nothing public answered the command: remove the "thinking…" placeholder (or its stand-in)
            try:
                await interaction.delete_original_response()
            except discord.HTTPException:
                log.warning("could not remove the placeholder of /%s", name)

    async def _unreadable_command(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        """A command discord.py could not read (an unknown name, a missing or wrong option: forged, or from a
        Discord client that still knows an older version of the commands): answered at once, privately, and
        noted as such rather than as a crash."""
        handle = Handle(interaction, self.clock())
        log.warning("a command could not be read: %s", error)
        if interaction.response.is_done():
            return
        try:
            await interaction.response.send_message(texts.not_understood(handle.locale), ephemeral=True)
        except discord.HTTPException:
            log.warning("could not answer an unreadable command")
        finally:
            self.ack_delays.append(self.clock() - handle.received)

    # ------------------------------------------------------------------ components

    async def on_payload(self, interaction: discord.Interaction[Any], payload: str) -> None:
        """A press on one of our buttons or select menus (called by the dynamic items)."""
        self.busy += 1
        try:
            await self._press(interaction, payload)
        finally:
            self.busy -= 1

    async def _press(self, interaction: discord.Interaction[Any], payload: str) -> None:
        handle = Handle(interaction, self.clock())
        if not await self._ack(handle):
            return
        if not ids.is_payload(payload):
            await self.tell(handle, texts.out_of_date(handle.locale))
            return
        ref = message_of(interaction)
        if ref is not None and ref.extra == "e":
            owner = self.live.owner(ref.message_id, interaction.message)
            if owner is not None and owner != str(interaction.user.id):
                # another user's ephemeral message (a forged interaction): refused, nothing is recorded of it
                log.warning(
                    "user %s pressed ephemeral message %s of user %s", interaction.user.id, ref.message_id, owner
                )
                await self.tell(handle, texts.not_yours(handle.locale))
                return
            self.live.remember_press(ref.message_id, handle)
        self._remember(handle)
        press = Press(user_of(interaction), chat_of(interaction), payload, ref, handle=handle, key=str(interaction.id))
        try:
            await self._handler().press(press)
        except Exception:
            log.exception("the application failed on a press %r", payload)
            await self.tell(handle, texts.failed(handle.locale))

    async def on_launch(self, interaction: discord.Interaction[Any]) -> None:
        """ "Open the table" with the web table as an Activity: launch it in the channel (nothing of the
        application's changes); a button left from when the Activity was on is told it is out of date."""
        try:
            if self.web_activity:
                await interaction.response.launch_activity()
            else:
                await interaction.response.send_message(texts.out_of_date(str(interaction.locale)), ephemeral=True)
        except discord.HTTPException as e:
            log.warning("the Activity could not be launched: %s", e)
            with contextlib.suppress(discord.HTTPException):
                await interaction.response.send_message(texts.failed(str(interaction.locale)), ephemeral=True)

    async def on_start(self, interaction: discord.Interaction[Any], start_payload: str) -> None:
        """A press on an invitation's button: the user comes to see his private view."""
        self.busy += 1
        try:
            await self._start(interaction, start_payload)
        finally:
            self.busy -= 1

    async def _start(self, interaction: discord.Interaction[Any], start_payload: str) -> None:
        handle = Handle(interaction, self.clock())
        if not await self._ack(handle):
            return
        self._remember(handle)
        start = PrivateStart(user_of(interaction), start_payload, handle=handle)
        try:
            await self._handler().private_start(start)
        except Exception:
            log.exception("the application failed on a private start %r", start_payload)
            await self.tell(handle, texts.failed(handle.locale))

    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        """Presses the dynamic items will not see: a button no longer on the message (the user's screen was
        behind an edit; discord.py drops those) goes to the application all the same, which knows from the
        payload's version whether it is stale; a component this bot never made is answered as out of date."""
        if interaction.type is not discord.InteractionType.component:
            return
        data = cast(dict[str, Any], interaction.data or {})
        custom_id = data.get("custom_id", "")
        if not isinstance(custom_id, str) or _on_message(interaction, custom_id, data.get("component_type")):
            return  # a dynamic item handles it
        button = ids.BUTTON_TEMPLATE.fullmatch(custom_id)
        if button:
            await self.on_payload(interaction, button["payload"])
            return
        if ids.SELECT_TEMPLATE.fullmatch(custom_id):
            values = data.get("values") or []
            await self.on_payload(interaction, values[0] if values and isinstance(values[0], str) else "")
            return
        start = ids.START_TEMPLATE.fullmatch(custom_id)
        if start:
            await self.on_start(interaction, start["payload"])
            return
        handle = Handle(interaction, self.clock())
        try:
            await interaction.response.send_message(texts.out_of_date(handle.locale), ephemeral=True)
        except discord.HTTPException:
            log.warning("could not answer a press on an unknown component %r", custom_id)
        finally:
            self.ack_delays.append(self.clock() - handle.received)


def _on_message(interaction: discord.Interaction[Any], custom_id: str, component_type: Any) -> bool:
    """Whether the message the press came from (as Discord has it now) still has a component with this id and
    of this type (discord.py dispatches on both: a button press carrying a menu's id reaches no item)."""
    message = interaction.message
    if message is None:
        return False
    for row in message.components:
        for child in getattr(row, "children", []):
            kind = getattr(getattr(child, "type", None), "value", None)
            if getattr(child, "custom_id", None) == custom_id and kind == component_type:
                return True
    return False
