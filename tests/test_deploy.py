"""The documented scale-out (issue 26, finding 8): compose.yaml runs Telegram workers in webhook mode on
PostgreSQL and Redis behind one proxy, the migrations once; the Dockerfile runs ``python -m bot``; a worker's
webhook server listens on 127.0.0.1 unless told otherwise and answers the health check; a second long-polling
worker refuses to start."""

from __future__ import annotations

import os
import re
import tomllib
from pathlib import Path
from urllib.parse import urlsplit

import aiohttp
import pytest
import yaml
from redis.asyncio import Redis

from bot.config import Settings
from bot.telegram.runner import SecondPoller
from testkit.fake_bot_api import FakeBotAPI
from tests.telegram_support import Worker, webhook_worker

ROOT = Path(__file__).resolve().parent.parent
REDIS_URL = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")
VARIABLE = re.compile(r"\$\{([A-Z_]+)(?:(:?[-?])([^}]*))?\}")


def compose() -> dict:
    return yaml.safe_load((ROOT / "compose.yaml").read_text())


def env_of(service: dict, **values: str) -> dict[str, str]:
    """The service's environment with ``${NAME...}`` filled from ``values`` (as ``docker compose`` does: a name not
    given takes its ``:-`` default, or "x" where compose would refuse to start)."""

    def fill(m: re.Match) -> str:
        name, how, default = m.groups()
        return values.get(name, default if how in (":-", "-") else "x")

    env = service.get("environment") or {}
    return {k: VARIABLE.sub(fill, str(v)) for k, v in env.items()}


def test_compose_runs_webhook_workers_on_postgres_and_redis_behind_one_proxy():
    services = compose()["services"]
    assert {"db", "redis", "migrate", "bot", "proxy"} <= set(services)
    bot = services["bot"]
    env = env_of(bot, BOT_DOMAIN="bot.example.org", TELEGRAM_BOT_TOKEN="1:x", REDIS_PASSWORD="r3d")
    settings = Settings(_env_file=None, **{k.lower(): v for k, v in env.items()})
    assert settings.telegram_webhook_url == "https://bot.example.org/telegram/hook"
    assert settings.redis_url == "redis://:r3d@redis:6379/0"
    assert settings.effective_database_url().startswith("postgresql+asyncpg://") and "@db:5432/" in env["DATABASE_URL"]
    assert settings.telegram_webhook_host == "0.0.0.0" and settings.telegram_webhook_port == 8443
    assert not settings.discord_bot_token  # each replica would connect every Discord shard
    assert bot["deploy"]["replicas"] >= 2 and "ports" not in bot  # reached through the proxy only
    assert ":9100/readyz" in " ".join(bot["healthcheck"]["test"]) and settings.metrics_port == 9100
    needs = bot["depends_on"]
    assert needs["migrate"]["condition"] == "service_completed_successfully"
    assert needs["db"]["condition"] == needs["redis"]["condition"] == "service_healthy"
    # the migrations once, before the workers
    assert services["migrate"]["command"] == ["python", "-m", "bot", "migrate"]
    assert services["migrate"]["restart"] == "no"
    assert env_of(services["migrate"])["DATABASE_URL"] == env["DATABASE_URL"]
    for name in ("db", "redis", "bot", "proxy"):
        assert services[name]["healthcheck"]["test"], name
    # the proxy: the one published entry point, routing the webhook's path to every replica of `bot`
    proxy = services["proxy"]
    assert {p.split(":")[-1] for p in proxy["ports"]} == {"80", "443"}
    mount = next(v for v in proxy["volumes"] if v.endswith(":/etc/caddy/Caddyfile:ro"))
    caddyfile = (ROOT / mount.split(":")[0]).read_text()
    assert "{$BOT_DOMAIN}" in caddyfile and "handle /telegram/*" in caddyfile
    assert re.search(r"dynamic a \{\s*name bot\s*port 8443\s*refresh \d+s\s*\}", caddyfile)
    assert "lb_policy round_robin" in caddyfile and "lb_try_duration" in caddyfile
    assert proxy["depends_on"]["bot"]["condition"] == "service_healthy"


def test_compose_discord_workers_own_their_shards():
    discord = compose()["services"]["discord"]
    env = env_of(discord, DISCORD_SHARD_IDS="0", DISCORD_SHARD_COUNT="2")
    assert {"DISCORD_BOT_TOKEN", "DISCORD_SHARD_IDS", "DISCORD_SHARD_COUNT", "DATABASE_URL"} <= set(env)
    assert "TELEGRAM_BOT_TOKEN" not in env and discord["profiles"] == ["discord"]


