"""Real bot workers (``python -m bot`` processes) in webhook mode over the fake Bot API, one PostgreSQL database
and Redis: started, waited for, SIGKILLed, stopped; what they logged is kept for the test to read."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import subprocess
import sys
from pathlib import Path

from testkit.fake_bot_api import TOKEN, FakeBotAPI

HOOK = "https://bot.example.org/telegram/hook"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class BotProcess:
    """One worker: ``python -m bot`` with the Telegram adapter, its webhook server on a port of its own."""

    def __init__(self, api: FakeBotAPI, database_url: str, redis_url: str, log_dir: Path, name: str, **env) -> None:
        self.api = api
        self.port = free_port()
        self.address = f"http://127.0.0.1:{self.port}/telegram/hook"
        self.log_path = log_dir / f"{name}.log"
        self.env = {
            **{k: v for k, v in os.environ.items() if not k.endswith("_BOT_TOKEN") and not k.startswith("TELEGRAM_")},
            "TELEGRAM_BOT_TOKEN": TOKEN,
            "TELEGRAM_API_URL": api.base_url,
            "TELEGRAM_WEBHOOK_URL": HOOK,
            "TELEGRAM_WEBHOOK_HOST": "127.0.0.1",
            "TELEGRAM_WEBHOOK_PORT": str(self.port),
            "TELEGRAM_EDIT_INTERVAL": "0.05",
            "TELEGRAM_PRIVATE_INTERVAL": "0.05",
            "TELEGRAM_GROUP_PER_MINUTE": "0",
            "TELEGRAM_GLOBAL_PER_SECOND": "1000",
            "TELEGRAM_UPDATE_LEASE": "2",
            "DATABASE_URL": database_url,
            "REDIS_URL": redis_url,
            "DATA_DIR": str(log_dir),
            "COMPUTER_PAUSE": "0",
            **{k.upper(): str(v) for k, v in env.items()},
        }
        self.proc: subprocess.Popen | None = None

    async def start(self) -> BotProcess:
        log = self.log_path.open("a")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "bot"], stdout=log, stderr=subprocess.STDOUT, env=self.env, cwd=os.getcwd()
        )
        log.close()
        for _ in range(600):
            if self.proc.poll() is not None:
                raise AssertionError(f"the worker exited: {self.log()}")
            try:
                _, writer = await asyncio.open_connection("127.0.0.1", self.port)
                writer.close()
                return self
            except OSError:
                await asyncio.sleep(0.1)
        raise AssertionError(f"the worker did not start: {self.log()}")

    def kill(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)

    def log(self) -> str:
        return self.log_path.read_text() if self.log_path.exists() else ""
