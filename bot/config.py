"""Settings of the bot, read from the environment (and a ``.env`` file) with pydantic-settings."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", extra="ignore")

    telegram_bot_token: str | None = None
    telegram_api_url: str | None = None
    telegram_webhook_url: str | None = None  # set: webhook mode (several workers behind one URL); else polling
    telegram_webhook_host: str = "127.0.0.1"  # where this worker's webhook server listens (0.0.0.0: everywhere)
    telegram_webhook_port: int = 8443
    telegram_webhook_secret: str | None = None  # default: derived from the token
    telegram_webhook_hold: float = 10.0  # longest the webhook answer waits for its update to be handled
    telegram_update_lease: float = 5.0  # an update being handled is a worker's for this long, renewed as it works
    telegram_edit_interval: float = 1.0  # seconds between two messages or edits in one group
    telegram_private_interval: float = 0.5  # the same in a user's private chat with the bot
    telegram_group_per_minute: int = 20  # messages and edits per minute in one group
    telegram_group_window: float = 60.0  # ... over this many seconds (tests shorten it)
    telegram_global_per_second: int = 30  # messages and edits a second for the whole bot, all workers together
    redis_url: str | None = None  # shared flood control and table-edit coordination between workers
    discord_bot_token: str | None = None
    discord_api_url: str | None = None  # e.g. http://127.0.0.1:8080/api/v10 (tests use a fake Discord)
    discord_shard_count: int | None = None  # None: as many shards as Discord recommends
    discord_shard_ids: str | None = None  # e.g. "0,1": the shards this worker connects (with DISCORD_SHARD_COUNT)
    discord_edit_interval: float = 1.0  # seconds between two edits of table messages in one channel
    database_url: str | None = None
    data_dir: Path = Path("./data")
    computer_pause: float = 0.8  # seconds a computer seat waits before it moves, so people can follow
    think_cap: float = 3.0  # the longest a computer seat may think (wall time) before a quicker level moves
    round_pause: float | None = None  # set: every table's pause after a round (seconds); unset: its own option
    tick_interval: float = 1.0  # seconds between two looks at the turn timers
    playground_host: str = "127.0.0.1"  # the playground listens here only (loopback: this machine alone)
    playground_hosts: str | None = None  # more names its Host may carry, e.g. "den.lan,192.168.1.5" (comma-separated)
    playground_port: int = 8080
    playground_edit_interval: float = 0.05  # seconds between two pushes of one pane (edits in between coalesce)
    webapp_url: str | None = None  # the web table's public HTTPS address (set: Mini App buttons in Telegram)
    webapp_host: str = "127.0.0.1"  # where the web table's server listens (TLS is a reverse proxy's job)
    webapp_port: int = 8080
    webapp_poll_interval: float = 1.0  # seconds between two looks at the watched tables' versions (other workers)
    telegram_webapp_name: str | None = None  # the Mini App's short name at BotFather: t.me/<bot>/<name> links
    discord_client_id: str | None = None  # the Discord application's id (OAuth2 client id) for the Activity
    discord_client_secret: str | None = None  # its OAuth2 client secret: the Activity's code exchange (server only)
    discord_activity_url: str | None = None  # the public HTTPS address Discord's URL mapping for "/" points at

    metrics_port: int | None = None  # set: /metrics, /healthz and /readyz on this port (docs/operations.md)
    metrics_host: str = "127.0.0.1"  # where they listen (compose: 0.0.0.0 on its internal network)
    log_format: Literal["text", "json"] = "text"  # json: one JSON object a line
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR"] = "INFO"  # the bot's own loggers (libraries: WARNING)

    @field_validator("log_level", mode="before")
    @classmethod
    def _upper(cls, value: object) -> object:
        return value.upper() if isinstance(value, str) else value

    @model_validator(mode="after")
    def _check_discord_shards(self) -> Settings:
        self.discord_shards()  # a wrong shard setting stops the start with a clear message
        return self

    def discord_shards(self) -> list[int] | None:
        """The shard ids this worker connects (``DISCORD_SHARD_IDS``); None: all of them (one worker)."""
        count, raw = self.discord_shard_count, self.discord_shard_ids
        if count is not None and count < 1:
            raise ValueError("DISCORD_SHARD_COUNT must be at least 1")
        if raw is None or not raw.strip():
            return None
        if count is None:
            raise ValueError("DISCORD_SHARD_IDS needs DISCORD_SHARD_COUNT (the number of shards of all workers)")
        parts = [p.strip() for p in raw.split(",")]
        if not all(p.isascii() and p.isdigit() for p in parts):
            raise ValueError(f"DISCORD_SHARD_IDS is a comma-separated list of shard numbers, not {raw!r}")
        ids = [int(p) for p in parts]
        if len(set(ids)) != len(ids) or not all(0 <= i < count for i in ids):
            raise ValueError(f"DISCORD_SHARD_IDS must be distinct numbers from 0 to {count - 1}, not {raw!r}")
        return ids

    def discord_activity(self) -> bool:
        """The web table runs as a Discord Activity: the bot token, the client id and secret, and its address."""
        return bool(
            self.discord_bot_token
            and self.discord_client_id
            and self.discord_client_secret
            and self.discord_activity_url
        )

    def public_webapp_url(self) -> str | None:
        """Where people open the web table: ``WEBAPP_URL``, else the Activity's address."""
        return self.webapp_url or (self.discord_activity_url if self.discord_activity() else None)

    def adapters(self) -> list[str]:
        """Names of the chat platforms that have a token set."""
        out = []
        if self.telegram_bot_token:
            out.append("telegram")
        if self.discord_bot_token:
            out.append("discord")
        return out

    def effective_database_url(self) -> str:
        return self.database_url or f"sqlite+aiosqlite:///{self.data_dir / 'bot.sqlite3'}"
