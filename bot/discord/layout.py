"""How a neutral ``Message`` fits Discord's limits: text, files and the component rows.

Discord allows 5 action rows per message, 5 buttons per row (so 25 buttons), one select menu per row with at
most 25 options, 80 characters on a button, 100 on an option, 2000 characters of content (4096 in an
embed's description). ``plan_rows`` keeps the application's rows of buttons where they fit and turns the
largest rows into select menus where they do not (bids, an 11-card hand), so that every choice stays
reachable without any state kept by the adapter.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from typing import Literal

import discord

from bot.port import Button, Message

MAX_ROWS = 5
MAX_ROW_BUTTONS = 5
MAX_OPTIONS = 25
MAX_BUTTON_LABEL = 80
MAX_OPTION_LABEL = 100
MAX_CONTENT = 2000
MAX_EMBED = 4096


class TooManyChoices(ValueError):
    """More choices than five select menus of 25 options can hold."""


@dataclass(frozen=True, slots=True)
class Row:
    """One action row: up to five buttons, or one select menu whose options are ``buttons``."""

    kind: Literal["buttons", "select"]
    buttons: tuple[Button, ...]


def _chunks(buttons: list[Button], size: int) -> list[tuple[Button, ...]]:
    return [tuple(buttons[i : i + size]) for i in range(0, len(buttons), size)]


def _rows_for(group: list[Button], as_select: bool) -> list[Row]:
    if not as_select:
        return [Row("buttons", chunk) for chunk in _chunks(group, MAX_ROW_BUTTONS)]
    links = [b for b in group if b.url]
    choices = [b for b in group if not b.url]
    rows = [Row("select", chunk) for chunk in _chunks(choices, MAX_OPTIONS)]
    rows += [Row("buttons", chunk) for chunk in _chunks(links, MAX_ROW_BUTTONS)]
    return rows


def plan_rows(buttons: tuple[tuple[Button, ...], ...]) -> list[Row]:
    """At most five rows showing every button: rows as given where they fit (split by fives), otherwise the
    largest rows become select menus until everything fits; raises ``TooManyChoices`` past 125 choices."""
    groups = [list(row) for row in buttons if row]
    as_select = [False] * len(groups)

    def layout() -> list[Row]:
        return [row for group, sel in zip(groups, as_select, strict=True) for row in _rows_for(group, sel)]

    rows = layout()
    while len(rows) > MAX_ROWS:
        candidates = [i for i, sel in enumerate(as_select) if not sel and len(groups[i]) > 1]
        if not candidates:
            break
        biggest = max(candidates, key=lambda i: len(groups[i]))
        as_select[biggest] = True
        rows = layout()
    if len(rows) > MAX_ROWS:
        # many small rows: all their choices go into select menus together, in order
        merged = [b for group in groups for b in group]
        groups, as_select = [merged], [True]
        rows = layout()
    if len(rows) > MAX_ROWS:
        raise TooManyChoices(f"{sum(len(g) for g in groups)} choices do not fit in one Discord message")
    return rows


def clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def text_parts(msg: Message) -> tuple[str, discord.Embed | None]:
    """Content and, for a text longer than Discord's 2000 characters, an embed holding it instead."""
    if len(msg.text) <= MAX_CONTENT:
        return msg.text, None
    return "", discord.Embed(description=clip(msg.text, MAX_EMBED))


def files(msg: Message) -> list[discord.File]:
    """The picture and the document of a message as files to upload (fresh objects every call)."""
    out = []
    if msg.image is not None:
        out.append(discord.File(io.BytesIO(msg.image), filename=msg.image_name or "picture.jpg"))
    if msg.document is not None:
        out.append(discord.File(io.BytesIO(msg.document.data), filename=msg.document.filename))
    return out
