"""The chat's daily deal, what is decided without a database or a chat: the day, the seeds, when an attempt's round
is over, its score and its line of play, and the texts (the group's leaderboard, the private result line).

The score of an attempt (``docs/daily.md``), always for the person's own seat (seat 0) of the one round:

* Thousand: the round's points written for the seat (``+120`` a contract of 120 made, ``-120`` one lost, a
  defender's rounded card points);
* Deberts: the round's points written for the seat (a bait scores 0);
* Kozel: the points avoided, ``0 - the points the seat took`` (the pips left in its hand): ``0`` is the best.

Higher is better in every game; equal scores share a place.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from bot import payloads, texts
from bot.port import Button, Message
from core.base import GameState
from core.i18n import t, tn

OPTION = "daily"  # a daily attempt's table option: {"chat": the group's chat id, "day": "YYYY-MM-DD"}
LEVEL = "normal"  # the computer seats of a daily deal
SUITS = {"S": "♠", "C": "♣", "D": "♦", "H": "♥"}


def day_of(now: datetime) -> str:
    """The day of the application's clock (UTC), ``YYYY-MM-DD``: a new deal every day at 00:00 UTC."""
    return now.date().isoformat()


def players(game: str) -> int:
    """The seats of a daily deal: the game's usual count (the person and computers)."""
    return texts.DEFAULT_SEATS[game]


def deal_seed(key: bytes | None, chat_id: int, game: str, day: str) -> str:
    """The deal of one chat, game and day: the same for every member, another for every chat and day. Keyed with
    the bot's own key when it has one, so nobody outside can work the deal out from the chat's id."""
    return hashlib.blake2b(f"daily:{chat_id}:{game}:{day}".encode(), key=(key or b"")[:64], digest_size=12).hexdigest()


def computer_seed(deal: str, seat: int) -> str:
    """A daily deal's computer seat: seeded from the day's seed, so it answers every member's same plays alike."""
    return hashlib.blake2b(f"{deal}:computer:{seat}".encode(), digest_size=8).hexdigest()


def of_table(options: dict[str, Any]) -> tuple[int, str] | None:
    """(group chat id, day) of a daily attempt's table options, or None for any other table."""
    value = options.get(OPTION)
    if isinstance(value, dict) and isinstance(value.get("chat"), int) and isinstance(value.get("day"), str):
        return value["chat"], value["day"]
    return None


def round_row(state: GameState) -> dict[str, Any] | None:
    """The score-sheet row of the round that just ended (None while it is on, or when it ended in a redeal: then
    the deal goes on to the next one, as at any table)."""
    if state.phase not in ("round_over", "game_over"):
        return None
    sheet = state.view(0).get("score_sheet") or []
    if not sheet or sheet[-1].get("redeal"):
        return None
    return sheet[-1]


def outcome(game: str, row: dict[str, Any], seat: int = 0) -> tuple[int, dict[str, Any]]:
    """The attempt's score and its line of play (``line_text`` words it) from the round's sheet row."""
    if game == "kozel":
        took = int(row["points"][seat])
        if row.get("ending") == "out" and row.get("by") == seat:
            return -took, {"k": "out"}
        return -took, {"k": "fish" if row.get("ending") == "fish" else "took", "v": took}
    score = int(row["scores"][seat])
    if row.get("declarer") != seat:
        return score, {"k": "defended"}
    if game == "thousand":
        kind = "conceded" if row.get("conceded") else ("made" if row.get("made") else "down")
        return score, {"k": kind, "v": row.get("contract")}
    kind = {"made": "made", "bait": "bait"}.get(row.get("result") or "", "hanging")
    return score, {"k": "trump_" + kind, "s": row.get("trump")}


