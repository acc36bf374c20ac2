"""``python -m bot``: with no token it serves the playground and says how to go live; it stops cleanly."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import urllib.request


def start_bot(env_extra: dict[str, str], *args: str) -> subprocess.Popen:
    env = {k: v for k, v in os.environ.items() if not k.endswith("_BOT_TOKEN") and not k.startswith("PLAYGROUND_")}
    env.update(env_extra)
    return subprocess.Popen(
        [sys.executable, "-m", "bot", *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env
    )


def read_until(proc: subprocess.Popen, marker: str, timeout: float = 60) -> list[str]:
    lines: list[str] = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        lines.append(line.rstrip("\n"))
        if marker in line:
            return lines
    proc.kill()
    raise AssertionError(f"no {marker!r} in the output: {lines} {proc.stderr.read()}")


def test_without_tokens_the_playground_serves_the_page_and_stops_on_sigterm(tmp_path):
    proc = start_bot({"DATA_DIR": str(tmp_path)}, "--port", "0")
    try:
        lines = read_until(proc, "playground: open http://127.0.0.1:")
        text = "\n".join(lines)
        assert "thousand" in text and "TELEGRAM_BOT_TOKEN" in text and "DISCORD_BOT_TOKEN" in text
        assert f"sqlite+aiosqlite:///{tmp_path}" in text
        url = lines[-1].split("open ", 1)[1].split()[0]
        with urllib.request.urlopen(url, timeout=10) as r:
            assert r.status == 200 and b'data-box="group"' in r.read()
    finally:
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=30) == 0
    assert (tmp_path / "bot.sqlite3").exists()


def test_the_playground_runs_when_no_token_is_set_or_when_asked_for(monkeypatch):
    from bot.__main__ import ADAPTERS, chosen_adapters
    from bot.config import Settings

    for name in ("TELEGRAM_BOT_TOKEN", "DISCORD_BOT_TOKEN"):
        monkeypatch.delenv(name, raising=False)
    assert chosen_adapters(Settings(_env_file=None), playground=False) == ["playground"]
    with_tokens = Settings(_env_file=None, telegram_bot_token="1:x", discord_bot_token="y")
    assert chosen_adapters(with_tokens, playground=False) == ["telegram", "discord"]
    assert chosen_adapters(with_tokens, playground=True) == ["telegram", "discord", "playground"]
    with_webapp = Settings(_env_file=None, telegram_bot_token="1:x", webapp_url="https://cards.example.org")
    assert chosen_adapters(with_webapp, playground=False) == ["telegram", "webapp"]
    assert ADAPTERS == {
        "telegram": "bot.telegram",
        "discord": "bot.discord",
        "playground": "bot.playground",
        "webapp": "bot.webapp",
    }


def test_a_busy_port_is_a_clear_error(tmp_path):
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        busy = s.getsockname()[1]
        proc = start_bot({"DATA_DIR": str(tmp_path), "PLAYGROUND_PORT": str(busy)})
        out, err = proc.communicate(timeout=60)
    assert proc.returncode == 1
    assert f"port {busy}" in err and "PLAYGROUND_PORT=" in err  # what `make run` can pass, unlike --port


def test_malformed_telegram_token_is_named_and_exits_non_zero(tmp_path):
    proc = start_bot({"DATA_DIR": str(tmp_path), "TELEGRAM_BOT_TOKEN": "12345:short"})
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 2
    assert "TELEGRAM_BOT_TOKEN is malformed" in err and "@BotFather" in err
