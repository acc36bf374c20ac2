"""The open web tables: one ``Watcher`` per page socket, refreshed when its table changes.

A page watches one table (a Mini App session names it) or the open table of its room (the playground). The
application calls ``Hub.changed(rec)`` after a move is stored in this process (``Context.observers``), with the
table as stored;
a move stored by another worker is noticed by polling the versions of the watched tables from the database every
``poll_interval`` seconds, or at once through Redis pub/sub when ``REDIS_URL`` is set (every worker publishes the
tables it changed). A refresh builds each watcher's own frame (``bot.webapp.seatview``): a hand and its legal
moves are only ever put on the socket of the user who sits at that seat.

A press from a page goes to ``Application.press`` with a ``PageHandle``: the application checks it like a chat
button (seat, version, legality) and answers it through the handle, on the socket it came from. A page sends only
the kinds its frame offers (``PAGE_KINDS``: a move, a hint, take my seat back, the vote's two answers, play again),
each of the table it shows; anything else is refused here with the chat's notice and changes nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass
from datetime import timedelta
from typing import Any, ClassVar

from bot import payloads
from bot.app.lobby import VOTE_TTL
from bot.frames import FrameQueue
from bot.port import Answering, Chat, Press, User
from bot.storage import FINISHED, LOBBY, PLAYING, NotFound, StopVotes, StorageError, TableRec
from bot.webapp import seatview
from bot.webapp.auth import Session
from bot.webapp.pictures import Pictures
from core.i18n import normalize, t

log = logging.getLogger(__name__)

QUEUE_LIMIT = 200  # frames waiting for one socket; a page that cannot keep up is closed
CHANNEL = "tablebot:webapp:changed"
# the button kinds a page sends (``bot.payloads.KINDS``): what its frame offers, always of the table it shows
PAGE_KINDS = frozenset({"move", "hint", "take_seat_back", "stop_agree", "stop_keep", "play_again"})


@dataclass(eq=False)
class Watcher(FrameQueue):
    """One open page: its socket and outgoing frames, its session, and the table it shows now."""

    session: Session
    lang: str
    table_id: int | None = None
    shown: tuple[Any, ...] | None = None  # (version, status, …) of the last frame sent: see ``Hub.mark``
    seat: int | None = None
    limit: ClassVar[int] = QUEUE_LIMIT

    @property
    def user(self) -> User:
        return self.session.user


@dataclass(frozen=True, slots=True, eq=False)
class PageHandle(Answering):
    """``Press.handle`` of a press made in a page: the application answers it on that page's socket."""

    watcher: Watcher
    req: int | None

    async def answer(self, press: Press, text: str | None = None, *, alert: bool = False) -> None:
        self.watcher.send({"type": "answer", "req": self.req, "text": text, "alert": alert})


