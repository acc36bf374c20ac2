"""The slash commands (every one of ``bot.port.COMMANDS``) and their translation into Russian and Ukrainian.

Every name, description and choice is an English msgid of the project's one gettext domain (``core.i18n``),
marked with ``N_`` so ``make messages`` extracts it. ``CatalogTranslator`` hands Discord the ``ru`` and ``uk``
texts when the commands are synced; ``en-US`` (and every other locale) sees the English source. A command
name's msgid is written with its slash (``"/new"``) so translators see it is a command; the slash is dropped
and the translation is used only if Discord would accept it as a name (lower case, no spaces, 1–32 chars).

A command's options are joined into ``Command.args`` in their declared order (``/new game:kozel
players:4`` -> ``"kozel 4"``), the same line a Telegram user would type after ``/new``.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Where
from discord.app_commands import locale_str

from bot.payloads import MAX_ID
from core import games
from core.i18n import N_, t

LOCALES = {discord.Locale.russian: "ru", discord.Locale.ukrainian: "uk"}
NAME_RE = re.compile(r"^[-_\w]{1,32}$")


@dataclass(frozen=True, slots=True)
class Option:
    """One option of a command: a string (``choices`` maps values to their English names) or an integer."""

    name: str
    description: str
    required: bool = False
    choices: tuple[tuple[str, str], ...] = ()


GAMES = tuple((game.name, game.title) for game in games.GAMES)
LANGUAGES = (("en", "English"), ("ru", "Русский"), ("uk", "Українська"))
ON_OFF = (("on", N_("on")), ("off", N_("off")))
SEASONS = (("month", N_("a month")), ("quarter", N_("a quarter")), ("none", N_("no seasons")))

# (name msgid, description msgid, options), in the order of bot.port.COMMANDS
SPECS: dict[str, tuple[str, str, tuple[Option, ...]]] = {
    "new": (
        N_("/new"),
        N_("Open a new table in this channel"),
        (
            Option("game", N_("The game to play"), required=True, choices=GAMES),
            Option("players", N_("How many seats (2 to 4)")),
        ),
    ),
    "join": (N_("/join"), N_("Take a seat at the table"), ()),
    "leave": (N_("/leave"), N_("Leave the table"), ()),
    "stop": (N_("/stop"), N_("Stop the game at this table"), ()),
    "table": (N_("/table"), N_("Show the table and your cards again"), ()),
    "rules": (
        N_("/rules"),
        N_("The rules and the table settings"),
        (Option("game", N_("The game to explain"), choices=GAMES),),
    ),
    "settings": (
        N_("/settings"),
        N_("Show the table settings"),
        (Option("game", N_("The game whose settings to show"), choices=GAMES),),
    ),
    "lang": (
        N_("/lang"),
        N_("The language of the bot in this channel"),
        (Option("language", N_("The language to use"), choices=LANGUAGES),),
    ),
    "score": (N_("/score"), N_("The score of the current game"), ()),
    "top": (
        N_("/top"),
        N_("The best players of this server"),
        (Option("game", N_("Only this game"), choices=GAMES),),
    ),
    "me": (N_("/me"), N_("Your rating and your games"), ()),
    "history": (N_("/history"), N_("The last games played here"), ()),
    "export": (
        N_("/export"),
        N_("The record of a game as a file"),
        (Option("number", N_("The number of a finished game, as /history shows it")),),
    ),
    "daily": (
        N_("/daily"),
        N_("Today's deal: everyone plays the same deal"),
        (Option("game", N_("The game of today's deal"), choices=GAMES),),
    ),
    "notify": (
        N_("/notify"),
        N_("A private message when a table opens here"),
        (Option("state", N_("On or off"), choices=ON_OFF),),
    ),
    "season": (
        N_("/season"),
        N_("How long a season of the leaderboard lasts"),
        (Option("length", N_("A month, a quarter or no seasons"), choices=SEASONS),),
    ),
    "help": (N_("/help"), N_("How to play with this bot"), ()),
}

Runner = Callable[[discord.Interaction[Any], str, str], Awaitable[None]]


def _callback(name: str, options: tuple[Option, ...], run: Runner) -> Callable[..., Awaitable[None]]:
    """A callback whose signature discord.py reads as the command's parameters."""
    shape = tuple((o.name, o.required) for o in options)

    async def plain(interaction: discord.Interaction[Any]) -> None:
        await run(interaction, name, "")

    async def game_and_players(
        interaction: discord.Interaction[Any], game: str, players: app_commands.Range[int, 2, 4] | None = None
    ) -> None:
        await run(interaction, name, game if players is None else f"{game} {players}")

    async def game(interaction: discord.Interaction[Any], game: str = "") -> None:
        await run(interaction, name, game)

    async def language(interaction: discord.Interaction[Any], language: str = "") -> None:
        await run(interaction, name, language)

    async def state(interaction: discord.Interaction[Any], state: str = "") -> None:
        await run(interaction, name, state)

    async def length(interaction: discord.Interaction[Any], length: str = "") -> None:
        await run(interaction, name, length)

    async def number(
        interaction: discord.Interaction[Any], number: app_commands.Range[int, 1, MAX_ID] | None = None
    ) -> None:
        await run(interaction, name, "" if number is None else str(number))

    shapes: dict[tuple[tuple[str, bool], ...], Callable[..., Awaitable[None]]] = {
        (): plain,
        (("game", True), ("players", False)): game_and_players,
        (("game", False),): game,
        (("language", False),): language,
        (("state", False),): state,
        (("length", False),): length,
        (("number", False),): number,
    }
    return shapes[shape]


def build(run: Runner) -> list[app_commands.Command[Any, ..., None]]:
    """The commands; each one calls ``run(interaction, name, args)``."""
    out = []
    for name, (name_id, description, options) in SPECS.items():
        command: app_commands.Command[Any, ..., None] = app_commands.Command(
            name=locale_str(name, msgid=name_id),
            description=locale_str(description),
            callback=_callback(name, options, run),
        )
        for option in options:
            param = command._params[option.name]
            param.description = locale_str(option.description)
            if option.choices:
                param.choices = [
                    app_commands.Choice(name=locale_str(label), value=value) for value, label in option.choices
                ]
        out.append(command)
    return out


class CatalogTranslator(app_commands.Translator):
    """Names, descriptions and choice names in ``ru`` and ``uk`` from the project's gettext catalogs."""

    async def translate(
        self, string: locale_str, locale: discord.Locale, context: app_commands.TranslationContextTypes
    ) -> str | None:
        lang = LOCALES.get(locale)
        if lang is None:
            return None
        msgid = string.extras.get("msgid", string.message)
        text = t(lang, msgid)
        if text == msgid:
            return None
        if context.location in (Where.command_name, Where.parameter_name, Where.group_name):
            text = text.removeprefix("/")
            if not NAME_RE.fullmatch(text) or text != text.lower():
                return None
        return text


def entry_point() -> dict[str, Any]:
    """The Activity's entry-point command (type 4, ``PRIMARY_ENTRY_POINT``): Discord launches the Activity itself
    (handler 2, ``DISCORD_LAUNCH_ACTIVITY``) from the app launcher. A bulk overwrite of the commands must include
    it once the Activity is enabled (Discord refuses to remove it), so it is synced with the others."""
    description = N_("Open the card table in this channel")
    return {
        "name": "launch",
        "type": 4,
        "handler": 2,
        "description": description,
        "description_localizations": {
            locale.value: t(lang, description) for locale, lang in LOCALES.items() if lang != "en"
        },
        "contexts": [0],
        "integration_types": [0],
    }
