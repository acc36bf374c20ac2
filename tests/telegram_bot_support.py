"""The real chat application with the Telegram adapter, in the test's event loop, over the fake Bot API and a
temporary SQLite file; a restart is a new application and adapter over the same file."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

from bot.app import Application, create_application
from bot.telegram.runner import TelegramRunner
from testkit.fake_bot_api import Call, FakeBotAPI
from tests.telegram_support import settings_for

WRITES = (
    "sendMessage",
    "sendPhoto",
    "sendDocument",
    "editMessageText",
    "editMessageCaption",
    "editMessageMedia",
    "editMessageReplyMarkup",
    "deleteMessage",
)


class LiveBot:
    """One bot process's worth: application + Telegram runner."""

    def __init__(self, api: FakeBotAPI, db: Path, **overrides) -> None:
        self.api = api
        self.settings = settings_for(
            api,
            database_url=f"sqlite+aiosqlite:///{db}",
            **{"computer_pause": 0, "tick_interval": 0, "round_pause": 0, **overrides},
        )
        self.app: Application | None = None
        self.busy = 0  # updates being handled
        self.runner: TelegramRunner | None = None

    async def start(self) -> LiveBot:
        self.app = await create_application(self.settings)
        self.runner = TelegramRunner(self.app, self.settings)
        self.runner.dp.update.outer_middleware(self._count)
        await self.runner.start()
        await self.app.start()
        return self

    async def _count(self, handler, event, data):
        self.busy += 1
        try:
            return await handler(event, data)
        finally:
            self.busy -= 1

    async def stop(self) -> None:
        if self.runner is not None:
            await self.runner.stop()
        if self.app is not None:
            await self.app.close()

    async def settle(self) -> None:
        """Until the application, the adapter's edit queue and the fake's traffic are all quiet."""
        assert self.app is not None and self.runner is not None
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            await self.app.idle()
            await self.runner.port.idle()
            await self.api.settle(quiet=0.02)
            if not self.busy and not self.runner.port._lanes:
                return
            await asyncio.sleep(0.01)
        raise AssertionError(f"the bot did not settle: busy {self.busy}, lanes {list(self.runner.port._lanes)}")


def writes(calls: list[Call], chat_id: int) -> list[Call]:
    return [c for c in calls if c.ok and c.chat_id == chat_id and c.method in WRITES]


def uploads(call: Call) -> list[str]:
    return list(call.params.get("__filenames__", {}).values())
