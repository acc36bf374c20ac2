"""What an operator sees (issue 33, findings 2 and 5): ``/metrics`` with ``tablebot_`` names that move after a
press, ``/healthz`` and ``/readyz`` on ``METRICS_PORT`` of a real ``python -m bot``, the database password never in
the start-up lines, and JSON logs."""

from __future__ import annotations

import json
import logging
import shutil
import signal
import urllib.error
import urllib.request

import aiohttp
from prometheus_client.parser import text_string_to_metric_families

from bot import metrics, ops
from bot.playground import PlaygroundPort, start_site
from tests.app_support import make_world
from tests.playground_support import StandIn
from tests.test_bot_start import read_until, start_bot


async def scrape(http: aiohttp.ClientSession, base: str) -> dict[tuple[str, tuple], float]:
    """Every sample of ``/metrics``: (name, sorted labels) -> value."""
    async with http.get(base + "/metrics") as r:
        assert r.status == 200 and r.headers["Content-Type"].startswith("text/plain")
        text = await r.text()
    samples = {}
    for family in text_string_to_metric_families(text):
        assert family.name.startswith("tablebot_"), family.name
        for s in family.samples:
            samples[(s.name, tuple(sorted(s.labels.items())))] = s.value
    return samples


def total(samples: dict[tuple[str, tuple], float], name: str, **labels: str) -> float:
    want = set(labels.items())
    return sum(v for (n, ls), v in samples.items() if n == name and want <= set(ls))


async def test_metrics_move_after_a_press_and_readiness_follows_the_start(tmp_path):
    (tmp_path / "db").mkdir()
    world = await make_world(tmp_path / "db" / "bot.sqlite3")
    operator = ops.Operator(world.app)
    runner, base = await ops.start(operator, "127.0.0.1", 0)
    stand_in = StandIn()
    port = PlaygroundPort(edit_interval=0.01)
    stand_in.attach(port)
    site, url = await start_site(stand_in, port, "127.0.0.1", 0)
    try:
        async with aiohttp.ClientSession() as http:
            async with http.get(base + "/healthz") as r:
                assert r.status == 200
            async with http.get(base + "/readyz") as r:
                assert r.status == 503 and "starting" in await r.text()
            operator.started = True
            async with http.get(base + "/readyz") as r:
                assert r.status == 200
            before = await scrape(http, base)
            ann, bob = world.user("Ann"), world.user("Bob")
            await ann.say(world.chat, "new", "kozel 2")
            await bob.press_label(world.lobby(), "Join", world.chat)  # done
            await bob.press_label(world.lobby(), "Join", world.chat)  # a notice: already seated
            await ann.press_label(world.lobby(), "Start", world.chat)  # done
            mover = next(u for u in (ann, bob) if u.hands())
            hand = mover.hands()[0]
            move = next(b for b in hand.buttons() if b.payload.startswith(("a.", "u.")))
            assert await mover.press(hand, move) == (None, False)  # done: the move is published
            await world.app.idle()
            await ann.say(world.chat, "nonsense")
            ws = await http.ws_connect(url + "ws")
            await ws.send_json({"type": "hello", "room": "kitchen", "name": "Anna", "lang": "en"})
            await ws.receive()
            after = await scrape(http, base)
            await ws.close()
        fake = {"platform": "fake"}
        assert total(after, "tablebot_presses_total", outcome="done", **fake) == 3 + total(
            before, "tablebot_presses_total", outcome="done", **fake
        )
        assert total(after, "tablebot_presses_total", outcome="notice", **fake) == 1 + total(
            before, "tablebot_presses_total", outcome="notice", **fake
        )
        assert total(after, "tablebot_answer_seconds_count", **fake) == 4 + total(
            before, "tablebot_answer_seconds_count", **fake
        )
        assert total(after, "tablebot_commands_total", command="new", outcome="done") == 1 + total(
            before, "tablebot_commands_total", command="new", outcome="done"
        )
        assert total(after, "tablebot_commands_total", command="unknown", outcome="notice") >= 1
        assert total(after, "tablebot_publish_lag_seconds_count") > total(before, "tablebot_publish_lag_seconds_count")
        assert total(after, "tablebot_open_tables", status="playing") == 1  # counted in the database
        assert total(after, "tablebot_sockets", kind="playground") == 1
        for name in ("tablebot_flood_waits_total", "tablebot_rate_limited_total", "tablebot_errors_total"):
            assert any(n == name for n, _ in after) or name not in {n for n, _ in before}
    finally:
        await site.cleanup()
        await port.close()
        await runner.cleanup()
        await world.app.close()
    # the database gone: not ready, with the reason
    shutil.rmtree(tmp_path / "db")
    runner, base = await ops.start(operator, "127.0.0.1", 0)
    try:
        async with aiohttp.ClientSession() as http, http.get(base + "/readyz") as r:
            assert r.status == 503 and "database" in await r.text()
    finally:
        await runner.cleanup()


