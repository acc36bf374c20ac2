"""The bot's own words that come from tables of names: games, levels, table conventions, help and rules.

Every string is a catalog message (``core.i18n``): marked with ``N_`` here and translated with ``t`` when shown.
"""

from __future__ import annotations

from typing import Any

from core import games
from core.base import GameRules
from core.i18n import N_, t, tn

GAME_NAMES = {game.name: game.title for game in games.GAMES}

# what players type after `new`: every name in every language we speak
GAME_ALIASES = games.ALIASES

DEFAULT_SEATS = {game.name: game.default_seats for game in games.GAMES}

LEVEL_NAMES = {"random": N_("random"), "easy": N_("easy"), "normal": N_("normal"), "strong": N_("strong")}
TABLE_LEVELS = ("easy", "normal", "strong")

OPTION_LABELS = {
    "bidding_floor": N_("Bidding floor"),
    "second_talon_to_last_trick": N_("Unused talon to the last trick"),
    "show_talon_on_100": N_("Show the talon on 100"),
    "may_concede": N_("Declarer may concede"),
    "concede_penalty": N_("Conceding costs the bid"),
    "redeal": N_("Redeal on a poor hand"),
    "bolts_in_a_row": N_("Only bolts in a row count"),
    "bidding_on_barrel": N_("Outbidding the barrel"),
    "missed_barrels_reset": N_("Three missed barrels reset to 0"),
    "ace_marriage": N_("Ace marriage (200)"),
    "dump_truck": N_("Dump truck at ±555"),
    "golden_round": N_("Golden round"),
    "target": N_("Play to"),
    "winner_takes_all": N_("Winner takes all"),
    "obligatory_order": N_("Obligatory order"),
    "seven_swap": N_("Seven swap"),
    "hanging_separately": N_("Hanging baits one by one"),
    "trump_in_combinations": N_("Trump runs"),
    "fish": N_("Fish"),
}

VALUE_LABELS = {
    "moscow": N_("Moscow (trump run wins)"),
    "kharkov": N_("Kharkov (trump ignored)"),
    "all": N_("everyone scores his hand"),
    "one": N_("the most takes all"),
}

TIMER_CHOICES = (0, 30, 60, 120, 300, 12 * 3600, 24 * 3600)
DEFAULT_TIMER = 120
LONG_TIMER = 12 * 3600  # from here on "play when you have time": reminders, and the computer moves only if chosen
# the settings page's rows of application options (``o.`` payloads): numbers apart from the game's own rows
TIMEOUT_MOVES_ROW = 100
HINTS_ROW = 101
PAUSE_CHOICES = (0, 3, 5, 10)  # seconds a finished round stays on view before the next deal
DEFAULT_PAUSE = 5

GAME_SUMMARIES = {game.name: game.summary for game in games.GAMES}


def game_name(game: str, lang: str) -> str:
    return t(lang, GAME_NAMES.get(game, game))


def level_name(level: str, lang: str) -> str:
    return t(lang, LEVEL_NAMES.get(level, level))


def value_text(value: Any, lang: str) -> str:
    if isinstance(value, bool):
        return t(lang, "on") if value else t(lang, "off")
    if isinstance(value, str):
        return t(lang, VALUE_LABELS[value]) if value in VALUE_LABELS else value
    return str(value)


