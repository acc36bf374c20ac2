"""The chat's daily deal (``docs/daily.md``): one seeded round a day per chat and game, played by each member alone
against normal computer seats, in private; one counted attempt a person a day; the group's one message of the day,
edited as results come in.

An attempt is an ordinary table (moves, hands, computer seats, restarts work as anywhere) whose chat is the
person's private chat (``bot.solo``), with the table option ``daily`` naming the group and the day. Its deal seed
and its computer seats' seeds come from the day's seed (``bot.daily``), so every member meets the same deal and the
same answers to the same plays. The round's end finishes the table (``Turns.commit``) and calls ``round_done``.
"""

from __future__ import annotations

import contextlib
import logging

from bot import achievements, daily, texts
from bot.app.achievements import Achievements
from bot.app.context import Context
from bot.app.lobby import Lobby
from bot.app.people import People
from bot.app.publishing import Publishing
from bot.app.turns import Turns
from bot.notice import Notice
from bot.payloads import Payload, make
from bot.port import Button, Chat, Command, Message, MessageGone, MessageRef, Press, Unreachable, User
from bot.solo import base_platform, solo_platform
from bot.storage import (
    DAILY_DONE,
    DAILY_PLAYING,
    DAILY_STOPPED,
    PLAYING,
    ChatRec,
    DailyAttemptRec,
    NotFound,
    SeatSpec,
    TableBusy,
    TableRec,
    UserRec,
)
from core import games
from core.base import GameState
from core.i18n import t

log = logging.getLogger(__name__)


