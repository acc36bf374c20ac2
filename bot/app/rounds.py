"""The end of a round and of a game, as the group sees them: the finished round stays on view before the next deal,
the live table is posted again at the bottom of the chat, and a finished game offers "Play again".

A round's end (the state already holds the next deal; only what is shown, and when, is decided here):

1. the table message shows the finished round (its last trick and result) without buttons, and says when the
   next deal comes; the pending deal is remembered with the table's message reference (``deal_pending``: the
   version it belongs to), so a restart finishes it;
2. after the table's ``round_pause`` (the context's ``sleep``; the table lock is not held meanwhile) the old table
   message becomes the round's score sheet (its buttons gone) and the next deal's table is posted below it: the
   round's one new group message, so the table never scrolls out of sight behind sheets and announcements;
3. each player's hand of the new deal goes out when the pause ends (at once without a pause), before those two
   group writes and whatever the table's lane still waits for: a group that plays fast spends its window (20
   writes a minute), and an earlier round's sheet and table may still wait for it in the lane; the players play
   on meanwhile (issue 36). Then the computer seats may move.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import secrets
from collections.abc import Callable
from typing import Any

from bot import messages, texts
from bot.app.context import Context
from bot.app.people import People
from bot.app.publishing import DEALING, HELD, PENDING, REMATCH_OF, Publishing
from bot.live import Live
from bot.notice import Notice
from bot.payloads import Payload
from bot.port import Message, MessageGone, MessageRef, Press, Unreachable
from bot.storage import FINISHED, LOBBY, PLAYING, ChatRec, Conflict, SeatSpec, TableBusy, TableRec, UserRec
from core.base import Event
from core.i18n import t
from renderers import render_hand

log = logging.getLogger(__name__)


class Rounds:
    def __init__(self, ctx: Context, people: People, publishing: Publishing) -> None:
        self.ctx = ctx
        self.people = people
        self.publishing = publishing
        # table -> the sentences of its finished round still on view (another worker tells them again from the
        # table's recent events: nothing of the game lives only here)
        self.lines: dict[int, list[str]] = {}
        # table -> set once the next deal's hands are out after its round's end (until the next move): the table's
        # computer seats move then, not after the group's window let the sheet and the new table through
        self.hands_out: dict[int, asyncio.Event] = {}
        publishing.on_pending = self.deal_pending

    # ---- a round ends ---------------------------------------------------------------------------------------
    async def round_over(
        self,
        rec: TableRec,
        live: Live,
        ended_view: dict[str, Any],
        events: list[Event],
        *,
        notes: list[str] | None,
        then: Callable[[], None],
    ) -> None:
        """Show the finished round, and deal the next one to the group and the hands after the table's pause
        (``then`` runs after that: the computer seats may move)."""
        pause = self.ctx.pause_of(rec)
        chat = await self.people.chat_by_id(rec.chat_id)
        lang = self.people.chat_lang(chat)
        names = self.publishing.names(rec, lang)
        lines = messages.sentences(rec.game, events, lang, names)
        if pause <= 0:
            fresh = await self.ctx.storage.table(rec.id)
            if isinstance(fresh.message_ref, dict):  # marked, so that no other worker edits it meanwhile
                self.lines[rec.id] = lines
                await self.ctx.storage.set_message_ref(rec.id, {**fresh.message_ref, PENDING: rec.version})
                await self.deal_pending(rec.id)
            else:
                await self.deal(rec.id, lines)
            then()
            return
        msg = await self.ended_message(rec, ended_view, lines + list(notes or []), lang, pause)
        ref = MessageRef.from_json(rec.message_ref)
        port = self.ctx.port_for(chat.platform)
        try:
            shown = await port.edit_public(ref, msg, version=rec.version) if ref is not None else None
        except MessageGone:
            shown = None
        if shown is None:
            shown = await port.send_public(self.ctx.chat_value(chat), msg, version=rec.version)
        await self.ctx.storage.set_message_ref(rec.id, {**shown.to_json(), PENDING: rec.version})
        self.lines[rec.id] = lines

    def pause(self, rec: TableRec, live: Live, shown: asyncio.Event, then: Callable[[], None]) -> asyncio.Event:
        """The finished round of ``rec`` (the state holding the next deal, ``live``) is queued to be shown
        (``shown`` is set once it is on view): the next deal's hands go out after the table's pause, not after the
        table's lane, which may wait for the group's window (a sheet and a table posted at an earlier round's
        end). Returns an event set once those hands are out (at once without a pause)."""
        pause = self.ctx.pause_of(rec)
        if pause <= 0:
            out = self.publishing.queue_hands(rec, live)
            self.ctx.round_ends[rec.id] = asyncio.create_task(self._when_out(out, then))
        else:
            out = asyncio.Event()
            self.ctx.round_ends[rec.id] = asyncio.create_task(self._after_pause(rec, live, pause, shown, out, then))
        self.hands_out[rec.id] = out
        return out

    @staticmethod
    async def _when_out(out: asyncio.Event, then: Callable[[], None]) -> None:
        """The computer seats may move once the next deal's hands are out (not after the group's table)."""
        await out.wait()
        then()

    async def _after_pause(
        self,
        rec: TableRec,
        live: Live,
        pause: float,
        shown: asyncio.Event,
        out: asyncio.Event,
        then: Callable[[], None],
    ) -> None:
        table_id = rec.id
        try:
            await self.ctx.sleep(pause)
            fresh = await self.ctx.storage.table(table_id)
            if fresh.status == PLAYING and not fresh.broken and fresh.version == rec.version:
                await self.publishing.queue_hands(fresh, live).wait()
            out.set()
            then()  # the computer seats may move now: the group's window may hold the sheet and table a while
            await shown.wait()  # the finished round is on view (marked pending) before the next deal replaces it
            # in the table's lane (no table lock across platform I/O): a later move's table edit waits behind it,
            # or, if it replaced this work first, shows the deal itself (``Publishing.on_pending``)
            await self.ctx.outbox.replace(("table", table_id), lambda: self.deal_pending(table_id)).wait()
            then()
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("the round end of table %s failed", table_id)
        finally:
            out.set()

    async def wait(self, table_id: int) -> None:
        """Wait until the table's finished round has made way for the next deal: its pause is over and the next
        deal's hands are out (a computer seat moves then)."""
        out = self.hands_out.get(table_id)
        if out is not None:
            await out.wait()
            return
        task = self.ctx.round_ends.get(table_id)
        if task is not None and not task.done() and task is not asyncio.current_task():
            with contextlib.suppress(Exception):
                await asyncio.shield(task)

    async def resume(self, rec: TableRec) -> None:
        """After a restart: a round end that was still on view gets its next deal shown now."""
        ref = rec.message_ref
        if isinstance(ref, dict) and (PENDING in ref or DEALING in ref):  # DEALING: the worker that posted died
            await self.ctx.outbox.replace(("table", rec.id), lambda: self.deal_pending(rec.id, taking_over=True)).wait()

    async def deal_pending(self, table_id: int, *, taking_over: bool = False) -> None:
        """The next deal of a table whose finished round is on view, by the one worker that claims it (a
        compare-and-set on the message reference); nothing when it was shown already or another worker shows it."""
        rec = await self.ctx.storage.table(table_id)
        ref = rec.message_ref
        if not isinstance(ref, dict):
            return
        lapsed = DEALING in ref and (taking_over or self.publishing.deal_lapsed(ref))
        if PENDING not in ref and not lapsed:
            return
        claimed = {k: v for k, v in ref.items() if k not in (PENDING, DEALING)}
        claimed[DEALING] = self.ctx.clock().timestamp()
        if await self.ctx.storage.swap_message_ref(table_id, ref, claimed):
            await self.deal(table_id, self.lines.pop(table_id, None))

    async def ended_message(
        self, rec: TableRec, view: dict[str, Any], lines: list[str], lang: str, pause: float
    ) -> Message:
        """The table message while a finished round is on view: its last trick and result, no buttons."""
        title = f"{texts.game_name(rec.game, lang)} #{rec.id}"
        msg = await self.publishing.draw_table(rec, view, [], lang)
        text = "\n".join([title, *lines[-messages.CAPTION_EVENTS :], t(lang, "Next deal in {n} s.", n=round(pause))])
        return Message(messages.fit(text), image=msg.image, image_name=msg.image_name)

    async def deal(self, table_id: int, lines: list[str] | None) -> None:
        """The finished round's table message becomes its score sheet (no buttons); the current table is posted
        below it and the hands go out. Nothing when the table has stopped meanwhile. ``lines``: the finished
        round's sentences (None: told again from the table's recent events, as a restarted or another worker
        does)."""
        rec = await self.ctx.storage.table(table_id)
        if rec.status != PLAYING or rec.broken:
            self.lines.pop(table_id, None)
            return
        chat = await self.people.chat_by_id(rec.chat_id)
        lang = self.people.chat_lang(chat)
        live = await self.ctx.live(rec)
        port = self.ctx.port_for(chat.platform)
        # the hands first (the player to act first), in the table's hands lane: a group write may wait for the
        # group's window (issue 26), and a later move's hands must not pass these
        await self.publishing.queue_hands(rec, live).wait()
        old = MessageRef.from_json(rec.message_ref)
        if old is not None:
            if lines is None:  # told from the events before this round's
                lines = messages.sentences(rec.game, live.before_round(), lang, self.publishing.names(rec, lang))
            sheet = await self.sheet(rec, live, chat, lang, lines)
            try:
                await port.edit_public(old, sheet)
            except MessageGone:
                log.info("the finished round's table message is gone")
        # the new table tells the new round only (``Publishing.table_msg``): the finished round's plays are on the
        # sheet just above it
        table = await self.publishing.table_msg(rec, live, lang)
        new = await port.send_public(self.ctx.chat_value(chat), table, version=rec.version)
        await self.ctx.storage.set_message_ref(rec.id, new.to_json())
        latest = await self.ctx.storage.table(table_id)
        if latest.status == PLAYING and latest.version != rec.version:  # moves stored meanwhile by another worker
            again = await self.publishing.table_msg(latest, await self.ctx.live(latest), lang)
            with contextlib.suppress(MessageGone):
                await port.edit_public(new, again, version=latest.version)

    async def sheet(self, rec: TableRec, live: Live, chat: ChatRec, lang: str, lines: list[str]) -> Message:
        """The round's score sheet (all rounds so far) with the round's sentences."""
        view = live.state.view(None)
        names = self.publishing.names(rec, lang)
        title = f"{texts.game_name(rec.game, lang)} #{rec.id}"
        shown = lines[-6:]
        return await asyncio.get_running_loop().run_in_executor(
            self.ctx.pool,
            lambda: messages.sheet_message(game=rec.game, view=view, names=names, lines=shown, lang=lang, title=title),
        )

    # ---- a game stops -----------------------------------------------------------------------------------------
    async def retire_hands(self, rec: TableRec) -> None:
        """After a stop: every player's private message of the game keeps its hand picture and loses its buttons
        (best effort: a message that is gone, or a user who blocked the bot, needs nothing)."""
        chat = await self.people.chat_by_id(rec.chat_id)
        live = self.ctx.live_tables.get(rec.id)
        if live is None and rec.state is not None:
            with contextlib.suppress(Exception):
                live = await self.ctx.live(rec)
        for s in rec.seats:
            ref = MessageRef.from_json(s.private_ref)
            if s.user is None or ref is None:
                continue
            lang = self.people.user_lang(s.user)
            text = "\n".join([self.people.where(rec, chat, lang), t(lang, "The game was stopped.")])
            msg = Message(text)
            if live is not None:
                view = live.state.view(s.seat)
                draw = functools.partial(render_hand, view, lang=lang)
                picture = await asyncio.get_running_loop().run_in_executor(self.ctx.pool, draw)
                msg = Message(text, image=picture.data, image_name="hand.jpg")
            try:
                await self.ctx.port_for(s.user.platform).edit_private(self.ctx.user_value(s.user), ref, msg)
            except (MessageGone, Unreachable):
                log.info("a private message of table %s could not be retired", rec.id)
            except Exception:
                log.exception("retiring a private message of table %s failed", rec.id)

    # ---- play again ------------------------------------------------------------------------------------------
    async def press_play_again(self, press: Press, p: Payload, user: UserRec, chat: ChatRec | None, lang: str):
        """ "Play again" on a finished game's sheet: the first press opens a lobby with the same seats, computers
        and options (the presser hosts it and is in); every other player's seat is held until he confirms with
        one tap (this button again, or Join)."""
        old = await self.ctx.storage.table(p.table or 0)
        if old.status != FINISHED:
            raise Notice(t(lang, "This button is not valid."), True)
        if self.ctx.seat_of(old, user.id) is None:
            raise Notice(t(lang, "Only the players of this table can answer."), True)
        for _ in range(5):
            rec = await self.ctx.storage.open_table(old.chat_id)
            if rec is None:
                try:
                    rec = await self.open_rematch(old, user)
                except TableBusy:
                    continue
                chat_rec = await self.people.chat_by_id(old.chat_id)
                said = t(lang, "You are in: the others confirm with one tap.")
                await self.ctx.answer(press, said)  # before the new lobby, which may wait for the group's window
                await self.publishing.post_lobby(rec, chat_rec, lang)
                return said
            if rec.status != LOBBY or rec.options.get(REMATCH_OF) != old.id:
                raise Notice(t(lang, "A table is already open here."), True)
            held = list(rec.options.get(HELD) or [])
            if user.id not in held:
                raise Notice(t(lang, "You already have a seat at this table."))
            try:
                await self.confirm(rec, user.id)
            except Conflict:
                continue
            return t(lang, "You are in.")
        raise Conflict("busy lobby")

    async def open_rematch(self, old: TableRec, user: UserRec) -> TableRec:
        options = {k: v for k, v in old.options.items() if k not in (REMATCH_OF, HELD)}
        held = [s.user_id for s in old.seats if s.user_id is not None and s.user_id != user.id]
        options[REMATCH_OF] = old.id
        if held:
            options[HELD] = held
        seats = [SeatSpec(s.seat, s.user_id, s.computer) for s in old.seats]
        return await self.ctx.storage.create_table(
            old.chat_id, old.game, old.players, options, secrets.token_hex(8), user.id, seats=seats
        )

    async def confirm(self, rec: TableRec, user_id: int) -> TableRec:
        """A held seat is confirmed (compare-and-set on the lobby; ``Conflict`` when it changed meanwhile)."""
        options = dict(rec.options)
        options[HELD] = [u for u in options.get(HELD) or [] if u != user_id]
        if not options[HELD]:
            del options[HELD]
        rec = await self.ctx.storage.update_lobby(rec.id, rec.lobby_rev, options=options)
        await self.publishing.refresh_lobby(rec)
        return rec

    @staticmethod
    def held(rec: TableRec) -> list[int]:
        """The seated people of a rematch lobby who have not confirmed yet."""
        seated = {s.user_id for s in rec.seats if s.user_id is not None}
        return [u for u in rec.options.get(HELD) or [] if u in seated]
