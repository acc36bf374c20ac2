"""Commands that tell rather than play: help, rules, language, score sheet, leaderboard, statistics, history, export."""

from __future__ import annotations

import asyncio
import json

from bot import messages, texts
from bot.app.achievements import Achievements
from bot.app.context import Context
from bot.app.lobby import Lobby
from bot.app.people import People
from bot.app.publishing import Publishing
from bot.app.seasons import Seasons
from bot.notice import Notice
from bot.payloads import Payload, number
from bot.port import Button, Command, Document, Message, Press
from bot.storage import FINISHED, LOBBY, ChatRec, NotFound, UserRec
from core.i18n import LANGS, normalize, t, when
from renderers import render_score_sheet

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
        season = await self.seasons.top_lines(chat, wanted, lang)
        lines = []
        for game in [wanted] if wanted else list(texts.GAME_NAMES):
            rows = await self.ctx.storage.leaderboard(chat.id, game, 10)
            if not rows:
                continue
            lines.append(f"{texts.game_name(game, lang)}:")
            for i, r in enumerate(rows, 1):
                rating = f"{r.rating:.1f}" if r.rating is not None else "—"
                line = t(
                    lang,
                    "{i}. {name}: rating {rating}, {wins} wins in {games} games",
                    i=i,
                    name=r.name,
                    rating=rating,
                    wins=r.wins,
                    games=r.games,
                )
                if game == "kozel":
                    line += " · " + t(lang, "{n} rating points", n=r.points)
                lines.append(line)
            lines.append("")
        if not lines:
            raise Notice(t(lang, "No finished games here yet."))
        if season:
            lines = [*season, "", t(lang, "All time:"), *lines]
        await self.publishing.reply(cmd, Message(messages.fit("\n".join(lines).strip())))

    async def cmd_me(self, cmd: Command, user: UserRec, chat: ChatRec | None, lang: str) -> None:
        if chat is None:
            raise Notice(t(lang, "Statistics belong to a group: type /me there."))
        lines = [user.name]
        for game in texts.GAME_NAMES:
            s = await self.ctx.storage.player_stats(chat.id, game, user.id)
            if not s.games:
                continue
            line = t(
                lang,
                "{game}: {games} games, {wins} wins ({share}%), average total {avg}",
                game=texts.game_name(game, lang),
                games=s.games,
                wins=s.wins,
                share=round(100 * s.win_share),
                avg=round(s.average_total or 0),
            )
            if game == "thousand":
                line += "; " + t(lang, "barrels {barrels}, bolts {bolts}", barrels=s.barrels, bolts=s.bolts)
            elif game == "deberts":
                line += "; " + t(lang, "baits {n}", n=s.baits)
            elif game == "kozel":
                line += "; " + t(lang, "kozel {n} times, {points} rating points", n=s.kozel, points=s.rating_points)
            if s.rating is not None:
                line += "; " + t(lang, "rating {rating}", rating=f"{s.rating:.1f}")
            lines.append(line)
        if len(lines) == 1:
            lines.append(t(lang, "No finished games here yet."))
        earned = await self.achievements.of(chat.id, user.id, lang)
        if earned:
            lines.append(earned)
        await self.publishing.reply(cmd, Message("\n".join(lines)))

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
