"""A bot cluster on this machine, as in production: several webhook workers (real ``python -m bot`` processes)
on one fresh PostgreSQL database and one Redis, behind a round-robin balancer, fed by the fake Bot API
(``testkit.fake_bot_api``) the way Telegram feeds a webhook (several updates at once, a slow or failed delivery
delivered again).

* ``Balancer``: a small aiohttp proxy on 127.0.0.1 that spreads webhook POSTs over the live workers (round
  robin; a worker that refuses the connection is skipped, like a health-checked load balancer). ``pin`` sends
  everything to one worker (a regression test that needs "the other worker"); ``kill_after_accept`` SIGKILLs a
  worker right after it has accepted an update (answered 200), before it could have handled it.
* ``WorkerProcess``: one ``python -m bot`` with its own webhook port; ``kill()`` (SIGKILL), ``start()`` again.
* ``Cluster``: all of it, as an async context manager; ``storage`` reads the same database from the test;
  ``samples`` reads every worker's ``/metrics`` (each serves them on its own ``METRICS_PORT``), ``Counted`` and
  ``by_label`` sum them.
* Players act through the fake API (``press_kind`` finds a button by its payload kind); ``open_table`` opens
  a table through the lobby buttons like a host does.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import signal
import socket
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
from aiohttp import web
from prometheus_client.parser import text_string_to_metric_families

from bot import payloads
from bot.storage import Storage
from testkit import pg
from testkit.fake_bot_api import FakeBotAPI, FakeUser, Shown

REDIS_URL = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")
PG_ADMIN_URL = os.environ.get("TEST_DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/test")
PREFIX = "t:"  # the Telegram adapter's callback-data prefix
ROOT = Path(__file__).resolve().parent.parent
GROUP_WRITES = (
    "sendMessage",
    "sendPhoto",
    "sendDocument",
    "editMessageText",
    "editMessageCaption",
    "editMessageMedia",
    "editMessageReplyMarkup",
)


async def fresh_pg_database() -> str:
    """A new empty database on the TEST_DATABASE_URL server (default the local one); returns its URL."""
    return await pg.fresh_database(PG_ADMIN_URL)


async def drop_pg_database(url: str) -> None:
    await pg.drop_database(PG_ADMIN_URL, url)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


async def redis_available() -> bool:
    from redis.asyncio import Redis

    redis = Redis.from_url(REDIS_URL)
    try:
        await redis.ping()
        return True
    except OSError:
        return False
    finally:
        await redis.aclose()


async def drop_redis_namespace(bot_id: int) -> None:
    from redis.asyncio import Redis

    redis = Redis.from_url(REDIS_URL)
    try:
        keys = [k async for k in redis.scan_iter(match=f"tablebot:tg:{bot_id}:*")]
        if keys:
            await redis.delete(*keys)
    finally:
        await redis.aclose()


def unique_token(rng: random.Random) -> str:
    """A token of its own: Redis keys are namespaced by the bot id, so runs never share flood state (``rng`` is
    the system's: a benchmark and the suite's quick run of it, both of seed 1 at once on one Redis, shared a
    namespace, and one run's end dropped the other's keys: its lobby never started)."""
    return f"{rng.randrange(10**9, 10**10)}:AAFakeTokenForTheTestsOnly_abcdefghi"


# ------------------------------------------------------------------------------------------------ balancer
@dataclass
class Forward:
    update_id: int | None
    worker: int
    status: int | None
    at: float


PUBLIC_HOOK = "https://cluster.invalid/hook"  # the webhook address Telegram is given (it takes https:// only)


class Balancer:
    """Round robin over the workers' webhook servers; the fake Bot API posts the webhook here."""

    def __init__(self, path: str = "/hook") -> None:
        self.path = path
        self.workers: list[WorkerProcess] = []
        self.forwards: list[Forward] = []
        self.url = ""
        self._rr = 0
        self._pinned: int | None = None
        self._kill_after: int | None = None
        self._killed = asyncio.Event()
        self._session: aiohttp.ClientSession | None = None
        self._runner: web.AppRunner | None = None

    async def start(self) -> str:
        app = web.Application(client_max_size=16 * 1024 * 1024)
        app.router.add_post(self.path, self._handle)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        self.url = f"http://127.0.0.1:{port}{self.path}"
        self._session = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=120))
        return self.url

    async def stop(self) -> None:
        if self._session is not None:
            await self._session.close()
        if self._runner is not None:
            await self._runner.cleanup()

    def pin(self, worker: int | None) -> None:
        """Send every update to this worker (None: round robin again)."""
        self._pinned = worker

    async def kill_after_accept(self, worker: int) -> None:
        """SIGKILL ``worker`` as soon as it has accepted (200) one update; returns when it is dead."""
        self._killed.clear()
        self._kill_after = worker
        await self._killed.wait()

    def _order(self) -> list[int]:
        n = len(self.workers)
        if self._pinned is not None:
            return [self._pinned]
        start = self._rr
        self._rr = (self._rr + 1) % n
        return [(start + i) % n for i in range(n)]

    async def _handle(self, request: web.Request) -> web.Response:
        body = await request.read()
        try:
            update_id = json.loads(body).get("update_id")
        except ValueError:
            update_id = None
        headers = {
            k: v for k, v in request.headers.items() if k.lower() in ("content-type", "x-telegram-bot-api-secret-token")
        }
        assert self._session is not None
        for index in self._order():
            worker = self.workers[index]
            if not worker.alive:
                continue
            try:
                async with self._session.post(worker.hook_url, data=body, headers=headers) as resp:
                    status = resp.status
                    text = await resp.read()
            except aiohttp.ClientConnectorError:
                continue  # not listening (starting, or dead): the next worker
            except (TimeoutError, aiohttp.ClientError):
                self.forwards.append(Forward(update_id, index, None, time.monotonic()))
                return web.Response(status=502)
            self.forwards.append(Forward(update_id, index, status, time.monotonic()))
            if status == 200 and self._kill_after == index:
                self._kill_after = None
                worker.kill()
                self._killed.set()
            return web.Response(status=status, body=text)
        self.forwards.append(Forward(update_id, -1, None, time.monotonic()))
        return web.Response(status=502)


