"""The end of a round and of a game, as the group sees them: the finished round stays on view before the next deal,
the live table is posted again at the bottom of the chat, and a finished game offers "Play again".

A round's end (the state already holds the next deal; only what is shown, and when, is decided here):

1. the table message shows the finished round (its last trick and result) without buttons, and says when the
   next deal comes; the pending deal is stored in the table's ``deal_pending`` column (the version it belongs
   to), so a restart finishes it. This runs in order in the table's lane (``Showing.keep``);
2. after the table's ``round_pause`` (``Context.begin_pause``: the context's ``sleep``; the table lock is not held
   meanwhile) the table lane's next drawing (``show_table``) makes the old table message the round's score sheet
   (its buttons gone) and posts the next deal's table below it: the round's one new group message, so the table
   never scrolls out of sight behind sheets and announcements;
3. the hands lane draws the new deal's hands when the pause ends (at once without a pause), whatever the table's
   lane still waits for: a group that plays fast spends its window (20 writes a minute); the players play on
   meanwhile (issue 36). The computer seats move once those hands are out.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import secrets
from typing import Any

from bot import messages, texts
from bot.app.context import Context
from bot.app.people import People
from bot.app.publishing import DEAL_LEASE, HELD, REMATCH_OF, Publishing
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

    # ---- a round ends ---------------------------------------------------------------------------------------
    def round_ended(self, rec: TableRec, ended_view: dict[str, Any], events: list[Event], notes: list[str] | None):
        """A stored move ended a round (``rec``: the state holding the next deal). The table's lane shows the
        finished round first, in order (``round_over``); its next drawing is the next deal (``show_table``),
        after the table's pause; the hands lane shows the next deal's hands when the pause is over, whatever
        the group's window holds the table's lane for. Nothing is drawn here."""
        self.ctx.begin_pause(rec.id, self.ctx.pause_of(rec))
        self.ctx.showing.keep(
            ("table", rec.id), lambda: self.round_over(rec, ended_view, events, notes=notes), rec.version
        )
        self.ctx.showing.want(("hands", rec.id), rec.version)

    async def round_over(
        self, rec: TableRec, ended_view: dict[str, Any], events: list[Event], *, notes: list[str] | None
    ) -> None:
        """Show the finished round (with a pause: its last trick and result, without buttons, saying when the next
        deal comes) and mark the table's message as waiting for its next deal (``deal_pending``: a restart or
        another worker finishes it)."""
        pause = self.ctx.pause_of(rec)
        chat = await self.people.chat_by_id(rec.chat_id)
        lang = self.people.chat_lang(chat)
        names = self.publishing.names(rec, lang)
        lines = messages.sentences(rec.game, events, lang, names)
        fresh = await self.ctx.storage.table(rec.id)
        if fresh.deal_pending is not None and fresh.dealing_at is None:
            await self.deal_pending(rec.id)  # an earlier round still on view (the players moved on): its sheet first
            fresh = await self.ctx.storage.table(rec.id)
        ref = fresh.message_ref
        if pause > 0:
            msg = await self.ended_message(rec, ended_view, lines + list(notes or []), lang, pause)
            old = MessageRef.from_json(ref)
            port = self.ctx.port_for(chat.platform)
            try:
                shown = await port.edit_public(old, msg, version=rec.version) if old is not None else None
            except MessageGone:
                shown = None
            if shown is None:
                shown = await port.send_public(self.ctx.chat_value(chat), msg, version=rec.version)
            ref = shown.to_json()
        if isinstance(ref, dict):  # marked, so that no other worker edits it meanwhile
            self.lines[rec.id] = lines
            await self.ctx.storage.mark_deal(rec.id, rec.version, ref)

    async def show_table(self, table_id: int) -> int | None:
        """The table lane's drawing (``bot.app.showing``): the next deal when a finished round is on view (once
        the table's pause is over), else the table message as the table is stored now. Returns the version shown."""
        rec = await self.ctx.storage.table(table_id)
        if rec.state is None:
            return None
        if rec.deal_pending is not None:
            if rec.dealing_at is not None and not self.publishing.deal_lapsed(rec):
                return rec.version  # another worker posts the next deal: it shows the newest move when done
            await self.ctx.pause_over(table_id)
            return await self.deal_pending(table_id)
        return await self.publishing.show_table(rec)

    async def resume(self, rec: TableRec) -> None:
        """After a restart: a round end that was still on view gets its next deal shown now, table and hands (a
        deal whose poster died is taken over). Any other table is shown as it is until its next move: its
        messages show what they showed (a port that keeps its records in memory would only write them again)."""
        if rec.deal_pending is None:
            return
        if rec.dealing_at is not None:  # the worker that posted it died: taken over now
            await self.deal_pending(rec.id, taking_over=True)
        self.publishing.show_current(rec.id, rec.version)

    async def deal_pending(self, table_id: int, *, taking_over: bool = False) -> int | None:
        """The next deal of a table whose finished round is on view, by the one worker that claims it
        (``Storage.claim_deal``, a compare-and-set on the row); nothing when it was shown already or another
        worker shows it. Returns the version shown."""
        now = self.ctx.clock().timestamp()
        if await self.ctx.storage.claim_deal(table_id, now, 0.0 if taking_over else DEAL_LEASE):
            return await self.deal(table_id, self.lines.pop(table_id, None))
        return (await self.ctx.storage.table(table_id)).version

    async def ended_message(
        self, rec: TableRec, view: dict[str, Any], lines: list[str], lang: str, pause: float
    ) -> Message:
        """The table message while a finished round is on view: its last trick and result, no buttons."""
        title = f"{texts.game_name(rec.game, lang)} #{rec.id}"
        msg = await self.publishing.draw_table(rec, view, [], lang)
        text = "\n".join([title, *lines[-messages.CAPTION_EVENTS :], t(lang, "Next deal in {n} s.", n=round(pause))])
        return Message(messages.fit(text), image=msg.image, image_name=msg.image_name)

    async def deal(self, table_id: int, lines: list[str] | None) -> int | None:
        """The finished round's table message becomes its score sheet (no buttons); the current table is posted
        below it (the hands are the hands lane's). Nothing when the table has stopped meanwhile. ``lines``: the
        finished round's sentences (None: told again from the table's recent events, as a restarted or another
        worker does). Returns the version shown."""
        rec = await self.ctx.storage.table(table_id)
        if rec.status != PLAYING or rec.broken:
            self.lines.pop(table_id, None)
            await self.ctx.storage.deal_shown(table_id, rec.message_ref)  # no deal to show any more
            return None if rec.state is None else await self.publishing.show_table(rec)
        chat = await self.people.chat_by_id(rec.chat_id)
        lang = self.people.chat_lang(chat)
        live = await self.ctx.live(rec)
        port = self.ctx.port_for(chat.platform)
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
        await self.ctx.storage.deal_shown(rec.id, new.to_json())
        latest = await self.ctx.storage.table(table_id)
        if latest.status == PLAYING and latest.version != rec.version:  # moves stored meanwhile by another worker
            again = await self.publishing.table_msg(latest, await self.ctx.live(latest), lang)
            with contextlib.suppress(MessageGone):
                await port.edit_public(new, again, version=latest.version)
            return latest.version
        return rec.version

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
