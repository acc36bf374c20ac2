"""Everything the application sends: replies, the lobby and the public table message, the score sheet, each
player's private hand, invitations; all through the platform's port (``Context.port_for``).

Pictures are drawn in the context's thread pool, off the event loop. A private message is edited only when the
hand or the choices it shows changed, as its record says (``hand_key``, ``Port.record_of``). Every write of a
hand or of the table message carries the table version it shows: the port sends none older than what the
message holds, whichever worker wrote that (``bot.written``). A hand shown anew as a new message retires the
old one in the same step (``send_private(replaces=…)``); when the old one already shows a newer version, the
hand is read again from storage and shown anew at that version.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any

from bot import messages, payloads, tablepass, texts, written
from bot.app.context import Context
from bot.app.people import People
from bot.live import Live
from bot.messages import LobbyView, SeatInfo
from bot.port import (
    Button,
    Chat,
    Command,
    Message,
    MessageGone,
    MessageRef,
    Press,
    PrivateStart,
    Stale,
    Unreachable,
    User,
)
from bot.storage import FINISHED, PLAYING, ChatRec, TableRec, UserRec
from core import games
from core.base import Event, GameState
from core.i18n import t

log = logging.getLogger(__name__)

REMATCH_OF = "rematch_of"  # a rematch lobby's option: the finished table it repeats
HELD = "held"  # a rematch lobby's option: the people whose seats are held until they confirm (or the start)
LOBBY_DONE = 2**31 - 1  # the version of a lobby message's last words (started, closed): no lobby refresh passes it
DEAL_LEASE = 60.0  # seconds after which a worker's unfinished posting of a deal is taken over by another
ANEW_ATTEMPTS = 3  # a hand shown anew, read again from storage when the old message shows a newer version


class Publishing:
    def __init__(self, ctx: Context, people: People) -> None:
        self.ctx = ctx
        self.people = people
        self.notes: dict[int, tuple[int, list[str]]] = {}  # table -> (version, lines its table message tells)
        # lines a finished game's final sheet adds (``bot.app.achievements`` sets it: what each player earned)
        self.on_final: Callable[[TableRec, list[str], str], Awaitable[list[str]]] | None = None

    async def reply(self, cmd: Command, msg: Message) -> None:
        port = self.ctx.port_for(cmd.user.platform)
        if cmd.chat is None:
            try:
                await port.send_private(cmd.user, msg, via=cmd)
            except Unreachable:
                log.info("a private command could not be answered")
        else:
            await port.send_public(cmd.chat, msg, reply_to=cmd)

    async def tell(self, user: User, chat: Chat | None, msg: Message, *, via: Press | Command | None = None) -> None:
        """A notice for one person, never the whole group: privately (his private chat, an ephemeral message on
        Discord, the playground's private pane). Only when he cannot be reached privately, a short line in the
        group that names him (with the notice's buttons, which answer only him)."""
        port = self.ctx.port_for(user.platform)
        try:
            await port.send_private(user, msg, via=via)
            return
        except Unreachable:
            if chat is None:
                log.info("a notice could not be given privately")
                return
        line = Message(f"{user.name}: {msg.text}", buttons=msg.buttons)
        await port.send_public(chat, line, reply_to=via if isinstance(via, Command) else None)

    async def send_private(self, user: User, msg: Message, via: Press | Command | PrivateStart | None = None) -> Any:
        return await self.ctx.port_for(user.platform).send_private(user, msg, via=via)

    async def edit_or_send_private(
        self, user: User, ref: Any, msg: Message, via: Any = None, *, version: int | None = None
    ) -> Any:
        """Edit the user's private message in place, or send a new one when there is none (or it is gone)."""
        port = self.ctx.port_for(user.platform)
        if ref is not None and via is None:
            try:
                return await port.edit_private(user, ref, msg, version=version)
            except MessageGone:
                pass
        return await port.send_private(user, msg, via=via, version=version)

    async def answer_early(self, press: Press) -> None:
        """Answer a press before the rest of its work (a stored move is answered before it is drawn)."""
        await self.ctx.answer(press)

    async def show_public(self, rec: TableRec, chat: ChatRec, msg: Message, version: int | None = None) -> None:
        """Edit the table's public message, or post it when there is none; remember where it now is. ``version``:
        the table version it shows (a lobby: its ``lobby_rev``, ``LOBBY_DONE`` for its last words)."""
        port = self.ctx.port_for(chat.platform)
        ref = MessageRef.from_json(rec.message_ref)
        if ref is None:
            new = await port.send_public(self.ctx.chat_value(chat), msg, version=version)
        else:
            new = await port.edit_public(ref, msg, version=version)
        if ref is None or new != ref:
            await self.ctx.storage.set_message_ref(rec.id, new.to_json())

    async def announce(self, rec: TableRec, chat: ChatRec, text: str) -> None:
        port = self.ctx.port_for(chat.platform)
        await port.send_public(self.ctx.chat_value(chat), Message(text))

    async def invite(self, rec: TableRec, chat: ChatRec, user: UserRec, lang: str) -> None:
        if not await self.ctx.storage.invitation_sent(rec.id, user.id):
            return  # invited already (by this worker or another)
        if rec.game == "kozel":
            text = t(
                lang,
                "{name}, I cannot write to you privately yet: press the button below to get your tiles.",
                name=user.name,
            )
        else:
            text = t(
                lang,
                "{name}, I cannot write to you privately yet: press the button below to get your cards.",
                name=user.name,
            )
        port = self.ctx.port_for(chat.platform)
        await port.invite_private(
            self.ctx.chat_value(chat),
            self.ctx.user_value(user),
            Message(text),
            f"t{rec.id}",
            label=messages.show_mine(rec.game, lang),
        )

    @staticmethod
    def seat_infos(rec: TableRec, lang: str) -> list[SeatInfo | None]:
        """Who sits where, as the table's pictures and texts name them (pure: also for tests that check them)."""
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

    @staticmethod
    def names(rec: TableRec, lang: str) -> list[str]:
        infos = Publishing.seat_infos(rec, lang)
        return [i.name if i else "?" for i in infos]

    @staticmethod
    def infos(rec: TableRec, lang: str) -> list[SeatInfo]:
        return [i or SeatInfo(n, "?") for n, i in enumerate(Publishing.seat_infos(rec, lang))]

    def lobby_msg(self, rec: TableRec, lang: str, page: str = "main") -> Message:
        host = next((s.user.name for s in rec.seats if s.user_id == rec.host_user_id and s.user), "—")
        view = LobbyView(
            table_id=rec.id,
            rev=rec.lobby_rev,
            rules=games.get(rec.game),
            players=rec.players,
            seats=tuple(self.seat_infos(rec, lang)),
            host_name=host,
            options=self.ctx.core_options(rec),
            timer=self.ctx.timer_of(rec),
            pause=self.ctx.table_pause(rec),
            page=page,
            timeout_moves=self.ctx.timeout_moves(rec),
            hints=self.ctx.hints(rec),
            waiting=tuple(s.user.name for s in rec.seats if s.user and s.user_id in (rec.options.get(HELD) or [])),
        )
        return messages.lobby_message(view, lang)

    async def post_lobby(self, rec: TableRec, chat: ChatRec, lang: str, reply_to: Command | None = None):
        port = self.ctx.port_for(chat.platform)
        ref = await port.send_public(self.ctx.chat_value(chat), self.lobby_msg(rec, lang), reply_to=reply_to)
        await self.ctx.storage.set_message_ref(rec.id, ref.to_json())

    async def refresh_lobby(self, rec: TableRec, lang: str | None = None, page: str = "main") -> None:
        chat = await self.people.chat_by_id(rec.chat_id)
        lang = lang or self.people.lang_for(chat, None)  # type: ignore[arg-type]
        msg = self.lobby_msg(rec, lang, page)
        await self.show_public(rec, chat, msg, rec.lobby_rev)  # a refresh of an older lobby never passes it

    async def draw_table(self, rec: TableRec, view: dict[str, Any], recent: list[Any], lang: str) -> Message:
        """The table message of ``view`` (the public view) with the ``recent`` events, drawn in the pool."""
        title = f"{texts.game_name(rec.game, lang)} #{rec.id}"
        names = self.names(rec, lang)
        infos = self.infos(rec, lang)
        return await asyncio.get_running_loop().run_in_executor(
            self.ctx.pool,
            lambda: messages.table_message(
                game=rec.game,
                table_id=rec.id,
                view=view,
                names=names,
                seats=infos,
                recent=recent,
                lang=lang,
                title=title,
                style=self.ctx.style,
            ),
        )

    async def table_msg(self, rec: TableRec, live: Live, lang: str, notes: list[str] | None = None) -> Message:
        """The live table message. Its caption tells the current round only: a finished round's plays are on its
        sheet, just above the table posted for the next deal."""
        msg = await self.draw_table(rec, live.state.view(None), live.this_round(), lang)
        if notes or rec.status != PLAYING:
            extra = list(notes or [])
            if rec.status not in (PLAYING, FINISHED):
                extra.append(t(lang, "The game was stopped."))
            text = messages.fit("\n".join([msg.text, *extra]))
            buttons = msg.buttons if rec.status == PLAYING else ()
            msg = Message(text, image=msg.image, image_name=msg.image_name, buttons=buttons)
        if rec.status == PLAYING:
            msg = with_open_button(msg, self.ctx.webapp_url, rec.id, lang, self.ctx.webapp_key)
        return msg

    async def refresh_table(self, rec: TableRec, notes: list[str] | None = None) -> None:
        chat = await self.people.chat_by_id(rec.chat_id)
        lang = self.people.chat_lang(chat)
        live = await self.ctx.live(rec)
        await self.show_public(rec, chat, await self.table_msg(rec, live, lang, notes), live.version)

    def publish(
        self, rec: TableRec, events: list[Event], *, game_ended: bool = False, notes: list[str] | None = None
    ) -> None:
        """Ask the table's lanes (``bot.app.showing``) to show the stored move ``rec``: its hands and its table
        message, each drawn when its lane gets to it, from the table as stored then (nothing is drawn here). At a
        game's end its final sheet (``events``: the last move's) goes in the chat's lane, once the table message shows
        the end. ``notes``: lines the table message of this very version tells (a timeout)."""
        if notes:
            self.notes[rec.id] = (rec.version, list(notes))
        self.show_current(rec.id, rec.version)
        if game_ended:
            table_id, version, said = rec.id, rec.version, list(events)

            async def sheet() -> None:
                await self.ctx.showing.shown(("hands", table_id), version)  # the hands' end before the sheet
                await self.ctx.showing.shown(("table", table_id), version)
                fresh = await self.ctx.storage.table(table_id)
                chat = await self.people.chat_by_id(fresh.chat_id)
                live = await self.ctx.live(fresh)
                await self.post_sheet(fresh, live, said, chat, self.people.chat_lang(chat))

            self.ctx.outbox.append(("chat", rec.chat_id), sheet)

    def show_current(self, table_id: int, version: int = -1) -> None:
        """Ask both lanes of the table to show it as stored (at ``version`` or newer): after a move, and for a
        press whose move another worker stored, which may have died before showing it. What a message shows
        already is not sent again (``bot.written``), so when that worker did show it, this costs no write.
        Nothing is read here: the caller may hold the table's lock."""
        self.ctx.showing.want(("hands", table_id), version)
        self.ctx.showing.want(("table", table_id), version)

    async def hands_shown(self, table_id: int, version: int, *, through_pause: bool = True) -> None:
        """Wait until the table's hands show ``version`` or newer (not its table message, which a group's window
        may hold: a press's handler and a computer seat go on once the people hold their hands). Not
        ``through_pause``: nothing to wait for while a finished round is on view (the next deal's hands come
        after it)."""
        if through_pause or not self.ctx.pausing(table_id):
            await self.ctx.showing.shown(("hands", table_id), version)

    def deal_lapsed(self, rec: TableRec) -> bool:
        """A worker began to post a deal and has not finished within ``DEAL_LEASE`` (it died): take it over."""
        started = rec.dealing_at
        return started is not None and self.ctx.clock().timestamp() - started > DEAL_LEASE

    def later(self, chat: ChatRec, msg: Message) -> None:
        """Post a message in the chat after its queued sheets and announcements, without waiting for it."""
        port = self.ctx.port_for(chat.platform)
        target = self.ctx.chat_value(chat)

        async def post() -> None:
            await port.send_public(target, msg)

        self.ctx.outbox.append(("chat", chat.id), post)

    async def show_hands(self, table_id: int) -> int | None:
        """The hands lane's drawing: every seated person's hand and choices as the table is stored now (the player
        to act first), after the round's pause when one is on. A hand whose message shows this content already, or
        a newer version, is neither drawn nor sent (its record, ``Port.record_of``). Returns the version shown."""
        await self.ctx.pause_over(table_id)
        rec = await self.ctx.storage.table(table_id)
        if rec.state is None:
            return None
        live = await self.ctx.live(rec)
        chat = await self.people.chat_by_id(rec.chat_id)
        to_act = live.state.to_act
        seats = [s for s in sorted(rec.seats, key=lambda s: (s.seat != to_act, s.seat)) if s.user is not None]
        records = await self._held(seats)
        for s, held in zip(seats, records, strict=True):
            view = live.state.view(s.seat)
            key = self.hand_key(rec, s.seat, view, chat)
            if held is not None and not view.get("finished"):
                held_version, held_print = held
                if held_version is not None and held_version > rec.version:
                    continue  # a newer hand is shown (another worker): it stays
                if held_print == written.keyed(key):
                    continue  # the message shows this very hand and choices
            await self.send_hand(rec, s.seat, view=view, key=key)
        return rec.version

    async def _held(self, seats: list[Any]) -> list[tuple[int | None, str] | None]:
        """What each seat's private message shows, by its record (None: no message, or the port keeps none)."""
        out: list[tuple[int | None, str] | None] = []
        for s in seats:
            ref = MessageRef.from_json(s.private_ref)
            record_of = getattr(self.ctx.port_for(s.user.platform), "record_of", None) if s.user else None
            out.append(await record_of(ref) if ref is not None and record_of is not None else None)
        return out

    async def show_table(self, rec: TableRec) -> int:
        """The table lane's drawing of an ongoing round: the table message as ``rec`` is stored."""
        chat = await self.people.chat_by_id(rec.chat_id)
        lang = self.people.chat_lang(chat)
        live = await self.ctx.live(rec)
        noted = self.notes.get(rec.id)
        notes = noted[1] if noted is not None and noted[0] == live.version else None
        await self.show_public(rec, chat, await self.table_msg(rec, live, lang, notes), live.version)
        return live.version

    def hand_key(self, rec: TableRec, seat: int, view: dict[str, Any], chat: ChatRec) -> str:
        """What a seat's private message shows, as a key (``Message.key``): its hand, choices and everything
        else drawn on it; the version only when it carries buttons of the version (a seat with choices)."""
        seat_rec = next(s for s in rec.seats if s.seat == seat)
        lang = self.people.user_lang(seat_rec.user) if seat_rec.user is not None else ""
        data = [
            view.get("hand"),
            view.get("legal"),
            view.get("finished"),
            view.get("to_act") == view.get("seat"),
            seat_rec.taken_over,
            self.ctx.hints(rec),
            lang,
            self.names(rec, lang),
            self.people.where(rec, chat, lang),
            bool(self.ctx.webapp_url),
            rec.version if view.get("legal") else None,
        ]
        return hashlib.blake2b(json.dumps(data, sort_keys=True, default=str).encode(), digest_size=10).hexdigest()

    async def post_sheet(self, rec: TableRec, live: Live, events: list[Event], chat: ChatRec, lang: str) -> None:
        state = live.state
        view = state.view(None)
        names = self.names(rec, lang)
        lines = messages.sentences(rec.game, events, lang, names)[-6:]
        if state.finished:
            lines.append(await self.final_line(rec, state, names, lang))
        title = f"{texts.game_name(rec.game, lang)} #{rec.id}"
        msg = await asyncio.get_running_loop().run_in_executor(
            self.ctx.pool,
            lambda: messages.sheet_message(game=rec.game, view=view, names=names, lines=lines, lang=lang, title=title),
        )
        if state.finished:
            again = Button("🔁 " + t(lang, "Play again"), payloads.make("play_again", table=rec.id), style="primary")
            msg = Message(msg.text, image=msg.image, image_name=msg.image_name, buttons=((again,),))
        await self.ctx.port_for(chat.platform).send_public(self.ctx.chat_value(chat), msg)

    async def final_line(self, rec: TableRec, state: GameState, names: list[str], lang: str) -> str:
        rows = await self.ctx.storage.results(rec.id)
        parts = []
        if rec.game == "kozel" and state.loser is not None:
            parts.append(t(lang, "🐐 {name} is the kozel!", name=names[state.loser]))
        elif state.winner is not None:
            parts.append(t(lang, "🏆 {name} wins the game!", name=names[state.winner]))
        for r in sorted(rows, key=lambda r: r.place):
            if r.user_id is None or r.rating_after is None:
                continue
            delta = r.rating_after - (r.rating_before or 0.0)
            parts.append(texts.rating_line(rec.game, names[r.seat], r.rating_after, delta, r.rating_points, lang))
        if self.ctx.hints(rec):
            parts.append(t(lang, "Not rated: hints were on."))
        if self.on_final is not None:
            parts += await self.on_final(rec, names, lang)
        return "\n".join(parts)

    async def send_hand(
        self,
        rec: TableRec,
        seat: int,
        *,
        step: str | None = None,
        press: Press | None = None,
        via: Any = None,
        fresh: bool = False,
        view: dict[str, Any] | None = None,
        invite: bool = True,
        key: str | None = None,
    ) -> bool:
        """Send or edit the seat's private message (``view``: the seat's view when the caller has it, ``key`` its
        ``hand_key`` when the caller computed it already). False when
        the user cannot be reached privately (then he is invited in the group, unless ``invite`` is False).
        An edit older than what the message shows is not made (the newer hand is there); a hand shown anew when
        the old message shows a newer version is read again from storage and shown at that version."""
        for _ in range(ANEW_ATTEMPTS):
            try:
                return await self._send_hand(rec, seat, step, press, via, fresh, view, invite, key)
            except Stale:
                if not (fresh or via is not None) or step is not None:
                    return True  # the message shows a newer hand already: it stays
                rec, view, key = await self.ctx.storage.table(rec.id), None, None
        log.info("the hand of seat %s at table %s was not shown anew: the table kept moving", seat, rec.id)
        return True

    async def _send_hand(
        self,
        rec: TableRec,
        seat: int,
        step: str | None,
        press: Press | None,
        via: Any,
        fresh: bool,
        view: dict[str, Any] | None,
        invite: bool,
        key: str | None,
    ) -> bool:
        seat_rec = next((s for s in rec.seats if s.seat == seat), None)
        if seat_rec is None or seat_rec.user is None:
            return False
        user = self.ctx.user_value(seat_rec.user)
        lang = self.people.user_lang(seat_rec.user)
        chat = await self.people.chat_by_id(rec.chat_id)
        if view is None:
            view = (await self.ctx.live(rec)).state.view(seat)
        names = self.names(rec, lang)
        infos = self.infos(rec, lang)
        note = None
        if seat_rec.taken_over:
            note = t(lang, "The computer plays for you. Press “Take my seat back” to return.")
        msg = await asyncio.get_running_loop().run_in_executor(
            self.ctx.pool,
            lambda: messages.hand_message(
                game=rec.game,
                table_id=rec.id,
                version=rec.version,
                view=view,
                names=names,
                seats=infos,
                lang=lang,
                where=self.people.where(rec, chat, lang),
                step=step,
                note=note,
            ),
        )
        my_turn = view.get("to_act") == seat and bool(view.get("legal")) and not view.get("finished")
        if self.ctx.hints(rec) and my_turn and not seat_rec.taken_over and step is None:
            hint = Button("💡", payloads.make("hint", table=rec.id, version=rec.version))
            msg = Message(msg.text, image=msg.image, image_name=msg.image_name, buttons=(*msg.buttons, (hint,)))
        if seat_rec.taken_over:  # no moves while the computer plays; the way back is on this message
            back = Button(t(lang, "Take my seat back"), payloads.make("take_seat_back", table=rec.id))
            msg = Message(msg.text, image=msg.image, image_name=msg.image_name, buttons=((back,),))
        if not view.get("finished"):
            msg = with_open_button(msg, self.ctx.webapp_url, rec.id, lang, self.ctx.webapp_key)
        if step is None:  # the seat's hand and choices: recorded by what it shows, not by its bytes
            msg = replace(msg, key=key or self.hand_key(rec, seat, view, chat))
        ref = MessageRef.from_json(seat_rec.private_ref)
        port = self.ctx.port_for(user.platform)
        version = rec.version
        try:
            if press is not None and step is not None and press.message is not None:
                new_ref = await port.edit_private(user, press.message, msg, version=version)
            elif fresh or via is not None:  # anew, below the chat; the old message keeps its picture only
                old = Message(
                    t(lang, "Your hand is shown again in a newer message."), image=msg.image, image_name=msg.image_name
                )
                new_ref = await port.send_private(
                    user, msg, via=press or via, version=version, replaces=ref, retired=old
                )
            else:
                new_ref = await self.edit_or_send_private(user, ref, msg, version=version)
        except Unreachable:
            if invite:
                await self.invite(rec, chat, seat_rec.user, self.people.chat_lang(chat))
            return False
        if new_ref is not None and new_ref != ref:
            await self.ctx.storage.update_seat(rec.id, seat, private_ref=new_ref.to_json())
        return True


def with_open_button(
    msg: Message, webapp_url: str | None, table_id: int, lang: str, key: bytes | None = None
) -> Message:
    """``msg`` with an "Open the table" button as its last row when the web table is public (``WEBAPP_URL``): the
    page ``<WEBAPP_URL>/app/?t=<table>``, opened as the platform's web app where it has them (``Button.web_app``)."""
    if not webapp_url:
        return msg
    ticket = tablepass.make(key, table_id)  # signed: only the links the bot gave out open the table
    url = f"{webapp_url.rstrip('/')}/app/?t={ticket}"
    row = (Button("🃏 " + t(lang, "Open the table"), url=url, web_app=ticket),)
    return Message(
        msg.text, image=msg.image, image_name=msg.image_name, document=msg.document, buttons=(*msg.buttons, row)
    )