# ------------------------------------------------------------------------------------------------ workers
Sample = tuple[str, dict[str, str], float]  # a /metrics sample: name, labels, value


@dataclass(frozen=True)
class Counted:
    """A counter of the workers' ``/metrics``: its sample name and the labels a sample must have (the others are
    summed over)."""

    name: str
    labels: frozenset[tuple[str, str]] = frozenset()

    @classmethod
    def of(cls, name: str, **labels: str) -> Counted:
        return cls(name, frozenset(labels.items()))

    def total(self, samples: list[Sample]) -> float:
        """The sum of the samples (``Cluster.samples``) of this name that have these labels."""
        return sum(v for name, labels, v in samples if name == self.name and self.labels <= set(labels.items()))


def by_label(samples: list[Sample], name: str, label: str) -> dict[str, float]:
    """The samples of ``name`` summed for each value of one of their labels (``command``: GET, SET, …)."""
    out: dict[str, float] = {}
    for sample, labels, value in samples:
        if sample == name and label in labels:
            out[labels[label]] = out.get(labels[label], 0.0) + value
    return out


@dataclass
class WorkerProcess:
    index: int
    env: dict[str, str]
    port: int
    log_path: Path
    metrics_port: int = 0
    proc: asyncio.subprocess.Process | None = None
    starts: int = 0
    kills: int = 0

    @property
    def hook_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/hook"

    @property
    def alive(self) -> bool:
        return self.proc is not None and self.proc.returncode is None

    async def samples(self) -> list[Sample]:
        """Every sample of the worker's ``/metrics``: its name, labels and value."""
        async with (
            aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=30)) as session,
            session.get(f"http://127.0.0.1:{self.metrics_port}/metrics") as resp,
        ):
            text = await resp.text()
        return [(s.name, s.labels, s.value) for family in text_string_to_metric_families(text) for s in family.samples]

    async def start(self) -> None:
        self.starts += 1
        log = open(self.log_path, "ab")  # noqa: SIM115 - the child keeps it
        log.write(f"\n===== start {self.starts} =====\n".encode())
        log.flush()
        self.proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", env=self.env, cwd=str(ROOT), stdout=log, stderr=log
        )
        log.close()

    async def wait_listening(self, timeout: float = 90) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc is not None and self.proc.returncode is not None:
                raise RuntimeError(f"worker {self.index} exited: {self.log_path.read_text()[-3000:]}")
            with contextlib.suppress(OSError):
                _, writer = await asyncio.open_connection("127.0.0.1", self.port)
                writer.close()
                return
            await asyncio.sleep(0.1)
        raise TimeoutError(f"worker {self.index} did not start: {self.log_path.read_text()[-3000:]}")

    def kill(self) -> None:
        if self.alive:
            assert self.proc is not None
            self.kills += 1
            self.proc.send_signal(signal.SIGKILL)

    async def stop(self) -> None:
        if self.proc is None:
            return
        if self.proc.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                self.proc.send_signal(signal.SIGTERM)
            try:
                await asyncio.wait_for(self.proc.wait(), 20)
            except TimeoutError:
                self.proc.kill()
                await self.proc.wait()
        else:
            await self.proc.wait()

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""


