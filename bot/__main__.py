"""``python -m bot``: start the bot with every configured chat adapter, or the local playground.

* With ``TELEGRAM_BOT_TOKEN`` and/or ``DISCORD_BOT_TOKEN`` set, those adapters run; ``--playground`` adds the
  playground beside them.
* With no token, the playground runs on ``http://127.0.0.1:8080`` (``--port`` or ``PLAYGROUND_PORT``).
* ``python -m bot migrate`` brings the database to the newest schema and exits.
* ``python -m bot achievements --backfill`` computes the achievements of every finished game again (the same set
  live play gives; those already stored stay).
* ``python -m bot repair TABLE`` re-checks a table's move log and clears a broken mark the log disproves
  (exit 0 repaired or healthy, 1 still broken, 2 no such table).

All adapters share one application (``bot.app``) over one database (``DATABASE_URL``, default SQLite in
``DATA_DIR``). Each adapter package exposes ``async def serve(app, settings)`` that attaches its port before its
first ``await``, runs until cancelled and shuts down cleanly; it is listed in ``ADAPTERS`` with one line.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import importlib
import logging
import signal
import sys
from collections.abc import Callable
from errno import EADDRINUSE
from typing import Any

from bot import ops
from bot.config import Settings
from bot.telegram.token_check import BadToken, check_token
from core import games

log = logging.getLogger("bot.main")  # not __name__: run as python -m bot, that is "__main__"

# platform -> the package whose ``serve(app, settings)`` runs it; one line per adapter
ADAPTERS: dict[str, str] = {
    "telegram": "bot.telegram",
    "discord": "bot.discord",
    "playground": "bot.playground",
    "webapp": "bot.webapp",  # the web table's own server (Mini App), with WEBAPP_URL
}

GO_LIVE = (
    "to go live in a Telegram group or a Discord server: set TELEGRAM_BOT_TOKEN and/or DISCORD_BOT_TOKEN\n"
    "(in the environment or a .env file, see README.md) and start again; add --playground to keep this page too"
)


async def migrate(settings: Settings) -> str:
    """Apply every migration; returns the revision the database is at."""
    from bot.storage import Storage
    from bot.storage.migrate import current_revision

    storage = await Storage.open(settings.effective_database_url(), data_dir=settings.data_dir)
    try:
        return await current_revision(storage.engine) or "none"
    finally:
        await storage.close()


async def repair(settings: Settings, table_id: int) -> int:
    """Re-verify one table and print what was found; the exit code (0 healthy or repaired, 1 broken, 2 no table)."""
    from bot.storage import InvalidInput, NotFound, Storage

    storage = await Storage.open(settings.effective_database_url(), data_dir=settings.data_dir)
    try:
        report = await storage.repair(table_id)
    except (NotFound, InvalidInput):
        print(f"no table {table_id}")
        return 2
    finally:
        await storage.close()
    if report.broken is not None:
        print(f"table {table_id} is broken: {report.broken}")
        return 1
    if report.repaired:
        print(f"table {table_id} repaired: its log replays to the stored state (it was marked: {report.was_broken})")
    else:
        print(f"table {table_id} is healthy: its log replays to the stored state")
    return 0


async def backfill(settings: Settings) -> int:
    """Compute every finished game's achievements again; returns how many games were read."""
    from bot.app.achievements import backfill as run
    from bot.storage import Storage

    storage = await Storage.open(settings.effective_database_url(), data_dir=settings.data_dir)
    try:
        return await run(storage)
    finally:
        await storage.close()


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bot", description="Thousand, Deberts and Kozel for chats.")
    parser.add_argument(
        "command",
        nargs="?",
        choices=["migrate", "repair", "achievements"],
        help="migrate: update the database and exit; repair TABLE: re-check a table marked broken; "
        "achievements --backfill: compute the achievements of every finished game again",
    )
    parser.add_argument("--backfill", action="store_true", help="achievements: compute them for old games")
    parser.add_argument("table", nargs="?", type=int, help="repair: the table's id")
    parser.add_argument("--port", type=int, help="the playground's port (default PLAYGROUND_PORT or 8080)")
    parser.add_argument("--playground", action="store_true", help="serve the playground beside the chat adapters")
    return parser.parse_args(argv)