def line_text(line: dict[str, Any] | None, lang: str) -> str:
    """One line of play: "bid 120 and made it", "went out first", "took 13 points"."""
    if not line:
        return ""
    k, v = line.get("k"), line.get("v")
    suit = SUITS.get(str(line.get("s")), "?")
    words = {
        "made": lambda: t(lang, "bid {n} and made it", n=v),
        "down": lambda: t(lang, "bid {n} and went down", n=v),
        "conceded": lambda: t(lang, "bid {n} and conceded", n=v),
        "defended": lambda: t(lang, "defended"),
        "trump_made": lambda: t(lang, "named {suit} trumps and made it", suit=suit),
        "trump_bait": lambda: t(lang, "named {suit} trumps and went bait", suit=suit),
        "trump_hanging": lambda: t(lang, "named {suit} trumps: the points hang", suit=suit),
        "out": lambda: t(lang, "went out first"),
        "fish": lambda: tn(lang, "fish: took {n} point", "fish: took {n} points", int(v or 0)),
        "took": lambda: tn(lang, "took {n} point", "took {n} points", int(v or 0)),
    }
    word = words.get(str(k))
    return word() if word is not None else ""


def score_text(score: int) -> str:
    return f"{score:+d}".replace("-", "−")


@dataclass(frozen=True, slots=True)
class Entry:
    """One person's attempt as the leaderboard shows it."""

    name: str
    status: str  # playing, done, stopped
    score: int | None
    line: dict[str, Any] | None


def ranked(entries: list[Entry]) -> list[tuple[int | None, Entry]]:
    """Finished attempts best first with their places (equal scores share one), then stopped, then playing."""
    done = sorted((e for e in entries if e.status == "done" and e.score is not None), key=lambda e: -(e.score or 0))
    out: list[tuple[int | None, Entry]] = []
    for i, e in enumerate(done):
        place = i + 1 if i == 0 or done[i - 1].score != e.score else out[-1][0]
        out.append((place, e))
    out += [(None, e) for e in entries if e.status == "stopped"]
    out += [(None, e) for e in entries if e.status == "playing"]
    return out


def board_message(
    chat_id: int, day: str, boards: dict[str, list[Entry]], game_list: tuple[str, ...], lang: str
) -> Message:
    """The group's one daily message: per game its leaderboard with each person's result and the best line of
    play, and a button per game to play today's deal."""
    lines = [
        t(lang, "📅 Today's deal · {day}", day=day),
        t(lang, "Everyone plays the same deal alone, against the computer; one attempt a day."),
    ]
    for game in game_list:
        entries = boards.get(game) or []
        lines.append("")
        rows = ranked(entries)
        best = rows[0][1] if rows and rows[0][0] is not None else None
        head = texts.game_name(game, lang)
        if best is not None and best.line:
            head += " — " + t(lang, "best: {name}, {line}", name=best.name, line=line_text(best.line, lang))
        lines.append(head)
        if not rows:
            lines.append(t(lang, "nobody yet"))
        for place, e in rows[:15]:
            if e.status == "done" and e.score is not None:
                tail = f" · {line_text(e.line, lang)}" if e.line else ""
                lines.append(f"{place}. {e.name} {score_text(e.score)}{tail}")
            elif e.status == "stopped":
                lines.append("⏹ " + t(lang, "{name}: stopped", name=e.name))
            else:
                lines.append("▶ " + t(lang, "{name}: playing…", name=e.name))
        if len(rows) > 15:
            lines.append(tn(lang, "… and {n} more", "… and {n} more", len(rows) - 15))
    buttons = tuple((Button("▶ " + texts.game_name(g, lang), make_payload(chat_id, g)),) for g in game_list)
    return Message(fit("\n".join(lines)), buttons=buttons)


def make_payload(chat_id: int, game: str) -> str:
    return payloads.make("daily", number=chat_id, code=game)


def fit(text: str, limit: int = 4000) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def share_line(game: str, day: str, title: str, score: int, place: int | None, count: int, lang: str) -> str:
    """The person's result in one line he can forward: no card or tile of the deal in it."""
    name = texts.game_name(game, lang)
    where = t(lang, "place {place} of {n} so far", place=place, n=count) if place is not None else ""
    text = t(
        lang, "📅 Today's {game} ({day}) · {chat}: {score}", game=name, day=day, chat=title, score=score_text(score)
    )
    return f"{text}, {where}" if where else text