@dataclass
class Cluster:
    """Fake Telegram + balancer + ``workers`` bot processes on a fresh PostgreSQL database and Redis."""

    workers_count: int = 2
    seed: int = 1
    computer_pause: float = 0.3
    round_pause: float | None = None  # None: each table's own pause after a round (5 s by default)
    tick_interval: float = 0.5
    edit_interval: float = 1.0  # Telegram's real limits by default
    group_per_minute: int = 20
    webhook_timeout: float = 2.0
    latency: tuple[float, float] | None = None  # seconds of network delay per request (uniform)
    api: FakeBotAPI = field(init=False)
    balancer: Balancer = field(init=False)
    workers: list[WorkerProcess] = field(init=False, default_factory=list)
    storage: Storage = field(init=False)
    db_url: str = field(init=False, default="")
    tmp: Path = field(init=False)
    t0: float = field(init=False, default=0.0)

    async def __aenter__(self) -> Cluster:
        self.t0 = time.monotonic()
        self.api = FakeBotAPI(unique_token(random.SystemRandom()))  # never the seed's: two runs share one Redis
        await self.api.start()
        self.api.webhook_timeout = self.webhook_timeout
        if self.latency is not None:
            lo, hi = self.latency
            jitter = random.Random(self.seed + 1)
            self.api.latency = lambda: jitter.uniform(lo, hi)
        self.balancer = Balancer()
        await self.balancer.start()
        self.api.backends[PUBLIC_HOOK] = [self.balancer.url]  # Telegram posts to the https address, the proxy's
        self.tmp = Path(tempfile.mkdtemp(prefix="tablebot-cluster-"))
        self.db_url = await fresh_pg_database()
        base = dict(os.environ)
        base.update(
            TELEGRAM_BOT_TOKEN=self.api.token,
            TELEGRAM_API_URL=self.api.base_url,
            TELEGRAM_WEBHOOK_URL=PUBLIC_HOOK,
            TELEGRAM_WEBHOOK_HOST="127.0.0.1",
            TELEGRAM_EDIT_INTERVAL=str(self.edit_interval),
            TELEGRAM_GROUP_PER_MINUTE=str(self.group_per_minute),
            DATABASE_URL=self.db_url,
            DATA_DIR=str(self.tmp),
            REDIS_URL=REDIS_URL,
            COMPUTER_PAUSE=str(self.computer_pause),
            TICK_INTERVAL=str(self.tick_interval),
            PYTHONUNBUFFERED="1",
        )
        base.pop("DISCORD_BOT_TOKEN", None)
        base.pop("ROUND_PAUSE", None)
        if self.round_pause is not None:
            base["ROUND_PAUSE"] = str(self.round_pause)
        self.storage = await Storage.open(self.db_url)  # migrated once here, before any worker starts
        for i in range(self.workers_count):
            port, metrics_port = free_port(), free_port()
            env = dict(base, TELEGRAM_WEBHOOK_PORT=str(port), METRICS_PORT=str(metrics_port))
            self.workers.append(WorkerProcess(i, env, port, self.tmp / f"worker{i}.log", metrics_port))
        self.balancer.workers = self.workers
        await asyncio.gather(*(w.start() for w in self.workers))
        await asyncio.gather(*(w.wait_listening() for w in self.workers))
        await self.api.wait_for(lambda: self.api.webhook is not None, timeout=60)
        return self

    async def __aexit__(self, *exc: Any) -> None:
        for w in self.workers:
            await w.stop()
        with contextlib.suppress(Exception):
            await self.storage.close()
        await self.balancer.stop()
        await self.api.stop()
        await drop_redis_namespace(self.api.bot_id)
        if self.db_url:
            await drop_pg_database(self.db_url)

    async def restart(self, index: int) -> None:
        w = self.workers[index]
        await w.stop()
        await w.start()
        await w.wait_listening()

    def logs(self) -> str:
        return "\n".join(w.log() for w in self.workers)

    async def samples(self) -> list[Sample]:
        """The samples of every live worker's ``/metrics`` (a worker's counts start again at its restart)."""
        found = await asyncio.gather(*(w.samples() for w in self.workers if w.alive))
        return [sample for samples in found for sample in samples]

    # ---------------------------------------------------------------------------------------- playing
    def buttons(self, shown: Shown, kind: str) -> list[tuple[str, payloads.Payload]]:
        out = []
        for b in shown.callback_buttons():
            data = b["callback_data"]
            p = payloads.parse(data[len(PREFIX) :]) if data.startswith(PREFIX) else None
            if p is not None and p.kind == kind:
                out.append((data, p))
        return out

    async def press_kind(self, user: FakeUser, shown: Shown, kind: str, code: str | None = None) -> dict[str, Any]:
        """Press the first button of this payload kind (and code) on the message; returns the answer."""
        current = self.api.messages[shown.chat_id][shown.message_id]
        for data, p in self.buttons(current, kind):
            if code is None or p.code == code:
                query = self.api.press(user, shown.chat_id, shown.message_id, data)
                return await self.api.wait_answer(query, timeout=60)
        raise AssertionError(f"no {kind}.{code} button on {[b['callback_data'] for b in current.buttons()]}")

    async def set_timer(self, chat_id: int, title: str, game: str, seconds: int) -> None:
        """The chat's remembered turn timer for ``game`` (what a host's settings press stores)."""
        chat = await self.storage.chat("telegram", str(chat_id), None, title)
        await self.storage.set_chat_defaults(chat.id, game, {"turn_timer": seconds})

    async def open_table(
        self, chat_id: int, game: str, host: FakeUser, joiners: list[FakeUser], computers: int, players: int
    ) -> int:
        """``/new``, joins, computer seats and Start through the lobby's buttons; returns the table id."""
        api = self.api
        api.say(host, chat_id, f"/new {game} {players}")
        await api.wait_for(lambda: any(self.buttons(s, "j") for s in api.visible(chat_id)), timeout=60)
        lobby = next(s for s in reversed(api.visible(chat_id)) if self.buttons(s, "j"))
        table_id = self.buttons(lobby, "j")[0][1].table
        assert table_id is not None
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            rec = await self.storage.table(table_id)
            if rec.status != "lobby":
                return table_id
            seated = {s.user.platform_id for s in rec.seats if s.user is not None}
            missing = [u for u in joiners if str(u.id) not in seated]
            revs = {p.rev for _, p in self.buttons(api.messages[chat_id][lobby.message_id], "c")}
            if missing:
                await self.press_kind(missing[0], lobby, "j")
            elif rec.lobby_rev not in revs:  # the lobby message has not caught up yet
                pass
            elif sum(1 for s in rec.seats if s.computer) < computers:
                await self.press_kind(host, lobby, "c", "normal")
            elif len(rec.seats) == rec.players:
                await self.press_kind(host, lobby, "s")
            await asyncio.sleep(0.3)
        raise AssertionError(f"table {table_id} did not start")


def hands_of(api: FakeBotAPI, user: FakeUser, table_id: int) -> list[Shown]:
    """The user's private messages of this table that have move buttons, newest first."""
    out = []
    for shown in reversed(api.visible(user.id)):
        for b in shown.callback_buttons():
            data = b["callback_data"]
            p = payloads.parse(data[len(PREFIX) :]) if data.startswith(PREFIX) else None
            if p is not None and p.kind in ("a", "u") and p.table == table_id:
                out.append(shown)
                break
    return out


def percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


__all__ = ["Cluster", "Counted", "by_label", "Balancer", "WorkerProcess", "hands_of", "percentile", "redis_available"]
