"""What an operator watches (``docs/operations.md``): Prometheus metrics of this worker, every name ``tablebot_``.

The metrics live in their own registry (``REGISTRY``), which holds nothing else, and are served by
``bot.ops`` on ``METRICS_PORT``. The application, the adapters and the web table count into them:

* ``tablebot_updates_total{platform,outcome}``: platform updates at the door (Telegram's webhook: handled,
  duplicate, busy, malformed, unauthorized);
* ``tablebot_presses_total{platform,outcome}`` and ``tablebot_commands_total{platform,command,outcome}``:
  ``done``, ``notice`` (refused with a notice) or ``error``;
* ``tablebot_answer_seconds{platform}``: from a press's arrival to its answer (the spinner stops);
* ``tablebot_publish_lag_seconds``: from a move's publication queued to it being sent (hands, table, sheets);
* ``tablebot_flood_waits_total{platform}``: writes that waited for a chat's turn; ``tablebot_rate_limited_total
  {platform,method}``: 429 answers;
* ``tablebot_errors_total{logger}``: every ERROR logged;
* ``tablebot_open_tables{status}`` (lobby, playing), ``tablebot_sockets{kind}`` (open WebSockets),
  ``tablebot_timers_due`` (timers found due at the last look), ``tablebot_timers_fired_total``;
* ``tablebot_table_reads_total``: tables read from the database, each a row with its seats and state
  (``bot.storage.tables.load``: ``Storage.table``, ``open_table``, ``tables_for_user``, the tables in play, the
  due timers' tables; a move's own write, which returns its row, is no read);
* ``tablebot_redis_commands_total{client,command}``: commands this worker sent to Redis, each command of a
  pipeline or a transaction (``MULTI`` and ``EXEC`` too) and a connection's handshake included, a Lua script one
  ``EVALSHA`` (Redis counts the commands the script runs besides); ``tablebot_redis_round_trips_total{client}``:
  requests sent and waited for (one per command, one per pipeline). ``count_redis`` counts a client's;
  ``python -m bench.cluster`` divides them by the moves made.
"""

from __future__ import annotations

import functools
import logging
import time
from collections.abc import Callable
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram

REGISTRY = CollectorRegistry()

# seconds: a press should be answered well under Telegram's 15 s, most within a tenth of a second
ANSWER_BUCKETS = (0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 15.0)
# seconds: a group's window can hold a table edit for up to a minute
LAG_BUCKETS = (0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 120.0)

UPDATES = Counter(
    "tablebot_updates", "Platform updates at the door, by outcome", ["platform", "outcome"], registry=REGISTRY
)
PRESSES = Counter(
    "tablebot_presses", "Button presses, by outcome (done, notice, error)", ["platform", "outcome"], registry=REGISTRY
)
COMMANDS = Counter(
    "tablebot_commands",
    "Commands, by name and outcome (done, notice, error)",
    ["platform", "command", "outcome"],
    registry=REGISTRY,
)
ANSWER_SECONDS = Histogram(
    "tablebot_answer_seconds",
    "From a press's arrival to its answer",
    ["platform"],
    buckets=ANSWER_BUCKETS,
    registry=REGISTRY,
)
PUBLISH_LAG = Histogram(
    "tablebot_publish_lag_seconds", "From a publication queued to it being sent", buckets=LAG_BUCKETS, registry=REGISTRY
)
FLOOD_WAITS = Counter("tablebot_flood_waits", "Chat writes that waited for their turn", ["platform"], registry=REGISTRY)
RATE_LIMITED = Counter(
    "tablebot_rate_limited", "429 answers (too many requests), by API method", ["platform", "method"], registry=REGISTRY
)
ERRORS = Counter("tablebot_errors", "Errors logged, by logger", ["logger"], registry=REGISTRY)
OPEN_TABLES = Gauge(
    "tablebot_open_tables", "Tables in their lobby or in play (whole database)", ["status"], registry=REGISTRY
)
SOCKETS = Gauge("tablebot_sockets", "Open WebSockets of this worker", ["kind"], registry=REGISTRY)
TIMERS_DUE = Gauge("tablebot_timers_due", "Turn timers found due at the last look", registry=REGISTRY)
TIMERS_FIRED = Counter("tablebot_timers_fired", "Turn timers handled", registry=REGISTRY)
TABLE_READS = Counter(
    "tablebot_table_reads", "Tables read from the database (a row with its seats and state)", registry=REGISTRY
)
REDIS_COMMANDS = Counter(
    "tablebot_redis_commands",
    "Commands sent to Redis (a pipeline's one by one), by name",
    ["client", "command"],
    registry=REGISTRY,
)
REDIS_ROUND_TRIPS = Counter(
    "tablebot_redis_round_trips", "Requests sent to Redis (one per command or pipeline)", ["client"], registry=REGISTRY
)