def chosen_adapters(settings: Settings, playground: bool) -> list[str]:
    """The platforms to run: those with a token, plus the playground when asked for or when there is none."""
    names = settings.adapters()
    if playground or not names:
        names.append("playground")
    if settings.public_webapp_url():  # a Mini App (WEBAPP_URL) or a Discord Activity
        names.append("webapp")
    return names


async def run(settings: Settings, names: list[str]) -> None:
    """Open the application, run every adapter's ``serve`` until one fails or we are stopped, then close."""
    from bot.app import create_application

    serves = {name: importlib.import_module(ADAPTERS[name]).serve for name in names}
    app = await create_application(settings)
    if "playground" in serves:  # the playground's page shows the web table of its room's game too
        serves["playground"] = functools.partial(serves["playground"], extend=webtable_installer(app, settings))
    tasks = [asyncio.create_task(serve(app, settings), name=name) for name, serve in serves.items()]
    operator = ops.Operator(app, lambda: tasks)
    ops_runner = None
    if settings.metrics_port is not None:
        ops_runner, address = await ops.start(operator, settings.metrics_host, settings.metrics_port)
        print(f"metrics: {address}/metrics (and /healthz, /readyz)", flush=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(sig, stop.set)
    try:
        await asyncio.sleep(0)  # every serve() has attached its port
        await app.start()
        operator.started = True
        log.info("worker ready: %s", ", ".join(names))
        stopping = asyncio.create_task(stop.wait())
        done, _ = await asyncio.wait([*tasks, stopping], return_when=asyncio.FIRST_COMPLETED)
        stopping.cancel()
        if stop.is_set():  # every open page's socket is closed first, then timers and computer players stop
            print("stopping…", flush=True)
        for task in done:
            if task is not stopping:
                task.result()  # an adapter that ended on its own: show why
    finally:
        operator.started = False
        with contextlib.suppress(Exception):  # what moves still show goes out before the adapters close their ports
            await app.quiesce()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        if ops_runner is not None:
            await ops_runner.cleanup()
        await app.close()


def webtable_installer(app: Any, settings: Settings) -> Callable[[Any], Any]:
    """What adds the web table (``bot.webapp``) to the playground's server: names are believed there, as on the
    playground's own page (127.0.0.1 by default)."""
    from bot.webapp import install

    return lambda web_app: install(web_app, app, trust_names=True, poll_interval=settings.webapp_poll_interval)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(sys.argv[1:] if argv is None else argv)
    settings = Settings()
    ops.setup_logging(settings.log_format, settings.log_level)
    if args.command == "migrate":
        print(f"database migrated to revision {asyncio.run(migrate(settings))}")
        return 0
    if args.command == "achievements":
        if not args.backfill:
            print("usage: python -m bot achievements --backfill", file=sys.stderr)
            return 2
        print(f"achievements computed for {asyncio.run(backfill(settings))} finished games")
        return 0
    if args.command == "repair":
        if args.table is None:
            print("usage: python -m bot repair TABLE", file=sys.stderr)
            return 2
        return asyncio.run(repair(settings, args.table))
    if settings.telegram_bot_token:
        try:
            check_token(settings.telegram_bot_token)
        except BadToken as e:
            print(e, file=sys.stderr)
            return 2
    if args.port is not None:
        settings = settings.model_copy(update={"playground_port": args.port})
    names = chosen_adapters(settings, args.playground)
    missing = [name for name in names if name not in ADAPTERS]
    if missing:
        print(f"the {', '.join(missing)} adapter is not part of this version; unset its token", file=sys.stderr)
        return 2
    print(f"games: {', '.join(games.available())}")
    print(f"database: {ops.shown_url(settings.effective_database_url())}")  # never its password
    print(f"adapters: {', '.join(names)}")
    if names == ["playground"]:
        print("no chat token set: starting the local playground (games against computer players in your browser)")
        print(GO_LIVE)
    sys.stdout.flush()
    try:
        asyncio.run(run(settings, names))
    except OSError as e:
        hint = (
            f" (another program uses port {settings.playground_port}: choose another with PLAYGROUND_PORT=N,"
            " e.g. PLAYGROUND_PORT=8081 make run, or python -m bot --port N)"
            if e.errno == EADDRINUSE
            else ""
        )
        print(f"cannot start: {e}{hint}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
