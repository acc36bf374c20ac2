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
  ``tablebot_timers_due`` (timers found due at the last look), ``tablebot_timers_fired_total``.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

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