_sockets: dict[str, list[Callable[[], int]]] = {}


def count_sockets(kind: str, count: Callable[[], int]) -> None:
    """Add ``count`` (the open sockets of one server) to the gauge ``tablebot_sockets{kind}``."""
    counters = _sockets.setdefault(kind, [])
    counters.append(count)
    SOCKETS.labels(kind).set_function(lambda: sum(c() for c in counters))


def uncount_sockets(kind: str, count: Callable[[], int]) -> None:
    counters = _sockets.get(kind, [])
    if count in counters:
        counters.remove(count)


_arrived: dict[int, float] = {}  # id(press) -> when it arrived, while it is being handled


def arrived(press: object) -> None:
    """A press came in (``Application.press``): its answer's latency is measured from now."""
    _arrived[id(press)] = time.perf_counter()


def answered(press: object, platform: str) -> None:
    """The press was answered: observe the latency (once)."""
    start = _arrived.pop(id(press), None)
    if start is not None:
        ANSWER_SECONDS.labels(platform).observe(time.perf_counter() - start)


def forget(press: object) -> None:
    """The press is done with (answered or not)."""
    _arrived.pop(id(press), None)


def count_redis(client: Any, name: str) -> None:
    """Count what ``client`` (a ``redis.asyncio.Redis``, before its first command) sends into
    ``tablebot_redis_commands_total{client=name,command}`` and ``tablebot_redis_round_trips_total{client=name}``: its
    connection pool makes its connections of a subclass of their class that counts each command as it is encoded
    (``pack_command``: a single command, each of a pipeline's, the handshake's) and each request as it is sent
    (``send_packed_command``), whatever the URL's scheme."""
    pool = client.connection_pool
    pool.connection_class = _counted(pool.connection_class, name)


@functools.cache
def _counted(base: type, name: str) -> type:
    """``base`` (a redis-py asyncio connection class) counting into the Redis metrics of ``name``."""
    trips = REDIS_ROUND_TRIPS.labels(name)

    class Counted(base):  # type: ignore[valid-type, misc]
        def pack_command(self, *args: Any) -> Any:
            REDIS_COMMANDS.labels(name, command_name(args[0])).inc()
            return super().pack_command(*args)

        async def send_packed_command(self, command: Any, check_health: bool = True) -> None:
            trips.inc()
            await super().send_packed_command(command, check_health)

    Counted.__name__ = Counted.__qualname__ = f"Counted{base.__name__}"
    return Counted


def command_name(first: Any) -> str:
    """A Redis command's name from its first argument (``"GET"``, ``b"evalsha"``, ``"CLIENT SETINFO"``): ``GET``,
    ``EVALSHA``, ``CLIENT``."""
    text = bytes(first).decode(errors="replace") if isinstance(first, bytes | bytearray | memoryview) else str(first)
    return (text.split() or ["?"])[0].upper()


def api_method(error: Exception) -> str:
    """The Bot API method of an aiogram error (``sendMessage``), for the labels."""
    method = getattr(error, "method", None)
    return str(getattr(method, "__api_method__", type(method).__name__ if method is not None else "unknown"))


class ErrorCounter(logging.Handler):
    """Counts every ERROR record into ``tablebot_errors_total{logger}`` (the logger's first two parts)."""

    def __init__(self) -> None:
        super().__init__(level=logging.ERROR)

    def emit(self, record: logging.LogRecord) -> None:
        ERRORS.labels(".".join(record.name.split(".")[:2])).inc()


def count_errors() -> None:
    """Count the errors logged in this process (once)."""
    root = logging.getLogger()
    if not any(isinstance(h, ErrorCounter) for h in root.handlers):
        root.addHandler(ErrorCounter())
