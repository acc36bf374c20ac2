"""The open web tables: one ``Watcher`` per page socket; one look per watched table, its frames fanned out.

A page watches one table (a Mini App session names it) or the open table of its room (the playground). The
application calls ``Hub.changed(rec)`` after a move is stored in this process (``Context.observers``), with the
table as stored; every worker publishes the tables it changed on Redis (``CHANNEL``, when ``REDIS_URL`` is set)
and refreshes its own pages of a table named there. A poll every ``poll_interval`` seconds is the safety net
(or, without Redis, how another worker's moves are found): the versions of all watched tables in one query, then
one read of each table that moved (one per room for the playground's pages), never one per page.

A refresh reads the table once and builds one frame per (seat, language) among its pages (``bot.webapp.seatview``),
serialized once and queued on every socket of that group: 200 spectators cost one frame. A hand and its legal
moves are only ever put on the socket of the user who sits at that seat.

A press from a page goes to ``Application.press`` with a ``PageHandle``: the application checks it like a chat
button (seat, version, legality) and answers it through the handle, on the socket it came from. The page's next
message is read as soon as the press is answered, while what it shows is still being published (``press``). A page
sends only the kinds its frame offers (``PAGE_KINDS``: a move, a hint, take my seat back, the vote's two answers,
play again), each of the table it shows; anything else is refused here with the chat's notice and changes nothing.

The limits a public page needs (``docs/webapp.md``, "Safety"): at most ``pages_per_user`` sockets of one person
and ``pages_per_table`` of one table (``admit``; counted on every worker together through Redis when it is set,
each page leased for ``PAGE_LEASE`` seconds and renewed by its worker), ``PRESS_RATE`` messages per
``PRESS_PERIOD`` seconds on one socket (``aiolimiter``; more are answered with a notice and change nothing), and
at most ``QUEUE_LIMIT``
frames or ``QUEUE_CHARS`` characters waiting for one socket (a page that falls further behind is closed).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any, ClassVar

from aiolimiter import AsyncLimiter

from bot import metrics, payloads
from bot.app.lobby import VOTE_TTL
from bot.frames import FrameQueue
from bot.live import first_state, step
from bot.port import Answering, Chat, Press, User
from bot.storage import FINISHED, LOBBY, PLAYING, NotFound, StopVotes, StorageError, TableRec
from bot.webapp import seatview
from bot.webapp.auth import Session
from bot.webapp.pictures import Pictures, Spec
from core.base import Action
from core.i18n import N_, normalize, t
from renderers import render_hand, render_score_sheet, render_table

log = logging.getLogger(__name__)

QUEUE_LIMIT = 64  # frames waiting for one socket; a page that cannot keep up is closed
QUEUE_CHARS = 512 * 1024  # characters waiting for one socket, likewise
CHANNEL = "tablebot:webapp:changed"
# the button kinds a page sends (``bot.payloads.KINDS``): what its frame offers, always of the table it shows
PAGE_KINDS = frozenset({"move", "hint", "take_seat_back", "stop_agree", "stop_keep", "play_again"})
PAGES_PER_USER = 6  # open sockets of one person on one worker
PAGES_PER_TABLE = 500  # open sockets watching one table (or one playground room) on one worker
PRESS_RATE, PRESS_PERIOD = 8, 2.0  # messages a socket may send per period (a person taps a few times a second)
PAGES_KEY = "tablebot:webapp:pages:"  # + who or what: the open pages of all workers (Redis sorted sets)
PAGE_LEASE = 60  # seconds a page counts on Redis unless its worker renews it (a worker that died stops counting)

# one page in, if neither the person's nor the table's pages are at their cap: 0 in, 1 the person's, 2 the table's
ADMIT = """
for i = 1, 2 do redis.call('ZREMRANGEBYSCORE', KEYS[i], '-inf', ARGV[1]) end
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[4]) then return 1 end
if redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[5]) then return 2 end
for i = 1, 2 do
  redis.call('ZADD', KEYS[i], ARGV[2], ARGV[3])
  redis.call('EXPIRE', KEYS[i], ARGV[6])
