"""What every service of the application shares: the storage, the attached ports, the settings and the clock, the
caches (chats, users, live tables), the drawing and thinking pools, the per-table locks, and small facts read off a
table record (a seat, its options, its turn timer).

Built once by ``bot.app.application.Application`` and passed to each service; it imports no service.

A press is answered exactly once and before anything that may wait for a group (``PRESSED``, ``answer``): while
the application handles a press, ``port_for`` hands out the port wrapped in ``AnswerFirst``, which answers the
press (with no notice) right before a group message is sent, since that send may wait for the group's flood
window (20 writes a minute on Telegram) and the user's button spins until the answer comes.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import secrets
from collections.abc import Awaitable, Callable
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from contextvars import ContextVar
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from bot import metrics, solo, texts
from bot.app.outbox import Outbox
from bot.app.showing import Showing
from bot.live import Live, catch_up, replay, state_at
from bot.port import Answering, Chat, Port, Press, Sharded, User
from bot.storage import ChatRec, NotFound, Reach, Storage, TableRec, UserRec
from bot.storage.integrity import core_options
from core.base import GameState
from core.i18n import t

log = logging.getLogger(__name__)


@dataclass(eq=False)
class Pressed:
    """The press a task is handling: answered at most once (``Context.answer``)."""

    press: Press
    answered: bool = False
    said: str | None = None  # the notice it was answered with


PRESSED: ContextVar[Pressed | None] = ContextVar("pressed", default=None)  # set by ``Application.press``


class AnswerFirst:
    """A port whose group sends answer the press being handled first (``PRESSED``): the send may wait for the
    group's window, the answer must not. Everything else goes to the port unchanged."""

    def __init__(self, port: Port, ctx: Context) -> None:
        self._port = port
        self._ctx = ctx

    def __getattr__(self, name: str) -> Any:
        return getattr(self._port, name)

    async def send_public(self, chat: Chat, msg: Any, **kwargs: Any) -> Any:
        await self._ctx.answer_pressed()
        return await self._port.send_public(chat, msg, **kwargs)

    async def invite_private(self, chat: Chat, user: User, msg: Any, start_payload: str, **kwargs: Any) -> Any:
        await self._ctx.answer_pressed()
        return await self._port.invite_private(chat, user, msg, start_payload, **kwargs)


