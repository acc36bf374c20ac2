"""A table before and around play: open, join, leave, computer seats, seat count, conventions, start, stop.

Mixed into ``bot.app.Application``. Lobby changes are compare-and-set on the lobby revision; a join or leave that
loses a race is retried on the fresh lobby, a host's setting press on an old lobby message is refused as stale.
"""

from __future__ import annotations

import secrets
from typing import TYPE_CHECKING, Any

from bot import messages, texts
from bot.messages import SeatInfo
from bot.notice import Notice
from bot.payloads import Payload
from bot.port import Button, Command, Message, MessageRef, Press, PrivateStart, Unreachable
from bot.storage import LOBBY, PLAYING, ChatRec, Conflict, SeatSpec, TableRec, UserRec
from core import games
from core.i18n import t

if TYPE_CHECKING:
    from bot.app import Application

RETRIES = 5


class Lobby:
    # ---- commands ----------------------------------------------------------------------------------------
    async def cmd_new(self: Application, cmd: Command, user: UserRec, chat: ChatRec | None, lang: str) -> None:
        if chat is None or cmd.chat is None:
            raise Notice(t(lang, "Open a table in a group: add me to a group and type /new there."))
        words = cmd.args.split()
        game = texts.parse_game(cmd.args)
        if game is None:
            rows = [tuple(Button(texts.game_name(g, lang), f"N.{g}") for g in ("thousand", "deberts", "kozel"))]
            text = t(lang, "Which game? Choose one, or type /new thousand, /new deberts or /new kozel.")
            await self.reply(cmd, Message(text, buttons=tuple(rows)))
            return
        players = None
        if len(words) > 1 and words[1].isdigit():
            players = int(words[1])
        rec = await self.open_new_table(chat, user, game, players, lang)
        await self.post_lobby(rec, chat, lang, reply_to=cmd)

    async def press_N(self: Application, press: Press, p: Payload, user: UserRec, chat: ChatRec | None, lang: str):
        if chat is None or press.chat is None:
            raise Notice(t(lang, "Open a table in a group: add me to a group and type /new there."), True)
        game = p.code if p.code in texts.GAME_NAMES else None
        if game is None:
            raise Notice(t(lang, "This button is not valid."), True)
        rec = await self.open_new_table(chat, user, game, None, lang)
        await self.post_lobby(rec, chat, lang)
        return None

    async def open_new_table(
        self: Application, chat: ChatRec, user: UserRec, game: str, players: int | None, lang: str
    ) -> TableRec:
        from bot.storage import TableBusy

        rules = games.get(game)
        if players is None:
            players = texts.DEFAULT_SEATS[game]
        if not rules.min_players <= players <= rules.max_players:
            raise Notice(
                t(
                    lang,
                    "{game} is played by {lo} to {hi} players.",
                    game=texts.game_name(game, lang),
                    lo=rules.min_players,
                    hi=rules.max_players,
                )
            )
        existing = await self.storage.open_table(chat.id)
        if existing is not None:
            raise TableBusy("busy")
        options = self.table_options(game, players, chat.defaults.get(game) or {})
        seed = secrets.token_hex(8)
        return await self.storage.create_table(
            chat.id, game, players, options, seed, user.id, seats=[SeatSpec(0, user.id)]
        )

    def table_options(self: Application, game: str, players: int, wanted: dict[str, Any]) -> dict[str, Any]:
        """The chat's remembered conventions that are valid for this seat count, plus the turn timer."""
        out: dict[str, Any] = {}
        for row in texts.option_rows(game, players):
            value = wanted.get(row["name"], row["default"])
            if not any(value == c and type(value) is type(c) for c in row["choices"]):
                value = row["default"]
            if value != row["default"]:
                out[row["name"]] = value
        timer = wanted.get("turn_timer", texts.DEFAULT_TIMER)
        out["turn_timer"] = timer if timer in texts.TIMER_CHOICES else texts.DEFAULT_TIMER
        return out

    async def cmd_join(self: Application, cmd: Command, user: UserRec, chat: ChatRec | None, lang: str) -> None:
        rec = await self.chat_table(chat, lang)
        text = await self.join(rec, user, cmd.user, lang, via=None)
        await self.reply(cmd, Message(text))

    async def cmd_leave(self: Application, cmd: Command, user: UserRec, chat: ChatRec | None, lang: str) -> None:
        rec = await self.chat_table(chat, lang)
        text = await self.leave(rec, user, lang)
        await self.reply(cmd, Message(text))

    async def cmd_stop(self: Application, cmd: Command, user: UserRec, chat: ChatRec | None, lang: str) -> None:
        rec = await self.chat_table(chat, lang)
        text = await self.stop_table(rec, user, lang)
        await self.reply(cmd, Message(text))

    async def cmd_settings(self: Application, cmd: Command, user: UserRec, chat: ChatRec | None, lang: str) -> None:
        if chat is None:
            raise Notice(t(lang, "Table settings live in the group: type /settings there."))
        rec = await self.storage.open_table(chat.id)
        if rec is not None and rec.status == LOBBY:
            await self.refresh_lobby(rec, lang, page="set")
            text = texts.rules_text(rec.game, rec.players, self.core_options(rec), self.timer_of(rec), lang)
            await self.reply(
                cmd, Message(text + "\n\n" + t(lang, "The host changes them with the buttons on the table."))
            )
            return
        if rec is not None:
            text = texts.rules_text(rec.game, rec.players, self.core_options(rec), self.timer_of(rec), lang)
            await self.reply(
                cmd, Message(text + "\n\n" + t(lang, "The game is on: conventions are fixed until it ends."))
            )
            return
        game = texts.parse_game(cmd.args) or "thousand"
        defaults = self.table_options(game, texts.DEFAULT_SEATS[game], chat.defaults.get(game) or {})
        text = texts.rules_text(game, texts.DEFAULT_SEATS[game], defaults, defaults["turn_timer"], lang)
        await self.reply(
            cmd,
            Message(
                text + "\n\n" + t(lang, "These are this chat's defaults; the host of a new table can change them.")
            ),
        )

    # ---- presses -----------------------------------------------------------------------------------------
    async def press_j(self: Application, press: Press, p: Payload, user: UserRec, chat: ChatRec | None, lang: str):
        rec = await self.storage.table(p.table or 0)
        return await self.join(rec, user, press.user, lang, via=press)

    async def press_l(self: Application, press: Press, p: Payload, user: UserRec, chat: ChatRec | None, lang: str):
        rec = await self.storage.table(p.table or 0)
        return await self.leave(rec, user, lang)

    async def press_c(self: Application, press: Press, p: Payload, user: UserRec, chat: ChatRec | None, lang: str):
        rec = await self.host_lobby(p, user, lang)
        if p.code not in texts.TABLE_LEVELS:
            raise Notice(t(lang, "This button is not valid."), True)
        taken = {s.seat for s in rec.seats}
        free = [s for s in range(rec.players) if s not in taken]
        if not free:
            raise Notice(t(lang, "The table is full."))
        seats = [SeatSpec(s.seat, s.user_id, s.computer) for s in rec.seats] + [SeatSpec(free[0], None, p.code)]
        rec = await self.storage.update_lobby(rec.id, rec.lobby_rev, seats=seats)
        await self.refresh_lobby(rec, lang)
        return None

    async def press_r(self: Application, press: Press, p: Payload, user: UserRec, chat: ChatRec | None, lang: str):
        rec = await self.host_lobby(p, user, lang)
        seats = [SeatSpec(s.seat, s.user_id, s.computer) for s in rec.seats if not (s.seat == p.number and s.computer)]
        if len(seats) == len(rec.seats):
            raise Notice(t(lang, "There is no computer at that seat."))
        rec = await self.storage.update_lobby(rec.id, rec.lobby_rev, seats=seats)
        await self.refresh_lobby(rec, lang)
        return None

    async def press_n(self: Application, press: Press, p: Payload, user: UserRec, chat: ChatRec | None, lang: str):
        rec = await self.host_lobby(p, user, lang)
        rules = games.get(rec.game)
        n = p.number or 0
        if not rules.min_players <= n <= rules.max_players:
            raise Notice(t(lang, "This button is not valid."), True)
        if any(s.seat >= n for s in rec.seats):
            # move people down into the free seats of the smaller table where they fit
            people = sorted(rec.seats, key=lambda s: s.seat)
            if len(people) > n:
                raise Notice(t(lang, "Too many people are seated for {n} seats.", n=n))
            seats = [SeatSpec(i, s.user_id, s.computer) for i, s in enumerate(people)]
        else:
            seats = None
        options = self.table_options(rec.game, n, rec.options)
        rec = await self.storage.update_lobby(rec.id, rec.lobby_rev, players=n, options=options, seats=seats)
        await self.refresh_lobby(rec, lang)
        return None

    async def press_o(self: Application, press: Press, p: Payload, user: UserRec, chat: ChatRec | None, lang: str):
        rec = await self.host_lobby(p, user, lang)
        rows = texts.option_rows(rec.game, rec.players)
        options = dict(rec.options)
        index = p.number or 0
        if index < len(rows):
            row = rows[index]
            choices = list(row["choices"])
            current = options.get(row["name"], row["default"])
            nxt = choices[(choices.index(current) + 1) % len(choices)] if current in choices else row["default"]
            options[row["name"]] = nxt
            if nxt == row["default"]:
                options.pop(row["name"])
            shown = texts.option_line(row["name"], nxt, lang)
        elif index == len(rows):
            choices = list(texts.TIMER_CHOICES)
            current = self.timer_of(rec)
            nxt = choices[(choices.index(current) + 1) % len(choices)] if current in choices else texts.DEFAULT_TIMER
            options["turn_timer"] = nxt
            shown = t(lang, "Turn timer") + ": " + texts.timer_text(nxt, lang)
        else:
            raise Notice(t(lang, "This button is not valid."), True)
        rec = await self.storage.update_lobby(rec.id, rec.lobby_rev, options=options)
        await self.storage.set_chat_defaults(rec.chat_id, rec.game, options)
        self._chats.pop(rec.chat_id, None)
        await self.refresh_lobby(rec, lang, page="set")
        return shown

    async def press_m(self: Application, press: Press, p: Payload, user: UserRec, chat: ChatRec | None, lang: str):
        rec = await self.host_lobby(p, user, lang)
        await self.refresh_lobby(rec, lang, page="set" if p.code == "set" else "main")
        return None

    async def press_s(self: Application, press: Press, p: Payload, user: UserRec, chat: ChatRec | None, lang: str):
        rec = await self.storage.table(p.table or 0)
        if rec.status != LOBBY:
            raise Notice(t(lang, "The game has already started."))
        if rec.host_user_id != user.id:
            raise Notice(t(lang, "Only the host can do that."), True)
        if len(rec.seats) < rec.players:
            raise Notice(t(lang, "Not all seats are taken yet: join, or add computer players."), True)
        waiting = [s for s in rec.seats if s.user_id in self._pending.get(rec.id, set())]
        if waiting:
            names = ", ".join(s.user.name for s in waiting if s.user)
            raise Notice(t(lang, "Waiting for {names} to open a private chat with me.", names=names), True)
        await self.start_game(rec, lang)
        return None

    # ---- the work ----------------------------------------------------------------------------------------
    async def chat_table(self: Application, chat: ChatRec | None, lang: str) -> TableRec:
        if chat is None:
            raise Notice(t(lang, "This works in a group with an open table."))
        rec = await self.storage.open_table(chat.id)
        if rec is None:
            raise Notice(t(lang, "No table is open here. Start one with /new."))
        return rec

    async def host_lobby(self: Application, p: Payload, user: UserRec, lang: str) -> TableRec:
        rec = await self.storage.table(p.table or 0)
        if rec.status != LOBBY:
            raise Notice(t(lang, "The game has already started."))
        if rec.host_user_id != user.id:
            raise Notice(t(lang, "Only the host can do that."), True)
        if p.rev is not None and p.rev != rec.lobby_rev:
            raise Notice(t(lang, "This button is out of date: the table has changed."), True)
        return rec

    def timer_of(self: Application, rec: TableRec) -> int:
        value = rec.options.get("turn_timer", texts.DEFAULT_TIMER)
        return value if value in texts.TIMER_CHOICES else texts.DEFAULT_TIMER

    def seat_infos(self: Application, rec: TableRec, lang: str) -> list[SeatInfo | None]:
        out: list[SeatInfo | None] = [None] * rec.players
        for s in rec.seats:
            if s.seat >= rec.players:
                continue
            if s.computer:
                out[s.seat] = SeatInfo(s.seat, messages.computer_name(s.seat, lang), s.computer, False, False)
            else:
                name = s.user.name if s.user else "?"
                out[s.seat] = SeatInfo(s.seat, name, None, s.taken_over, True)
        return out

    def lobby_msg(self: Application, rec: TableRec, lang: str, page: str = "main") -> Message:
        rules = games.get(rec.game)
        host = next((s.user.name for s in rec.seats if s.user_id == rec.host_user_id and s.user), "—")
        return messages.lobby_message(
            table_id=rec.id,
            rev=rec.lobby_rev,
            game=rec.game,
            players=rec.players,
            seats=self.seat_infos(rec, lang),
            host_name=host,
            options=self.core_options(rec),
            timer=self.timer_of(rec),
            lang=lang,
            page=page,
            min_players=rules.min_players,
            max_players=rules.max_players,
        )

    async def post_lobby(self: Application, rec: TableRec, chat: ChatRec, lang: str, reply_to: Command | None = None):
        port = self.port_for(chat.platform)
        ref = await port.send_public(self.chat_value(chat), self.lobby_msg(rec, lang), reply_to=reply_to)
        await self.storage.set_message_ref(rec.id, ref.to_json())

    async def refresh_lobby(self: Application, rec: TableRec, lang: str | None = None, page: str = "main") -> None:
        chat = await self.chat_by_id(rec.chat_id)
        lang = lang or self.lang_for(chat, None)  # type: ignore[arg-type]
        msg = self.lobby_msg(rec, lang, page)
        await self.show_public(rec, chat, msg)

    async def show_public(self: Application, rec: TableRec, chat: ChatRec, msg: Message) -> None:
        """Edit the table's public message, or post it when there is none; remember where it now is."""
        port = self.port_for(chat.platform)
        ref = MessageRef.from_json(rec.message_ref)
        if ref is None:
            new = await port.send_public(self.chat_value(chat), msg)
        else:
            new = await port.edit_public(ref, msg)
        if ref is None or new != ref:
            await self.storage.set_message_ref(rec.id, new.to_json())

    async def join(self: Application, rec: TableRec, user: UserRec, platform_user: Any, lang: str, via: Any) -> str:
        for _ in range(RETRIES):
            if self.seat_of(rec, user.id) is not None:  # seated, in the lobby or in the game: say so
                raise Notice(t(lang, "You already have a seat at this table."))
            if rec.status != LOBBY:
                raise Notice(t(lang, "The game has already started."))
            taken = {s.seat for s in rec.seats}
            free = [s for s in range(rec.players) if s not in taken]
            if not free:
                raise Notice(t(lang, "The table is full."))
            seats = [SeatSpec(s.seat, s.user_id, s.computer) for s in rec.seats] + [SeatSpec(free[0], user.id)]
            try:
                rec = await self.storage.update_lobby(rec.id, rec.lobby_rev, seats=seats)
                break
            except Conflict:
                rec = await self.storage.table(rec.id)
        else:
            raise Conflict("busy lobby")
        await self.refresh_lobby(rec, lang)
        await self.greet_player(rec, user, lang)
        return t(lang, "You have joined the table.")

    async def greet_player(self: Application, rec: TableRec, user: UserRec, chat_lang: str) -> None:
        """Make sure the player can be reached privately; if not, invite him in the group."""
        chat = await self.chat_by_id(rec.chat_id)
        plang = self.user_lang(user)
        where = self.where(rec, chat, plang)
        text = t(plang, "{where}: you have a seat. Your cards and choices will come here.", where=where)
        try:
            await self.send_private(self.user_value(user), Message(text))
        except Unreachable:
            self._pending.setdefault(rec.id, set()).add(user.id)
            await self.invite(rec, chat, user, chat_lang)

    async def invite(self: Application, rec: TableRec, chat: ChatRec, user: UserRec, lang: str) -> None:
        key = (rec.id, user.id)
        if key in self._invited:
            return
        self._invited.add(key)
        text = t(
            lang,
            "{name}, I cannot write to you privately yet: press the button below to get your cards.",
            name=user.name,
        )
        port = self.port_for(chat.platform)
        await port.invite_private(self.chat_value(chat), self.user_value(user), Message(text), f"t{rec.id}")

    async def welcome_seated(self: Application, rec: TableRec, user: UserRec, start: PrivateStart) -> None:
        chat = await self.chat_by_id(rec.chat_id)
        plang = self.user_lang(user, start.user)
        if rec.status == PLAYING:
            await self.send_hand(rec, self.seat_of(rec, user.id) or 0, via=start)
            return
        text = t(
            plang,
            "{where}: you have a seat. Your cards and choices will come here.",
            where=self.where(rec, chat, plang),
        )
        await self.send_private(start.user, Message(text), via=start)

    async def leave(self: Application, rec: TableRec, user: UserRec, lang: str) -> str:
        seat = self.seat_of(rec, user.id)
        if seat is None:
            raise Notice(t(lang, "You are not at this table."))
        if rec.status == PLAYING:
            if any(s.seat == seat and s.taken_over for s in rec.seats):
                raise Notice(t(lang, "The computer already plays for you."))
            await self.storage.update_seat(rec.id, seat, taken_over=True)
            rec = await self.storage.table(rec.id)
            chat = await self.chat_by_id(rec.chat_id)
            await self.announce(
                rec, chat, t(lang, "{name} has left the table: the computer plays for them.", name=user.name)
            )
            await self.refresh_table(rec)
            self.kick(rec.id)
            return t(
                lang, "You have left the table; the computer plays your seat. Press “Take my seat back” to return."
            )
        for _ in range(RETRIES):
            seats = [SeatSpec(s.seat, s.user_id, s.computer) for s in rec.seats if s.user_id != user.id]
            humans = [s for s in seats if s.user_id is not None]
            host = rec.host_user_id
            if host == user.id:
                host = humans[0].user_id if humans else None
            if not humans:
                rec = await self.storage.abandon_table(rec.id)
                chat = await self.chat_by_id(rec.chat_id)
                await self.show_public(rec, chat, Message(t(lang, "The table was closed: everybody left.")))
                return t(lang, "You have left; the table is closed.")
            try:
                rec = await self.storage.update_lobby(rec.id, rec.lobby_rev, seats=seats, host_user_id=host)
                break
            except Conflict:
                rec = await self.storage.table(rec.id)
                if self.seat_of(rec, user.id) is None:
                    break
        self._pending.get(rec.id, set()).discard(user.id)
        await self.refresh_lobby(rec, lang)
        return t(lang, "You have left the table.")

    async def stop_table(self: Application, rec: TableRec, user: UserRec, lang: str) -> str:
        if rec.host_user_id != user.id:
            if not any(s.user_id == user.id and not s.taken_over for s in rec.seats):
                raise Notice(t(lang, "Only the host or the players can stop the game."))
            votes = await self.storage.vote_stop(rec.id, user.id)
            if not votes.majority:
                return t(
                    lang,
                    "{name} wants to stop the game: {votes} of {players} players agree (more than half needed).",
                    name=user.name,
                    votes=len(votes.voters),
                    players=votes.players,
                )
        was_playing = rec.status == PLAYING
        rec = await self.storage.abandon_table(rec.id)
        chat = await self.chat_by_id(rec.chat_id)
        if was_playing:
            await self.refresh_table(rec)
        else:
            await self.show_public(rec, chat, Message(t(lang, "The table was closed. Start a new one with /new.")))
        self.forget(rec.id)
        return t(lang, "The table is closed; nobody is rated for a stopped game.")

    def where(self: Application, rec: TableRec, chat: ChatRec, lang: str) -> str:
        title = chat.title or t(lang, "your group")
        return f"{texts.game_name(rec.game, lang)} #{rec.id} · {title}"