class Daily:
    def __init__(
        self,
        ctx: Context,
        people: People,
        publishing: Publishing,
        turns: Turns,
        lobby: Lobby,
        achievements: Achievements,
    ) -> None:
        self.ctx = ctx
        self.achievements = achievements
        self.people = people
        self.publishing = publishing
        self.turns = turns
        self.lobby = lobby
        self.key: bytes | None = None  # keys the day's seeds (``bot.keys.DAILY_SEED``), when the bot has a secret

    # ---- commands and buttons ------------------------------------------------------------------------------
    async def cmd_daily(self, cmd: Command, user: UserRec, chat: ChatRec | None, lang: str) -> None:
        """``daily [game]`` in a group: today's message (posted once a day), and with a game that game's deal."""
        group = self.group_of(chat, lang)
        game = texts.parse_game(cmd.args)
        if cmd.args.strip() and game is None:
            raise Notice(t(lang, "Which game? Type /daily thousand, /daily deberts or /daily kozel."))
        day = self.today()
        if game is not None:
            try:
                text = await self.begin(cmd.user, user, group, game, via=cmd)
                await self.publishing.tell(cmd.user, cmd.chat, Message(text), via=cmd)
            finally:  # today's message after his note (also when he was refused): it may wait for the group's window
                self.post_later(group, day)
            return
        if not await self.post(group, day):  # today's message is up already: the games' buttons, to him alone
            plang = self.people.user_lang(user, cmd.user)
            buttons = tuple(
                (Button("▶ " + texts.game_name(g, plang), daily.make_payload(group.id, g)),) for g in games.NAMES
            )
            text = t(plang, "Today's deals are in the group's daily message. Which one do you play?")
            await self.publishing.tell(cmd.user, cmd.chat, Message(text, buttons=buttons), via=cmd)

    async def press_daily(self, press: Press, p: Payload, user: UserRec, chat: ChatRec | None, lang: str):
        """▶ a game under the daily message (or in the private list of games): play today's deal of that game."""
        if p.code not in games.NAMES or (chat is not None and chat.id != p.number):
            raise Notice(t(lang, "This button is not valid."), True)
        try:
            group = await self.people.chat_by_id(p.number or 0)
        except NotFound:
            raise Notice(t(lang, "This button is not valid."), True) from None
        self.group_of(group, lang)
        text = await self.begin(press.user, user, group, p.code, via=press)
        # the day's first attempt (from yesterday's button) posts today's message: queued with nothing awaited
        # before the press is answered, so the answer never waits for the group's window
        self.post_later(group, self.today())
        return text

    async def press_daily_stop(self, press: Press, p: Payload, user: UserRec, chat: ChatRec | None, lang: str):
        """⏹ Give up: the daily attempt ends here, and counts as today's attempt."""
        async with self.ctx.lock(p.table or 0):
            rec = await self.ctx.storage.table(p.table or 0)
            if daily.of_table(rec.options) is None or self.ctx.seat_of(rec, user.id) is None:
                raise Notice(t(lang, "This button is not valid."), True)
            if rec.status != PLAYING:
                raise Notice(t(lang, "This game is over."), True)
            await self.lobby.stop_table(rec, user, lang)
        await self.stopped(rec)
        return t(lang, "Stopped: it counts as today's attempt.")

    # ---- an attempt ----------------------------------------------------------------------------------------
    def group_of(self, chat: ChatRec | None, lang: str) -> ChatRec:
        if chat is None or base_platform(chat.platform) is not None:
            raise Notice(t(lang, "The daily deal belongs to a group: type /daily there."))
        return chat

    def today(self) -> str:
        return daily.day_of(self.ctx.clock())

    async def begin(self, person: User, user: UserRec, group: ChatRec, game: str, *, via: Press | Command) -> str:
        """Start (or show again) the person's attempt at today's deal of ``game``; the answer for him."""
        plang = self.people.user_lang(user, person)
        day = self.today()
        name = texts.game_name(game, plang)
        mine = await self.ctx.storage.attempts(group.id, day=day, user_id=user.id)
        attempt = next((a for a in mine if a.game == game), None)
        if attempt is not None:
            return await self.again(attempt, person, user, group, plang, via)
        intro = t(
            plang,
            "📅 Today's {game} of {chat}: one deal, you against the computer. One attempt a day: good luck!",
            game=name,
            chat=group.title or t(plang, "your group"),
        )
        try:  # reachable in private? (nothing is counted before he is)
            intro_ref = await self.publishing.send_private(person, Message(intro), via=via)
        except Unreachable:
            raise Notice(
                t(plang, "I cannot write to you privately yet: open a private chat with me first."), True
            ) from None
        attempt, created = await self.ctx.storage.claim_attempt(group.id, game, day, user.id, at=self.ctx.clock())
        if not created:  # another worker (a doubled press) got there first
            return await self.again(attempt, person, user, group, plang, via)
        rec = await self.start_table(person, user, group, game, day, plang)
        if intro_ref is not None:  # the way out rides on the introduction
            stop = Button("⏹ " + t(plang, "Stop the attempt"), make("daily_stop", table=rec.id))
            with contextlib.suppress(MessageGone, Unreachable):
                await self.publishing.edit_or_send_private(person, intro_ref, Message(intro, buttons=((stop,),)))
        return t(plang, "Today's {game}: your cards are in our private chat.", game=name)

    async def again(
        self, attempt: DailyAttemptRec, person: User, user: UserRec, group: ChatRec, plang: str, via: Press | Command
    ) -> str:
        """A second try the same day: a running attempt is shown again; a finished or stopped one is refused."""
        name = texts.game_name(attempt.game, plang)
        if attempt.status == DAILY_PLAYING:
            rec = None
            if attempt.table_id is not None:
                rec = await self.ctx.storage.table(attempt.table_id)
            else:  # the worker that claimed it died before its table was up: start it now (the database lets
                with contextlib.suppress(TableBusy):  # one table open per private chat: a racing press loses)
                    rec = await self.start_table(person, user, group, attempt.game, attempt.day, plang)
            if rec is not None and rec.status == PLAYING:
                seat = self.ctx.seat_of(rec, user.id)
                if seat is not None:  # in the table's hands lane: after the hands its moves queued, never beside them
                    table_id = rec.id

                    async def resend(seat: int = seat) -> None:
                        fresh = await self.ctx.storage.table(table_id)
                        await self.publishing.send_hand(fresh, seat, via=via, fresh=True, invite=False)

                    self.ctx.showing.keep(("hands", table_id), resend, rec.version)
                    await self.ctx.showing.shown(("hands", table_id), rec.version)
                return t(
                    plang, "Your attempt at today's {game} is under way: your cards are in our private chat.", game=name
                )
        raise Notice(t(plang, "You have played today's {game} already. A new deal comes tomorrow.", game=name), True)

    async def start_table(
        self, person: User, user: UserRec, group: ChatRec, game: str, day: str, plang: str
    ) -> TableRec:
        """The attempt's private table, started: the day's deal, normal computers, no timer, no pause."""
        # the group's guild: the attempt's hands reach him through his interactions there, on its shard's worker
        private = Chat(solo_platform(group.platform), person.id, f"{group.id}.{game}", group.title, plang, group.guild)
        chat = await self.people.chat_rec(private)
        old = await self.ctx.storage.open_table(chat.id)
        if old is not None:  # an earlier day's attempt never finished: it stops, and counts as played
            async with self.ctx.lock(old.id):
                await self.lobby.stop_table(old, user, plang)
            await self.stopped(old)
        seats = daily.players(game)
        options = self.lobby.table_options(game, seats, group.defaults.get(game) or {})
        options.update(turn_timer=0, round_pause=0, hints=False)
        options[daily.OPTION] = {"chat": group.id, "day": day}
        seed = daily.deal_seed(self.key, group.id, game, day)
        spec = [SeatSpec(0, user.id)] + [SeatSpec(s, computer=daily.LEVEL) for s in range(1, seats)]
        rec = await self.ctx.storage.create_table(chat.id, game, seats, options, seed, user.id, seats=spec)
        await self.ctx.storage.set_attempt_table(group.id, game, day, user.id, rec.id)
        await self.turns.start_game(rec, plang)
        return rec

    async def round_done(self, rec: TableRec, state: GameState) -> None:
        """The attempt's round is over (its table finished): count the score, tell the person his result in one
        line he can forward, and show it in the group's message."""
        where = daily.of_table(rec.options)
        row = daily.round_row(state)
        if where is None or row is None:
            return
        score, line = daily.outcome(rec.game, row)
        attempt = await self.ctx.storage.end_attempt(rec.id, DAILY_DONE, score, line, at=self.ctx.clock())
        group = await self.people.chat_by_id(where[0])
        for s in rec.seats:  # his hand says the attempt is over (its choices went with the round's last move)
            if s.user is not None:
                with contextlib.suppress(Unreachable, MessageGone):
                    fresh = await self.ctx.storage.table(rec.id)
                    await self.publishing.send_hand(fresh, s.seat, view=dict(state.view(s.seat), finished=True))
        if attempt is not None and attempt.score is not None:
            seat = next((s for s in rec.seats if s.user is not None), None)
            if seat is not None and seat.user is not None:
                plang = self.people.user_lang(seat.user)
                everyone = await self.ctx.storage.attempts(group.id, day=where[1])
                board = [daily.Entry(a.name, a.status, a.score, a.line) for a in everyone if a.game == rec.game]
                place = next((p for p, e in daily.ranked(board) if e.score == attempt.score and p), None)
                count = sum(1 for e in board if e.status == DAILY_DONE)
                text = daily.share_line(
                    rec.game, where[1], group.title or t(plang, "your group"), attempt.score, place, count, plang
                )
                new = await self.achievements.daily_done(group.id, attempt.user_id, rec.id)
                if new:  # told once, in the line he gets anyway
                    badges = ", ".join(achievements.label(c, plang) for c in new)
                    text += "\n" + t(plang, "New for {name}: {badges}", name=seat.user.name, badges=badges)
                with contextlib.suppress(Unreachable):
                    await self.publishing.send_private(self.ctx.user_value(seat.user), Message(text))
        self.refresh(group, where[1])

    async def stopped(self, rec: TableRec) -> None:
        where = daily.of_table(rec.options)
        if where is None:
            return
        await self.ctx.storage.end_attempt(rec.id, DAILY_STOPPED, None, None, at=self.ctx.clock())
        self.refresh(await self.people.chat_by_id(where[0]), where[1])

    # ---- the group's message -------------------------------------------------------------------------------
    def post_later(self, group: ChatRec, day: str) -> None:
        """Post the group's message of ``day`` in the chat's lane, unless it is up (after what is queued there)."""
        self.ctx.outbox.append(("daily", group.id, day, "post"), lambda: self.post(group, day))

    async def post(self, group: ChatRec, day: str) -> bool:
        """Post the group's message of ``day`` unless it is up (once a day, across workers); True if posted now."""
        if not await self.ctx.storage.claim_post(group.id, day):
            return False
        msg = await self.board(group, day)
        ref = await self.ctx.port_for(group.platform).send_public(self.ctx.chat_value(group), msg)
        await self.ctx.storage.set_post_ref(group.id, day, ref.to_json())
        self.refresh(group, day)  # results that came in while it was being posted
        return True

    def refresh(self, group: ChatRec, day: str) -> None:
        """Edit the group's message of ``day`` to the latest results: one lane per chat and day, where newer work
        replaces unsent older work, so a burst of results costs as many edits as the group's window lets through
        (the platform's port waits for it), and the last one always shows every result."""

        async def edit() -> None:
            claimed, raw = await self.ctx.storage.post_ref(group.id, day)
            if not claimed:
                await self.post(group, day)
                return None
            ref = MessageRef.from_json(raw)
            if ref is None:  # being posted: the poster refreshes it once it is up
                return None
            msg = await self.board(group, day)
            new = await self.ctx.port_for(group.platform).edit_public(ref, msg)
            if new != ref:
                await self.ctx.storage.set_post_ref(group.id, day, new.to_json())
            return None

        self.ctx.showing.want(("daily", group.id, day), 0, edit)

    async def board(self, group: ChatRec, day: str) -> Message:
        lang = self.people.chat_lang(group)
        boards: dict[str, list[daily.Entry]] = {}
        for a in await self.ctx.storage.attempts(group.id, day=day):
            boards.setdefault(a.game, []).append(daily.Entry(a.name, a.status, a.score, a.line))
        return daily.board_message(group.id, day, boards, games.NAMES, lang)
