"""The persistent components: ``DynamicItem`` buttons and select menus whose custom id carries the payload.

discord.py matches every incoming component's custom id against the templates of the registered dynamic
items and rebuilds the item from the id alone, so a button works the same before and after a restart. Each
callback hands the interaction to the client (``TableClient.on_payload`` / ``on_start``), which acknowledges
it at once and then asks the application.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any, cast

import discord

from bot.discord import ids
from bot.discord.interactions import Receiver
from bot.discord.layout import MAX_BUTTON_LABEL, MAX_OPTION_LABEL, Row, clip
from bot.port import Button

STYLES = {
    "primary": discord.ButtonStyle.primary,
    "danger": discord.ButtonStyle.danger,
    "default": discord.ButtonStyle.secondary,
}


def _client(interaction: discord.Interaction[Any]) -> Receiver:
    return cast(Receiver, interaction.client)


class PayloadButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=ids.BUTTON_TEMPLATE):
    """A button whose press is the application payload in its custom id."""

    def __init__(self, button: discord.ui.Button[Any], payload: str) -> None:
        super().__init__(button)
        self.payload = payload

    @classmethod
    def make(cls, b: Button, dup: int = 0, row: int | None = None) -> PayloadButton:
        button: discord.ui.Button[Any] = discord.ui.Button(
            label=clip(b.label, MAX_BUTTON_LABEL),
            style=STYLES.get(b.style, discord.ButtonStyle.secondary),
            custom_id=ids.button_id(b.payload, dup),
            row=row,
        )
        return cls(button, b.payload)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> PayloadButton:
        button = item if isinstance(item, discord.ui.Button) else discord.ui.Button(custom_id=match.group(0))
        return cls(button, match["payload"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _client(interaction).on_payload(interaction, self.payload)


class PayloadSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=ids.SELECT_TEMPLATE):
    """A select menu standing for a row of buttons; the chosen option's value is the payload."""

    def __init__(self, select: discord.ui.Select[Any]) -> None:
        super().__init__(select)

    @classmethod
    def make(cls, choices: tuple[Button, ...], index: int, row: int | None = None) -> PayloadSelect:
        options: list[discord.SelectOption] = []
        seen: set[str] = set()
        for b in choices:
            if b.payload in seen:
                continue
            seen.add(b.payload)
            options.append(discord.SelectOption(label=clip(b.label, MAX_OPTION_LABEL), value=b.payload))
        placeholder = clip(f"{choices[0].label} … {choices[-1].label}", 150)
        select: discord.ui.Select[Any] = discord.ui.Select(
            custom_id=ids.select_id(index), options=options, placeholder=placeholder, row=row
        )
        return cls(select)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> PayloadSelect:
        select = item if isinstance(item, discord.ui.Select) else discord.ui.Select(custom_id=match.group(0))
        return cls(select)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        data = cast(dict[str, Any], interaction.data or {})
        values = data.get("values") or []
        payload = values[0] if values and isinstance(values[0], str) else ""
        await _client(interaction).on_payload(interaction, payload)


class StartButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=ids.START_TEMPLATE):
    """The invitation's button: pressing it is Discord's way of "opening the private chat" (``PrivateStart``)."""

    def __init__(self, button: discord.ui.Button[Any], start_payload: str) -> None:
        super().__init__(button)
        self.start_payload = start_payload

    @classmethod
    def make(cls, label: str, start_payload: str) -> StartButton:
        button: discord.ui.Button[Any] = discord.ui.Button(
            label=clip(label, MAX_BUTTON_LABEL),
            style=discord.ButtonStyle.primary,
            custom_id=ids.start_id(start_payload),
        )
        return cls(button, start_payload)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> StartButton:
        button = item if isinstance(item, discord.ui.Button) else discord.ui.Button(custom_id=match.group(0))
        return cls(button, match["payload"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _client(interaction).on_start(interaction, self.start_payload)


class LaunchButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=ids.LAUNCH_TEMPLATE):
    """ "Open the table" where the web table is a Discord Activity: the press is answered by launching the Activity
    in the channel (the launch-activity interaction response); the Activity's page then signs the user in."""

    @classmethod
    def make(cls, label: str, row: int | None = None) -> LaunchButton:
        button: discord.ui.Button[Any] = discord.ui.Button(
            label=clip(label, MAX_BUTTON_LABEL), style=discord.ButtonStyle.success, custom_id=ids.LAUNCH_ID, row=row
        )
        return cls(button)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> LaunchButton:
        return cls(item if isinstance(item, discord.ui.Button) else discord.ui.Button(custom_id=ids.LAUNCH_ID))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _client(interaction).on_launch(interaction)


DYNAMIC_ITEMS = (PayloadButton, PayloadSelect, StartButton, LaunchButton)


def build_view(
    rows: list[Row], extra: list[discord.ui.Item[Any]] | None = None, *, activity: bool = False
) -> discord.ui.View:
    """A view (no timeout: every item is dynamic) holding the planned rows, then any extra items. With the web
    table as an Activity (``activity``), a web-app button launches it instead of linking to its page."""
    view = discord.ui.View(timeout=None)
    seen: Counter[str] = Counter()
    selects = 0
    for number, row in enumerate(rows):
        if row.kind == "select":
            view.add_item(PayloadSelect.make(row.buttons, selects, row=number))
            selects += 1
            continue
        for b in row.buttons:
            if b.web_app and activity:
                view.add_item(LaunchButton.make(b.label, row=number))
            elif b.url:
                view.add_item(discord.ui.Button(label=clip(b.label, MAX_BUTTON_LABEL), url=b.url, row=number))
            else:
                view.add_item(PayloadButton.make(b, seen[b.payload], row=number))
                seen[b.payload] += 1
    for item in extra or []:
        view.add_item(item)
    return view