def test_a_worker_serves_metrics_health_and_readiness_on_metrics_port(tmp_path):
    proc = start_bot({"DATA_DIR": str(tmp_path), "METRICS_PORT": "0", "LOG_FORMAT": "json"}, "--port", "0")
    try:
        lines = read_until(proc, "metrics: http://127.0.0.1:")
        base = lines[-1].split("metrics: ", 1)[1].split("/metrics")[0]
        read_until(proc, "playground: open")  # the adapters run; the application starts right after
        with urllib.request.urlopen(base + "/healthz", timeout=10) as r:
            assert r.status == 200
        for _ in range(600):  # ready once the application has started
            try:
                with urllib.request.urlopen(base + "/readyz", timeout=10) as r:
                    assert r.status == 200
                    break
            except urllib.error.HTTPError as e:
                assert e.code == 503
        with urllib.request.urlopen(base + "/metrics", timeout=10) as r:
            names = {f.name for f in text_string_to_metric_families(r.read().decode())}
        assert names and all(n.startswith("tablebot_") for n in names)
        assert {"tablebot_presses", "tablebot_open_tables", "tablebot_answer_seconds"} <= names
    finally:
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=30) == 0
    logged = [line for line in proc.stderr.read().splitlines() if line.strip()]
    records = [json.loads(line) for line in logged]  # LOG_FORMAT=json: one JSON object a line
    assert {"level": "INFO", "logger": "bot.main", "message": "worker ready: playground"} in [
        {k: r[k] for k in ("level", "logger", "message")} for r in records
    ]


def test_the_start_up_lines_never_show_the_database_password(tmp_path, monkeypatch, capsys):
    from bot import __main__ as entry

    secret = "S3cret-Word-42"
    url = f"postgresql+asyncpg://tablebot:{secret}@db.internal:5432/tablebot"
    ran = []

    async def run(settings, names):  # what follows the start-up lines is not this test's business
        ran.append(names)

    monkeypatch.setattr(entry, "run", run)
    logs = []  # the test process keeps its own logging
    monkeypatch.setattr(entry.ops, "setup_logging", lambda fmt, level: logs.append((fmt, level)))
    for name in ("TELEGRAM_BOT_TOKEN", "DISCORD_BOT_TOKEN", "WEBAPP_URL"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("DATABASE_URL", url)
    monkeypatch.setenv("DATA_DIR", str(tmp_path))
    monkeypatch.setenv("LOG_FORMAT", "json")
    assert entry.main(["--port", "0"]) == 0 and ran == [["playground"]] and logs == [("json", "INFO")]
    out, err = capsys.readouterr()
    assert "database: postgresql+asyncpg://tablebot:***@db.internal:5432/tablebot" in out
    assert secret not in out and secret not in err
    assert ops.shown_url("redis://:pw@redis:6379/0") == "redis://:***@redis:6379/0"


def test_json_logs_are_one_object_a_line_and_errors_are_counted():
    record = logging.LogRecord("bot.app.turns", logging.ERROR, __file__, 1, "table %s failed", (7,), None)
    logger = logging.getLogger("bot.opstest.inner")
    logger.propagate = False
    logger.addHandler(metrics.ErrorCounter())
    before = metrics.ERRORS.labels("bot.opstest")._value.get()
    logger.warning("only a warning")
    logger.error("an error")
    assert metrics.ERRORS.labels("bot.opstest")._value.get() == before + 1
    line = ops.JsonFormatter().format(record)
    assert json.loads(line) | {"time": None} == {
        "time": None,
        "level": "ERROR",
        "logger": "bot.app.turns",
        "message": "table 7 failed",
    }
