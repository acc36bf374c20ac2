"""Achievements (``docs/achievements.md``): computed when a game's final sheet is posted from the table's move log
and results (``bot.achievements``), stored once per chat and player (``Storage.award``), and told as one line per
player under that final sheet; the daily deal's ones under the person's private result line. ``award_table`` is the
one computation, shared by live play and ``python -m bot achievements --backfill``."""

from __future__ import annotations

import logging

from bot import achievements, daily
from bot.app.context import Context
from bot.app.people import People
from bot.app.publishing import Publishing
from bot.storage import DAILY_DONE, Storage, TableRec
from bot.storage.integrity import core_options
from core.i18n import t

log = logging.getLogger(__name__)


async def award_table(storage: Storage, rec: TableRec) -> None:
    """Store what each person at this finished game earned with it (those he has already stay as they were)."""
    if daily.of_table(rec.options) is not None:  # a daily attempt counts through the daily deal's own ones
        return
    rows = [r for r in await storage.results(rec.id) if r.user_id is not None]
    if not rows:
        return
    moves = await storage.moves(rec.id)
    events, final = achievements.replay(
        rec.game, rec.players, core_options(rec.game, rec.options), rec.seed, [m.action for m in moves]
    )
    computers = [s.computer for s in sorted(rec.seats, key=lambda s: s.seat)]
    for r in rows:
        assert r.user_id is not None
        counts = achievements.Counts(*await storage.game_counts(rec.chat_id, r.user_id, rec.id))
        played = achievements.Played(rec.game, r.seat, r.place, events, final, computers)
        await storage.award(rec.chat_id, r.user_id, achievements.at_table(played, counts), rec.id, at=rec.updated_at)


async def backfill(storage: Storage) -> int:
    """Compute the achievements of every finished game again, oldest first; returns how many games were read."""
    tables = await storage.finished_tables()
    for table_id in tables:
        await award_table(storage, await storage.table(table_id))
    return len(tables)


class Achievements:
    def __init__(self, ctx: Context, people: People, publishing: Publishing) -> None:
        self.ctx = ctx
        self.people = people

    async def final_lines(self, rec: TableRec, names: list[str], lang: str) -> list[str]:
        """The lines of a finished game's sheet that tell what it gave each player (computed first, once)."""
        try:
            await award_table(self.ctx.storage, rec)
        except Exception:  # the sheet goes out anyway; the backfill can compute them again
            log.exception("the achievements of table %s could not be computed", rec.id)
        got: dict[int, list[str]] = {}
        for user_id, code in await self.ctx.storage.earned_at(rec.id):
            got.setdefault(user_id, []).append(code)
        lines = []
        for s in sorted(rec.seats, key=lambda s: s.seat):
            codes = got.get(s.user_id or 0)
            if codes:
                order = [a.code for a in achievements.ACHIEVEMENTS if a.code in codes]
                badges = ", ".join(achievements.label(c, lang) for c in order)
                lines.append(t(lang, "New for {name}: {badges}", name=names[s.seat], badges=badges))
        return lines

    async def daily_done(self, group_id: int, user_id: int, table_id: int | None) -> list[str]:
        """The daily-deal achievements a finished attempt gives (the new ones)."""
        days = [a.day for a in await self.ctx.storage.attempts(group_id, user_id=user_id, status=DAILY_DONE)]
        return await self.ctx.storage.award(group_id, user_id, achievements.by_daily(days), table_id, self.ctx.clock())

    async def codes(self, chat_id: int, user_id: int) -> list[str]:
        """A player's achievements in the chat, in the order of ``ACHIEVEMENTS``."""
        codes = {c for c, _table in await self.ctx.storage.earned(chat_id, user_id)}
        return [a.code for a in achievements.ACHIEVEMENTS if a.code in codes]

    def line(self, codes: list[str], lang: str) -> str | None:
        """``me``'s line of a player's achievements (None: none yet)."""
        if not codes:
            return None
        return t(
            lang,
            "Achievements ({n} of {total}): {badges}",
            n=len(codes),
            total=len(achievements.ACHIEVEMENTS),
            badges=", ".join(achievements.label(c, lang) for c in codes),
        )
