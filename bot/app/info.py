"""Commands that tell rather than play: help, rules, language, score sheet, leaderboard, statistics, history, export."""

from __future__ import annotations

import asyncio
import json

from bot import achievements, texts
from bot.app.achievements import Achievements
from bot.app.context import Context
from bot.app.lobby import Lobby
from bot.app.people import People
from bot.app.publishing import Publishing
from bot.app.seasons import Seasons
from bot.notice import Notice
from bot.payloads import Payload, number
from bot.port import MAX_CAPTION, Button, Command, Document, Message, Press
from bot.storage import FINISHED, LOBBY, ChatRec, NotFound, UserRec
from core.i18n import LANGS, normalize, t, tn, when
from renderers import render_score_sheet
from renderers.stats import render_stats, render_top

LANG_NAMES = {"en": "English", "ru": "Русский", "uk": "Українська"}


class Info:
    def __init__(
        self,
        ctx: Context,
        people: People,
        publishing: Publishing,
        lobby: Lobby,
        achievements: Achievements,
        seasons: Seasons,
    ) -> None:
        self.ctx = ctx
        self.seasons = seasons
        self.achievements = achievements
        self.people = people
        self.publishing = publishing
        self.lobby = lobby

    async def cmd_help(self, cmd: Command, user: UserRec, chat: ChatRec | None, lang: str) -> None:
        await self.publishing.reply(cmd, Message(texts.help_text(lang)))

    def private_help(self, lang: str) -> str:
        return texts.help_text(lang)

    async def cmd_rules(self, cmd: Command, user: UserRec, chat: ChatRec | None, lang: str) -> None:
        """The rules of this chat's table; typed privately, of the newest table the user sits at; else (or for
        the game named) that game with the chat's defaults."""
        game = texts.parse_game(cmd.args)
        if chat is not None:
            rec = await self.ctx.storage.open_table(chat.id)
        else:
            mine = await self.ctx.storage.tables_for_user(user.id)
            rec = max(mine, key=lambda r: r.id) if mine else None
        if rec is not None and (game is None or game == rec.game):
            text = self.ctx.rules_of(rec, lang)
        else:
            text = self.lobby.default_rules(game or "thousand", chat, lang)
            if game is None:
                text += "\n\n" + t(lang, "The other games: /rules deberts, /rules kozel.")
        await self.publishing.reply(cmd, Message(text))

    async def cmd_lang(self, cmd: Command, user: UserRec, chat: ChatRec | None, lang: str) -> None:
        wanted = cmd.args.strip().lower()
        if not wanted:
            rows = (tuple(Button(LANG_NAMES[code], f"L.{code}") for code in LANGS),)
            await self.publishing.reply(cmd, Message(t(lang, "Choose the language:"), buttons=rows))
            return
        code = normalize(wanted) if wanted.split("-")[0].split("_")[0] in LANGS else None
        if code is None:
            raise Notice(t(lang, "I speak English (en), Russian (ru) and Ukrainian (uk)."))
        await self.publishing.reply(cmd, Message(await self.set_language(chat, user, code)))

    async def press_language(self, press: Press, p: Payload, user: UserRec, chat: ChatRec | None, lang: str):
        if p.code not in LANGS:
            raise Notice(t(lang, "This button is not valid."), True)
        return await self.set_language(chat, user, p.code)

    async def set_language(self, chat: ChatRec | None, user: UserRec, code: str) -> str:
        if chat is not None:
            await self.ctx.storage.set_chat_language(chat.id, code)
            self.ctx.chats.pop(chat.id, None)
            # plain str: said in the new language on purpose, never said again in the presser's (``again``)
            return str(t(code, "The chat's language is now English."))
        await self.ctx.storage.set_user_language(user.id, code)
        self.ctx.users.pop((user.platform, user.platform_id), None)
        return str(t(code, "I will speak English with you."))

    async def cmd_score(self, cmd: Command, user: UserRec, chat: ChatRec | None, lang: str) -> None:
        rec = await self.lobby.chat_table(chat, lang)
        if rec.status == LOBBY:
            raise Notice(t(lang, "The game has not started yet."))
        live = await self.ctx.live(rec)
        view = live.state.view(None)
        names = self.publishing.names(rec, lang)
        picture = await asyncio.get_running_loop().run_in_executor(
            self.ctx.pool, lambda: render_score_sheet(view, names=names, lang=lang)
        )
        totals = ", ".join(f"{names[s]} {v}" for s, v in enumerate(live.state.totals))
        text = f"{texts.game_name(rec.game, lang)} #{rec.id}\n{totals}"
        await self.publishing.reply(cmd, Message(text, image=picture.data, image_name="sheet.jpg"))

    async def cmd_top(self, cmd: Command, user: UserRec, chat: ChatRec | None, lang: str) -> None:
        if chat is None:
            raise Notice(t(lang, "The leaderboard belongs to a group: type /top there."))
        wanted = texts.parse_game(cmd.args)
        season_name, season_sections = await self.seasons.top_sections(chat, wanted, lang)
        lines = []
        sections = list(season_sections)
        for game in [wanted] if wanted else list(texts.GAME_NAMES):
            rows = await self.ctx.storage.leaderboard(chat.id, game, 10)
            if not rows:
                continue
            lines.append(f"{texts.game_name(game, lang)}:")
            table = []
            for i, r in enumerate(rows, 1):
                rating = f"{r.rating:.1f}" if r.rating is not None else "—"
                line = t(
                    lang,
                    "{i}. {name}: rating {rating}, {record}",
                    i=i,
                    name=r.name,
                    rating=rating,
                    record=texts.record_words(lang, r.games, r.wins),
                )
                if game == "kozel":
                    line += " · " + texts.rating_points(lang, r.points)
                lines.append(line)
                table.append([str(i), r.name, rating, f"{r.wins}/{r.games}"])
            lines.append("")
            sections.append({"title": t(lang, "All time") + " · " + texts.game_name(game, lang), "rows": table})
        if not lines:
            raise Notice(t(lang, "No finished games here yet."))
        if season_name is not None:
            lines = [*self.seasons.top_lines(season_name, season_sections, lang), "", t(lang, "All time:"), *lines]
        head = ["#", t(lang, "Name"), t(lang, "Rating"), t(lang, "Wins")]
        data = {"title": chat.title or t(lang, "your group"), "sections": [dict(sec, head=head) for sec in sections]}
        picture = await asyncio.get_running_loop().run_in_executor(self.ctx.pool, render_top, data)
        text = head_fit("\n".join(lines).strip())
        await self.publishing.reply(cmd, Message(text, image=picture.data, image_name="top.jpg"))

    async def cmd_me(self, cmd: Command, user: UserRec, chat: ChatRec | None, lang: str) -> None:
        """The asker's statistics in the chat as one picture (his rating over his games in each game, games and
        wins, his achievements as badges), the same in words under it."""
        if chat is None:
            raise Notice(t(lang, "Statistics belong to a group: type /me there."))
        lines = [user.name]
        history = await self.ctx.storage.rating_history(chat.id, user.id)
        panels = []
        total_games = total_wins = 0
        for game in texts.GAME_NAMES:
            s = await self.ctx.storage.player_stats(chat.id, game, user.id)
            if not s.games:
                continue
            total_games, total_wins = total_games + s.games, total_wins + s.wins
            line = t(
                lang,
                "{game}: {record}, average total {avg}",
                game=texts.game_name(game, lang),
                record=texts.record_words(lang, s.games, s.wins),
                avg=round(s.average_total or 0),
            )
            if game == "thousand":
                line += "; " + t(lang, "barrels {barrels}, bolts {bolts}", barrels=s.barrels, bolts=s.bolts)
            elif game == "deberts":
                line += "; " + t(lang, "baits {n}", n=s.baits)
            elif game == "kozel":
                line += "; " + t(
                    lang,
                    "the kozel {times}, {points}",
                    times=tn(lang, "{n} time", "{n} times", s.kozel),
                    points=texts.rating_points(lang, s.rating_points),
                )
            if s.rating is not None:
                line += "; " + t(lang, "rating {rating}", rating=f"{s.rating:.1f}")
            lines.append(line)
            panel = texts.record_words(lang, s.games, s.wins)
            if s.rating is not None:
                panel += " · " + t(lang, "rating {rating}", rating=f"{s.rating:.1f}")
            panels.append({"title": texts.game_name(game, lang), "line": panel, "ratings": history.get(game, [])})
        if len(lines) == 1:
            lines.append(t(lang, "No finished games here yet."))
        codes = await self.achievements.codes(chat.id, user.id)
        earned = self.achievements.line(codes, lang)
        if earned:
            lines.append(earned)
        data = {
            "title": user.name,
            "subtitle": (chat.title or t(lang, "your group"))
            + " · "
            + texts.record_words(lang, total_games, total_wins),
            "games": panels,
            "empty": t(lang, "No finished games here yet."),
            "badges_title": t(
                lang, "Achievements ({n} of {total})", n=len(codes), total=len(achievements.ACHIEVEMENTS)
            ),
            "badges": [t(lang, achievements.BY_CODE[c].title) for c in codes],
        }
        picture = await asyncio.get_running_loop().run_in_executor(self.ctx.pool, render_stats, data)
        text = head_fit("\n".join(lines))
        await self.publishing.reply(cmd, Message(text, image=picture.data, image_name="stats.jpg"))

    async def cmd_history(self, cmd: Command, user: UserRec, chat: ChatRec | None, lang: str) -> None:
        if chat is None:
            raise Notice(t(lang, "History belongs to a group: type /history there."))
        games_ = await self.ctx.storage.recent_games(chat.id, 10)
        if not games_:
            raise Notice(t(lang, "No finished games here yet."))
        lines = []
        for g in games_:
            people = ", ".join(self.history_name(p, lang) for p in g.players)
            status = "" if g.status == FINISHED else " · " + t(lang, "stopped")
            lines.append(f"#{g.table_id} {texts.game_name(g.game, lang)} · {when(lang, g.ended_at)}{status}: {people}")
        await self.publishing.reply(cmd, Message("\n".join(lines)))

    @staticmethod
    def history_name(p: object, lang: str) -> str:
        name = t(lang, "Computer {n}", n=p.seat + 1) if p.computer else p.name  # type: ignore[attr-defined]
        total = p.total  # type: ignore[attr-defined]
        return name if total is None else f"{name} {total}"

    async def cmd_export(self, cmd: Command, user: UserRec, chat: ChatRec | None, lang: str) -> None:
        if chat is None:
            raise Notice(t(lang, "Export a game in its group: type /export there."))
        rec = await self.ctx.storage.open_table(chat.id)
        arg = cmd.args.strip().lstrip("#")
        if arg.isdigit():
            table_id = number(arg)
            if table_id is None:  # no game can have this number
                raise Notice(t(lang, "No such game in this chat."))
            try:
                rec = await self.ctx.storage.table(table_id)
            except NotFound:  # no game has this number anywhere
                raise Notice(t(lang, "No such game in this chat.")) from None
            if rec.chat_id != chat.id:
                raise Notice(t(lang, "No such game in this chat."))
        elif rec is None or rec.status == LOBBY:
            recent = await self.ctx.storage.recent_games(chat.id, 1)
            if not recent:
                raise Notice(t(lang, "No game to export yet."))
            rec = await self.ctx.storage.table(recent[0].table_id)
        if rec.status == LOBBY:
            raise Notice(t(lang, "The game has not started yet."))
        record = await self.ctx.storage.record(rec.id)
        note = ""
        if rec.status != FINISHED and record.get("rounds"):
            live = await self.ctx.live(rec)
            if live.state.phase not in ("round_over", "game_over"):
                record = dict(record, rounds=record["rounds"][:-1])  # the round in play would show hidden cards
                note = "\n" + t(lang, "The round in play is left out until it ends, so nobody sees hidden cards.")
        data = json.dumps(record, ensure_ascii=False, indent=1).encode()
        name = f"{rec.game}-{rec.id}.json"
        text = t(
            lang,
            "The record of {game} #{id}: replay it with python -m core.replay.",
            game=texts.game_name(rec.game, lang),
            id=rec.id,
        )
        await self.publishing.reply(cmd, Message(text + note, document=Document(name, data)))


def head_fit(text: str, limit: int = MAX_CAPTION) -> str:
    """A caption of at most ``limit`` characters: the first lines, and "…" when some did not fit (the picture
    above holds them all)."""
    if len(text) <= limit:
        return text
    out: list[str] = []
    for line in text.split("\n"):
        if len("\n".join([*out, line])) > limit - 2:
            break
        out.append(line)
    return "\n".join([*out, "…"])