class Context:
    """The shared state of one application (one per process)."""

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
        self.storage = storage
        self.ports: dict[str, Port] = {}
        self.clock = clock or (lambda: datetime.now(UTC))
        self.computer_pause = computer_pause
        self.tick_interval = tick_interval
        self.think_cap = think_cap
        self.style = style
        self.round_pause = round_pause  # set: overrides every table's own ``round_pause`` (seconds)
        self.sleep = sleep or asyncio.sleep  # the pause of a finished round (tests hold it)
        self.round_ends: dict[int, asyncio.Task[None]] = {}  # a finished round on view, per table
        self.pool = ThreadPoolExecutor(max_workers=2, thread_name_prefix="draw")
        self._think_pool: ProcessPoolExecutor | None = None
        self._think_warm = False
        self.ai_key = secrets.token_bytes(16)  # computer seeds: never derived from a table's deal seed
        self.locks: dict[int, asyncio.Lock] = {}
        self.live_tables: dict[int, Live] = {}
        self.drivers: dict[int, asyncio.Task[None]] = {}
        self.chats: dict[int, ChatRec] = {}
        self.chat_keys: dict[tuple[str, str, str | None], int] = {}
        self.users: dict[tuple[str, str], UserRec] = {}
        self.outbox = Outbox()  # a chat's sheets and announcements, in order (bot.app.outbox)
        self.showing = Showing()  # what a table's messages show, drawn when sent (bot.app.showing)
        self.observers: list[Callable[[TableRec], None]] = []  # told of every stored change of a table (bot.webapp)
        self.webapp_url: str | None = None  # the web table's public address (WEBAPP_URL): "Open the table" buttons
        self.webapp_key: bytes | None = None  # signs those buttons' table passes (bot.tablepass)

    def close_pools(self) -> None:
        self.pool.shutdown(wait=False, cancel_futures=True)
        if self._think_pool is not None:
            self._think_pool.shutdown(wait=False, cancel_futures=True)
            self._think_pool = None
            self._think_warm = False

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
        lock = self.locks.get(table_id)
        if lock is None:
            lock = self.locks[table_id] = asyncio.Lock()
        return lock

    @staticmethod
    def seat_of(rec: TableRec, user_id: int) -> int | None:
        for s in rec.seats:
            if s.user_id == user_id:
                return s.seat
        return None

    @staticmethod
    def core_options(rec: TableRec) -> dict[str, Any]:
        return core_options(rec.game, rec.options)

    def timer_of(self, rec: TableRec) -> int:
        value = rec.options.get("turn_timer", texts.DEFAULT_TIMER)
        return value if value in texts.TIMER_CHOICES else texts.DEFAULT_TIMER

    @staticmethod
    def timeout_moves(rec: TableRec) -> bool:
        """The table's choice for a long timer's end (``timeout_moves``): the computer moves, or the table waits."""
        return rec.options.get("timeout_moves") is True

    @staticmethod
    def hints(rec: TableRec) -> bool:
        """The table's ``hints`` option: a 💡 button on each hand; such a game is not rated."""
        return rec.options.get("hints") is True

    def computer_moves_at_timeout(self, rec: TableRec) -> bool:
        """A short timer always hands the move to the computer; a long one only if the table chose so."""
        return self.timer_of(rec) < texts.LONG_TIMER or self.timeout_moves(rec)

    def pause_of(self, rec: TableRec) -> float:
        """Seconds a finished round stays on view before the next deal is shown."""
        return self.round_pause if self.round_pause is not None else self.table_pause(rec)

    def rules_of(self, rec: TableRec, lang: str) -> str:
        """The rules text of table ``rec``: its game, seats, conventions, turn timer and round pause."""
        return texts.rules_text(
            rec.game,
            rec.players,
            self.core_options(rec),
            self.timer_of(rec),
            lang,
            self.table_pause(rec),
            hints=self.hints(rec),
            timeout_moves=self.timeout_moves(rec),
        )

    @staticmethod
    def table_pause(rec: TableRec) -> int:
        """The table's ``round_pause`` option (what its lobby shows)."""
        value = rec.options.get("round_pause", texts.DEFAULT_PAUSE)
        return value if value in texts.PAUSE_CHOICES else texts.DEFAULT_PAUSE

    async def live(self, rec: TableRec) -> Live:
        """The table's state and recent events at the record's version (see ``bot.live``)."""
        if rec.state is None:
            raise NotFound(f"table {rec.id} has not started", "not_started")
        cached = self.live_tables.get(rec.id)
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
        newest = self.live_tables.get(rec.id)  # (read again: another task may have cached a newer one meanwhile)
        if newest is None or newest.version <= live.version:  # an older row never takes the cache back
            self.live_tables[rec.id] = live
        return live

    async def state_at(self, rec: TableRec, version: int) -> GameState:
        """The table's state at ``version`` (the record's own, or an older one replayed from the move log): the
        one replayer of "the table at version v" (``bot.live``), for the chat and the web table alike."""
        if version == rec.version:
            return (await self.live(rec)).state
        return state_at(rec, await self.storage.moves(rec.id), self.core_options(rec), version)

    def begin_pause(self, table_id: int, seconds: float) -> None:
        """A table's finished round is on view for ``seconds``: its next deal is shown after (``pause_over``)."""
        old = self.round_ends.pop(table_id, None)
        if old is not None:
            old.cancel()
        if seconds > 0:
            task = asyncio.create_task(self.sleep(seconds))
            self.round_ends[table_id] = task
            task.add_done_callback(lambda done: self._pause_done(table_id, done))

    def _pause_done(self, table_id: int, task: asyncio.Task[Any]) -> None:
        if self.round_ends.get(table_id) is task:
            del self.round_ends[table_id]

    def pausing(self, table_id: int) -> bool:
        """Whether the table's finished round is on view (its pause is on)."""
        task = self.round_ends.get(table_id)
        return task is not None and not task.done()

    async def pause_over(self, table_id: int) -> None:
        """Wait until the table's round pause, if one is on, is over (not after a restart: it is over then)."""
        task = self.round_ends.get(table_id)
        if task is not None and not task.done():
            await asyncio.wait([task])  # its end, however it ends (a cancelled pause is over too)

    def forget(self, table_id: int) -> None:
        self.live_tables.pop(table_id, None)

    def answerer(self, press: Press) -> Answering | Port | None:
        """Who answers a press: the web table's page it came from (its handle), else the platform's port."""
        if isinstance(press.handle, Answering):
            return press.handle
        return self.ports.get(press.user.platform)

    def table_changed(self, rec: TableRec) -> None:
        """A table's stored state changed (a move, a start; ``rec`` as stored): tell the observers (the web
        table's pages)."""
        for observer in self.observers:
            try:
                observer(rec)
            except Exception:
                log.exception("a table observer failed")

    def reach(self) -> Reach:
        """The chats this worker can publish to, for the work it takes on by itself (due timers, tables resumed at
        its start, season summaries): those of every platform with an adapter attached here, and the tables played
        alone there; of a platform whose port serves a part of its servers (``bot.port.Sharded``: Discord's
        shards), only the guilds of that part, whose players' interactions reach this worker."""
        platforms: set[str] = set()
        shards: dict[str, tuple[int, frozenset[int]]] = {}
        for name, port in self.ports.items():
            if solo.base_platform(name) is not None:
                continue  # a private tables' route, made from its platform's port
            part = port.shards if isinstance(port, Sharded) else None
            for platform in (name, solo.solo_platform(name)):
                platforms.add(platform)
                if part is not None:
                    shards[platform] = (part.count, part.ids)
        return Reach(frozenset(platforms), shards)

    def port_for(self, platform: str) -> Port:
        port = self.ports.get(platform)
        base = solo.base_platform(platform) if port is None else None
        if base is not None and base in self.ports:  # a table played alone: its public writes go privately
            port = self.ports[platform] = solo.PrivateRoute(self.ports[base], base)
        if port is None:
            raise RuntimeError(f"no adapter attached for {platform}")
        pressed = PRESSED.get()
        # a table played alone writes to its person privately (no group window to wait for): not answered early,
        # so the press keeps its own notice ("your cards are in our private chat")
        if pressed is not None and not pressed.answered and not isinstance(port, solo.PrivateRoute):
            return AnswerFirst(port, self)  # type: ignore[return-value]
        return port

    async def answer(self, press: Press, text: str | None = None, *, alert: bool = False) -> None:
        """Answer ``press`` (through its web page or its platform's port), unless it was answered already."""
        pressed = PRESSED.get()
        if pressed is not None and pressed.press is press:
            if pressed.answered:
                if text and text != pressed.said:
                    log.info("a press answered early had more to say: %s", text)
                return
            pressed.answered, pressed.said = True, text
        port = self.answerer(press)
        if port is None:
            return
        try:
            await port.answer(press, text, alert=alert)
        except Exception:
            log.exception("answering a press failed")
        metrics.answered(press, press.user.platform)

    async def answer_pressed(self) -> None:
        """Answer the press being handled now, if not yet (before anything that may wait for a group)."""
        pressed = PRESSED.get()
        if pressed is not None and not pressed.answered:
            await self.answer(pressed.press)

    def broken_text(self, lang: str) -> str:
        return t(lang, "This table is damaged and cannot be played on; it has been reported.")

    @staticmethod
    def chat_value(rec: ChatRec) -> Chat:
        return Chat(rec.platform, rec.platform_id, rec.thread, rec.title, rec.language, rec.guild)

    @staticmethod
    def user_value(rec: UserRec) -> User:
        return User(rec.platform, rec.platform_id, rec.name, rec.language)


def _nothing() -> None:
    return None


def _lower_priority() -> None:
    """A thinking process yields the CPU to the bot's event loop (a strong search may wait, a press must not)."""
    with contextlib.suppress(OSError, AttributeError):
        os.nice(10)


def _start_processes(pool: ProcessPoolExecutor) -> None:
    for future in [pool.submit(_nothing) for _ in range(2)]:
        future.result()