def test_the_image_runs_the_bot_and_exposes_the_webhook_port():
    lines = [line.strip() for line in (ROOT / "Dockerfile").read_text().splitlines() if line.strip()]
    assert lines[[line.startswith("FROM ") for line in lines].index(True)].startswith("FROM python:3.11")
    exposed = next(line for line in lines if line.startswith("EXPOSE ")).split()[1:]
    assert 'CMD ["python", "-m", "bot"]' in lines and "8443" in exposed and "9100" in exposed
    assert "RUN pip install --no-cache-dir --no-deps ." in lines
    for folder in ("core", "renderers", "bot", "assets"):
        assert f"COPY {folder} ./{folder}" in lines
    for folder in ("bench", "testkit", "tests"):  # what the wheel leaves out stays out of the image too
        assert not any(line.startswith(f"COPY {folder}") for line in lines)


def test_the_webhook_server_listens_on_loopback_unless_told():
    assert Settings(_env_file=None).telegram_webhook_host == "127.0.0.1"


async def test_a_webhook_worker_answers_the_health_check():
    async with (
        webhook_worker() as (_, _, address),
        aiohttp.ClientSession() as session,
        session.get(address.replace("/telegram/hook", "/healthz")) as resp,
    ):
        assert resp.status == 200


async def test_a_second_long_polling_worker_refuses_to_start():
    redis = Redis.from_url(REDIS_URL)
    try:
        await redis.ping()
    except OSError:
        pytest.skip(f"no Redis at {REDIS_URL}")
    finally:
        await redis.aclose()
    api = FakeBotAPI()
    await api.start()
    try:
        async with Worker(api, redis_url=REDIS_URL):
            second = Worker(api, redis_url=REDIS_URL)
            with pytest.raises(SecondPoller, match="TELEGRAM_WEBHOOK_URL"):
                await second.runner.start()
            await second.runner.stop()
        async with Worker(api, redis_url=REDIS_URL):  # once the first has stopped, another may poll
            pass
    finally:
        await api.stop()


# --- safe deploy defaults (issue 33, finding 2) ---


def test_compose_has_no_default_passwords_and_refuses_to_start_without_them():
    text = (ROOT / "compose.yaml").read_text()
    for match in re.finditer(r"\$\{([A-Z_]*PASSWORD[A-Z_]*)(:?[-?])?([^}]*)\}", text):
        name, how, _ = match.groups()
        assert how == ":?", f"${{{name}}} must stop the start when unset, not default: {match.group(0)}"
    services = compose()["services"]
    assert "PASSWORD" in services["db"]["environment"]["POSTGRES_PASSWORD"]
    env = env_of(services["bot"], POSTGRES_PASSWORD="pg-pw", REDIS_PASSWORD="r3d")
    assert urlsplit(env["DATABASE_URL"]).password == "pg-pw"
    assert "tablebot:tablebot@" not in text and "${POSTGRES_PASSWORD:-" not in text


def test_redis_asks_for_a_password_and_every_worker_gives_it():
    services = compose()["services"]
    redis = services["redis"]
    command = " ".join(redis["command"])
    assert "--requirepass" in command and "REDIS_PASSWORD" in command
    assert "docker-entrypoint.sh redis-server" in command  # the image's entry point: Redis runs as its own user
    assert redis["environment"]["REDISCLI_AUTH"] == redis["environment"]["REDIS_PASSWORD"]  # the health check's
    for name in ("bot", "discord"):
        url = env_of(services[name], REDIS_PASSWORD="r3d")["REDIS_URL"]
        assert urlsplit(url).password == "r3d" and urlsplit(url).hostname == "redis", name


def test_the_database_and_redis_are_on_an_internal_network_only():
    spec = compose()
    internal = {name for name, net in spec["networks"].items() if (net or {}).get("internal")}
    assert internal
    services = spec["services"]
    for name in ("db", "redis", "migrate"):
        assert set(services[name]["networks"]) <= internal, name
        assert "ports" not in services[name], name
    for name in ("bot", "discord"):  # they reach the database and Redis, and their platform outside
        nets = set(services[name]["networks"])
        assert nets & internal and nets - internal, name
    assert not set(services["proxy"]["networks"]) & internal


def test_every_worker_serves_metrics_health_and_readiness_off_the_proxy():
    services = compose()["services"]
    for name in ("bot", "discord"):
        env = env_of(services[name])
        assert env["METRICS_PORT"] == "9100" and "9100" in services[name]["expose"], name
        assert ":9100/readyz" in " ".join(services[name]["healthcheck"]["test"]), name
        assert "ports" not in services[name], name
    caddyfile = (ROOT / "deploy" / "Caddyfile").read_text()
    assert "9100" not in caddyfile and "metrics" not in caddyfile


