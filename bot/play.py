"""The game in play: starting, moves from buttons, the public table and private hands, computer seats, turn
timers, taking a seat back, and the end of the game with results and ratings.

Mixed into ``bot.app.Application``. Every move goes through ``commit``: the core applies it (and deals the next
round when one ends), the storage stores it with compare-and-set, then ``publish`` edits the one public table
message, posts the score sheet at a round's end, and edits each player's private message whose hand or choices
changed. Pictures are drawn and computer players think in a thread pool, off the event loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
from dataclasses import replace
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from bot import messages, results, texts
from bot.live import Live, first_state, step
from bot.messages import SeatInfo
from bot.notice import Notice
from bot.payloads import Payload
from bot.port import Chat, Message, MessageRef, Press, Unreachable
from bot.storage import FINISHED, LOBBY, PLAYING, ChatRec, Conflict, ResultSpec, TableRec, UserRec
from bot.webapp import links
from core.ai.player import ComputerPlayer
from core.ai.search import DEFAULT
from core.base import Action, Event, GameState, MalformedAction
from core.i18n import normalize, t

if TYPE_CHECKING:
    from bot.app import Application

log = logging.getLogger(__name__)

TAKEOVER_AFTER = 3  # timeouts in a row before the computer takes the seat over
TIMEOUT_LEVEL = "normal"  # who moves for a player who ran out of time


def _private_key(view: dict[str, Any]) -> str:
    """What a private message shows: the hand and the choices. Unchanged key, no edit."""
    data = [view.get("hand"), view.get("legal"), view.get("finished"), view.get("to_act") == view.get("seat")]
    return hashlib.blake2b(json.dumps(data, sort_keys=True).encode(), digest_size=8).hexdigest()


class Play:
    # ---- starting ----------------------------------------------------------------------------------------
    async def start_game(self: Application, rec: TableRec, lang: str) -> None:
        state, events = first_state(rec.game, rec.players, self.core_options(rec), rec.seed)
        deadline, kind = self.deadline_for(rec, state)
        lobby_ref = MessageRef.from_json(rec.message_ref)
        rec = await self.storage.start_table(rec.id, rec.lobby_rev, state.to_json(), deadline, kind)
        self._live[rec.id] = Live(rec.id, rec.version, state, list(events), list(events))
        self.table_changed(rec.id)
        self._pending.pop(rec.id, None)
        chat = await self.chat_by_id(rec.chat_id)
        port = self.port_for(chat.platform)
        if lobby_ref is not None:
            names = ", ".join(i.name for i in self.seat_infos(rec, lang) if i)
            await port.edit_public(lobby_ref, Message(t(lang, "The game has started: {names}.", names=names)))
        msg = await self.table_msg(rec, self._live[rec.id], lang)
        ref = await port.send_public(self.chat_value(chat), msg)
        await self.storage.set_message_ref(rec.id, ref.to_json())
        rec = await self.storage.table(rec.id)
        for s in rec.seats:
            if s.user is not None:
                await self.send_hand(rec, s.seat)
        self.kick(rec.id)

    # ---- presses -----------------------------------------------------------------------------------------
    async def press_a(self: Application, press: Press, p: Payload, user: UserRec, chat: ChatRec | None, lang: str):
        """A game move."""
        table_id = p.table or 0
        async with self.lock(table_id):
            rec, seat = await self.my_seat(p, user, lang, current=True)
            try:
                action = Action.parse(seat, p.code or "")
            except MalformedAction:
                raise Notice(t(lang, "This button is not valid."), True) from None
            live = await self.live(rec)
            if action not in live.state.legal_actions(seat):
                if live.state.to_act != seat and not live.state.legal_actions(seat):
                    raise Notice(t(lang, "It is not your turn."), True)
                raise Notice(t(lang, "That move is not allowed now."), True)
            seat_rec = rec.seats[seat]
            updates = {seat: {"timeouts": 0}} if seat_rec.timeouts else None
            await self.commit(
                rec,
                live,
                action,
                actor=user.id,
                by="player",
                seat_updates=updates,
                on_stored=lambda: self.answer_early(press),
            )
        return None

    async def press_u(self: Application, press: Press, p: Payload, user: UserRec, chat: ChatRec | None, lang: str):
        """A picker step: redraw the presser's own keyboard; nothing in the game changes."""
        rec, seat = await self.my_seat(p, user, lang, current=True)
        step_code = None if p.code == "main" else p.code
        await self.send_hand(rec, seat, step=step_code, press=press)
        return None

    async def press_h(self: Application, press: Press, p: Payload, user: UserRec, chat: ChatRec | None, lang: str):
        """Show my hand: the presser's hand and choices, privately."""
        rec, seat = await self.my_seat(p, user, lang)
        delivered = await self.send_hand(rec, seat, press=press, fresh=True)
        if not delivered:
            raise Notice(t(lang, "I cannot write to you privately yet: open a private chat with me first."), True)
        return None

    async def press_k(self: Application, press: Press, p: Payload, user: UserRec, chat: ChatRec | None, lang: str):
        """Take my seat back from the computer."""
        table_id = p.table or 0
        async with self.lock(table_id):
            rec, seat = await self.my_seat(p, user, lang)
            if not rec.seats[seat].taken_over:
                raise Notice(t(lang, "Your seat is already yours."))
            await self.storage.update_seat(rec.id, seat, taken_over=False, timeouts=0)
            rec = await self.storage.table(rec.id)
            live = await self.live(rec)
            deadline, kind = self.deadline_for(rec, live.state)
            if deadline is not None:
                with contextlib.suppress(Conflict):
                    await self.storage.set_deadline(rec.id, rec.version, deadline, kind)
        chat_rec = await self.chat_by_id(rec.chat_id)
        await self.refresh_table(rec)
        await self.announce(rec, chat_rec, t(self.chat_lang(chat_rec), "{name} is back at the table.", name=user.name))
        await self.send_hand(rec, seat)
        return t(lang, "Welcome back: your seat is yours again.")

    async def my_seat(
        self: Application, p: Payload, user: UserRec, lang: str, *, current: bool = False
    ) -> tuple[TableRec, int]:
        """The playing table of a press and the presser's seat there; with ``current`` the button's version must
        be the table's. Anything else is a notice (nothing changes)."""
        rec = await self.playing(p.table or 0, lang)
        seat = self.seat_of(rec, user.id)
        if seat is None:
            raise Notice(t(lang, "You are not playing at this table."), True)
        if current and p.version != rec.version:
            raise Notice(t(lang, "This button is out of date: the game has moved on."), True)
        return rec, seat

    async def playing(self: Application, table_id: int, lang: str) -> TableRec:
        rec = await self.storage.table(table_id)
        if rec.broken:
            raise Notice(self.broken_text(lang), True)
        if rec.status == LOBBY:
            raise Notice(t(lang, "The game has not started yet."), True)
        if rec.status != PLAYING:
            raise Notice(t(lang, "This game is over."), True)
        return rec

    # ---- a move ------------------------------------------------------------------------------------------
    async def commit(
        self: Application,
        rec: TableRec,
        live: Live,
        action: Action,
        *,
        actor: int | None,
        by: str,
        seat_updates: dict[int, dict[str, Any]] | None = None,
        notes: list[str] | None = None,
        on_stored: Any = None,
    ) -> TableRec:
        """Apply, store (compare-and-set) and publish one move. Raises ``Conflict`` if another got there first.

        ``on_stored`` (a coroutine function) runs once the move is stored, before it is drawn and published: the
        presser's button is answered then."""
        before = live.state
        new, events, dealt, deal = step(before, action)
        taken = {s.seat: s.taken_over for s in rec.seats}
        for s, fields in (seat_updates or {}).items():
            if "taken_over" in fields:
                taken[s] = bool(fields["taken_over"])
        result_rows: list[ResultSpec] | None = None
        if new.finished:
            result_rows = await self.final_results(rec, new, taken)
        probe = rec if not seat_updates else _with_taken(rec, taken)
        deadline, kind = self.deadline_for(probe, new)
        try:
            stored = await self.storage.commit_move(
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
            )
        except Conflict:
            self.forget(rec.id)
            raise
        live.state = new
        live.version = stored.version
        live.advance(events, dealt, deal)
        self._live[rec.id] = live
        self.table_changed(rec.id)
        if on_stored is not None:
            await on_stored()
        await self.publish(stored, live, before, events, round_ended=dealt or new.finished, notes=notes)
        if stored.status == PLAYING:
            nxt = new.to_act
            if nxt is not None and any(s.seat == nxt and (s.computer or s.taken_over) for s in stored.seats):
                self.kick(stored.id)
        return stored

    async def final_results(self: Application, rec: TableRec, state: GameState, taken: dict[int, bool]):
        user_ids = [None] * rec.players
        computers: list[str | None] = [None] * rec.players
        for s in rec.seats:
            user_ids[s.seat] = s.user_id
            computers[s.seat] = s.computer
        humans = [u for u in user_ids if u is not None]
        ratings = await self.storage.ratings(rec.chat_id, rec.game, humans)
        flags = [taken.get(s, False) for s in range(rec.players)]
        return results.results(state, user_ids, computers, flags, ratings)

    # ---- what players see --------------------------------------------------------------------------------
    def chat_lang(self: Application, chat: ChatRec) -> str:
        return normalize(chat.language)

    def names(self: Application, rec: TableRec, lang: str) -> list[str]:
        infos = self.seat_infos(rec, lang)
        return [i.name if i else "?" for i in infos]

    def infos(self: Application, rec: TableRec, lang: str) -> list[SeatInfo]:
        return [i or SeatInfo(n, "?") for n, i in enumerate(self.seat_infos(rec, lang))]

    async def table_msg(
        self: Application, rec: TableRec, live: Live, lang: str, notes: list[str] | None = None
    ) -> Message:
        title = f"{texts.game_name(rec.game, lang)} #{rec.id}"
        view = live.state.view(None)
        names = self.names(rec, lang)
        infos = self.infos(rec, lang)
        recent = list(live.recent)
        msg = await asyncio.get_running_loop().run_in_executor(
            self.pool,
            lambda: messages.table_message(
                game=rec.game,
                table_id=rec.id,
                view=view,
                names=names,
                seats=infos,
                recent=recent,
                lang=lang,
                title=title,
                style=self.style,
            ),
        )
        if notes or rec.status != PLAYING:
            extra = list(notes or [])
            if rec.status not in (PLAYING, FINISHED):
                extra.append(t(lang, "The game was stopped."))
            text = messages.fit("\n".join([msg.text, *extra]))
            buttons = msg.buttons if rec.status == PLAYING else ()
            msg = Message(text, image=msg.image, image_name=msg.image_name, buttons=buttons)
        if rec.status == PLAYING:
            msg = links.with_open_button(msg, self.webapp_url, rec.id, lang)
        return msg

    async def refresh_table(self: Application, rec: TableRec, notes: list[str] | None = None) -> None:
        chat = await self.chat_by_id(rec.chat_id)
        lang = self.chat_lang(chat)
        live = await self.live(rec)
        await self.show_public(rec, chat, await self.table_msg(rec, live, lang, notes))

    async def announce(self: Application, rec: TableRec, chat: ChatRec, text: str) -> None:
        port = self.port_for(chat.platform)
        await port.send_public(self.chat_value(chat), Message(text))

    async def publish(
        self: Application,
        rec: TableRec,
        live: Live,
        before: GameState,
        events: list[Event],
        *,
        round_ended: bool,
        notes: list[str] | None = None,
    ) -> None:
        chat = await self.chat_by_id(rec.chat_id)
        lang = self.chat_lang(chat)
        await self.show_public(rec, chat, await self.table_msg(rec, live, lang, notes))
        if round_ended:
            await self.post_sheet(rec, live, events, chat, lang)
        for s in rec.seats:
            if s.user is None:
                continue
            old = before.view(s.seat)
            new = live.state.view(s.seat)
            if _private_key(old) != _private_key(new) or new.get("finished"):
                await self.send_hand(rec, s.seat, view=new)

    async def post_sheet(
        self: Application, rec: TableRec, live: Live, events: list[Event], chat: ChatRec, lang: str
    ) -> None:
        state = live.state
        view = state.view(None)
        names = self.names(rec, lang)
        lines = messages.sentences(rec.game, events, lang, names)[-6:]
        if state.finished:
            lines.append(await self.final_line(rec, state, names, lang))
        title = f"{texts.game_name(rec.game, lang)} #{rec.id}"
        msg = await asyncio.get_running_loop().run_in_executor(
            self.pool,
            lambda: messages.sheet_message(game=rec.game, view=view, names=names, lines=lines, lang=lang, title=title),
        )
        await self.port_for(chat.platform).send_public(self.chat_value(chat), msg)

    async def final_line(self: Application, rec: TableRec, state: GameState, names: list[str], lang: str) -> str:
        rows = await self.storage.results(rec.id)
        parts = []
        if rec.game == "kozel" and state.loser is not None:
            parts.append(t(lang, "🐐 {name} is the kozel!", name=names[state.loser]))
        elif state.winner is not None:
            parts.append(t(lang, "🏆 {name} wins the game!", name=names[state.winner]))
        for r in sorted(rows, key=lambda r: r.place):
            if r.user_id is None or r.rating_after is None:
                continue
            before = r.rating_before or 0.0
            delta = r.rating_after - before
            line = t(
                lang,
                "{name}: rating {rating} ({delta})",
                name=names[r.seat],
                rating=f"{r.rating_after:.1f}",
                delta=f"{delta:+.1f}",
            )
            if r.rating_points is not None:
                line += " · " + t(lang, "+{n} rating points", n=r.rating_points)
            parts.append(line)
        return "\n".join(parts)

    async def send_hand(
        self: Application,
        rec: TableRec,
        seat: int,
        *,
        step: str | None = None,
        press: Press | None = None,
        via: Any = None,
        fresh: bool = False,
        view: dict[str, Any] | None = None,
    ) -> bool:
        """Send or edit the seat's private message (``view``: the seat's view when the caller has it). False when
        the user cannot be reached privately."""
        seat_rec = next((s for s in rec.seats if s.seat == seat), None)
        if seat_rec is None or seat_rec.user is None:
            return False
        user = self.user_value(seat_rec.user)
        lang = self.user_lang(seat_rec.user)
        chat = await self.chat_by_id(rec.chat_id)
        if view is None:
            view = (await self.live(rec)).state.view(seat)
        names = self.names(rec, lang)
        infos = self.infos(rec, lang)
        note = None
        if seat_rec.taken_over:
            note = t(lang, "The computer plays for you. Press “Take my seat back” at the table to return.")
        msg = await asyncio.get_running_loop().run_in_executor(
            self.pool,
            lambda: messages.hand_message(
                game=rec.game,
                table_id=rec.id,
                version=rec.version,
                view=view,
                names=names,
                seats=infos,
                lang=lang,
                where=self.where(rec, chat, lang),
                step=step,
                note=note,
            ),
        )
        if seat_rec.taken_over:
            msg = Message(msg.text, image=msg.image, image_name=msg.image_name)
        if not view.get("finished"):
            msg = links.with_open_button(msg, self.webapp_url, rec.id, lang)
        ref = MessageRef.from_json(seat_rec.private_ref)
        try:
            if press is not None and step is not None and press.message is not None:
                new_ref = await self.port_for(user.platform).edit_private(user, press.message, msg)
            elif fresh or via is not None:
                new_ref = await self.send_private(user, msg, via=press or via)
            else:
                new_ref = await self.edit_or_send_private(user, ref, msg)
        except Unreachable:
            chat_lang = self.chat_lang(chat)
            await self.invite(rec, chat, seat_rec.user, chat_lang)
            return False
        self._invited.discard((rec.id, seat_rec.user.id))
        if new_ref is not None and new_ref != ref:
            await self.storage.update_seat(rec.id, seat, private_ref=new_ref.to_json())
            if ref is not None and (fresh or via is not None):
                await self.retire_hand(user, ref, msg, lang)
        return True

    async def retire_hand(self: Application, user: Any, ref: MessageRef, msg: Message, lang: str) -> None:
        """An older hand message loses its buttons when the hand is shown again (best effort)."""
        old = Message(
            t(lang, "Your hand is shown again in a newer message."), image=msg.image, image_name=msg.image_name
        )
        try:
            await self.port_for(user.platform).edit_private(user, ref, old)
        except Exception:  # an expired or deleted message needs nothing
            log.info("an older hand message could not be retired")

    # ---- computer seats ----------------------------------------------------------------------------------
    def kick(self: Application, table_id: int) -> None:
        """Make sure a computer seat whose turn it is gets to move (one driver per table in this process)."""
        task = self._drivers.get(table_id)
        if task is not None and not task.done():
            return
        self._drivers[table_id] = asyncio.create_task(self.drive(table_id))

    async def drive(self: Application, table_id: int) -> None:
        try:
            while True:
                rec = await self.storage.table(table_id)
                if rec.status != PLAYING or rec.broken:
                    return
                live = await self.live(rec)
                seat = live.state.to_act
                if seat is None:
                    return
                seat_rec = next((s for s in rec.seats if s.seat == seat), None)
                if seat_rec is None or (seat_rec.computer is None and not seat_rec.taken_over):
                    return
                if self.computer_pause:
                    await asyncio.sleep(self.computer_pause)
                action = await self.decide(rec, live, seat, seat_rec.computer or TIMEOUT_LEVEL)
                async with self.lock(table_id):
                    fresh = await self.storage.table(table_id)
                    if fresh.version != rec.version or fresh.status != PLAYING:
                        continue
                    try:
                        await self.commit(fresh, await self.live(fresh), action, actor=None, by="computer")
                    except Conflict:
                        continue
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("the computer driver of table %s failed", table_id)

    def ai_seed(self: Application, table_id: int, seat: int) -> str:
        """A computer seat's seed: a keyed hash of the table and seat, independent of the deal's seed."""
        return hashlib.blake2b(f"ai:{table_id}:{seat}".encode(), key=self.ai_key, digest_size=8).hexdigest()

    def computer(self: Application, rec: TableRec, seat: int, level: str) -> ComputerPlayer:
        """A computer seat's player. A strong one searches under the wall-time cap of its budget (300 ms, and
        never more than the bot's ``think_cap``), so it answers in time; the cap is what makes it anytime."""
        cap = DEFAULT.cap_ms or 300.0
        budget = replace(DEFAULT, cap_ms=min(cap, self.think_cap * 1000))
        return ComputerPlayer(rec.game, level, seed=self.ai_seed(rec.id, seat), budget=budget)

    async def decide(self: Application, rec: TableRec, live: Live, seat: int, level: str) -> Action:
        """The computer's move, thought out in the thread pool and bounded in wall time."""
        view = live.state.view(seat)
        history = list(live.round_events)
        loop = asyncio.get_running_loop()
        player = self.computer(rec, seat, level)
        # a strong player searches for long: in another process, so the event loop never waits for the GIL
        if level == "strong":
            await self.warm_think_pool()
        pool = self.think_pool() if level == "strong" else self.pool
        try:
            return await asyncio.wait_for(loop.run_in_executor(pool, player.decide, view, history), self.think_cap)
        except TimeoutError:
            log.warning("a %s computer at table %s took too long; the normal level moves", level, rec.id)
        quick = ComputerPlayer(rec.game, "normal", seed=self.ai_seed(rec.id, seat))
        return await loop.run_in_executor(self.pool, quick.decide, view, history)

    # ---- turn timers -------------------------------------------------------------------------------------
    def deadline_for(self: Application, rec: TableRec, state: GameState) -> tuple[datetime | None, str | None]:
        """When the seat to act must be reminded (or, for short timers, times out); None when no timer runs."""
        timer = self.timer_of(rec)
        seat = state.to_act
        if not timer or seat is None or state.finished:
            return None, None
        seat_rec = next((s for s in rec.seats if s.seat == seat), None)
        if seat_rec is None or seat_rec.computer is not None or seat_rec.taken_over:
            return None, None
        now = self.clock()
        if timer >= 60:
            return now + timedelta(seconds=timer - self.reminder_lead(timer)), "remind"
        return now + timedelta(seconds=timer), "timeout"

    @staticmethod
    def reminder_lead(timer: int) -> int:
        return min(30, timer // 4)

    async def tick(self: Application) -> int:
        """Handle every due turn timer once (across workers each is claimed by one). Returns how many."""
        now = self.clock()
        due = await self.storage.claim_due(now)
        for rec in due:
            try:
                await self.fire(rec, now)
            except Exception:
                log.exception("the timer of table %s failed", rec.id)
        return len(due)

    async def fire(self: Application, rec: TableRec, now: datetime) -> None:
        if rec.status != PLAYING or rec.broken:
            return
        async with self.lock(rec.id):
            live = await self.live(rec)
            seat = live.state.to_act
            if seat is None:
                return
            seat_rec = next((s for s in rec.seats if s.seat == seat), None)
            if seat_rec is None or seat_rec.user is None or seat_rec.taken_over:
                self.kick(rec.id)
                return
            chat = await self.chat_by_id(rec.chat_id)
            if rec.deadline_kind == "remind":
                lead = self.reminder_lead(self.timer_of(rec))
                await self.remind(rec, chat, seat_rec.user, lead)
                with contextlib.suppress(Conflict):
                    await self.storage.set_deadline(rec.id, rec.version, now + timedelta(seconds=lead), "timeout")
                return
            count = seat_rec.timeouts + 1
            takeover = count >= TAKEOVER_AFTER
            action = await self.decide(rec, live, seat, TIMEOUT_LEVEL)
            lang = self.chat_lang(chat)
            name = seat_rec.user.name
            notes = [t(lang, "⏰ {name} ran out of time: the computer moved for them.", name=name)]
            updates = {seat: {"timeouts": count, "taken_over": takeover}}
            try:
                stored = await self.commit(
                    rec, live, action, actor=None, by="timeout", seat_updates=updates, notes=notes
                )
            except Conflict:
                return
        if takeover:
            await self.announce(
                stored,
                chat,
                t(
                    lang,
                    "{name} missed {n} turns in a row: the computer plays for them "
                    "until they press “Take my seat back”.",
                    name=name,
                    n=count,
                ),
            )

    async def remind(self: Application, rec: TableRec, chat: ChatRec, user: UserRec, seconds: int) -> None:
        plang = self.user_lang(user)
        text = t(plang, "⏰ {where}: your move — {n} s left.", where=self.where(rec, chat, plang), n=seconds)
        try:
            await self.send_private(self.user_value(user), Message(text))
        except Unreachable:
            lang = self.chat_lang(chat)
            port = self.port_for(chat.platform)
            await port.send_public(
                Chat(chat.platform, chat.platform_id, chat.thread, chat.title),
                Message(t(lang, "⏰ {name}, your move — {n} s left.", name=user.name, n=seconds)),
            )


def _with_taken(rec: TableRec, taken: dict[int, bool]) -> TableRec:
    import dataclasses

    seats = [dataclasses.replace(s, taken_over=taken.get(s.seat, s.taken_over)) for s in rec.seats]
    return dataclasses.replace(rec, seats=seats)
