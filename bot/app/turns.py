"""The game in play: starting, moves from buttons, computer seats, turn timers, taking a seat back, and the end of
the game with results and ratings.

Every move goes through ``Turns.commit``: the core applies it (and deals the next round when one ends), the storage
stores it with compare-and-set, then ``Publishing.publish`` edits the one public table message, posts the score
sheet at a round's end, and edits each player's private message whose hand or choices changed. Computer players
think in the context's pools, off the event loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import hashlib
import logging
from collections.abc import Awaitable, Callable
from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any

from bot import daily, messages, metrics, payloads, texts
from bot.app import results
from bot.app.context import Context
from bot.app.people import People
from bot.app.publishing import ANEW_ATTEMPTS, LOBBY_DONE, Publishing
from bot.app.rounds import Rounds
from bot.hints import hint_text
from bot.live import Live, first_state, step
from bot.notice import Notice
from bot.payloads import Payload
from bot.port import Button, Chat, Message, MessageRef, Press, Stale, Unreachable
from bot.storage import LOBBY, PLAYING, ChatRec, Conflict, ResultSpec, TableRec, UserRec
from core.ai.player import ComputerPlayer
from core.ai.search import DEFAULT
from core.base import Action, GameState, MalformedAction
from core.i18n import t

log = logging.getLogger(__name__)

TAKEOVER_AFTER = 3  # timeouts in a row before the computer takes the seat over
TIMEOUT_LEVEL = "normal"  # who moves for a player who ran out of time
NUDGE_EVERY = 24 * 3600  # a table that waits for a move (a long timer) reminds the player once a day
HANDS_WAIT = 60.0  # seconds a computer seat waits at most for the people's hands of the move before it


class Turns:
    def __init__(self, ctx: Context, people: People, publishing: Publishing, rounds: Rounds) -> None:
        self.ctx = ctx
        self.people = people
        self.publishing = publishing
        self.rounds = rounds
        self.kicks: dict[int, int] = {}  # table -> kicks of its computer driver (one more look before it ends)
        # a daily attempt's round ended (wired by the application): its result is counted and shown
        self.on_solo_end: Callable[[TableRec, GameState], Awaitable[None]] | None = None

    async def start_game(self, rec: TableRec, lang: str) -> None:
        state, events = first_state(rec.game, rec.players, self.ctx.core_options(rec), rec.seed)
        deadline, kind = self.deadline_for(rec, state)
        lobby_ref = MessageRef.from_json(rec.message_ref)
        rec = await self.ctx.storage.start_table(rec.id, rec.lobby_rev, state.to_json(), deadline, kind)
        self.ctx.live_tables[rec.id] = Live(rec.id, rec.version, state, list(events), list(events))
        self.ctx.table_changed(rec)
        chat = await self.people.chat_by_id(rec.chat_id)
        port = self.ctx.port_for(chat.platform)
        if lobby_ref is not None:
            names = ", ".join(i.name for i in self.publishing.seat_infos(rec, lang) if i)
            started = Message(t(lang, "The game has started: {names}.", names=names))
            await port.edit_public(lobby_ref, started, version=LOBBY_DONE)  # no older lobby refresh passes it
        msg = await self.publishing.table_msg(rec, self.ctx.live_tables[rec.id], lang)
        ref = await port.send_public(self.ctx.chat_value(chat), msg)
        await self.ctx.storage.set_message_ref(rec.id, ref.to_json())
        await self.publishing.hands_shown(rec.id, rec.version)
        self.kick(rec.id)

    async def press_move(self, press: Press, p: Payload, user: UserRec, chat: ChatRec | None, lang: str):
        """A game move."""
        table_id = p.table or 0
        key = f"{press.user.platform}:{press.key}" if press.key else None
        stored: TableRec | None = None
        async with self.ctx.lock(table_id):
            try:
                rec, seat = await self.my_seat(p, user, lang, current=True)
            except Notice:
                if await self.stored_by(key, table_id):  # delivered twice: the other delivery stored it
                    self.publishing.show_current(table_id)  # its worker may have died before showing it
                    return None
                raise
            try:
                action = Action.parse(seat, p.code or "")
            except MalformedAction:
                raise Notice(t(lang, "This button is not valid."), True) from None
            live = await self.ctx.live(rec)
            if action not in live.state.legal_actions(seat):
                if live.state.to_act != seat and not live.state.legal_actions(seat):
                    raise Notice(t(lang, "It is not your turn."), True)
                raise Notice(t(lang, "That move is not allowed now."), True)
            seat_rec = rec.seats[seat]
            updates = {seat: {"timeouts": 0}} if seat_rec.timeouts else None
            try:
                stored = await self.commit(
                    rec,
                    live,
                    action,
                    actor=user.id,
                    by="player",
                    seat_updates=updates,
                    on_stored=lambda: self.publishing.answer_early(press),
                    press_key=key,
                )
            except Conflict:
                if await self.stored_by(key, table_id):  # another worker stored this very press first
                    self.publishing.show_current(table_id)
                    return None
                raise
        if stored is not None:  # outside the lock: the presser holds his new hand before the handler ends
            await self.publishing.hands_shown(table_id, stored.version, through_pause=False)
        return None

    async def press_picker_step(self, press: Press, p: Payload, user: UserRec, chat: ChatRec | None, lang: str):
        """A picker step: redraw the presser's own keyboard; nothing in the game changes."""
        rec, seat = await self.my_seat(p, user, lang, current=True)
        step_code = None if p.code == "main" else p.code
        await self.publishing.send_hand(rec, seat, step=step_code, press=press)
        return None

    async def press_show_hand(self, press: Press, p: Payload, user: UserRec, chat: ChatRec | None, lang: str):
        """Show my hand: the presser's hand and choices, privately."""
        rec, seat = await self.my_seat(p, user, lang)
        delivered = await self.publishing.send_hand(rec, seat, press=press, fresh=True)
        if not delivered:
            raise Notice(t(lang, "I cannot write to you privately yet: open a private chat with me first."), True)
        return None

    async def press_take_seat_back(self, press: Press, p: Payload, user: UserRec, chat: ChatRec | None, lang: str):
        """Take my seat back from the computer."""
        table_id = p.table or 0
        async with self.ctx.lock(table_id):
            rec, seat = await self.my_seat(p, user, lang)
            if not rec.seats[seat].taken_over:
                raise Notice(t(lang, "Your seat is already yours."))
            await self.ctx.storage.update_seat(rec.id, seat, taken_over=False, timeouts=0)
            rec = await self.ctx.storage.table(rec.id)
            self.ctx.table_changed(rec)
            live = await self.ctx.live(rec)
            deadline, kind = self.deadline_for(rec, live.state)
            if deadline is not None:
                with contextlib.suppress(Conflict):
                    await self.ctx.storage.set_deadline(rec.id, rec.version, deadline, kind)
        chat_rec = await self.people.chat_by_id(rec.chat_id)
        welcome = t(self.people.user_lang(user, press.user), "Welcome back: your seat is yours again.")
        await self.ctx.answer(press, welcome)  # before the group's line, which may wait for the group's window
        await self.publishing.refresh_table(rec)
        await self.publishing.announce(
            rec, chat_rec, t(self.people.chat_lang(chat_rec), "{name} is back at the table.", name=user.name)
        )
        hand = MessageRef.from_json(rec.seats[seat].private_ref)
        pressed = press.message
        if press.chat is None and pressed is not None and (hand is None or hand.message_id != pressed.message_id):
            # the private notice that carried the button has done its job: it loses the button (best effort)
            with contextlib.suppress(Exception):
                await self.ctx.port_for(press.user.platform).edit_private(press.user, pressed, Message(welcome))
        await self.publishing.send_hand(rec, seat)
        return welcome

    async def press_hint(self, press: Press, p: Payload, user: UserRec, chat: ChatRec | None, lang: str):
        """💡: what the normal computer player would do now, and what that move does; to the presser alone."""
        rec, seat = await self.my_seat(p, user, lang, current=True)
        if not self.ctx.hints(rec):
            raise Notice(t(lang, "Hints are off at this table."), True)
        live = await self.ctx.live(rec)
        view = live.state.view(seat)
        if not view.get("legal"):
            raise Notice(t(lang, "It is not your turn."), True)
        player = ComputerPlayer(rec.game, "normal", seed=self.ai_seed(rec.id, seat))
        history = list(live.round_events)
        action = await asyncio.get_running_loop().run_in_executor(self.ctx.pool, player.decide, view, history)
        plang = self.people.user_lang(user, press.user)
        raise Notice(hint_text(rec.game, view, action, plang, self.publishing.names(rec, plang)), alert=True)

    async def stored_by(self, key: str | None, table_id: int) -> bool:
        """Whether the press with this key has stored a move at this table (on any worker)."""
        if key is None:
            return False
        outcome = await self.ctx.storage.press_outcome(key)
        return outcome is not None and outcome[0] == table_id

    async def my_seat(self, p: Payload, user: UserRec, lang: str, *, current: bool = False) -> tuple[TableRec, int]:
        """The playing table of a press and the presser's seat there; with ``current`` the button's version must
        be the table's. Anything else is a notice (nothing changes)."""
        rec = await self.playing(p.table or 0, lang)
        seat = self.ctx.seat_of(rec, user.id)
        if seat is None:
            raise Notice(t(lang, "You are not playing at this table."), True)
        if current and p.version != rec.version:
            if p.version is not None and p.version < rec.version:
                # the presser's screen is behind the table (the worker that stored the newer move may have died
                # before it showed it): the current state goes out; what is shown already costs no write
                self.publishing.show_current(rec.id)
            raise Notice(t(lang, "This button is out of date: the game has moved on."), True)
        return rec, seat

    async def playing(self, table_id: int, lang: str) -> TableRec:
        rec = await self.ctx.storage.table(table_id)
        if rec.broken:
            raise Notice(self.ctx.broken_text(lang), True)
        if rec.status == LOBBY:
            raise Notice(t(lang, "The game has not started yet."), True)
        if rec.status != PLAYING:
            raise Notice(t(lang, "This game is over."), True)
        return rec

    async def commit(
        self,
        rec: TableRec,
        live: Live,
        action: Action,
        *,
        actor: int | None,
        by: str,
        seat_updates: dict[int, dict[str, Any]] | None = None,
        notes: list[str] | None = None,
        on_stored: Any = None,
        press_key: str | None = None,
    ) -> TableRec:
        """Apply, store (compare-and-set) and publish one move. Raises ``Conflict`` if another got there first.

        ``on_stored`` (a coroutine function) runs once the move is stored, before it is drawn and published: the
        presser's button is answered then."""
        before = live.state
        new, events, dealt, deal = step(before, action)
        solo_end = False
        if (dealt or new.finished) and daily.of_table(rec.options) is not None:
            ended, ended_events = before.apply(action) if dealt else (new, events)
            if daily.round_row(ended) is not None:  # a daily attempt is one round: the next deal is never dealt
                new, events, dealt, deal, solo_end = ended, ended_events, False, [], True
        taken = {s.seat: s.taken_over for s in rec.seats}
        for s, fields in (seat_updates or {}).items():
            if "taken_over" in fields:
                taken[s] = bool(fields["taken_over"])
        result_rows: list[ResultSpec] | None = None
        if new.finished or solo_end:
            result_rows = await self.final_results(rec, new, taken)
        probe = rec if not seat_updates else _with_taken(rec, taken)
        # a new deal is shown after the table's round pause: its first turn's timer starts then
        deadline, kind = self.deadline_for(probe, new, later=self.ctx.pause_of(rec) if dealt else 0)
        try:
            stored = await self.ctx.storage.commit_move(
                rec.id,
                rec.version,
                seat=action.seat,
                action=action.to_json(),
                actor_user_id=actor,
                by=by,
                state=new.to_json(),
                deadline=deadline,
                deadline_kind=kind,
                seat_updates=seat_updates,
                results=result_rows,
                press_key=press_key,
            )
        except Conflict:
            self.ctx.forget(rec.id)
            raise
        if live.version < stored.version:  # a reader (a web table's poll) may have caught it up from the log already
            live.state = new
            live.version = stored.version
            live.advance(events, dealt, deal)
        self.ctx.live_tables[rec.id] = live
        self.ctx.table_changed(stored)
        if on_stored is not None:
            await on_stored()
        if dealt:
            # the finished round stays on view and the next deal is shown after the table's pause (bot.app.rounds)
            self.rounds.round_ended(stored, before.apply(action)[0].view(None), events, notes)
        else:
            self.publishing.publish(stored, events, game_ended=new.finished or solo_end, notes=notes)
        if solo_end and self.on_solo_end is not None:
            hook, state = self.on_solo_end, new
            self.ctx.outbox.append(("chat", stored.chat_id), lambda: hook(stored, state))
        self.kick_if_computer(stored)
        return stored

    def kick_if_computer(self, rec: TableRec) -> None:
        """Let the computer move when it is a computer seat's (or a taken-over seat's) turn."""
        live = self.ctx.live_tables.get(rec.id)
        if rec.status != PLAYING or live is None:
            return
        nxt = live.state.to_act
        if nxt is not None and any(s.seat == nxt and (s.computer or s.taken_over) for s in rec.seats):
            self.kick(rec.id)

    async def final_results(self, rec: TableRec, state: GameState, taken: dict[int, bool]):
        user_ids = [None] * rec.players
        computers: list[str | None] = [None] * rec.players
        for s in rec.seats:
            user_ids[s.seat] = s.user_id
            computers[s.seat] = s.computer
        humans = [u for u in user_ids if u is not None]
        ratings = await self.ctx.storage.ratings(rec.chat_id, rec.game, humans)
        flags = [taken.get(s, False) for s in range(rec.players)]
        rows = results.results(state, user_ids, computers, flags, ratings)
        if self.ctx.hints(rec) or daily.of_table(rec.options) is not None:  # not rated: places and totals only
            rows = [
                replace(r, rating_before=None, rating_after=None, mu=None, sigma=None, rating_points=None) for r in rows
            ]
        return rows

    def kick(self, table_id: int) -> None:
        """Make sure a computer seat whose turn it is gets to move (one driver per table in this process). A driver
        still running looks at the table once more before it ends (it may have read it before this kick's move)."""
        self.kicks[table_id] = self.kicks.get(table_id, 0) + 1
        task = self.ctx.drivers.get(table_id)
        if task is not None and not task.done():
            return
        self.ctx.drivers[table_id] = asyncio.create_task(self.drive(table_id))

    async def drive(self, table_id: int) -> None:
        try:
            while True:
                kicked = self.kicks.get(table_id, 0)
                rec = await self.ctx.storage.table(table_id)
                if rec.status != PLAYING or rec.broken:
                    return
                live = await self.ctx.live(rec)
                seat = live.state.to_act
                seat_rec = next((s for s in rec.seats if s.seat == seat), None) if seat is not None else None
                if seat_rec is None or (seat_rec.computer is None and not seat_rec.taken_over):
                    if self.kicks.get(table_id, 0) != kicked:
                        continue  # kicked meanwhile: a move stored after this look may give a computer the turn
                    self.kicks.pop(table_id, None)
                    return
                # the people hold the hands of this version (after a round's pause: the next deal's), whatever the
                # group's window holds the table message for
                try:
                    await asyncio.wait_for(self.publishing.hands_shown(table_id, rec.version), HANDS_WAIT)
                except TimeoutError:
                    log.warning("table %s: the hands of version %s took over %s s", table_id, rec.version, HANDS_WAIT)
                if self.ctx.computer_pause:
                    await asyncio.sleep(self.ctx.computer_pause)
                action = await self.decide(rec, live, seat, seat_rec.computer or TIMEOUT_LEVEL)
                async with self.ctx.lock(table_id):
                    fresh = await self.ctx.storage.table(table_id)
                    if fresh.version != rec.version or fresh.status != PLAYING:
                        continue
                    try:
                        await self.commit(fresh, await self.ctx.live(fresh), action, actor=None, by="computer")
                    except Conflict:
                        continue
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("the computer driver of table %s failed", table_id)

    def seat_seed(self, rec: TableRec, seat: int) -> str:
        """The seed of a computer seat of this table: a daily deal's from the day's seed (every member meets the
        same answers to the same plays), any other table's from ``ai_seed``."""
        if daily.of_table(rec.options) is not None:
            return daily.computer_seed(rec.seed, seat)
        return self.ai_seed(rec.id, seat)

    def ai_seed(self, table_id: int, seat: int) -> str:
        """A computer seat's seed: a keyed hash of the table and seat, independent of the deal's seed."""
        return hashlib.blake2b(f"ai:{table_id}:{seat}".encode(), key=self.ctx.ai_key, digest_size=8).hexdigest()

    def computer(self, rec: TableRec, seat: int, level: str) -> ComputerPlayer:
        """A computer seat's player. A strong one searches under the wall-time cap of its budget (300 ms, and
        never more than the bot's ``think_cap``), so it answers in time; the cap is what makes it anytime."""
        cap = DEFAULT.cap_ms or 300.0
        budget = replace(DEFAULT, cap_ms=min(cap, self.ctx.think_cap * 1000))
        return ComputerPlayer(rec.game, level, seed=self.seat_seed(rec, seat), budget=budget)

    async def decide(self, rec: TableRec, live: Live, seat: int, level: str) -> Action:
        """The computer's move, thought out in the thread pool and bounded in wall time."""
        view = live.state.view(seat)
        history = list(live.round_events)
        loop = asyncio.get_running_loop()
        player = self.computer(rec, seat, level)
        # a strong player searches for long: in another process, so the event loop never waits for the GIL
        if level == "strong":
            await self.ctx.warm_think_pool()
        pool = self.ctx.think_pool() if level == "strong" else self.ctx.pool
        try:
            return await asyncio.wait_for(loop.run_in_executor(pool, player.decide, view, history), self.ctx.think_cap)
        except TimeoutError:
            log.warning("a %s computer at table %s took too long; the normal level moves", level, rec.id)
        quick = ComputerPlayer(rec.game, "normal", seed=self.seat_seed(rec, seat))
        return await loop.run_in_executor(self.ctx.pool, quick.decide, view, history)

    def deadline_for(self, rec: TableRec, state: GameState, later: float = 0) -> tuple[datetime | None, str | None]:
        """When the seat to act must be reminded (or, for short timers, times out); None when no timer runs.
        ``later``: seconds before the turn is shown (a finished round's pause)."""
        timer = self.ctx.timer_of(rec)
        seat = state.to_act
        if not timer or seat is None or state.finished:
            return None, None
        seat_rec = next((s for s in rec.seats if s.seat == seat), None)
        if seat_rec is None or seat_rec.computer is not None or seat_rec.taken_over:
            return None, None
        now = self.ctx.clock() + timedelta(seconds=max(0.0, later))
        if timer >= 60:
            return now + timedelta(seconds=timer - self.reminder_lead(timer)), "remind"
        return now + timedelta(seconds=timer), "timeout"

    @staticmethod
    def reminder_lead(timer: int) -> int:
        """Seconds before the end a player is reminded: 30 s at most, a quarter of a long ("play when you have
        time") timer."""
        return timer // 4 if timer >= texts.LONG_TIMER else min(30, timer // 4)

    async def tick(self) -> int:
        """Handle every due turn timer once (across workers each is claimed by one, and only by a worker that can
        publish its table: ``Context.reach``). Returns how many."""
        now = self.ctx.clock()
        due = await self.ctx.storage.claim_due(now, reach=self.ctx.reach())
        metrics.TIMERS_DUE.set(len(due))
        metrics.TIMERS_FIRED.inc(len(due))
        for rec in due:
            try:
                await self.fire(rec, now)
            except Exception:
                log.exception("the timer of table %s failed", rec.id)
        return len(due)

    async def fire(self, rec: TableRec, now: datetime) -> None:
        if rec.status != PLAYING or rec.broken:
            return
        async with self.ctx.lock(rec.id):
            live = await self.ctx.live(rec)
            seat = live.state.to_act
            if seat is None:
                return
            seat_rec = next((s for s in rec.seats if s.seat == seat), None)
            if seat_rec is None or seat_rec.user is None or seat_rec.taken_over:
                self.kick(rec.id)
                return
            chat = await self.people.chat_by_id(rec.chat_id)
            if rec.deadline_kind in ("timeout", "nudge") and not self.ctx.computer_moves_at_timeout(rec):
                # a long timer ran out and the table chose to wait: a nudge to the player, then once a day
                await self.nudge(rec, chat, seat_rec.user)
                with contextlib.suppress(Conflict):
                    await self.ctx.storage.set_deadline(
                        rec.id, rec.version, now + timedelta(seconds=NUDGE_EVERY), "nudge"
                    )
                return
            if rec.deadline_kind == "remind":
                lead = self.reminder_lead(self.ctx.timer_of(rec))
                await self.remind(rec, chat, seat_rec.user, lead)
                with contextlib.suppress(Conflict):
                    await self.ctx.storage.set_deadline(rec.id, rec.version, now + timedelta(seconds=lead), "timeout")
                return
            count = seat_rec.timeouts + 1
            takeover = count >= TAKEOVER_AFTER
            action = await self.decide(rec, live, seat, TIMEOUT_LEVEL)
            lang = self.people.chat_lang(chat)
            name = seat_rec.user.name
            notes = [t(lang, "⏰ {name} ran out of time: the computer moved for them.", name=name)]
            updates = {seat: {"timeouts": count, "taken_over": takeover}}
            try:
                stored = await self.commit(
                    rec, live, action, actor=None, by="timeout", seat_updates=updates, notes=notes
                )
            except Conflict:
                return
        await self.publishing.hands_shown(rec.id, stored.version, through_pause=False)
        if takeover:
            self.publishing.later(
                chat,
                Message(
                    t(
                        lang,
                        "{name} missed {n} turns in a row: the computer plays for them "
                        "until they press “Take my seat back”.",
                        name=name,
                        n=count,
                    )
                ),
            )

    async def nudge(self, rec: TableRec, chat: ChatRec, user: UserRec) -> None:
        """The daily reminder of a table that waits for this player's move (a long timer, no computer move)."""
        plang = self.people.user_lang(user)
        where = self.people.where(rec, chat, plang)
        text = t(
            plang,
            "⏰ {where}: the table is waiting for your move. No hurry: I will remind you once a day.",
            where=where,
        )
        try:
            await self.publishing.send_private(self.ctx.user_value(user), Message(text))
        except Unreachable:
            lang = self.people.chat_lang(chat)
            await self.publishing.announce(
                rec, chat, t(lang, "⏰ {name}, the table is waiting for your move.", name=user.name)
            )

    async def show_again(self, rec: TableRec, asker: UserRec | None) -> None:
        """The ``table`` command: post the table message anew (later moves edit the new one) and send the hand
        again, as a new message, to the asker and to every player the game is asking for a choice."""
        chat = await self.people.chat_by_id(rec.chat_id)
        port = self.ctx.port_for(chat.platform)
        for _ in range(ANEW_ATTEMPTS):  # the old message shows a newer move: the table is read again
            live = await self.ctx.live(rec)
            msg = await self.publishing.table_msg(rec, live, self.people.chat_lang(chat))
            old = MessageRef.from_json(rec.message_ref)
            # in one step: the new message, later edits of the old one made to it, the old one retired (its
            # picture stays, its buttons go)
            retired = Message(msg.text, image=msg.image, image_name=msg.image_name)
            try:
                ref = await port.send_public(
                    self.ctx.chat_value(chat), msg, version=live.version, replaces=old, retired=retired
                )
            except Stale:
                rec = await self.ctx.storage.table(rec.id)
                continue
            await self.ctx.storage.set_message_ref(rec.id, ref.to_json())
            break
        rec = await self.ctx.storage.table(rec.id)
        for s in rec.seats:
            if s.user is None:
                continue
            if (asker is not None and s.user_id == asker.id) or live.state.view(s.seat).get("legal"):
                await self.publishing.send_hand(rec, s.seat, fresh=True)

    async def remind(self, rec: TableRec, chat: ChatRec, user: UserRec, seconds: int) -> None:
        plang = self.people.user_lang(user)
        where = self.people.where(rec, chat, plang)
        if seconds >= 3600:
            text = t(plang, "⏰ {where}: your move — {n} h left.", where=where, n=seconds // 3600)
        else:
            text = t(plang, "⏰ {where}: your move — {n} s left.", where=where, n=seconds)
        show = Button(messages.show_mine(rec.game, plang), payloads.make("h", table=rec.id))
        try:
            await self.publishing.send_private(self.ctx.user_value(user), Message(text, buttons=((show,),)))
        except Unreachable:
            lang = self.people.chat_lang(chat)
            port = self.ctx.port_for(chat.platform)
            await port.send_public(
                Chat(chat.platform, chat.platform_id, chat.thread, chat.title),
                Message(
                    t(lang, "⏰ {name}, your move — {n} h left.", name=user.name, n=seconds // 3600)
                    if seconds >= 3600
                    else t(lang, "⏰ {name}, your move — {n} s left.", name=user.name, n=seconds)
                ),
            )


def _with_taken(rec: TableRec, taken: dict[int, bool]) -> TableRec:
    seats = [dataclasses.replace(s, taken_over=taken.get(s.seat, s.taken_over)) for s in rec.seats]
    return dataclasses.replace(rec, seats=seats)
