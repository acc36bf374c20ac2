"""``python -m bot`` starts, names the games it has and says which chat adapters are configured."""

from __future__ import annotations

import os
import subprocess
import sys


def run_bot(env_extra: dict[str, str]) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.endswith("_BOT_TOKEN")}
    env.update(env_extra)
    return subprocess.run([sys.executable, "-m", "bot"], capture_output=True, text=True, env=env, timeout=60)


def test_bot_without_tokens_says_how_to_configure(tmp_path):
    out = run_bot({"DATA_DIR": str(tmp_path)})
    assert out.returncode == 0
    assert "thousand" in out.stdout
    assert "TELEGRAM_BOT_TOKEN" in out.stdout


def test_bot_names_configured_adapters(tmp_path):
    token = "123456789:AAFakeTokenForTheTestsOnly_abcdefghi"
    out = run_bot({"DATA_DIR": str(tmp_path), "TELEGRAM_BOT_TOKEN": token, "DISCORD_BOT_TOKEN": "y"})
    assert out.returncode == 0
    assert "adapters configured: telegram, discord" in out.stdout


def test_malformed_telegram_token_is_named_and_exits_non_zero(tmp_path):
    out = run_bot({"DATA_DIR": str(tmp_path), "TELEGRAM_BOT_TOKEN": "12345:short"})
    assert out.returncode == 2
    assert "TELEGRAM_BOT_TOKEN is malformed" in out.stderr and "@BotFather" in out.stderr