def timer_text(seconds: int, lang: str) -> str:
    if not seconds:
        return t(lang, "off")
    if seconds < 60:
        return t(lang, "{n} s", n=seconds)
    if seconds >= LONG_TIMER:
        return t(lang, "{n} h, play when you have time", n=seconds // 3600)
    return t(lang, "{n} min", n=seconds // 60)


def hints_line(on: bool, lang: str) -> str:
    """The table's ``hints`` option: a 💡 button on each hand, and then the game is not rated."""
    if on:
        return t(lang, "Hints 💡: on (the game is not rated)")
    return t(lang, "Hints 💡: off")


def timeout_moves_line(on: bool, lang: str) -> str:
    """What happens when a long turn timer runs out (the table's ``timeout_moves`` option)."""
    if on:
        return t(lang, "When the time is up: the computer moves")
    return t(lang, "When the time is up: we wait, with a daily reminder")


def pause_text(seconds: int, lang: str) -> str:
    return t(lang, "{n} s", n=seconds) if seconds else t(lang, "none")


def pause_line(seconds: int, lang: str) -> str:
    return t(lang, "Pause after a round: {value}", value=pause_text(seconds, lang))


def option_rows(game: str | GameRules, players: int) -> list[dict[str, Any]]:
    """Every table convention of the game (its rules, or its name) with its choices and default
    (``Options.describe``)."""
    rules = games.get(game) if isinstance(game, str) else game
    return rules.options_type.describe(players)


def option_line(name: str, value: Any, lang: str) -> str:
    return f"{t(lang, OPTION_LABELS.get(name, name))}: {value_text(value, lang)}"


def parse_game(text: str) -> str | None:
    word = (text or "").strip().lower().split()
    if not word:
        return None
    return GAME_ALIASES.get(word[0])


def help_text(lang: str) -> str:
    lines = [
        t(lang, "Play Thousand, Deberts and Kozel with friends right here."),
        "",
        t(lang, "/new thousand|deberts|kozel: open a table in this chat"),
        t(lang, "/join, /leave: take or leave a seat"),
        t(lang, "/stop: stop the game (the host, or most of the players)"),
        t(lang, "/table: show the table again, and your hand to you"),
        t(lang, "/settings: the table's conventions"),
        t(lang, "/rules: how this game is played here"),
        t(lang, "/score: the score sheet"),
        t(lang, "/top, /me, /history: the chat's players, your results, recent games"),
        t(lang, "/export, /export N: the game's record as a file (N: game #N of this chat)"),
        t(lang, "/daily [game]: today's deal, the same for everyone here, played alone against the computer"),
        t(lang, "/notify on|off: a private message when a table opens here"),
        t(lang, "/season month|quarter|none: how long a season of /top lasts (the table's host chooses)"),
        t(lang, "/lang: language"),
        "",
        t(lang, "Your cards and your choices come to you privately; the chat sees the table."),
    ]
    return "\n".join(lines)


def time_up_line(timer: int, timeout_moves: bool, lang: str) -> str | None:
    """What happens when the turn timer runs out; None with no timer."""
    if not timer:
        return None
    if timer >= LONG_TIMER:
        return timeout_moves_line(timeout_moves, lang)
    return t(lang, "When the time is up: the computer moves for you; after three times in a row it takes your seat")


def rules_text(
    game: str,
    players: int,
    options: dict[str, Any],
    timer: int,
    lang: str,
    pause: int = DEFAULT_PAUSE,
    *,
    hints: bool = False,
    timeout_moves: bool = False,
) -> str:
    """The game, its summary and every convention of the table (a star on those that differ from the usual rule,
    and the footnote only then), the turn timer and what happens when the time is up, the pause, the hints."""
    lines = [f"{game_name(game, lang)}", t(lang, GAME_SUMMARIES[game]), "", t(lang, "Conventions at this table:")]
    starred = False
    for row in option_rows(game, players):
        value = options.get(row["name"], row["default"])
        mark = "" if value == row["default"] else " *"
        starred = starred or bool(mark)
        lines.append(f"• {option_line(row['name'], value, lang)}{mark}")
    lines.append("• " + t(lang, "Turn timer") + ": " + timer_text(timer, lang))
    time_up = time_up_line(timer, timeout_moves, lang)
    if time_up:
        lines.append("• " + time_up)
    lines.append("• " + pause_line(pause, lang))
    lines.append("• " + hints_line(hints, lang))
    if starred:
        lines.append(t(lang, "* differs from the usual rule"))
    return "\n".join(lines)


def rating_line(game: str, name: str, rating: float, delta: float, points: int | None, lang: str) -> str:
    """A player's line under a rated game's end: his skill rating (openskill, the one /top shows) and its change;
    in Kozel also the game's own rating points, named apart so the two numbers are not taken for one."""
    if game == "kozel" and points is not None:
        return t(
            lang,
            "{name}: +{points} Kozel rating points; skill rating {rating} ({delta} this game)",
            name=name,
            points=points,
            rating=f"{rating:.1f}",
            delta=f"{delta:+.1f}",
        )
    return t(
        lang, "{name}: rating {rating} ({delta} this game)", name=name, rating=f"{rating:.1f}", delta=f"{delta:+.1f}"
    )


def rating_points(lang: str, n: int) -> str:
    """ "7 rating points" (Kozel's own rating) with the plural of the reader's language."""
    return tn(lang, "{n} rating point", "{n} rating points", n)


def record_words(lang: str, games_: int, wins: int) -> str:
    """ "5 games, 2 wins (40%)" in the reader's language, each count with its own plural."""
    share = round(100 * wins / games_) if games_ else 0
    return t(
        lang,
        "{games}, {wins} ({share}%)",
        games=tn(lang, "{n} game", "{n} games", games_),
        wins=tn(lang, "{n} win", "{n} wins", wins),
        share=share,
    )