end
return 0
"""

TOO_FAST = N_("Too many taps at once: wait a moment and tap again.")
TOO_MANY_PAGES = N_("This table is open in too many of your pages: close one and try again.")
TABLE_FULL = N_("Too many people are watching this table: try again later.")


@dataclass(eq=False)
class Watcher(FrameQueue):
    """One open page: its socket and outgoing frames, its session, and the table it shows now."""

    session: Session
    lang: str
    table_id: int | None = None
    shown: tuple[Any, ...] | None = None  # (version, status, …) of the last frame sent: see ``Hub.mark``
    seat: int | None = None
    user_id: int | None = None  # the stored user (``admit`` looks it up)
    key: str = field(default_factory=lambda: secrets.token_hex(8), kw_only=True)  # this page on Redis
    limiter: AsyncLimiter = field(default_factory=lambda: AsyncLimiter(PRESS_RATE, PRESS_PERIOD), kw_only=True)
    limit: ClassVar[int] = QUEUE_LIMIT
    max_chars: ClassVar[int] = QUEUE_CHARS

    @property
    def user(self) -> User:
        return self.session.user

    @property
    def watches(self) -> tuple[Any, ...]:
        """What this page watches, for the cap per table: its table, or its room."""
        s = self.session
        return ("table", s.tables[0]) if s.tables else ("room", s.user.platform, s.room)

    def counted(self) -> list[str]:
        """The Redis keys this page counts in: its person's pages, its table's."""
        return [f"{PAGES_KEY}user:{self.user.platform}:{self.user.id}", PAGES_KEY + ":".join(map(str, self.watches))]

    async def allow(self) -> bool:
        """Whether one more message from this page is within its rate (it takes one from the budget at once)."""
        if not self.limiter.has_capacity():
            return False
        await self.limiter.acquire()  # does not wait: there is capacity
        return True


@dataclass(frozen=True, slots=True, eq=False)
class PageHandle(Answering):
    """``Press.handle`` of a press made in a page: the application answers it on that page's socket."""

    watcher: Watcher
    req: int | None
    answered: asyncio.Event = field(default_factory=asyncio.Event)  # set once the answer is on its way

    async def answer(self, press: Press, text: str | None = None, *, alert: bool = False) -> None:
        self.watcher.send({"type": "answer", "req": self.req, "text": text, "alert": alert})
        self.answered.set()