class Hub:
    def __init__(self, app: Any, *, poll_interval: float = 1.0, redis_url: str | None = None) -> None:
        self.app = app
        self.pictures = Pictures()
        self.watchers: set[Watcher] = set()
        self.poll_interval = poll_interval
        self.redis_url = redis_url
        self._dirty: set[int] = set()
        self._publishing: set[asyncio.Task[None]] = set()
        self._known: dict[int, TableRec] = {}  # the newest stored record the application told us of
        self._running: dict[int, asyncio.Task[None]] = {}
        self._tasks: list[asyncio.Task[None]] = []
        self._redis: Any = None
        self._results: dict[int, str | None] = {}

    # ---- life cycle ----------------------------------------------------------------------------------
    def start(self) -> None:
        if self.changed not in self.app.ctx.observers:
            self.app.ctx.observers.append(self.changed)
        self._tasks.append(asyncio.create_task(self._poll_loop()))
        if self.redis_url:
            self._tasks.append(asyncio.create_task(self._redis_loop()))

    async def close(self) -> None:
        with contextlib.suppress(ValueError):
            self.app.ctx.observers.remove(self.changed)
        for task in [*self._tasks, *self._running.values()]:
            task.cancel()
        for task in [*self._tasks, *self._running.values()]:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        for w in list(self.watchers):
            w.close_soon()
        if self._redis is not None:
            with contextlib.suppress(Exception):
                await self._redis.aclose()
        self.pictures.close()

    # ---- watchers ------------------------------------------------------------------------------------
    def add(self, watcher: Watcher) -> None:
        self.watchers.add(watcher)

    def remove(self, watcher: Watcher) -> None:
        self.watchers.discard(watcher)

    def changed(self, rec: TableRec) -> None:
        """A table's stored state changed in this process: refresh its pages (and tell the other workers)."""
        if self._redis is not None:
            self._publishing.add(asyncio.get_running_loop().create_task(self._publish(rec.id)))
        if not any(w.table_id == rec.id or w.session.room is not None for w in self.watchers):
            return
        old = self._known.get(rec.id)
        if old is None or old.version <= rec.version:
            self._known[rec.id] = rec
        self._schedule(rec.id)

    def _schedule(self, table_id: int) -> None:
        self._dirty.add(table_id)
        task = self._running.get(table_id)
        if task is None or task.done():
            self._running[table_id] = asyncio.get_running_loop().create_task(self._refresh_table(table_id))

    async def _refresh_table(self, table_id: int) -> None:
        while table_id in self._dirty:
            self._dirty.discard(table_id)
            known = self._known.pop(table_id, None)
            for w in list(self.watchers):
                try:
                    if w.table_id == table_id:
                        await self.refresh(w, known=known)
                    elif known is not None and known.version == 0 and w.session.room is not None:
                        await self.refresh(w)  # a table just started: it may be this room's
                except Exception:
                    log.exception("refreshing a web table failed")
        self._running.pop(table_id, None)

    async def locate(self, w: Watcher) -> TableRec | None:
        """The table this page shows now: its session's table, or its room's open (else last) table."""
        storage = self.app.storage
        if w.session.tables:
            try:
                return await storage.table(w.session.tables[0])
            except NotFound:
                return None
        if w.session.room is None:
            return None
        room = w.session.room
        chat = await self.app.people.chat_rec(Chat(w.user.platform, room, title=room))
        rec = await storage.open_table(chat.id)
        # while the next table is a lobby (Play again's among them) the page keeps the game it showed
        if (rec is None or rec.status == LOBBY) and w.table_id is not None:
            with contextlib.suppress(NotFound):
                old = await storage.table(w.table_id)
                if old.chat_id == chat.id:
                    return old
        return rec

    async def refresh(self, w: Watcher, *, force: bool = False, known: TableRec | None = None) -> None:
        """Send the page its table's frame if the table moved on since the last one (``known``: the table as the
        application just stored it, so the database need not be asked)."""
        rec = known if known is not None and known.id == w.table_id else await self.locate(w)
        if rec is None or rec.status == LOBBY or rec.state is None:
            if force or w.shown != (0, "none"):
                w.table_id, w.shown, w.seat = None, (0, "none"), None
                w.send({"type": "none"})
            return
        votes = await self.votes(rec)
        mark = self.mark(rec, votes)
        if not force and w.table_id == rec.id and w.shown == mark:
            return
        user = await self.app.people.user_rec(w.user)
        seat = self.app.ctx.seat_of(rec, user.id)
        names = self.app.publishing.names(rec, w.lang)
        infos = self.app.publishing.infos(rec, w.lang)
        result = await self._result(rec, names, w.lang) if rec.status == FINISHED else None
        live = await self.app.live(rec)
        if live.version != rec.version:  # moved on meanwhile: the next change refreshes again
            rec = await self.app.storage.table(rec.id)
            live = await self.app.live(rec)
            votes = await self.votes(rec)
            mark = self.mark(rec, votes)
        frame = await seatview.build(
            rec=rec,
            live=live,
            seat=seat,
            names=names,
            infos=infos,
            lang=w.lang,
            pictures=self.pictures,
            style=self.app.ctx.style,
            result=result,
            hints=self.app.ctx.hints(rec),
            votes=votes,
        )
        if w.table_id == rec.id and w.shown is not None and w.shown[0] > rec.version:
            return  # a newer frame of this table went out while this one was drawn: never roll the page back
        w.table_id, w.shown, w.seat = rec.id, mark, seat
        w.send(frame)

    async def votes(self, rec: TableRec) -> StopVotes | None:
        """The votes to stop a table in play standing now (they expire after ``VOTE_TTL``)."""
        if rec.status != PLAYING:
            return None
        since = self.app.ctx.clock() - timedelta(seconds=VOTE_TTL)
        return await self.app.storage.stop_votes(rec.id, since=since)

    @staticmethod
    def mark(rec: TableRec, votes: StopVotes | None) -> tuple[Any, ...]:
        """What a frame shows that can change: the version and status, whose seats the computer plays, the votes
        to stop. A page whose last frame has another mark gets a new one."""
        taken = tuple(s.seat for s in rec.seats if s.taken_over)
        vote = (votes.voters, votes.players, votes.newest) if votes is not None and votes.voters else None
        return (rec.version, rec.status, taken, vote)

    async def _result(self, rec: TableRec, names: list[str], lang: str) -> str | None:
        live = await self.app.live(rec)
        try:
            return await self.app.publishing.final_line(rec, live.state, names, lang)
        except StorageError:
            return None

    # ---- presses -------------------------------------------------------------------------------------
    async def press(self, w: Watcher, payload: object, req: int | None) -> None:
        """A tap in the page: one of the buttons its frame offers, of the table it shows (``PAGE_KINDS``), checked
        by the application like a chat button. Anything else gets the chat's notice and changes nothing."""
        p = payloads.parse(payload)
        if p is None or p.name not in PAGE_KINDS or p.table is None or p.table != w.table_id:
            text = t(w.lang, "This button is not valid.")
            w.send({"type": "answer", "req": req, "text": text, "alert": True, "refused": "bad_button"})
            return
        press = Press(w.user, None, str(payload), None, handle=PageHandle(w, req))
        # its own task: the application waits for presses in flight (``idle``), never for the page's socket
        await asyncio.create_task(self.app.press(press))

    # ---- other workers -------------------------------------------------------------------------------
    async def _poll_loop(self) -> None:
        while True:
            await asyncio.sleep(self.poll_interval)
            try:
                await self.poll()
            except Exception:
                log.exception("polling web tables failed")

    async def poll(self) -> None:
        """Refresh every page whose table's stored version (or its room's table) is not the one it shows."""
        for w in list(self.watchers):
            if w.table_id is not None and w.table_id in self._running:
                continue
            try:
                await self.refresh(w)
            except (StorageError, NotFound):
                continue

    async def _publish(self, table_id: int) -> None:
        try:
            await self._redis.publish(CHANNEL, str(table_id))
        except Exception:  # the poll still finds the move
            log.warning("could not publish a web table change to Redis")
        finally:
            self._publishing.discard(asyncio.current_task())  # type: ignore[arg-type]

    async def _redis_loop(self) -> None:
        import redis.asyncio as redis

        self._redis = redis.from_url(self.redis_url)
        pubsub = self._redis.pubsub()
        await pubsub.subscribe(CHANNEL)
        try:
            async for message in pubsub.listen():
                if message.get("type") != "message":
                    continue
                with contextlib.suppress(ValueError):
                    table_id = int(message["data"])
                    if any(w.table_id == table_id for w in self.watchers):
                        self._schedule(table_id)
        finally:
            with contextlib.suppress(Exception):
                await pubsub.aclose()


def page_lang(session: Session) -> str:
    return normalize(session.user.language)
