"""The chat application: one behaviour for every platform, driven through ``bot.port``.

An adapter hands in ``Command``, ``Press`` and ``PrivateStart`` values; everything a user sees goes out through
the adapter's ``Port``. ``Application`` is the facade the adapters use; the work is done by services that share
one ``Context`` (storage, ports, settings, clock, caches), each in its own module, importing only those below it:

* ``context``: the shared state; ``people``: user and chat records, languages;
* ``publishing``: replies, the lobby and table messages, hands, score sheets, sent through the ports;
* ``turns``: moves, computer seats, turn timers, the game's end; ``results``: places and ratings;
* ``lobby``: opening a table, seats, computer seats, conventions, start, leave, stop;
* ``info``: rules, help, language, score, leaderboards, statistics, history, export.

A press is dispatched on its kind's readable name (``bot.payloads.KINDS``) to the handler in ``press_handlers``;
a command on its name to ``command_handlers``. The database (``bot.storage``) holds the truth; a press is checked
against it (seated, turn, version, legal) and a move is stored with compare-and-set, so a doubled press or two
workers racing apply it once.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import Any

from bot import keys, metrics, payloads, solo, tablepass
from bot.app.achievements import Achievements
from bot.app.context import PRESSED, Context, Pressed
from bot.app.daily import Daily
from bot.app.info import Info
from bot.app.lobby import Lobby
from bot.app.notify import Notify
from bot.app.people import People
from bot.app.publishing import Publishing
from bot.app.rounds import Rounds
from bot.app.seasons import Seasons
from bot.app.turns import Turns
from bot.live import Live
from bot.notice import Notice
from bot.port import Command, Message, Port, Press, PrivateStart
from bot.storage import (
    BrokenTable,
    ChatRec,
    Conflict,
    InvalidInput,
    NotFound,
    Storage,
    StorageError,
    TableBusy,
    TableRec,
    UserRec,
)
from core.ai.player import ComputerPlayer
from core.base import Action
from core.i18n import again, normalize, t

log = logging.getLogger(__name__)
CLOSE_WAIT = 10.0  # seconds a closing worker gives its queued publications (sheets may wait for a group's window)

CommandHandler = Callable[[Command, UserRec, ChatRec | None, str], Awaitable[None]]
PressHandler = Callable[[Press, payloads.Payload, UserRec, ChatRec | None, str], Awaitable[str | None]]


class Application:
    """The bot's behaviour. Create with ``create_application`` (or directly over an open ``Storage``)."""

    def __init__(
        self,
        storage: Storage,
        *,
        clock: Callable[[], datetime] | None = None,
        computer_pause: float = 0.8,
        tick_interval: float = 1.0,
        think_cap: float = 3.0,
        style: str = "classic",
        round_pause: float | None = None,
        sleep: Callable[[float], Awaitable[Any]] | None = None,
    ) -> None:
        self.ctx = Context(
            storage,
            clock=clock,
            computer_pause=computer_pause,
            tick_interval=tick_interval,
            think_cap=think_cap,
            style=style,
            round_pause=round_pause,
            sleep=sleep,
        )
        self.people = People(self.ctx)
        self.publishing = Publishing(self.ctx, self.people)
        self.rounds = Rounds(self.ctx, self.people, self.publishing)
        self.turns = Turns(self.ctx, self.people, self.publishing, self.rounds)
        self.ctx.showing.draw = self._draw  # what a table's lanes show, drawn when they run (bot.app.showing)
        self.lobby = Lobby(self.ctx, self.people, self.publishing, self.turns)
        self.achievements = Achievements(self.ctx, self.people, self.publishing)
        self.seasons = Seasons(self.ctx, self.people, self.publishing)
        self.info = Info(self.ctx, self.people, self.publishing, self.lobby, self.achievements, self.seasons)
        self.daily = Daily(self.ctx, self.people, self.publishing, self.turns, self.lobby, self.achievements)
        self.notify = Notify(self.ctx, self.people, self.publishing, self.lobby)
        # the few things a lower service tells a higher one, wired here (no service sets a hook on another)
        self.publishing.on_final = self.achievements.final_lines  # a final sheet's lines of what each one earned
        self.turns.on_solo_end = self.daily.round_done  # a daily attempt's round ended: counted and shown
        self.lobby.on_open = self.notify.table_opened  # a table opened: its subscribers are told
        self._timer_task: asyncio.Task[None] | None = None
        self._inflight: set[asyncio.Task[Any]] = set()
        lobby, turns, info = self.lobby, self.turns, self.info
        # every chat command (the fixed names of the guide) and its handler
        self.command_handlers: dict[str, CommandHandler] = {
            "new": lobby.cmd_new,
            "join": lobby.cmd_join,
            "leave": lobby.cmd_leave,
            "stop": lobby.cmd_stop,
            "table": lobby.cmd_table,
            "settings": lobby.cmd_settings,
            "help": info.cmd_help,
            "rules": info.cmd_rules,
            "lang": info.cmd_lang,
            "score": info.cmd_score,
            "top": info.cmd_top,
            "me": info.cmd_me,
            "history": info.cmd_history,
            "export": info.cmd_export,
            "daily": self.daily.cmd_daily,
            "notify": self.notify.cmd_notify,
            "season": self.seasons.cmd_season,
        }
        # every button kind of ``bot.payloads.KINDS`` (by its readable name) and its handler
        self.press_handlers: dict[str, PressHandler] = {
            "move": turns.press_move,
            "picker_step": turns.press_picker_step,
            "show_hand": turns.press_show_hand,
            "take_seat_back": turns.press_take_seat_back,
            "hint": turns.press_hint,
            "join": lobby.press_join,
            "leave": lobby.press_leave,
            "start": lobby.press_start,
            "add_computer": lobby.press_add_computer,
            "remove_computer": lobby.press_remove_computer,
            "seat_count": lobby.press_seat_count,
            "next_option": lobby.press_next_option,
            "settings_page": lobby.press_settings_page,
            "open_game": lobby.press_open_game,
            "stop_agree": lobby.press_stop_agree,
            "stop_keep": lobby.press_stop_keep,
            "play_again": self.rounds.press_play_again,
            "language": info.press_language,
            "daily": self.daily.press_daily,
            "daily_stop": self.daily.press_daily_stop,
        }
        unhandled = {k.name for k in payloads.KINDS.values()} ^ set(self.press_handlers)
        if unhandled:
            raise RuntimeError(f"button kinds without a handler, or handlers without a kind: {unhandled}")

    # ---- what tests, benchmarks and tools reach for --------------------------------------------------------
    @property
    def storage(self) -> Storage:
        return self.ctx.storage

    @property
    def ports(self) -> dict[str, Port]:
        return self.ctx.ports

    @property
    def think_cap(self) -> float:
        return self.ctx.think_cap

    @think_cap.setter
    def think_cap(self, value: float) -> None:
        self.ctx.think_cap = value

    @property
    def _live(self) -> dict[int, Live]:
        return self.ctx.live_tables

    async def live(self, rec: TableRec) -> Live:
        return await self.ctx.live(rec)

    async def tick(self) -> int:
        return await self.turns.tick()

    def ai_seed(self, table_id: int, seat: int) -> str:
        return self.turns.ai_seed(table_id, seat)

    def computer(self, rec: TableRec, seat: int, level: str) -> ComputerPlayer:
        return self.turns.computer(rec, seat, level)

    async def decide(self, rec: TableRec, live: Live, seat: int, level: str) -> Action:
        return await self.turns.decide(rec, live, seat, level)

    # ---- life cycle and entry points -----------------------------------------------------------------------
    def attach(self, port: Port) -> None:
        self.ctx.ports[port.platform] = port
        self.ctx.ports.pop(solo.solo_platform(port.platform), None)  # a private tables' route to an older port

    async def start(self) -> None:
        """Check every open table against its log, resume the round ends and computer seats of the tables this
        worker can publish (``Context.reach``: another worker resumes the others), and start the turn timers."""
        broken = await self.ctx.storage.verify_open_tables()
        for table_id in broken:
            log.error("table %s is broken: it will not be played on", table_id)
        for rec in await self.ctx.storage.playing_tables(self.ctx.reach()):
            if rec.broken is None:
                try:
                    await self.rounds.resume(rec)
                except Exception:  # a table that cannot be shown now is shown at its next move
                    log.exception("the round end of table %s could not be finished", rec.id)
                self.turns.kick(rec.id)
        if self.ctx.tick_interval > 0 and self._timer_task is None:
            self._timer_task = asyncio.create_task(self._timer_loop())
        # Everything loaded so far (code, catalogs, picture caches) lives as long as the process: keep the
        # collector from walking it again and again (a full collection of it stalled the loop for ~60-100 ms).
        gc.collect()
        gc.freeze()

    async def quiesce(self) -> None:
        """Stop the timers and computer players and show what moves still show, for ``CLOSE_WAIT`` at most, while
        the adapters' ports are still open (``python -m bot`` closes them after: a hand on its way is not cut off by
        a closed connection). ``close`` does the same, for whatever is left."""
        if self._timer_task is not None:
            self._timer_task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._timer_task
            self._timer_task = None
        background = list(self.ctx.drivers.values()) + list(self.ctx.round_ends.values())
        for task in background:
            task.cancel()
        for task in background:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        with contextlib.suppress(TimeoutError):  # what moves still show goes out, for a little while
            await asyncio.wait_for(asyncio.gather(self.ctx.showing.idle(), self.ctx.outbox.idle()), CLOSE_WAIT)

    async def close(self) -> None:
        await self.quiesce()
        await self.ctx.showing.close()
        await self.ctx.outbox.close()
        self.ctx.close_pools()
        await self.ctx.storage.close()

    async def _draw(self, lane: Any) -> int | None:
        """A table lane's drawing: its hands (``Publishing.show_hands``) or its table message
        (``Rounds.show_table``: the next deal while a finished round is on view)."""
        kind, table_id = lane
        if kind == "hands":
            return await self.publishing.show_hands(table_id)
        return await self.rounds.show_table(table_id)

    async def idle(self) -> None:
        """Wait until no computer seat is thinking and no press is still being published (tests, benchmarks)."""
        while True:
            me = asyncio.current_task()
            running = list(self.ctx.drivers.values()) + list(self.ctx.round_ends.values()) + list(self._inflight)
            tasks = [t for t in running if not t.done() and t is not me]
            if not tasks and not self.ctx.outbox.busy and not self.ctx.showing.busy:
                return
            await asyncio.gather(*tasks, return_exceptions=True)
            await self.ctx.showing.idle()
            await self.ctx.outbox.idle()

    async def _timer_loop(self) -> None:
        while True:
            try:
                await self.turns.tick()
            except Exception:  # a failing tick must not stop the timers
                log.exception("timer tick failed")
            try:
                await self.seasons.tick()
            except Exception:
                log.exception("the season look failed")
            await asyncio.sleep(self.ctx.tick_interval)

    async def command(self, cmd: Command) -> None:
        """A typed command; every reply goes out through the port."""
        user = await self.people.user_rec(cmd.user)
        chat = await self.people.chat_rec(cmd.chat, cmd.user) if cmd.chat is not None else None
        lang = self.people.lang_for(chat, user, cmd.user)
        handler = self.command_handlers.get(cmd.name)
        refusal: str | None = None
        outcome = "error"
        try:
            if handler is None:
                raise Notice(t(lang, "Unknown command. /help lists what I understand."))
            await handler(cmd, user, chat, lang)
            outcome = "done"
        except Notice as notice:
            refusal = notice.text
        except TableBusy:
            refusal = t(lang, "A table is already open here.")
        except BrokenTable:
            refusal = self.ctx.broken_text(lang)
        except (NotFound, Conflict, InvalidInput):
            refusal = t(lang, "That did not work: the table has changed. Please try again.")
        finally:
            name = cmd.name if handler is not None else "unknown"  # only known names: a bounded label
            metrics.COMMANDS.labels(cmd.user.platform, name, "notice" if refusal else outcome).inc()
        if refusal is not None:  # a refusal is for the one who typed it, in his language
            plang = self.people.user_lang(user, cmd.user)
            await self.publishing.tell(cmd.user, cmd.chat, Message(again(refusal, plang)), via=cmd)

    async def press(self, press: Press) -> None:
        """A button press: checked, applied once, and always answered exactly once (a stored move is answered
        before it is drawn and published; ``idle()`` waits for the rest)."""
        task = asyncio.current_task()
        if task is not None:
            self._inflight.add(task)
        metrics.arrived(press)
        outcome = "error"
        try:
            outcome = await self._press(press)
        finally:
            metrics.forget(press)
            metrics.PRESSES.labels(press.user.platform, outcome).inc()
            if task is not None:
                self._inflight.discard(task)

    async def _press(self, press: Press) -> str:
        """Handle and answer the press; returns how it went (done, notice, error) for the metrics."""
        text: str | None = None
        alert = False
        pressed = Pressed(press)
        token = PRESSED.set(pressed)  # group sends answer it first (``Context.port_for``)
        outcome = "done"
        try:
            user = await self.people.user_rec(press.user)
            chat = await self.people.chat_rec(press.chat, press.user) if press.chat is not None else None
            lang = self.people.lang_for(chat, user, press.user)
            p = payloads.parse(press.payload)
            if p is None:
                raise Notice(t(lang, "This button is not valid."), alert=True)
            handler = self.press_handlers.get(p.name)
            if handler is None:
                raise Notice(t(lang, "This button is not valid."), alert=True)
            try:
                result = await handler(press, p, user, chat, lang)
            except NotFound:
                raise Notice(t(lang, "This table no longer exists."), alert=True) from None
            except BrokenTable:
                raise Notice(self.ctx.broken_text(lang), alert=True) from None
            except TableBusy:  # e.g. a game chosen in "Which game?" while a table is open: expected, no crash
                raise Notice(t(lang, "A table is already open here."), alert=True) from None
            except Conflict:
                raise Notice(t(lang, "Already done: the table has moved on."), alert=False) from None
            except InvalidInput:
                raise Notice(t(lang, "This button is not valid."), alert=True) from None
            if isinstance(result, str):  # an answer is for the presser alone: in his language, like a notice
                text = again(result, self.people.user_lang(user, press.user))
        except Notice as notice:  # answered to the presser alone, in his language
            text, alert = again(notice.text, self.people.user_lang(user, press.user)), notice.alert
            outcome = "notice"
        except StorageError:
            outcome = "error"
            log.exception("storage failed on a press")
            text = t(normalize(press.user.language), "Something went wrong; nothing was changed. Please try again.")
            alert = True
        finally:
            try:
                await self.ctx.answer(press, text, alert=alert)  # unless it was answered early
            finally:
                pressed.answered = True  # work it left behind (queued sends) never answers it again
                PRESSED.reset(token)
        return outcome

    async def private_start(self, start: PrivateStart) -> None:
        """The user opened the private chat (with an invitation's payload, or none)."""
        user = await self.people.user_rec(start.user)
        lang = self.people.user_lang(user, start.user)
        table_id = None
        if start.payload.startswith("t") and start.payload[1:].isdigit():
            table_id = payloads.number(start.payload[1:])
            if table_id is None:  # forged: no table can have this number
                await self.publishing.send_private(start.user, Message(t(lang, "This button is not valid.")), via=start)
                return
        if table_id is not None:
            try:
                rec = await self.ctx.storage.table(table_id)
            except NotFound:
                rec = None
            if rec is not None and self.ctx.seat_of(rec, user.id) is not None:
                await self.ctx.storage.clear_invitation(rec.id, user.id)  # reached: no longer waited for
                await self.lobby.welcome_seated(rec, user, start)
                return
        await self.publishing.send_private(start.user, Message(self.info.private_help(lang)), via=start)


async def create_application(settings: Any, *, clock: Callable[[], datetime] | None = None) -> Application:
    """Open the storage of ``settings`` (migrating it) and build the application over it."""
    storage = await Storage.open(settings.database_url, data_dir=settings.data_dir)
    app = Application(
        storage,
        clock=clock,
        computer_pause=settings.computer_pause,
        tick_interval=settings.tick_interval,
        think_cap=settings.think_cap,
        round_pause=getattr(settings, "round_pause", None),
    )
    public = getattr(settings, "public_webapp_url", None)
    app.ctx.webapp_url = public() if public is not None else getattr(settings, "webapp_url", None)
    app.ctx.webapp_key = tablepass.key_of(getattr(settings, "telegram_bot_token", None))
    secret = getattr(settings, "telegram_bot_token", None) or getattr(settings, "discord_bot_token", None)
    app.daily.key = keys.purpose_key(secret, keys.DAILY_SEED) if secret else None
    return app
