"""``bot.discord.serve``: settings from the environment's names, attach, run until cancelled, close cleanly."""

from __future__ import annotations

import asyncio

import pytest

from bot.config import Settings
from bot.discord import serve
from testkit.discord_support import StandIn
from testkit.fake_discord import FakeDiscord, FakeUser


async def test_serve_runs_the_adapter_until_cancelled(monkeypatch: pytest.MonkeyPatch) -> None:
    async with FakeDiscord() as fake:
        monkeypatch.setenv("DISCORD_BOT_TOKEN", fake.token)
        monkeypatch.setenv("DISCORD_API_URL", fake.base)
        monkeypatch.setenv("DISCORD_EDIT_INTERVAL", "0")
        settings = Settings(_env_file=None)  # type: ignore[call-arg]
        assert settings.adapters() == ["discord"] and settings.discord_edit_interval == 0
        app = StandIn()
        task = asyncio.create_task(serve(app, settings))
        await asyncio.wait_for(fake.identified.wait(), 10)
        for _ in range(200):
            if fake.commands:
                break
            await asyncio.sleep(0.02)
        assert app.port is not None and app.port.platform == "discord"
        rec = await fake.slash(FakeUser(920_001, "carol"), "new", {"game": "deberts"})
        await asyncio.wait_for(rec.acked.wait(), 5)
        for _ in range(200):
            if [m.content for m in fake.channel_messages()] == ["Table v1: nobody"]:
                break
            await asyncio.sleep(0.02)
        assert fake.channel_messages()[0].content == "Table v1: nobody"
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        assert app.port.client.is_closed()
        assert not fake.sockets  # the gateway connection was closed


async def test_serve_needs_a_token() -> None:
    with pytest.raises(ValueError, match="DISCORD_BOT_TOKEN"):
        await serve(StandIn(), Settings(_env_file=None, discord_bot_token=None))  # type: ignore[call-arg]


async def test_python_m_bot_runs_the_discord_adapter_with_the_application(
    monkeypatch: pytest.MonkeyPatch, tmp_path
) -> None:
    from bot.__main__ import chosen_adapters, run

    async with FakeDiscord() as fake:
        monkeypatch.setenv("DISCORD_BOT_TOKEN", fake.token)
        monkeypatch.setenv("DISCORD_API_URL", fake.base)
        monkeypatch.setenv("DATABASE_URL", f"sqlite+aiosqlite:///{tmp_path / 'bot.sqlite3'}")
        monkeypatch.delenv("TELEGRAM_BOT_TOKEN", raising=False)
        settings = Settings(_env_file=None)  # type: ignore[call-arg]
        assert chosen_adapters(settings, False) == ["discord"]
        task = asyncio.create_task(run(settings, ["discord"]))
        await asyncio.wait_for(fake.identified.wait(), 10)
        for _ in range(250):
            if fake.commands:
                break
            await asyncio.sleep(0.02)
        rec = await fake.slash(FakeUser(920_002, "dave"), "new", {"game": "kozel", "players": 2})
        await asyncio.wait_for(rec.acked.wait(), 5)
        for _ in range(250):
            table = [m for m in fake.channel_messages() if m.buttons()]
            if table:
                break
            await asyncio.sleep(0.02)
        assert table and table[0].id == rec.original_id  # the lobby answers /new in place
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        assert not fake.sockets
