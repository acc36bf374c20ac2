"""A table before and around play: open, join, leave, computer seats, seat count, conventions, start, stop.

Lobby changes are compare-and-set on the lobby revision; a join or leave that loses a race is retried on the fresh
lobby, a host's setting press on an old lobby message is refused as stale.
"""

from __future__ import annotations

import contextlib
import secrets
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from bot import messages, payloads, texts
from bot.app.context import Context
from bot.app.people import People
from bot.app.publishing import HELD, LOBBY_DONE, REMATCH_OF, Publishing
from bot.app.turns import Turns
from bot.notice import Notice
from bot.payloads import Payload
from bot.port import Button, Command, Message, MessageGone, Press, PrivateStart, Unreachable
from bot.storage import LOBBY, PLAYING, ChatRec, Conflict, SeatSpec, TableBusy, TableRec, UserRec
from core import games
from core.i18n import t

RETRIES = 5
VOTE_TTL = 120  # seconds a vote to stop counts (and its buttons work)


class Lobby:
    def __init__(self, ctx: Context, people: People, publishing: Publishing, turns: Turns) -> None:
        self.ctx = ctx
        self.people = people
        self.publishing = publishing
        self.turns = turns
        self.on_open: Callable[[TableRec], None] | None = None  # a new table's lobby is up (``bot.app.notify``)

    async def cmd_new(self, cmd: Command, user: UserRec, chat: ChatRec | None, lang: str) -> None:
        if chat is None or cmd.chat is None:
            raise Notice(t(lang, "Open a table in a group: add me to a group and type /new there."))
        words = cmd.args.split()
        game = texts.parse_game(cmd.args)
        if game is None:
            rows = [tuple(Button(texts.game_name(g, lang), f"N.{g}") for g in games.NAMES)]
            text = t(lang, "Which game? Choose one, or type /new thousand, /new deberts or /new kozel.")
            await self.publishing.reply(cmd, Message(text, buttons=tuple(rows)))
            return
        players = None
        if len(words) > 1 and words[1].isascii() and words[1].isdigit():  # not int('²')
            players = int(words[1])
        rec = await self.open_new_table(chat, user, game, players, lang)
        await self.publishing.post_lobby(rec, chat, lang, reply_to=cmd)
        self.opened(rec)

    async def press_open_game(self, press: Press, p: Payload, user: UserRec, chat: ChatRec | None, lang: str):
        if chat is None or press.chat is None:
            raise Notice(t(lang, "Open a table in a group: add me to a group and type /new there."), True)
        game = p.code if p.code in texts.GAME_NAMES else None
        if game is None:
            raise Notice(t(lang, "This button is not valid."), True)
        rec = await self.open_new_table(chat, user, game, None, lang)
        await self.publishing.post_lobby(rec, chat, lang)
        self.opened(rec)
        return None

    def opened(self, rec: TableRec) -> None:
        if self.on_open is not None:
            self.on_open(rec)

    async def open_new_table(self, chat: ChatRec, user: UserRec, game: str, players: int | None, lang: str) -> TableRec:

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
        existing = await self.ctx.storage.open_table(chat.id)
        if existing is not None:
            raise TableBusy("busy")
        options = self.table_options(game, players, chat.defaults.get(game) or {})
        seed = secrets.token_hex(8)
        return await self.ctx.storage.create_table(
            chat.id, game, players, options, seed, user.id, seats=[SeatSpec(0, user.id)]
        )

    def table_options(self, game: str, players: int, wanted: dict[str, Any]) -> dict[str, Any]:
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
        for flag in ("timeout_moves", "hints"):  # the application's on/off options, off by default
            if wanted.get(flag) is True:
                out[flag] = True
        pause = wanted.get("round_pause", texts.DEFAULT_PAUSE)
        out["round_pause"] = pause if pause in texts.PAUSE_CHOICES else texts.DEFAULT_PAUSE
        return out

    async def cmd_join(self, cmd: Command, user: UserRec, chat: ChatRec | None, lang: str) -> None:
        rec = await self.chat_table(chat, lang)
        text = await self.join(rec, user, cmd.user, lang, via=None)
        await self.publishing.tell(cmd.user, cmd.chat, Message(text), via=cmd)

    async def cmd_leave(self, cmd: Command, user: UserRec, chat: ChatRec | None, lang: str) -> None:
        rec = await self.chat_table(chat, lang)
        told = await self.leave(rec, user, lang, via=cmd)
        if told is not None:
            await self.publishing.tell(cmd.user, cmd.chat, told, via=cmd)

    async def cmd_table(self, cmd: Command, user: UserRec, chat: ChatRec | None, lang: str) -> None:
        """Show the chat's table again: the lobby, or the game as a new message and the hands of its players."""
        rec = await self.chat_table(chat, lang)
        assert chat is not None
        if rec.status == LOBBY:
            await self.publishing.post_lobby(rec, chat, lang, reply_to=cmd)
            return
        if rec.broken:
            raise Notice(self.ctx.broken_text(lang))
        await self.turns.show_again(rec, user)

    async def cmd_stop(self, cmd: Command, user: UserRec, chat: ChatRec | None, lang: str) -> None:
        rec = await self.chat_table(chat, lang)
        await self.publishing.reply(cmd, await self.stop_table(rec, user, lang))

    async def cmd_settings(self, cmd: Command, user: UserRec, chat: ChatRec | None, lang: str) -> None:
        if chat is None:
            raise Notice(t(lang, "Table settings live in the group: type /settings there."))
        rec = await self.ctx.storage.open_table(chat.id)
        if rec is not None and rec.status == LOBBY:
            await self.publishing.refresh_lobby(rec, lang, page="set")
            text = self.ctx.rules_of(rec, lang)
            await self.publishing.reply(
                cmd, Message(text + "\n\n" + t(lang, "The host changes them with the buttons on the table."))
            )
            return
        if rec is not None:
            text = self.ctx.rules_of(rec, lang)
            await self.publishing.reply(
                cmd, Message(text + "\n\n" + t(lang, "The game is on: conventions are fixed until it ends."))
            )
            return
        text = self.default_rules(texts.parse_game(cmd.args) or "thousand", chat, lang)
        await self.publishing.reply(
            cmd,
            Message(
                text + "\n\n" + t(lang, "These are this chat's defaults; the host of a new table can change them.")
            ),
        )

    def default_rules(self, game: str, chat: ChatRec | None, lang: str) -> str:
        """The rules text of a new ``game`` table in ``chat`` (its remembered defaults; none in a private chat)."""
        defaults = self.table_options(
            game, texts.DEFAULT_SEATS[game], (chat.defaults.get(game) if chat else None) or {}
        )
        return texts.rules_text(
            game,
            texts.DEFAULT_SEATS[game],
            defaults,
            defaults["turn_timer"],
            lang,
            defaults["round_pause"],
            hints=defaults.get("hints") is True,
            timeout_moves=defaults.get("timeout_moves") is True,
        )

    async def press_join(self, press: Press, p: Payload, user: UserRec, chat: ChatRec | None, lang: str):
        rec = await self.ctx.storage.table(p.table or 0)
        if chat is None:  # Join in a private message ("a table opened"): the lobby stays in the group's language
            lang = self.people.chat_lang(await self.people.chat_by_id(rec.chat_id))
        return await self.join(rec, user, press.user, lang, via=press)

    async def press_leave(self, press: Press, p: Payload, user: UserRec, chat: ChatRec | None, lang: str):
        rec = await self.ctx.storage.table(p.table or 0)
        told = await self.leave(rec, user, lang, via=press)
        if told is None:
            return None
        if not told.buttons:
            return told.text  # the press's own answer is private already
        await self.publishing.tell(press.user, press.chat, told, via=press)
        return None

    async def press_add_computer(self, press: Press, p: Payload, user: UserRec, chat: ChatRec | None, lang: str):
        rec = await self.host_lobby(p, user, lang)
        if p.code not in texts.TABLE_LEVELS:
            raise Notice(t(lang, "This button is not valid."), True)
        taken = {s.seat for s in rec.seats}
        free = [s for s in range(rec.players) if s not in taken]
        if not free:
            raise Notice(t(lang, "The table is full."))
        seats = [SeatSpec(s.seat, s.user_id, s.computer) for s in rec.seats] + [SeatSpec(free[0], None, p.code)]
        rec = await self.ctx.storage.update_lobby(rec.id, rec.lobby_rev, seats=seats)
        await self.publishing.refresh_lobby(rec, lang)
        return None

    async def press_remove_computer(self, press: Press, p: Payload, user: UserRec, chat: ChatRec | None, lang: str):
        rec = await self.host_lobby(p, user, lang)
        seats = [SeatSpec(s.seat, s.user_id, s.computer) for s in rec.seats if not (s.seat == p.number and s.computer)]
        if len(seats) == len(rec.seats):
            raise Notice(t(lang, "There is no computer at that seat."))
        rec = await self.ctx.storage.update_lobby(rec.id, rec.lobby_rev, seats=seats)
        await self.publishing.refresh_lobby(rec, lang)
        return None

    async def press_seat_count(self, press: Press, p: Payload, user: UserRec, chat: ChatRec | None, lang: str):
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
        options.update({k: rec.options[k] for k in (REMATCH_OF, HELD) if k in rec.options})
        rec = await self.ctx.storage.update_lobby(rec.id, rec.lobby_rev, players=n, options=options, seats=seats)
        await self.publishing.refresh_lobby(rec, lang)
        return None

    async def press_next_option(self, press: Press, p: Payload, user: UserRec, chat: ChatRec | None, lang: str):
        rec = await self.host_lobby(p, user, lang)
        mine = self.people.user_lang(user, press.user)  # the answer is for the host alone: his language
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
            shown = texts.option_line(row["name"], nxt, mine)
        elif index == len(rows):
            choices = list(texts.TIMER_CHOICES)
            current = self.ctx.timer_of(rec)
            nxt = choices[(choices.index(current) + 1) % len(choices)] if current in choices else texts.DEFAULT_TIMER
            options["turn_timer"] = nxt
            shown = t(mine, "Turn timer") + ": " + texts.timer_text(nxt, mine)
        elif index == texts.TIMEOUT_MOVES_ROW and self.ctx.timer_of(rec) >= texts.LONG_TIMER:
            on = not self.ctx.timeout_moves(rec)
            options.pop("timeout_moves", None)
            if on:
                options["timeout_moves"] = True
            shown = texts.timeout_moves_line(on, mine)
        elif index == texts.HINTS_ROW:
            on = not self.ctx.hints(rec)
            options.pop("hints", None)
            if on:
                options["hints"] = True
            shown = texts.hints_line(on, mine)
        elif index == len(rows) + 1:
            choices = list(texts.PAUSE_CHOICES)
            current = self.ctx.table_pause(rec)
            nxt = choices[(choices.index(current) + 1) % len(choices)]
            options["round_pause"] = nxt
            shown = texts.pause_line(nxt, mine)
        else:
            raise Notice(t(lang, "This button is not valid."), True)
        rec = await self.ctx.storage.update_lobby(rec.id, rec.lobby_rev, options=options)
        defaults = {k: v for k, v in options.items() if k not in (REMATCH_OF, HELD)}
        await self.ctx.storage.set_chat_defaults(rec.chat_id, rec.game, defaults)
        self.ctx.chats.pop(rec.chat_id, None)
        await self.publishing.refresh_lobby(rec, lang, page="set")
        return shown

    async def press_settings_page(self, press: Press, p: Payload, user: UserRec, chat: ChatRec | None, lang: str):
        rec = await self.host_lobby(p, user, lang)
        await self.publishing.refresh_lobby(rec, lang, page="set" if p.code == "set" else "main")
        return None

    async def press_start(self, press: Press, p: Payload, user: UserRec, chat: ChatRec | None, lang: str):
        rec = await self.ctx.storage.table(p.table or 0)
        if rec.status != LOBBY:
            raise Notice(t(lang, "The game has already started."))
        if rec.host_user_id != user.id:
            raise Notice(t(lang, "Only the host can do that."), True)
        if len(rec.seats) < rec.players:
            raise Notice(t(lang, "Not all seats are taken yet: join, or add computer players."), True)
        held = self.turns.rounds.held(rec)
        if held:  # a rematch started without those who did not confirm: computers take their seats
            seats = [
                SeatSpec(s.seat, None, "normal") if s.user_id in held else SeatSpec(s.seat, s.user_id, s.computer)
                for s in rec.seats
            ]
            options = {k: v for k, v in rec.options.items() if k != HELD}
            rec = await self.ctx.storage.update_lobby(rec.id, rec.lobby_rev, seats=seats, options=options)
        pending = await self.ctx.storage.pending_invitations(rec.id)  # on any worker
        waiting = [s for s in rec.seats if s.user_id in pending]
        if waiting:
            names = ", ".join(s.user.name for s in waiting if s.user)
            raise Notice(t(lang, "Waiting for {names} to open a private chat with me.", names=names), True)
        await self.turns.start_game(rec, lang)
        return None

    async def chat_table(self, chat: ChatRec | None, lang: str) -> TableRec:
        if chat is None:
            raise Notice(t(lang, "This works in a group with an open table."))
        rec = await self.ctx.storage.open_table(chat.id)
        if rec is None:
            raise Notice(t(lang, "No table is open here. Start one with /new."))
        return rec

    async def host_lobby(self, p: Payload, user: UserRec, lang: str) -> TableRec:
        rec = await self.ctx.storage.table(p.table or 0)
        if rec.status != LOBBY:
            raise Notice(t(lang, "The game has already started."))
        if rec.host_user_id != user.id:
            raise Notice(t(lang, "Only the host can do that."), True)
        if p.rev is not None and p.rev != rec.lobby_rev:
            raise Notice(t(lang, "This button is out of date: the table has changed."), True)
        return rec

    async def join(self, rec: TableRec, user: UserRec, platform_user: Any, lang: str, via: Any) -> str:
        for _ in range(RETRIES):
            if self.ctx.seat_of(rec, user.id) is not None:  # seated, in the lobby or in the game: say so
                if rec.status == LOBBY and user.id in self.turns.rounds.held(rec):  # a rematch: the seat is his
                    try:
                        await self.turns.rounds.confirm(rec, user.id)
                    except Conflict:
                        rec = await self.ctx.storage.table(rec.id)
                        continue
                    return t(lang, "You are in.")
                raise Notice(t(lang, "You already have a seat at this table."))
            if rec.status != LOBBY:
                raise Notice(t(lang, "The game has already started."))
            taken = {s.seat for s in rec.seats}
            free = [s for s in range(rec.players) if s not in taken]
            if not free:
                raise Notice(t(lang, "The table is full."))
            seats = [SeatSpec(s.seat, s.user_id, s.computer) for s in rec.seats] + [SeatSpec(free[0], user.id)]
            try:
                rec = await self.ctx.storage.update_lobby(rec.id, rec.lobby_rev, seats=seats)
                break
            except Conflict:
                rec = await self.ctx.storage.table(rec.id)
        else:
            raise Conflict("busy lobby")
        joined = t(self.people.user_lang(user, platform_user), "You have joined the table.")
        if isinstance(via, Press):
            await self.ctx.answer(via, joined)  # before an invitation, which may wait for the group's window
        await self.publishing.refresh_lobby(rec, lang)
        await self.greet_player(rec, user, lang)
        return joined

    async def greet_player(self, rec: TableRec, user: UserRec, chat_lang: str) -> None:
        """Make sure the player can be reached privately; if not, invite him in the group."""
        chat = await self.people.chat_by_id(rec.chat_id)
        plang = self.people.user_lang(user)
        where = self.people.where(rec, chat, plang)
        text = t(plang, "{where}: you have a seat. Your cards and choices will come here.", where=where)
        try:
            await self.publishing.send_private(self.ctx.user_value(user), Message(text))
        except Unreachable:
            await self.ctx.storage.add_invitation(rec.id, user.id)
            await self.publishing.invite(rec, chat, user, chat_lang)

    async def welcome_seated(self, rec: TableRec, user: UserRec, start: PrivateStart) -> None:
        chat = await self.people.chat_by_id(rec.chat_id)
        plang = self.people.user_lang(user, start.user)
        if rec.status == PLAYING:
            await self.publishing.send_hand(rec, self.ctx.seat_of(rec, user.id) or 0, via=start)
            return
        text = t(
            plang,
            "{where}: you have a seat. Your cards and choices will come here.",
            where=self.people.where(rec, chat, plang),
        )
        await self.publishing.send_private(start.user, Message(text), via=start)

    async def leave(
        self, rec: TableRec, user: UserRec, lang: str, via: Command | Press | None = None
    ) -> Message | None:
        """Leave the table; returns the leaver's own notice (in his language), which only he is to see. The group
        sees the lobby change, or one third-person line when a game goes on without him. Leaving a game, he is told
        once: his hand comes again (a new message, ``via`` his command or press) saying that the computer plays for
        him, with "Take my seat back" (then ``None``); only when it cannot reach him is the notice returned."""
        seat = self.ctx.seat_of(rec, user.id)
        if seat is None:
            raise Notice(t(lang, "You are not at this table."))
        plang = self.people.user_lang(user)
        if rec.status == PLAYING:
            if any(s.seat == seat and s.taken_over for s in rec.seats):
                raise Notice(t(lang, "The computer already plays for you."))
            await self.ctx.storage.update_seat(rec.id, seat, taken_over=True)
            rec = await self.ctx.storage.table(rec.id)
            self.ctx.table_changed(rec)  # his web table: the computer plays for him
            chat = await self.people.chat_by_id(rec.chat_id)
            await self.publishing.announce(
                rec, chat, t(lang, "{name} has left the table: the computer plays for them.", name=user.name)
            )
            await self.publishing.refresh_table(rec)
            # the hand loses its moves and says so, as a new message: the one notice he gets
            delivered = await self.publishing.send_hand(rec, seat, via=via, invite=False)
            self.turns.kick(rec.id)
            if delivered:
                return None
            back = Button(t(plang, "Take my seat back"), payloads.make("take_seat_back", table=rec.id))
            text = t(
                plang,
                "{where}: you have left the table; the computer plays your seat. Press “Take my seat back” to return.",
                where=self.people.where(rec, chat, plang),
            )
            return Message(text, buttons=((back,),))
        for _ in range(RETRIES):
            seats = [SeatSpec(s.seat, s.user_id, s.computer) for s in rec.seats if s.user_id != user.id]
            humans = [s for s in seats if s.user_id is not None]
            host = rec.host_user_id
            if host == user.id:
                host = humans[0].user_id if humans else None
            if not humans:
                rec = await self.ctx.storage.abandon_table(rec.id)
                chat = await self.people.chat_by_id(rec.chat_id)
                closed = Message(t(lang, "The table was closed: everybody left."))
                await self.publishing.show_public(rec, chat, closed, LOBBY_DONE)
                return Message(t(plang, "You have left; the table is closed."))
            try:
                rec = await self.ctx.storage.update_lobby(rec.id, rec.lobby_rev, seats=seats, host_user_id=host)
                break
            except Conflict:
                rec = await self.ctx.storage.table(rec.id)
                if self.ctx.seat_of(rec, user.id) is None:
                    break
        await self.ctx.storage.clear_invitation(rec.id, user.id)
        await self.publishing.refresh_lobby(rec, lang)
        return Message(t(plang, "You have left the table."))

    async def stop_table(self, rec: TableRec, user: UserRec, lang: str) -> Message:
        """The host stops the table at once; a player's vote stops it once more than half of the present players
        agree (votes older than ``VOTE_TTL`` have expired). Otherwise the answer is the vote with its buttons."""
        if rec.host_user_id != user.id:
            if not any(s.user_id == user.id and not s.taken_over for s in rec.seats):
                raise Notice(t(lang, "Only the host or the players can stop the game."))
            now = self.ctx.clock()
            votes = await self.ctx.storage.vote_stop(rec.id, user.id, at=now, since=now - timedelta(seconds=VOTE_TTL))
            if not votes.majority:
                self.ctx.table_changed(rec)  # the web tables show the vote with its buttons
                stamp = int(now.timestamp())
                return messages.stop_vote_message(
                    rec.id, stamp, user.name, len(votes.voters), votes.players, VOTE_TTL, lang
                )
        was_playing = rec.status == PLAYING
        rec = await self.ctx.storage.abandon_table(rec.id)
        self.ctx.table_changed(rec)
        chat = await self.people.chat_by_id(rec.chat_id)
        if was_playing:
            await self.publishing.refresh_table(rec)
            await self.turns.rounds.retire_hands(rec)
        else:
            await self.publishing.show_public(
                rec, chat, Message(t(lang, "The table was closed. Start a new one with /new.")), LOBBY_DONE
            )
        self.ctx.forget(rec.id)
        return Message(t(lang, "The table is closed; nobody is rated for a stopped game."))

    # ---- the buttons of a vote to stop ---------------------------------------------------------------------
    async def voted_table(self, press: Press, p: Payload, user: UserRec, lang: str) -> TableRec:
        """The open table of a vote's button pressed by one of its present players, while the vote lasts."""
        rec = await self.ctx.storage.table(p.table or 0)
        if rec.status not in (LOBBY, PLAYING):
            raise Notice(t(lang, "This game is over."), True)
        if not any(s.user_id == user.id and not s.taken_over for s in rec.seats):
            raise Notice(t(lang, "Only the players of this table can answer."), True)
        if self.ctx.clock().timestamp() - (p.number or 0) > VOTE_TTL:
            await self.close_vote(press, Message(t(lang, "This vote has expired.")))
            raise Notice(t(lang, "This vote has expired: type /stop to ask again."), True)
        return rec

    async def close_vote(self, press: Press, msg: Message) -> None:
        """The vote's message shows how it ended, without buttons (best effort)."""
        if press.message is None:
            return
        with contextlib.suppress(MessageGone):
            await self.ctx.port_for(press.user.platform).edit_public(press.message, msg)

    async def press_stop_agree(self, press: Press, p: Payload, user: UserRec, chat: ChatRec | None, lang: str):
        """Agree to stop: the presser's vote; the vote's message shows the new count, or that the table closed."""
        rec = await self.voted_table(press, p, user, lang)
        chat_rec = await self.people.chat_by_id(rec.chat_id)
        msg = await self.stop_table(rec, user, lang if press.message else self.people.chat_lang(chat_rec))
        if msg.buttons:
            counted = t(lang, "Your vote counts.")
            if press.message is not None:
                await self.ctx.port_for(press.user.platform).edit_public(press.message, msg)
            else:  # from the web table: the group sees the vote with its new count (the answer goes first)
                await self.ctx.answer(press, counted)
                await self.ctx.port_for(chat_rec.platform).send_public(self.ctx.chat_value(chat_rec), msg)
            return counted
        await self.close_vote(press, msg)
        return None

    async def press_stop_keep(self, press: Press, p: Payload, user: UserRec, chat: ChatRec | None, lang: str):
        """Keep playing: the vote ends and every vote to stop is forgotten."""
        rec = await self.voted_table(press, p, user, lang)
        await self.ctx.storage.drop_stop_votes(rec.id)
        self.ctx.table_changed(rec)
        if press.message is None:  # from the web table: the group learns it in its own language (answer first)
            await self.ctx.answer(press, t(lang, "The game goes on."))
            chat_rec = await self.people.chat_by_id(rec.chat_id)
            line = t(self.people.chat_lang(chat_rec), "{name} wants to keep playing: the game goes on.", name=user.name)
            await self.publishing.announce(rec, chat_rec, line)
        else:
            await self.close_vote(
                press, Message(t(lang, "{name} wants to keep playing: the game goes on.", name=user.name))
            )
        return t(lang, "The game goes on.")
