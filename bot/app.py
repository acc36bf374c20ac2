"""The chat application: one behaviour for every platform, driven through ``bot.port``.

An adapter hands in ``Command``, ``Press`` and ``PrivateStart`` values; everything a user sees goes out through
the adapter's ``Port``. The features live in three parts mixed into ``Application``:

* ``bot.lobby.Lobby``: opening a table, seats, computer seats, conventions, start, leave, stop;
* ``bot.play.Play``: moves, the public table and private hands, computer players, turn timers, the game's end;
* ``bot.info.Info``: rules, help, language, score, leaderboards, statistics, history, export.

The database (``bot.storage``) holds the truth; a press is checked against it (seated, turn, version, legal) and a
move is stored with compare-and-set, so a doubled press or two workers racing apply it once.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import multiprocessing
import os
import secrets
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from datetime import UTC, datetime
from typing import Any

from bot import payloads
from bot.info import Info
from bot.live import Live, catch_up, replay
from bot.lobby import Lobby
from bot.notice import Notice
from bot.play import Play
from bot.port import Answering, Chat, Command, Message, MessageGone, Port, Press, PrivateStart, Unreachable, User
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
from bot.storage.integrity import core_options
from core.i18n import normalize, t

log = logging.getLogger(__name__)


class Application(Lobby, Play, Info):
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
    ) -> None:
        self.storage = storage
        self.ports: dict[str, Port] = {}
        self.clock = clock or (lambda: datetime.now(UTC))
        self.computer_pause = computer_pause
        self.tick_interval = tick_interval
        self.think_cap = think_cap
        self.style = style
        self.pool = ThreadPoolExecutor(max_workers=2, thread_name_prefix="draw")
        self._think_pool: ProcessPoolExecutor | None = None
        self._think_warm = False
        self.ai_key = secrets.token_bytes(16)  # computer seeds: never derived from a table's deal seed
        self._locks: dict[int, asyncio.Lock] = {}
        self._live: dict[int, Live] = {}
        self._drivers: dict[int, asyncio.Task[None]] = {}
        self._timer_task: asyncio.Task[None] | None = None
        self._invited: set[tuple[int, int]] = set()
        self._pending: dict[int, set[int]] = {}
        self._chats: dict[int, ChatRec] = {}
        self._chat_keys: dict[tuple[str, str, str | None], int] = {}
        self._users: dict[tuple[str, str], UserRec] = {}
        self._answered_early: set[int] = set()
        self._inflight: set[asyncio.Task[Any]] = set()
        self.observers: list[Callable[[int], None]] = []  # told of every stored change of a table (bot.webapp)
        self.webapp_url: str | None = None  # the web table's public address (WEBAPP_URL): Mini App buttons

    # ---- life cycle --------------------------------------------------------------------------------------
    def attach(self, port: Port) -> None:
        self.ports[port.platform] = port

    async def start(self) -> None:
        """Check every open table against its log, resume computer seats, and start the turn timers."""
        broken = await self.storage.verify_open_tables()
        for table_id in broken:
            log.error("table %s is broken: it will not be played on", table_id)
        for rec in await self.storage.playing_tables():
            if rec.broken is None:
                self.kick(rec.id)
        if self.tick_interval > 0 and self._timer_task is None:
            self._timer_task = asyncio.create_task(self._timer_loop())
        # Everything loaded so far (code, catalogs, picture caches) lives as long as the process: keep the
        # collector from walking it again and again (a full collection of it stalled the loop for ~60-100 ms).
        gc.collect()
        gc.freeze()

    async def close(self) -> None:
        if self._timer_task is not None:
            self._timer_task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._timer_task
            self._timer_task = None
        for task in list(self._drivers.values()):
            task.cancel()
        for task in list(self._drivers.values()):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self.pool.shutdown(wait=False, cancel_futures=True)
        if self._think_pool is not None:
            self._think_pool.shutdown(wait=False, cancel_futures=True)
            self._think_pool = None
            self._think_warm = False
        await self.storage.close()

    async def idle(self) -> None:
        """Wait until no computer seat is thinking and no press is still being published (tests, benchmarks)."""
        while True:
            me = asyncio.current_task()
            running = list(self._drivers.values()) + list(self._inflight)
            tasks = [t for t in running if not t.done() and t is not me]
            if not tasks:
                return
            await asyncio.gather(*tasks, return_exceptions=True)

    async def _timer_loop(self) -> None:
        while True:
            try:
                await self.tick()
            except Exception:  # a failing tick must not stop the timers
                log.exception("timer tick failed")
            await asyncio.sleep(self.tick_interval)

    def think_pool(self) -> ProcessPoolExecutor:
        """Processes for the strong computer players (started on first use)."""
        if self._think_pool is None:
            self._think_pool = ProcessPoolExecutor(
                max_workers=2, mp_context=multiprocessing.get_context("spawn"), initializer=_lower_priority
            )
        return self._think_pool

    async def warm_think_pool(self) -> None:
        """Start the thinking processes from a thread: starting them on the event loop would stall it."""
        if self._think_warm:
            return
        self._think_warm = True
        await asyncio.get_running_loop().run_in_executor(self.pool, _start_processes, self.think_pool())

    def lock(self, table_id: int) -> asyncio.Lock:
        lock = self._locks.get(table_id)
        if lock is None:
            lock = self._locks[table_id] = asyncio.Lock()
        return lock

    # ---- entry points ------------------------------------------------------------------------------------
    async def command(self, cmd: Command) -> None:
        """A typed command; every reply goes out through the port."""
        user = await self.user_rec(cmd.user)
        chat = await self.chat_rec(cmd.chat, cmd.user) if cmd.chat is not None else None
        lang = self.lang_for(chat, user, cmd.user)
        handler = getattr(self, f"cmd_{cmd.name}", None)
        try:
            if handler is None:
                raise Notice(t(lang, "Unknown command. /help lists what I understand."))
            await handler(cmd, user, chat, lang)
        except Notice as notice:
            await self.reply(cmd, Message(notice.text))
        except TableBusy:
            await self.reply(cmd, Message(t(lang, "A table is already open here.")))
        except BrokenTable:
            await self.reply(cmd, Message(self.broken_text(lang)))
        except (NotFound, Conflict, InvalidInput):
            await self.reply(cmd, Message(t(lang, "That did not work: the table has changed. Please try again.")))

    async def press(self, press: Press) -> None:
        """A button press: checked, applied once, and always answered exactly once (a stored move is answered
        before it is drawn and published; ``idle()`` waits for the rest)."""
        task = asyncio.current_task()
        if task is not None:
            self._inflight.add(task)
        try:
            await self._press(press)
        finally:
            if task is not None:
                self._inflight.discard(task)

    async def _press(self, press: Press) -> None:
        text: str | None = None
        alert = False
        try:
            user = await self.user_rec(press.user)
            chat = await self.chat_rec(press.chat, press.user) if press.chat is not None else None
            lang = self.lang_for(chat, user, press.user)
            p = payloads.parse(press.payload)
            if p is None:
                raise Notice(t(lang, "This button is not valid."), alert=True)
            handler = getattr(self, f"press_{p.kind}", None)
            if handler is None:
                raise Notice(t(lang, "This button is not valid."), alert=True)
            try:
                result = await handler(press, p, user, chat, lang)
            except NotFound:
                raise Notice(t(lang, "This table no longer exists."), alert=True) from None
            except BrokenTable:
                raise Notice(self.broken_text(lang), alert=True) from None
            except Conflict:
                raise Notice(t(lang, "Already done: the table has moved on."), alert=False) from None
            except InvalidInput:
                raise Notice(t(lang, "This button is not valid."), alert=True) from None
            if isinstance(result, str):
                text = result
        except Notice as notice:
            text, alert = notice.text, notice.alert
        except StorageError:
            log.exception("storage failed on a press")
            text = t(normalize(press.user.language), "Something went wrong; nothing was changed. Please try again.")
            alert = True
        finally:
            if id(press) in self._answered_early:
                self._answered_early.discard(id(press))
            else:
                port = self.answerer(press)
                if port is not None:
                    try:
                        await port.answer(press, text, alert=alert)
                    except Exception:
                        log.exception("answering a press failed")

    async def answer_early(self, press: Press) -> None:
        """Answer a press before the rest of its work (a stored move is answered before it is drawn)."""
        if id(press) in self._answered_early:
            return
        self._answered_early.add(id(press))
        port = self.answerer(press)
        if port is not None:
            try:
                await port.answer(press, None, alert=False)
            except Exception:
                log.exception("answering a press failed")

    def answerer(self, press: Press) -> Answering | Port | None:
        """Who answers a press: the web table's page it came from, else the platform's port."""
        if isinstance(press.handle, Answering):
            return press.handle
        return self.ports.get(press.user.platform)

    def table_changed(self, table_id: int) -> None:
        """A table's stored state changed (a move, a start): tell the observers (the web table's pages)."""
        for observer in self.observers:
            try:
                observer(table_id)
            except Exception:
                log.exception("a table observer failed")

    async def private_start(self, start: PrivateStart) -> None:
        """The user opened the private chat (with an invitation's payload, or none)."""
        user = await self.user_rec(start.user)
        lang = self.user_lang(user, start.user)
        table_id = None
        if start.payload.startswith("t") and start.payload[1:].isdigit():
            table_id = int(start.payload[1:])
        if table_id is not None:
            try:
                rec = await self.storage.table(table_id)
            except NotFound:
                rec = None
            if rec is not None and self.seat_of(rec, user.id) is not None:
                self._pending.get(rec.id, set()).discard(user.id)
                self._invited.discard((rec.id, user.id))
                await self.welcome_seated(rec, user, start)
                return
        await self.send_private(start.user, Message(self.private_help(lang)), via=start)

    # ---- people, chats, languages ------------------------------------------------------------------------
    async def user_rec(self, user: User) -> UserRec:
        """The stored user (created on first sight, renamed when the platform name changed); cached."""
        key = (user.platform, user.id)
        name = user.name[:64] or user.id
        rec = self._users.get(key)
        if rec is not None and rec.name == name:
            return rec
        rec = await self.storage.user(user.platform, user.id, name)
        if rec.language is None and user.language:
            rec = await self.storage.set_user_language(rec.id, normalize(user.language))
        self._users[key] = rec
        return rec

    async def chat_rec(self, chat: Chat, user: User | None = None) -> ChatRec:
        """The stored chat or topic (created on first sight, its title kept current); cached."""
        key = (chat.platform, chat.id, chat.thread)
        title = chat.title[:128]
        cached = self._chat_keys.get(key)
        if cached is not None:
            rec = self._chats.get(cached)
            if rec is not None and rec.title == title:
                return rec
        rec = await self.storage.chat(chat.platform, chat.id, chat.thread, title)
        if rec.language is None:
            hint = chat.language or (user.language if user is not None else None)
            if hint:
                rec = await self.storage.set_chat_language(rec.id, normalize(hint))
        self._chats[rec.id] = rec
        self._chat_keys[key] = rec.id
        return rec

    async def chat_by_id(self, chat_id: int) -> ChatRec:
        rec = self._chats.get(chat_id)
        if rec is None:
            rec = self._chats[chat_id] = await self.storage.get_chat(chat_id)
        return rec

    def lang_for(self, chat: ChatRec | None, user: UserRec, platform_user: User | None = None) -> str:
        if chat is not None:
            return normalize(chat.language or user.language or (platform_user.language if platform_user else None))
        return self.user_lang(user, platform_user)

    def user_lang(self, user: UserRec | None, platform_user: User | None = None) -> str:
        return normalize((user.language if user else None) or (platform_user.language if platform_user else None))

    @staticmethod
    def chat_value(rec: ChatRec) -> Chat:
        return Chat(rec.platform, rec.platform_id, rec.thread, rec.title, rec.language)

    @staticmethod
    def user_value(rec: UserRec) -> User:
        return User(rec.platform, rec.platform_id, rec.name, rec.language)

    def broken_text(self, lang: str) -> str:
        return t(lang, "This table is damaged and cannot be played on; it has been reported.")

    # ---- tables ------------------------------------------------------------------------------------------
    @staticmethod
    def seat_of(rec: TableRec, user_id: int) -> int | None:
        for s in rec.seats:
            if s.user_id == user_id:
                return s.seat
        return None

    @staticmethod
    def core_options(rec: TableRec) -> dict[str, Any]:
        return core_options(rec.game, rec.options)

    async def live(self, rec: TableRec) -> Live:
        """The table's state and recent events at the record's version (see ``bot.live``)."""
        if rec.state is None:
            raise NotFound(f"table {rec.id} has not started", "not_started")
        cached = self._live.get(rec.id)
        if cached is not None and cached.version == rec.version:
            return cached
        moves = await self.storage.moves(rec.id)
        if cached is not None and cached.version < rec.version:
            try:
                live = catch_up(cached, rec, moves)
            except Exception:
                live = replay(rec, moves, self.core_options(rec))
        else:
            live = replay(rec, moves, self.core_options(rec))
        self._live[rec.id] = live
        return live

    def forget(self, table_id: int) -> None:
        self._live.pop(table_id, None)

    # ---- sending -----------------------------------------------------------------------------------------
    def port_for(self, platform: str) -> Port:
        port = self.ports.get(platform)
        if port is None:
            raise RuntimeError(f"no adapter attached for {platform}")
        return port

    async def reply(self, cmd: Command, msg: Message) -> None:
        port = self.port_for(cmd.user.platform)
        if cmd.chat is None:
            try:
                await port.send_private(cmd.user, msg, via=cmd)
            except Unreachable:
                log.info("a private command could not be answered")
        else:
            await port.send_public(cmd.chat, msg, reply_to=cmd)

    async def send_private(self, user: User, msg: Message, via: Press | Command | PrivateStart | None = None) -> Any:
        return await self.port_for(user.platform).send_private(user, msg, via=via)

    async def edit_or_send_private(self, user: User, ref: Any, msg: Message, via: Any = None) -> Any:
        """Edit the user's private message in place, or send a new one when there is none (or it is gone)."""
        port = self.port_for(user.platform)
        if ref is not None and via is None:
            try:
                return await port.edit_private(user, ref, msg)
            except MessageGone:
                pass
        return await port.send_private(user, msg, via=via)


def _nothing() -> None:
    return None


def _lower_priority() -> None:
    """A thinking process yields the CPU to the bot's event loop (a strong search may wait, a press must not)."""
    with contextlib.suppress(OSError, AttributeError):
        os.nice(10)


def _start_processes(pool: ProcessPoolExecutor) -> None:
    for future in [pool.submit(_nothing) for _ in range(2)]:
        future.result()


async def create_application(settings: Any, *, clock: Callable[[], datetime] | None = None) -> Application:
    """Open the storage of ``settings`` (migrating it) and build the application over it."""
    storage = await Storage.open(settings.database_url, data_dir=settings.data_dir)
    app = Application(
        storage,
        clock=clock,
        computer_pause=settings.computer_pause,
        tick_interval=settings.tick_interval,
        think_cap=settings.think_cap,
    )
    app.webapp_url = getattr(settings, "webapp_url", None)
    return app