class Hub:
    def __init__(
        self,
        app: Any,
        pictures: Pictures,
        *,
        poll_interval: float = 1.0,
        redis_url: str | None = None,
        pages_per_user: int = PAGES_PER_USER,
        pages_per_table: int = PAGES_PER_TABLE,
    ) -> None:
        self.app = app
        self.pictures = pictures
        self.watchers: set[Watcher] = set()
        self.poll_interval = poll_interval
        self.redis_url = redis_url
        self.pages_per_user = pages_per_user
        self.pages_per_table = pages_per_table
        self._dirty: set[int] = set()
        self._publishing: set[asyncio.Task[None]] = set()
        self._pressing: set[asyncio.Task[None]] = set()  # presses from pages, answered or not, still running
        self._known: dict[int, TableRec] = {}  # the newest stored record the application told us of
        self._running: dict[int, asyncio.Task[None]] = {}
        self._tasks: list[asyncio.Task[None]] = []
        self._redis: Any = None
        self._admit: Any = None  # the ADMIT script on Redis
        self.looks = 0  # database reads to refresh pages (one per table and change, one per poll; not one per page)

    # ---- life cycle ----------------------------------------------------------------------------------
    def start(self) -> None:
        if self.changed not in self.app.ctx.observers:
            self.app.ctx.observers.append(self.changed)
        self._tasks.append(asyncio.create_task(self._poll_loop()))
        if self.redis_url:
            import redis.asyncio as redis

            self._redis = redis.from_url(self.redis_url)
            metrics.count_redis(self._redis, "webapp")
            self._admit = self._redis.register_script(ADMIT)
            self._tasks.append(asyncio.create_task(self._redis_loop()))
            self._tasks.append(asyncio.create_task(self._renew_loop()))

    async def close(self) -> None:
        with contextlib.suppress(ValueError):
            self.app.ctx.observers.remove(self.changed)
        tasks = [*self._tasks, *self._running.values(), *self._pressing]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        for w in list(self.watchers):
            w.close_soon()
        if self._redis is not None:
            redis, self._redis, self._admit = self._redis, None, None
            with contextlib.suppress(Exception):
                async with redis.pipeline(transaction=False) as pipe:  # this worker's pages count no more
                    for w in self.watchers:
                        for key in w.counted():
                            pipe.zrem(key, w.key)
                    await pipe.execute()
            with contextlib.suppress(Exception):
                await redis.aclose()
        self.pictures.close()

    # ---- watchers ------------------------------------------------------------------------------------
    async def admit(self, watcher: Watcher) -> str | None:
        """Add a page unless its person or its table has too many already: None, or the notice why not. The pages
        of this worker are counted here; with Redis, the pages of every worker are (``PAGES_KEY``)."""
        user = watcher.user
        mine = sum(1 for w in self.watchers if w.user.platform == user.platform and w.user.id == user.id)
        if mine >= self.pages_per_user:
            return t(watcher.lang, TOO_MANY_PAGES)
        if sum(1 for w in self.watchers if w.watches == watcher.watches) >= self.pages_per_table:
            return t(watcher.lang, TABLE_FULL)
        if self._admit is not None:
            now = time.time()
            args = [now, now + PAGE_LEASE, watcher.key, self.pages_per_user, self.pages_per_table, PAGE_LEASE * 2]
            try:
                refused = await self._admit(keys=watcher.counted(), args=args)
            except Exception:  # Redis away: this worker's own counts above still hold
                log.warning("could not count a web table page on Redis")
                refused = 0
            if refused:
                return t(watcher.lang, TOO_MANY_PAGES if refused == 1 else TABLE_FULL)
        watcher.user_id = (await self.app.people.user_rec(user)).id
        self.watchers.add(watcher)
        return None

    def remove(self, watcher: Watcher) -> None:
        self.watchers.discard(watcher)
        if self._redis is not None:
            self._background(self._uncount(self._redis, watcher))

    async def _uncount(self, redis: Any, watcher: Watcher) -> None:
        try:
            async with redis.pipeline(transaction=False) as pipe:
                for key in watcher.counted():
                    pipe.zrem(key, watcher.key)
                await pipe.execute()
        except Exception:  # its lease runs out instead
            log.warning("could not uncount a web table page on Redis")

    async def _renew_loop(self) -> None:
        """Keep this worker's pages counted on Redis (a page whose worker died stops counting after its lease)."""
        while True:
            await asyncio.sleep(PAGE_LEASE / 3)
            try:
                async with self._redis.pipeline(transaction=False) as pipe:
                    until = time.time() + PAGE_LEASE
                    for w in self.watchers:
                        for key in w.counted():
                            pipe.zadd(key, {w.key: until})
                            pipe.expire(key, PAGE_LEASE * 2)
                    await pipe.execute()
            except Exception:
                log.warning("could not renew the web table's pages on Redis")

    def _background(self, job: Any) -> None:
        task = asyncio.get_running_loop().create_task(job)
        self._publishing.add(task)
        task.add_done_callback(self._publishing.discard)

    def changed(self, rec: TableRec) -> None:
        """A table's stored state changed in this process: refresh its pages (and tell the other workers)."""
        if self._redis is not None:
            self._background(self._publish(rec.id))
        if not self._pages_of(rec.id) and not any(w.session.room is not None for w in self.watchers):
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
            try:
                pages = self._pages_of(table_id)
                if pages:
                    rec = known if known is not None else await self._look(table_id)
                    if rec is not None:
                        await self.show(rec, pages)
                if known is not None and known.version == 0:  # a table just started: it may be a room's
                    await self._poll_rooms()
            except Exception:
                log.exception("refreshing a web table failed")
        self._running.pop(table_id, None)

    def _pages_of(self, table_id: int) -> list[Watcher]:
        """The pages that show the table, or whose session names it (a table not started yet)."""
        return [w for w in self.watchers if w.table_id == table_id or w.session.tables[:1] == (table_id,)]

    async def _look(self, table_id: int) -> TableRec | None:
        self.looks += 1
        try:
            return await self.app.storage.table(table_id)
        except NotFound:
            return None

    async def locate(self, w: Watcher) -> TableRec | None:
        """The table this page shows now: its session's table, or its room's open (else last) table."""
        storage = self.app.storage
        if w.session.tables:
            return await self._look(w.session.tables[0])
        if w.session.room is None:
            return None
        room = w.session.room
        chat = await self.app.people.chat_rec(Chat(w.user.platform, room, title=room))
        self.looks += 1
        rec = await storage.open_table(chat.id)
        # while the next table is a lobby (Play again's among them) the page keeps the game it showed
        if (rec is None or rec.status == LOBBY) and w.table_id is not None:
            with contextlib.suppress(NotFound):
                old = await storage.table(w.table_id)
                if old.chat_id == chat.id:
                    return old
        return rec

    async def refresh(self, w: Watcher, *, force: bool = False, known: TableRec | None = None) -> None:
        """Send one page its table's frame if the table moved on since the last one (``known``: the table as the
        application just stored it, so the database need not be asked)."""
        rec = known if known is not None and known.id == w.table_id else await self.locate(w)
        await self.show(rec, [w], force=force)

    async def show(self, rec: TableRec | None, pages: list[Watcher], *, force: bool = False) -> None:
        """Send each of ``pages`` the frame of ``rec`` for its seat and language, unless it shows it already: one
        frame built and serialized per (seat, language), queued on every page of that group."""
        if rec is None or rec.status == LOBBY or rec.state is None:
            for w in pages:
                if force or w.shown != (0, "none"):
                    w.table_id, w.shown, w.seat = None, (0, "none"), None
                    w.send({"type": "none"})
            return
        votes = await self.votes(rec)
        mark = self.mark(rec, votes)
        pages = [w for w in pages if force or w.table_id != rec.id or w.shown != mark]
        if not pages:
            return
        live = await self.app.live(rec)
        if live.version != rec.version:  # moved on meanwhile: the next change refreshes again
            rec = await self.app.storage.table(rec.id)
            live = await self.app.live(rec)
            votes = await self.votes(rec)
            mark = self.mark(rec, votes)
        groups: dict[tuple[int | None, str], list[Watcher]] = defaultdict(list)
        for w in pages:
            groups[(None if w.user_id is None else self.app.ctx.seat_of(rec, w.user_id), w.lang)].append(w)
        # the players' frames first: a tap's own page must not wait behind a crowd of spectators
        for seat, lang in sorted(groups, key=lambda k: (k[0] is None, k[0] or 0, k[1])):
            names = self.app.publishing.names(rec, lang)
            frame = await seatview.build(
                rec=rec,
                live=live,
                seat=seat,
                names=names,
                infos=self.app.publishing.infos(rec, lang),
                lang=lang,
                pictures=self.pictures,
                style=self.app.ctx.style,
                result=await self._result(rec, names, lang) if rec.status == FINISHED else None,
                hints=self.app.ctx.hints(rec),
                votes=votes,
            )
            text = json.dumps(frame, ensure_ascii=False)
            for w in groups[(seat, lang)]:
                if w.table_id == rec.id and w.shown is not None and w.shown[0] > rec.version:
                    continue  # a newer frame of this table went out while this one was drawn: never roll back
                w.table_id, w.shown, w.seat = rec.id, mark, seat
                w.send_text(text)
            if seat is not None:
                await asyncio.sleep(0)  # a player's frame is written before the crowd's are built

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

    # ---- pictures ------------------------------------------------------------------------------------
    async def redraw(self, spec: Spec) -> Callable[[], bytes] | None:
        """How to draw the picture ``spec`` names from the stored table (a picture another worker's frame gave
        the address of, or one this worker has forgotten); None when that version is not stored (yet)."""
        try:
            rec = await self.app.storage.table(spec.table)
        except NotFound:
            return None
        if rec.state is None or spec.version > rec.version or rec.status == LOBBY:
            return None
        if spec.version == rec.version:
            state = (await self.app.live(rec)).state
        else:  # an older version: replayed from the move log
            state, _ = first_state(rec.game, rec.players, self.app.ctx.core_options(rec), rec.seed)
            for mv in await self.app.storage.moves(rec.id):
                if mv.seq > spec.version:
                    break
                state = step(state, Action.from_json(mv.action))[0]
        if spec.seat is not None and not 0 <= spec.seat < rec.players:
            return None
        view = state.view(spec.seat)
        names = self.app.publishing.names(rec, spec.lang)
        lang, style = spec.lang, spec.style
        if spec.kind == "table":
            return lambda: render_table(view, names=names, lang=lang, style=style).data
        if spec.kind == "hand":
            return None if view.get("hand") is None else lambda: render_hand(view, style=style).data
        if not view.get("score_sheet"):
            return None
        return lambda: render_score_sheet(view, names=names, lang=lang).data

    # ---- presses -------------------------------------------------------------------------------------
    async def press(self, w: Watcher, payload: object, req: int | None) -> None:
        """A tap in the page: one of the buttons its frame offers, of the table it shows (``PAGE_KINDS``), checked
        by the application like a chat button. Anything else gets the chat's notice and changes nothing. Returns
        once the press is answered, not once it is published."""
        p = payloads.parse(payload)
        if p is None or p.name not in PAGE_KINDS or p.table is None or p.table != w.table_id:
            text = t(w.lang, "This button is not valid.")
            w.send({"type": "answer", "req": req, "text": text, "alert": True, "refused": "bad_button"})
            return
        handle = PageHandle(w, req)
        # its own task, which goes on after its answer while what the press shows is published (a group's write
        # may wait a minute for the group's window): the page's next tap is read meanwhile. The application waits
        # for presses in flight (``idle``); the hub cancels those still running when it closes.
        task = asyncio.create_task(self.app.press(Press(w.user, None, str(payload), None, handle=handle)))
        self._pressing.add(task)
        task.add_done_callback(self._pressing.discard)
        # one press of a page decided at a time, in the order tapped: the next is read once this one is answered
        answered = asyncio.create_task(handle.answered.wait())
        try:
            await asyncio.wait((task, answered), return_when=asyncio.FIRST_COMPLETED)
        finally:
            answered.cancel()

    # ---- other workers -------------------------------------------------------------------------------
    async def _poll_loop(self) -> None:
        while True:
            await asyncio.sleep(self.poll_interval)
            try:
                await self.poll()
            except Exception:
                log.exception("polling web tables failed")

    async def poll(self) -> None:
        """Refresh the pages whose table moved on: the versions of every watched table in one query, then one read
        of each table that moved (one look per playground room)."""
        by_table: dict[int, list[Watcher]] = defaultdict(list)
        for w in self.watchers:
            if w.session.tables and w.session.tables[0] not in self._running:
                by_table[w.session.tables[0]].append(w)
        if by_table:
            self.looks += 1
            stored = await self.app.storage.versions(by_table)
            for table_id, (version, status) in stored.items():
                shown = (0, "none") if status == LOBBY else (version, status)
                # the version and status only: a seat or a vote changed on another worker comes through Redis
                if all(w.shown is not None and w.shown[:2] == shown for w in by_table[table_id]):
                    continue
                try:
                    await self.show(await self._look(table_id), by_table[table_id])
                except (StorageError, NotFound):
                    continue
        await self._poll_rooms()

    async def _poll_rooms(self) -> None:
        """The playground's pages follow their room's open table: one look per room."""
        rooms: dict[tuple[Any, ...], list[Watcher]] = defaultdict(list)
        for w in self.watchers:
            if not w.session.tables and w.session.room is not None:
                rooms[w.watches].append(w)
        for pages in rooms.values():
            try:
                await self.show(await self.locate(pages[0]), pages)
            except (StorageError, NotFound):
                continue

    async def _publish(self, table_id: int) -> None:
        try:
            await self._redis.publish(CHANNEL, str(table_id))
        except Exception:  # the poll still finds the move
            log.warning("could not publish a web table change to Redis")

    async def _redis_loop(self) -> None:
        pubsub = self._redis.pubsub()
        await pubsub.subscribe(CHANNEL)
        try:
            async for message in pubsub.listen():
                if message.get("type") != "message":
                    continue
                with contextlib.suppress(ValueError):
                    table_id = int(message["data"])
                    if self._pages_of(table_id):
                        self._schedule(table_id)
        finally:
            with contextlib.suppress(Exception):
                await pubsub.aclose()


def page_lang(session: Session) -> str:
    return normalize(session.user.language)