def test_the_image_runs_as_a_user_and_installs_the_locked_versions():
    lines = [line.strip() for line in (ROOT / "Dockerfile").read_text().splitlines() if line.strip()]
    users = [line.split()[1] for line in lines if line.startswith("USER ")]
    assert users and users[-1] not in ("root", "0") and users[-1].split(":")[0] not in ("root", "0")
    assert lines.index(f"USER {users[-1]}") < lines.index('CMD ["python", "-m", "bot"]')
    assert "COPY requirements.lock ./" in lines
    assert "RUN pip install --no-cache-dir --require-hashes -r requirements.lock" in lines
    assert lines.index("RUN pip install --no-cache-dir --require-hashes -r requirements.lock") < lines.index(
        "RUN pip install --no-cache-dir --no-deps ."
    )
    # the lock pins every runtime dependency of pyproject.toml to one version, with hashes
    lock = (ROOT / "requirements.lock").read_text()
    pinned = {m.group(1).lower().replace("_", "-") for m in re.finditer(r"^([A-Za-z0-9_.-]+)==\S+ \\$", lock, re.M)}
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    for requirement in project["dependencies"]:
        name = re.match(r"[A-Za-z0-9_.-]+", requirement).group(0).lower().replace("_", "-").replace(".", "-")
        assert name in pinned, name
    assert lock.count("--hash=sha256:") >= len(pinned)
    # and CI (make test) installs the dev lock
    makefile = (ROOT / "Makefile").read_text()
    assert "pip install --quiet -r requirements-dev.lock" in makefile


def caddy_blocks(text: str) -> list[tuple[str, list]]:
    """The Caddyfile as nested ``(line, children)`` blocks (comments dropped); enough to read its routes."""
    root: list = []
    stack = [root]
    for raw in text.splitlines():
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        if line == "}":
            stack.pop()
        elif line.endswith("{"):
            children: list = []
            stack[-1].append((line[:-1].strip(), children))
            stack.append(children)
        else:
            stack[-1].append((line, []))
    return root


def caddy_matches(patterns: list[str], path: str) -> bool:
    """Caddy's path matcher: ``/x/*`` a prefix, else the exact path."""
    return any(path.startswith(p[:-1]) if p.endswith("*") else path == p for p in patterns)


def test_every_worker_serves_the_web_table_at_app_behind_the_proxy():
    services = compose()["services"]
    bot = services["bot"]
    env = env_of(bot, BOT_DOMAIN="bot.example.org", TELEGRAM_BOT_TOKEN="1:x")
    settings = Settings(_env_file=None, **{k.lower(): v for k, v in env.items()})
    # the web table's server runs in every replica, reachable by the proxy on the compose network
    assert settings.webapp_url == "https://bot.example.org" and settings.webapp_host == "0.0.0.0"
    port = settings.webapp_port
    assert str(port) in {str(p) for p in bot["expose"]} and port != settings.telegram_webhook_port
    # the proxy sends /app (the page, its files, pictures and the WebSocket) to that port of every replica
    (site,) = caddy_blocks((ROOT / "deploy/Caddyfile").read_text())
    assert site[0] == "{$BOT_DOMAIN}"
    matchers = {line.split()[0]: line.split()[2:] for line, _ in site[1] if line.startswith("@")}
    routes = []
    for line, children in site[1]:
        if line.startswith("handle"):
            what = line.split()[1]
            paths = matchers[what] if what.startswith("@") else [what]
            routes.append((paths, children))
    for path in ("/app", "/app/", "/app/ws", "/app/pic/table.1.2.x.en.classic.3.sig", "/app/api/session"):
        paths, children = next(r for r in routes if caddy_matches(r[0], path))
        (proxy,) = [c for line, c in children if line == "reverse_proxy"]
        upstream = dict(line.split(" ", 1) for line, _ in dict(proxy)["dynamic a"])
        assert upstream["name"] == "bot" and upstream["port"] == str(port), path
        # Caddy proxies a WebSocket upgrade as it is: nothing here may strip its headers
        assert not any("Upgrade" in line or "Connection" in line for line, _ in proxy)
        assert ("lb_policy round_robin", []) in proxy
    assert not any(caddy_matches(paths, "/apple") for paths, _ in routes)
    assert next(r for r in routes if caddy_matches(r[0], "/telegram/hook"))
