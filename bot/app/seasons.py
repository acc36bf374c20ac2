"""Seasons (``docs/seasons.md``): each chat's leaderboard also runs by season — a calendar month by default, a
quarter, or none (``season``, chosen by the host of the chat's open table). ``top`` shows this season above the
all-time lines; when a season is over, the chat gets one summary (the champion of each game, the most games, the
best at the daily deal), posted once across workers from the timer loop. The season's figures are read from the
games' results (the rating each game gained or lost); the all-time ratings are never touched."""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from bot import seasons, texts
from bot.app.context import Context
from bot.app.people import People
from bot.app.publishing import Publishing
from bot.daily import Entry, ranked
from bot.notice import Notice
from bot.port import Command, Message
from bot.solo import base_platform
from bot.storage import DAILY_DONE, ChatRec, UserRec
from core import games
from core.i18n import t

log = logging.getLogger(__name__)
LOOK_BACK = timedelta(days=200)  # chats with a game that ended this recently may have a season to sum up


class Seasons:
    def __init__(self, ctx: Context, people: People, publishing: Publishing) -> None:
        self.ctx = ctx
        self.people = people
        self.publishing = publishing
        self.looked: str | None = None  # the minute of the last look for finished seasons (one a minute)

    async def kind(self, chat_id: int) -> str:
        return await self.ctx.storage.season_kind(chat_id) or seasons.DEFAULT

    def name(self, kind: str, season: seasons.Season, lang: str) -> str:
        if kind == "quarter":
            return t(lang, "season {key} (this quarter)", key=season.key)
        return t(lang, "season {key} (this month)", key=season.key)

    async def cmd_season(self, cmd: Command, user: UserRec, chat: ChatRec | None, lang: str) -> None:
        """``season`` tells the chat's season; ``season month|quarter|none`` (the open table's host) sets it."""
        if chat is None or base_platform(chat.platform) is not None:
            raise Notice(t(lang, "Seasons belong to a group: type /season there."))
        wanted = cmd.args.strip().lower()
        if wanted and wanted not in seasons.KINDS:
            raise Notice(t(lang, "Type /season month, /season quarter or /season none."))
        if wanted:
            rec = await self.ctx.storage.open_table(chat.id)
            if rec is None or rec.host_user_id != user.id:
                raise Notice(t(lang, "Only the host of the table open here can choose the season: open one with /new."))
            await self.ctx.storage.set_season_kind(chat.id, wanted)
        kind = wanted or await self.kind(chat.id)
        current = seasons.season_of(kind, self.ctx.clock())
        if current is None:
            text = t(lang, "This chat plays without seasons: /top shows all time.")
        else:
            text = t(lang, "This chat's leaderboard goes by {season}.", season=self.name(kind, current, lang))
        await self.publishing.reply(cmd, Message(text))

    async def top_sections(self, chat: ChatRec, wanted: str | None, lang: str) -> tuple[str | None, list[dict]]:
        """This season's name and its leaderboard per game (``top``; no name when the chat runs no seasons): each
        section a title and rows of place, name, rating gained, wins of games."""
        kind = await self.kind(chat.id)
        current = seasons.season_of(kind, self.ctx.clock())
        if current is None:
            return None, []
        name = self.name(kind, current, lang)
        sections = []
        for game in [wanted] if wanted else list(texts.GAME_NAMES):
            rows = await self.ctx.storage.season_board(chat.id, game, current.start, current.end, 10)
            if rows:
                sections.append(
                    {
                        "game": game,
                        "title": f"{name} · {texts.game_name(game, lang)}",
                        "rows": [
                            [str(i), r["name"], f"{r['gained']:+.1f}", f"{r['wins']}/{r['games']}"]
                            for i, r in enumerate(rows, 1)
                        ],
                    }
                )
        return name, sections

    def top_lines(self, name: str | None, sections: list[dict], lang: str) -> list[str]:
        """``top``'s text lines of this season (none when the chat runs no seasons)."""
        if name is None:
            return []
        lines = ["🏁 " + name + ":"]
        for sec in sections:
            lines.append(f"{texts.game_name(sec['game'], lang)}:")
            for place, who, gained, record in sec["rows"]:
                wins, games_ = record.split("/")
                lines.append(
                    t(
                        lang,
                        "{i}. {name}: {gained} rating, {record}",
                        i=place,
                        name=who,
                        gained=gained,
                        record=texts.record_words(lang, int(games_), int(wins)),
                    )
                )
        if not sections:
            lines.append(t(lang, "No finished games this season yet."))
        return lines

    async def tick(self) -> int:
        """Post the summary of every chat's season that has just ended (once a minute of the application's clock;
        each summary once, across workers, by a worker that can publish to the chat). Returns how many were
        posted."""
        now = self.ctx.clock()
        minute = now.strftime("%Y-%m-%d %H:%M")
        if minute == self.looked:
            return 0
        self.looked = minute
        posted = 0
        for chat_id in await self.ctx.storage.active_chats(now - LOOK_BACK, self.ctx.reach()):
            try:
                posted += await self.sum_up(chat_id, now)
            except Exception:
                log.exception("the season summary of chat %s failed", chat_id)
        return posted

    async def sum_up(self, chat_id: int, now: datetime) -> int:
        kind = await self.kind(chat_id)
        last = seasons.previous(kind, now)
        if last is None:
            return 0
        everyone = await self.ctx.storage.season_board(chat_id, None, last.start, last.end, 1000)
        if not everyone or not await self.ctx.storage.claim_season_post(chat_id, last.key):
            return 0
        chat = await self.people.chat_by_id(chat_id)
        lang = self.people.chat_lang(chat)
        lines = [t(lang, "🏁 Season {key} is over. The champions:", key=last.key)]
        for game in games.NAMES:
            rows = await self.ctx.storage.season_board(chat_id, game, last.start, last.end, 1)
            if rows:
                r = rows[0]
                lines.append(
                    t(
                        lang,
                        "{game}: {name} ({gained} rating, {record})",
                        game=texts.game_name(game, lang),
                        name=r["name"],
                        gained=f"{r['gained']:+.1f}",
                        record=texts.record_words(lang, r["games"], r["wins"]),
                    )
                )
        most = max(everyone, key=lambda r: (r["games"], r["wins"]))
        lines.append(t(lang, "Most games: {name} ({n}).", name=most["name"], n=most["games"]))
        best = await self.best_daily(chat_id, last)
        if best is not None:
            lines.append(t(lang, "Best at the daily deal: {name} ({n} days first).", name=best[0], n=best[1]))
        lines.append(t(lang, "A new season begins: /top shows it, all time below."))
        self.publishing.later(chat, Message("\n".join(lines)))
        return 1

    async def best_daily(self, chat_id: int, season: seasons.Season) -> tuple[str, int] | None:
        """Who came first at the most daily deals (per day and game) of the season."""
        first, last = season.start.date().isoformat(), (season.end - timedelta(days=1)).date().isoformat()
        boards: dict[tuple[str, str], list[Entry]] = {}
        for a in await self.ctx.storage.attempts(chat_id, status=DAILY_DONE):
            if first <= a.day <= last:
                boards.setdefault((a.day, a.game), []).append(Entry(a.name, a.status, a.score, a.line))
        wins: dict[str, int] = {}
        for entries in boards.values():
            for place, e in ranked(entries):
                if place == 1:
                    wins[e.name] = wins.get(e.name, 0) + 1
        if not wins:
            return None
        name = max(sorted(wins), key=lambda n: wins[n])
        return name, wins[name]
