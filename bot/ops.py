"""The operator's side of a worker: ``/metrics``, ``/healthz`` and ``/readyz`` on ``METRICS_PORT``, the logs'
format (``LOG_FORMAT=json``), and the database URL as it may be shown.

* ``GET /metrics``: Prometheus text of ``bot.metrics.REGISTRY`` (every name ``tablebot_``); the open tables are
  counted in the database at each scrape;
* ``GET /healthz``: 200 while the process and its event loop run (a liveness probe: restart it when this fails);
* ``GET /readyz``: 200 once the application has started, every adapter runs and the database answers; 503 with
  the reason otherwise (a readiness probe: send it no work while this fails).

``python -m bot`` starts it beside the adapters when ``METRICS_PORT`` is set (``METRICS_HOST``, default
127.0.0.1; compose.yaml sets 0.0.0.0 on its internal network). Keep it off the public proxy.
"""

from __future__ import annotations

import asyncio
import json
import logging
import sys
import time
from collections.abc import Callable
from typing import Any

from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest
from sqlalchemy.engine import make_url

from bot import metrics

log = logging.getLogger(__name__)

PING_TIMEOUT = 3.0  # seconds the database has to answer a readiness check
OPERATOR_KEY: web.AppKey[Any] = web.AppKey("operator")


def shown_url(url: str) -> str:
    """A database URL fit for logs: its password replaced by ``***``."""
    try:
        return make_url(url).render_as_string(hide_password=True)
    except Exception:  # not a URL SQLAlchemy reads: show nothing of it
        return "(unreadable DATABASE_URL)"


class Operator:
    """What the endpoints look at: the application (its storage), whether it started, and the adapters' tasks."""

    def __init__(self, app: Any, tasks: Callable[[], list[asyncio.Task]] = list) -> None:
        self.app = app
        self.tasks = tasks
        self.started = False

    async def problems(self) -> list[str]:
        """Why this worker should get no work now (empty: ready)."""
        found = []
        if not self.started:
            found.append("starting")
        ended = [t.get_name() for t in self.tasks() if t.done()]
        if ended:
            found.append("adapter stopped: " + ", ".join(ended))
        try:
            await asyncio.wait_for(self.app.ctx.storage.ping(), PING_TIMEOUT)
        except Exception as e:  # noqa: BLE001 - any failure to reach it is the answer
            found.append(f"database: {type(e).__name__}")
        return found


async def metrics_page(request: web.Request) -> web.Response:
    operator: Operator = request.app[OPERATOR_KEY]
    try:
        counts = await asyncio.wait_for(operator.app.ctx.storage.open_counts(), PING_TIMEOUT)
    except Exception:  # noqa: BLE001 - the other figures still count; the gauge keeps its last value
        log.warning("open tables could not be counted for /metrics", exc_info=True)
    else:
        for status, n in counts.items():
            metrics.OPEN_TABLES.labels(status).set(n)
    body = generate_latest(metrics.REGISTRY)
    return web.Response(body=body, headers={"Content-Type": CONTENT_TYPE_LATEST})


async def healthz(request: web.Request) -> web.Response:
    return web.Response(text="ok")


async def readyz(request: web.Request) -> web.Response:
    problems = await request.app[OPERATOR_KEY].problems()
    if problems:
        return web.Response(status=503, text="not ready: " + "; ".join(problems))
    return web.Response(text="ready")


def make_web_app(operator: Operator) -> web.Application:
    web_app = web.Application(client_max_size=1024)
    web_app[OPERATOR_KEY] = operator
    web_app.router.add_get("/metrics", metrics_page)
    web_app.router.add_get("/healthz", healthz)
    web_app.router.add_get("/readyz", readyz)
    return web_app


async def start(operator: Operator, host: str, port: int) -> tuple[web.AppRunner, str]:
    """Serve the endpoints; returns the runner (``cleanup()`` stops it) and its address."""
    runner = web.AppRunner(make_web_app(operator), handle_signals=False, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, host, port)
    await site.start()
    bound = runner.addresses[0][1] if runner.addresses else port
    shown = f"[{host}]" if ":" in host else host
    return runner, f"http://{shown}:{bound}"


class JsonFormatter(logging.Formatter):
    """One JSON object a line: time, level, logger, message (and the traceback, if any)."""

    def format(self, record: logging.LogRecord) -> str:
        out = {
            "time": self.formatTime(record, "%Y-%m-%dT%H:%M:%S") + f".{int(record.msecs):03d}Z",
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        if record.exc_info:
            out["exc"] = self.formatException(record.exc_info)
        return json.dumps(out, ensure_ascii=False)


def setup_logging(fmt: str = "text", level: str = "INFO") -> None:
    """Log to stderr, as text or JSON lines (``LOG_FORMAT``): the bot's own loggers from ``level`` up, the
    libraries' from WARNING up; and count every error into the metrics."""
    handler = logging.StreamHandler(sys.stderr)
    if fmt == "json":
        formatter: logging.Formatter = JsonFormatter()
        formatter.converter = time.gmtime
    else:
        formatter = logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s")
    handler.setFormatter(formatter)
    logging.basicConfig(handlers=[handler], level=logging.WARNING, force=True)
    logging.getLogger("bot").setLevel(level.upper())
    metrics.count_errors()
