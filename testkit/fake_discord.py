"""A fake Discord for tests: the REST API under ``/api/v10`` and the gateway websocket, served by aiohttp on
127.0.0.1, so that a real discord.py client talks HTTP and websocket to it exactly as it would to Discord.

What it keeps is what a user would see: channel messages (content, decoded attachments, components),
ephemeral messages (visible to one user only), the application commands synced, and every interaction with
the time it was acknowledged. Tests act as users through ``slash``, ``click`` and ``choose`` (``raw_click`` and
``raw_choose``: a component by its custom id, also one an edit has removed since), which push an
``INTERACTION_CREATE`` frame down the gateway.

Discord behaviours kept on purpose (the adapter must cope with them):

* an interaction takes one initial response (its callback), within 3 seconds: a later one fails with 404
  "Unknown interaction" (10062; the test sees ``late``), a second one with 400 "Interaction has already been
  acknowledged" (40060); every try is kept on the interaction (``callbacks``, ``refused``);
* an interaction token lives 15 minutes (``advance`` moves the fake clock); after that the webhook
  endpoints answer 401 ``Invalid Webhook Token`` (code 50027);
* an ephemeral message can only be edited through an interaction token, never through the channel endpoint;
* a message sent through an interaction carries its ``interaction_metadata`` (the interaction's id, type and user:
  whom it was sent to);
* a deferred response with a "thinking" placeholder (callback type 5) has its visibility fixed when it is deferred:
  while it is still loading, the first follow-up message takes its place, public or ephemeral as deferred, whatever
  the follow-up's own flags say (``loading``); once the placeholder was edited, follow-ups are messages of their own;
* JSON replies carry ``Content-Type: application/json`` exactly (discord.py checks the header verbatim);
* each gateway connection identifies as one shard ``[id, count]`` (kept in ``shards``); an event of the guild goes
  to the connections of shard ``(guild_id >> 22) % count`` only, as Discord routes it;
* a message's content is at most 2,000 characters, its components at most 5 action rows of at most 5 buttons or
  one select menu (1 to 25 options), custom ids at most 100 characters and labels at most 80, unique custom
  ids; anything else is refused with 400 "Invalid Form Body" (code 50035), wherever the message is sent or
  edited (channel, interaction response, follow-up);
* rate limits (``Limits``, on by default): each route of a channel (sending, editing, deleting its messages) is
  a bucket of 5 requests per 5 seconds, and the bot token has 50 requests a second in all. Every answer of a
  bucketed route carries Discord's ``X-RateLimit-*`` headers (limit, remaining, reset, reset-after, bucket), so
  discord.py waits before a bucket runs dry; a request over a limit gets 429 with ``retry_after`` (and
  ``global``, ``X-RateLimit-Global`` and ``X-RateLimit-Scope``), which discord.py waits out and retries
  (``refused`` keeps them). ``rate_limit_next`` answers the next matching request 429 on purpose;
  ``spend_channel`` spends a channel's buckets as of now (requests of another worker), so that its next message,
  edit or deletion is answered 429 until the bucket resets. A test that needs speed turns one limit off or
  shortens its window by name, e.g. ``FakeDiscord(limits=Limits(per_channel_route=None))``.

Every request is logged in ``calls``, in the order it came, with its time, its status and the message it made or
edited: a test sees whether an interaction was answered before the channel writes that followed it.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import mimetypes
import secrets
import time
import uuid
from dataclasses import dataclass, field
from typing import Any

import aiohttp
from aiohttp import web

EPHEMERAL = 64
MAX_CONTENT = 2000
MAX_ROWS = 5
MAX_ROW_BUTTONS = 5
MAX_OPTIONS = 25
MAX_CUSTOM_ID = 100
MAX_LABEL = 80
MAX_OPTION_TEXT = 100
MAX_PLACEHOLDER = 150
MAX_EMBEDS = 10
MAX_EMBED_DESCRIPTION = 4096
MAX_EMBED_TITLE = 256
TOKEN_LIFETIME = 15 * 60.0
ACK_DEADLINE = 3.0
APPLICATION_ID = 500_000_000_000_000_001
BOT_ID = 500_000_000_000_000_002
GUILD_ID = 600_000_000_000_000_001
CHANNEL_ID = 600_000_000_000_000_010
OTHER_CHANNEL_ID = 600_000_000_000_000_011
PERMISSIONS_ALL = str((1 << 50) - 1)

CHANNEL_ROUTES = (("POST", "messages"), ("PATCH", "messages/{id}"), ("DELETE", "messages/{id}"))  # a bucket each

_ids = itertools.count()
DISCORD_EPOCH_MS = 1_420_070_400_000


def snowflake() -> int:
    """A fresh id that, like Discord's, encodes the (real) time it was made."""
    return ((int(time.time() * 1000) - DISCORD_EPOCH_MS) << 22) | (next(_ids) & 0x3FFFFF)


def _json(data: Any, status: int = 200) -> web.Response:
    # discord.py reads JSON only when the header is exactly "application/json" (no charset).
    return web.Response(status=status, body=json.dumps(data).encode(), headers={"Content-Type": "application/json"})


def _error(status: int, code: int, message: str) -> web.Response:
    return _json({"code": code, "message": message}, status)


def _invalid(where: str, problem: str) -> web.Response:
    """Discord's answer to a payload it does not accept."""
    return _json(
        {"code": 50035, "message": "Invalid Form Body", "errors": {where: {"_errors": [{"message": problem}]}}}, 400
    )


def check_message(payload: dict[str, Any]) -> tuple[str, str] | None:
    """What Discord refuses in a message payload (content, components, embeds): ``(field, problem)``, or None."""
    content = payload.get("content")
    if isinstance(content, str) and len(content) > MAX_CONTENT:
        return "content", f"Must be {MAX_CONTENT} or fewer in length."
    embeds = payload.get("embeds") or ([payload["embed"]] if payload.get("embed") else [])
    if len(embeds) > MAX_EMBEDS:
        return "embeds", f"Must be {MAX_EMBEDS} or fewer in length."
    for embed in embeds:
        if len(embed.get("description") or "") > MAX_EMBED_DESCRIPTION:
            return "embeds.description", f"Must be {MAX_EMBED_DESCRIPTION} or fewer in length."
        if len(embed.get("title") or "") > MAX_EMBED_TITLE:
            return "embeds.title", f"Must be {MAX_EMBED_TITLE} or fewer in length."
    rows = payload.get("components") or []
    if len(rows) > MAX_ROWS:
        return "components", f"Must be {MAX_ROWS} or fewer in length."
    seen: set[str] = set()
    for i, row in enumerate(rows):
        items = row.get("components") or []
        if row.get("type") != 1 or not items:
            return f"components.{i}", "An action row holds 1 to 5 components."
        selects = [c for c in items if c.get("type") in (3, 5, 6, 7, 8)]
        if selects and len(items) > 1:
            return f"components.{i}", "A select menu must be alone in its action row."
        if len(items) > MAX_ROW_BUTTONS:
            return f"components.{i}.components", f"Must be {MAX_ROW_BUTTONS} or fewer in length."
        for j, item in enumerate(items):
            where = f"components.{i}.components.{j}"
            custom_id = item.get("custom_id")
            if custom_id is not None:
                if not 1 <= len(custom_id) <= MAX_CUSTOM_ID:
                    return f"{where}.custom_id", f"Must be between 1 and {MAX_CUSTOM_ID} in length."
                if custom_id in seen:
                    return f"{where}.custom_id", "Component custom id cannot be duplicated"
                seen.add(custom_id)
            elif item.get("style") != 5:
                return f"{where}.custom_id", "A custom id is required"
            if item.get("type") == 2 and len(item.get("label") or "") > MAX_LABEL:
                return f"{where}.label", f"Must be {MAX_LABEL} or fewer in length."
            if item.get("type") == 3:
                options = item.get("options") or []
                if not 1 <= len(options) <= MAX_OPTIONS:
                    return f"{where}.options", f"Must be between 1 and {MAX_OPTIONS} in length."
                if len(item.get("placeholder") or "") > MAX_PLACEHOLDER:
                    return f"{where}.placeholder", f"Must be {MAX_PLACEHOLDER} or fewer in length."
                for k, option in enumerate(options):
                    for key in ("label", "value", "description"):
                        if len(option.get(key) or "") > MAX_OPTION_TEXT:
                            return f"{where}.options.{k}.{key}", f"Must be {MAX_OPTION_TEXT} or fewer in length."
    return None


@dataclass(frozen=True)
class Limits:
    """Discord's rate limits as the fake enforces them; ``None`` turns one off."""

    per_channel_route: tuple[int, float] | None = (5, 5.0)  # requests per window to one route of one channel
    per_second: int | None = 50  # requests a second of the bot token in all (interactions are not counted)

    @classmethod
    def off(cls) -> Limits:
        return cls(None, None)


@dataclass
class _Bucket:
    name: str
    limit: int
    window: float
    reset: float = 0.0  # monotonic time the current window ends
    used: int = 0


def _iso(ts: float) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(ts)) + "+00:00"


@dataclass
class FakeUser:
    id: int
    name: str
    locale: str = "en-US"

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "username": self.name,
            "global_name": self.name,
            "discriminator": "0",
            "avatar": None,
            "bot": False,
        }

    def member(self) -> dict[str, Any]:
        return {
            "user": self.payload(),
            "nick": None,
            "roles": [],
            "joined_at": _iso(0),
            "deaf": False,
            "mute": False,
            "flags": 0,
            "permissions": PERMISSIONS_ALL,
        }


@dataclass
class Attachment:
    id: int
    filename: str
    data: bytes
    content_type: str


@dataclass
class StoredMessage:
    """One message as Discord holds it."""

    id: int
    channel_id: int
    content: str = ""
    attachments: list[Attachment] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    flags: int = 0
    visible_to: int | None = None  # ephemeral: the only user who sees it
    interaction_user: int | None = None  # the user whose command this message answers
    interaction: dict[str, Any] | None = None  # Discord's ``interaction_metadata``: the interaction it answers
    deleted: bool = False
    edits: int = 0
    created: float = 0.0
    loading: bool = False  # a deferred response's "thinking" placeholder, not yet resolved
    shown: list[str] = field(default_factory=list)  # every content it has had, in order (edits included)
    shown_files: list[str] = field(default_factory=list)  # every attachment's file name it has had

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    def custom_ids(self) -> list[str]:
        out = []
        for row in self.components:
            for comp in row.get("components", []):
                if "custom_id" in comp:
                    out.append(comp["custom_id"])
        return out

    def buttons(self) -> list[dict[str, Any]]:
        return [c for row in self.components for c in row.get("components", []) if c.get("type") == 2]

    def selects(self) -> list[dict[str, Any]]:
        return [c for row in self.components for c in row.get("components", []) if c.get("type") == 3]

    def button(self, label: str) -> dict[str, Any]:
        for b in self.buttons():
            if b.get("label") == label:
                return b
        raise KeyError(f"no button {label!r} on message {self.id}: {[b.get('label') for b in self.buttons()]}")

    def image(self) -> bytes | None:
        for a in self.attachments:
            if a.content_type.startswith("image/"):
                return a.data
        return None

    def payload(self, bot: dict[str, Any]) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "channel_id": str(self.channel_id),
            "guild_id": str(GUILD_ID),
            "author": bot,
            "content": self.content,
            "timestamp": _iso(self.created),
            "edited_timestamp": None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [
                {
                    "id": str(a.id),
                    "filename": a.filename,
                    "size": len(a.data),
                    "url": f"https://cdn.invalid/attachments/{a.id}/{a.filename}",
                    "proxy_url": f"https://cdn.invalid/attachments/{a.id}/{a.filename}",
                    "content_type": a.content_type,
                }
                for a in self.attachments
            ],
            "embeds": [],
            "pinned": False,
            "type": 0,
            "flags": self.flags,
            "components": self.components,
            "application_id": str(APPLICATION_ID),
            "webhook_id": str(APPLICATION_ID) if self.interaction_user is not None else None,
            **({"interaction_metadata": self.interaction} if self.interaction is not None else {}),
        }


@dataclass
class InteractionRecord:
    """One interaction pushed to the bot and what became of it."""

    id: int
    token: str
    kind: int  # 2 application command, 3 component
    user: FakeUser
    channel_id: int
    created: float
    message_id: int | None = None  # the message a component was on
    acked_after: float | None = None  # seconds from push to callback
    callback_type: int | None = None
    original_id: int | None = None  # the message the interaction's response created or updated
    followups: list[int] = field(default_factory=list)
    late: bool = False
    callbacks: list[tuple[int, int | None]] = field(default_factory=list)  # (status, Discord's code) of each try
    acked: asyncio.Event = field(default_factory=asyncio.Event)

    @property
    def refused(self) -> list[int | None]:
        """The codes of the callbacks Discord refused (10062 too late or unknown, 40060 answered already, ...)."""
        return [code for status, code in self.callbacks if status >= 300]

    def metadata(self) -> dict[str, Any]:
        """Discord's ``interaction_metadata`` of a message sent through this interaction: who it was sent to."""
        out: dict[str, Any] = {
            "id": str(self.id),
            "type": self.kind,
            "user": self.user.payload(),
            "authorizing_integration_owners": {"0": str(GUILD_ID)},
        }
        if self.message_id is not None:
            out["interacted_message_id"] = str(self.message_id)
        return out


@dataclass
class Call:
    """One request the bot made, in the order they arrived: ``status`` once answered."""

    method: str
    path: str
    at: float  # time.monotonic() of its arrival
    status: int | None = None
    message_id: int | None = None  # the message it sent or edited

    @property
    def channel_id(self) -> int | None:
        """The channel of a bot request to ``/channels/{id}/...``."""
        parts = self.path.split("/")
        return int(parts[2]) if len(parts) > 2 and parts[1] == "channels" and parts[2].isdigit() else None

    @property
    def channel_write(self) -> bool:
        """A message sent, edited or deleted in a channel with the bot token (what the channel's buckets count)."""
        return self.channel_id is not None and self.method in ("POST", "PATCH", "DELETE")

    def callback_of(self, rec: InteractionRecord) -> bool:
        """The initial response (callback) to interaction ``rec``."""
        return self.path.startswith(f"/interactions/{rec.id}/") and self.path.endswith("/callback")


class FakeDiscord:
    """The fake server. Use ``async with FakeDiscord() as fake:``; ``fake.install()`` points discord.py at it."""

    def __init__(self, *, limits: Limits | None = None) -> None:
        self.limits = limits or Limits()
        self._buckets: dict[tuple[str, str, int], _Bucket] = {}
        self._global: list[float] = []  # when the bot token's requests of the last second came
        self._forced: list[tuple[str | None, float, bool]] = []  # rate_limit_next: (method, retry_after, global)
        self.refused: list[tuple[str, str, bool]] = []  # (method, path, global) of every request answered 429
        self.bot = {
            "id": str(BOT_ID),
            "username": "tablebot",
            "global_name": "tablebot",
            "discriminator": "0",
            "avatar": None,
            "bot": True,
            "flags": 0,
            "verified": True,
            "mfa_enabled": False,
        }
        self.token = "fake-token"
        self.offset = 0.0  # seconds the fake clock is ahead of the real one
        self.messages: dict[int, StoredMessage] = {}
        self.interactions: dict[int, InteractionRecord] = {}
        self.by_token: dict[str, InteractionRecord] = {}
        self.commands: list[dict[str, Any]] = []
        self.command_syncs = 0
        self.requests: list[tuple[str, str]] = []
        self.calls: list[Call] = []  # every request, in order, with the time it came and its status
        self.sockets: list[web.WebSocketResponse] = []
        self.identified = asyncio.Event()
        self.shards: list[tuple[int, int]] = []  # [id, count] of every IDENTIFY, in order
        self._shard_of: dict[int, tuple[int, int]] = {}  # id(websocket) -> the shard it identified as
        self.channel_edits: dict[int, list[float]] = {}
        self._seq = 0
        self._runner: web.AppRunner | None = None
        self.port = 0
        self.fail_next_channel_edit = False
        # the Activity's OAuth2 and instances (bot.webapp.activity): codes and tokens for users, live instances
        self.client_secret = "fake-client-secret"
        self.codes: dict[str, FakeUser] = {}
        self.access_tokens: dict[str, FakeUser] = {}
        self.instances: dict[str, dict[str, Any]] = {}

    # ---------------------------------------------------------------- lifecycle

    async def __aenter__(self) -> FakeDiscord:
        app = web.Application(client_max_size=32 * 1024 * 1024)
        app.router.add_route("*", "/api/v10/{tail:.*}", self._rest)
        app.router.add_get("/gateway", self._gateway)
        self._runner = web.AppRunner(app)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        return self

    async def __aexit__(self, *exc: object) -> None:
        for ws in list(self.sockets):
            await ws.close()
        if self._runner is not None:
            await self._runner.cleanup()

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}/api/v10"

    def install(self) -> None:
        """Point discord.py's REST routes at this server (the gateway URL comes from ``GET /gateway/bot``)."""
        import discord.http

        discord.http.Route.BASE = self.base

    def now(self) -> float:
        return time.time() + self.offset

    def advance(self, seconds: float) -> None:
        """Move Discord's clock forward (interaction tokens expire)."""
        self.offset += seconds

    def rate_limit_next(self, method: str | None = None, *, retry_after: float = 0.5, is_global: bool = False) -> None:
        """Answer the next bot request (of ``method``, e.g. ``"PATCH"``) 429, as a sub-limit or a global one."""
        self._forced.append((method, retry_after, is_global))

    def spend_channel(self, channel_id: int = CHANNEL_ID) -> None:
        """The channel's buckets are spent as of now (requests Discord counted that this bot process did not see:
        another worker, a restart): its next message sent, edited or deleted is answered 429 until the bucket's
        window has passed. discord.py, whose own count says there is room, runs into it and waits it out."""
        if self.limits.per_channel_route is None:
            return
        for method, route in CHANNEL_ROUTES:
            bucket = self._bucket(method, ["channels", str(channel_id), *route.split("/")])
            assert bucket is not None
            bucket.reset, bucket.used = time.monotonic() + bucket.window, bucket.limit

    # ---------------------------------------------------------------- what users see

    def channel_messages(self, channel_id: int = CHANNEL_ID) -> list[StoredMessage]:
        return [m for m in self.messages.values() if m.channel_id == channel_id and not m.ephemeral and not m.deleted]

    def ephemeral_for(self, user: FakeUser) -> list[StoredMessage]:
        return [m for m in self.messages.values() if m.ephemeral and m.visible_to == user.id and not m.deleted]

    def ever_public(self) -> list[str]:
        """Every text any channel message has ever shown to everyone (edited away or deleted since, too)."""
        return [text for m in self.messages.values() if not m.ephemeral for text in m.shown]

    def ever_public_files(self) -> list[str]:
        """The file names of every attachment any channel message has ever shown to everyone."""
        return [name for m in self.messages.values() if not m.ephemeral for name in m.shown_files]

    def visible_to(self, user: FakeUser, channel_id: int = CHANNEL_ID) -> list[StoredMessage]:
        return sorted(
            self.channel_messages(channel_id) + [m for m in self.ephemeral_for(user) if m.channel_id == channel_id],
            key=lambda m: m.id,
        )

    # ---------------------------------------------------------------- users act

    async def push(self, event: str, data: dict[str, Any]) -> None:
        """Send an event down the gateway to the shard that owns its guild (every connection of that shard)."""
        self._seq += 1
        frame = {"op": 0, "t": event, "s": self._seq, "d": data}
        guild = int(data.get("guild_id") or 0)
        for ws in list(self.sockets):
            shard, count = self._shard_of.get(id(ws), (0, 1))
            if not ws.closed and (guild >> 22) % count == shard:
                await ws.send_str(json.dumps(frame))

    def _interaction(
        self, kind: int, user: FakeUser, channel_id: int, data: dict[str, Any], message: StoredMessage | None = None
    ) -> tuple[InteractionRecord, dict[str, Any]]:
        rec = InteractionRecord(
            id=snowflake(),
            token="itok-" + uuid.uuid4().hex,
            kind=kind,
            user=user,
            channel_id=channel_id,
            created=self.now(),
            message_id=message.id if message else None,
        )
        assert rec.token not in self.by_token, "interaction tokens must be unique"
        self.interactions[rec.id] = rec
        self.by_token[rec.token] = rec
        payload: dict[str, Any] = {
            "id": str(rec.id),
            "application_id": str(APPLICATION_ID),
            "type": kind,
            "data": data,
            "guild_id": str(GUILD_ID),
            "channel_id": str(channel_id),
            "channel": {"id": str(channel_id), "type": 0, "guild_id": str(GUILD_ID), "name": "games"},
            "member": user.member(),
            "token": rec.token,
            "version": 1,
            "locale": user.locale,
            "guild_locale": "en-US",
            "app_permissions": PERMISSIONS_ALL,
            "attachment_size_limit": 10 * 1024 * 1024,
            "entitlements": [],
            "authorizing_integration_owners": {"0": str(GUILD_ID)},
            "context": 0,
        }
        if message is not None:
            payload["message"] = message.payload(self.bot)
        return rec, payload

    async def slash(
        self, user: FakeUser, name: str, options: dict[str, str | int] | None = None, channel_id: int = CHANNEL_ID
    ) -> InteractionRecord:
        """``user`` runs ``/name`` with options (strings, or integers)."""
        command = next((c for c in self.commands if c["name"] == name), None)
        if command is None:
            raise KeyError(f"/{name} is not registered: {[c['name'] for c in self.commands]}")
        data = {
            "id": command["id"],
            "name": name,
            "type": 1,
            "options": [
                {"name": k, "type": 4 if isinstance(v, int) else 3, "value": v} for k, v in (options or {}).items()
            ],
        }
        rec, payload = self._interaction(2, user, channel_id, data)
        await self.push("INTERACTION_CREATE", payload)
        return rec

    async def click(self, user: FakeUser, message: StoredMessage, label_or_id: str) -> InteractionRecord:
        """``user`` presses a button (by label, or by custom id) on a message he can see."""
        if message.ephemeral and message.visible_to != user.id:
            raise PermissionError("this user cannot see that message")
        try:
            custom_id = message.button(label_or_id)["custom_id"]
        except KeyError:
            if label_or_id not in message.custom_ids():
                raise
            custom_id = label_or_id
        rec, payload = self._interaction(
            3, user, message.channel_id, {"custom_id": custom_id, "component_type": 2}, message
        )
        await self.push("INTERACTION_CREATE", payload)
        return rec

    async def choose(self, user: FakeUser, message: StoredMessage, label: str) -> InteractionRecord:
        """``user`` picks the option ``label`` in one of the message's select menus."""
        for select in message.selects():
            for option in select["options"]:
                if option["label"] == label:
                    data = {"custom_id": select["custom_id"], "component_type": 3, "values": [option["value"]]}
                    rec, payload = self._interaction(3, user, message.channel_id, data, message)
                    await self.push("INTERACTION_CREATE", payload)
                    return rec
        raise KeyError(f"no option {label!r} on message {message.id}")

    async def raw_choose(self, user: FakeUser, message: StoredMessage, custom_id: str, value: str) -> InteractionRecord:
        """A choice in a select menu by its custom id and the option's value (a menu an edit has changed since)."""
        data = {"custom_id": custom_id, "component_type": 3, "values": [value]}
        rec, payload = self._interaction(3, user, message.channel_id, data, message)
        await self.push("INTERACTION_CREATE", payload)
        return rec

    async def raw_click(self, user: FakeUser, message: StoredMessage, custom_id: str) -> InteractionRecord:
        """A press carrying any custom id (an old or forged button)."""
        rec, payload = self._interaction(
            3, user, message.channel_id, {"custom_id": custom_id, "component_type": 2}, message
        )
        await self.push("INTERACTION_CREATE", payload)
        return rec

    # ---------------------------------------------------------------- gateway

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        self.sockets.append(ws)
        await ws.send_str(json.dumps({"op": 10, "d": {"heartbeat_interval": 41250}}))
        try:
            async for msg in ws:
                if msg.type != aiohttp.WSMsgType.TEXT:
                    continue
                frame = json.loads(msg.data)
                op = frame.get("op")
                if op == 1:
                    await ws.send_str(json.dumps({"op": 11}))
                elif op == 2:
                    await self._identify(ws, frame["d"])
        finally:
            self.sockets.remove(ws)
            self._shard_of.pop(id(ws), None)
        return ws

    async def _identify(self, ws: web.WebSocketResponse, data: dict[str, Any]) -> None:
        if data.get("token") != self.token:
            await ws.close(code=4004, message=b"Authentication failed.")
            return
        shard = data.get("shard", [0, 1])
        self.shards.append((int(shard[0]), int(shard[1])))
        self._shard_of[id(ws)] = (int(shard[0]), int(shard[1]))
        ours = (GUILD_ID >> 22) % int(shard[1]) == int(shard[0])  # the one guild belongs to this shard
        self._seq += 1
        ready = {
            "v": 10,
            "user": self.bot,
            "guilds": [{"id": str(GUILD_ID), "unavailable": True}] if ours else [],
            "session_id": secrets.token_hex(8),
            "resume_gateway_url": f"ws://127.0.0.1:{self.port}/gateway",
            "shard": shard,
            "application": {"id": str(APPLICATION_ID), "flags": 0},
        }
        await ws.send_str(json.dumps({"op": 0, "t": "READY", "s": self._seq, "d": ready}))
        if ours:
            self._seq += 1
            await ws.send_str(json.dumps({"op": 0, "t": "GUILD_CREATE", "s": self._seq, "d": self._guild()}))
        self.identified.set()

    def _guild(self) -> dict[str, Any]:
        def channel(cid: int, name: str, position: int) -> dict[str, Any]:
            return {
                "id": str(cid),
                "type": 0,
                "guild_id": str(GUILD_ID),
                "name": name,
                "position": position,
                "permission_overwrites": [],
                "nsfw": False,
                "parent_id": None,
                "topic": None,
                "last_message_id": None,
                "rate_limit_per_user": 0,
            }

        me = {
            "user": self.bot,
            "nick": None,
            "roles": [],
            "joined_at": _iso(0),
            "deaf": False,
            "mute": False,
            "flags": 0,
        }
        return {
            "id": str(GUILD_ID),
            "name": "Game night",
            "icon": None,
            "owner_id": "1",
            "unavailable": False,
            "member_count": 1,
            "large": False,
            "roles": [
                {
                    "id": str(GUILD_ID),
                    "name": "@everyone",
                    "color": 0,
                    "hoist": False,
                    "position": 0,
                    "permissions": PERMISSIONS_ALL,
                    "managed": False,
                    "mentionable": False,
                    "flags": 0,
                }
            ],
            "emojis": [],
            "stickers": [],
            "features": [],
            "channels": [channel(CHANNEL_ID, "games", 0), channel(OTHER_CHANNEL_ID, "other", 1)],
            "threads": [],
            "members": [me],
            "voice_states": [],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
            "preferred_locale": "en-US",
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "premium_tier": 0,
            "nsfw_level": 0,
            "system_channel_flags": 0,
            "joined_at": _iso(0),
        }

    # ---------------------------------------------------------------- REST

    async def _body(self, request: web.Request) -> tuple[dict[str, Any], list[tuple[int, str, bytes, str]]]:
        """The JSON payload and the uploaded files (index, filename, bytes, content type)."""
        files: list[tuple[int, str, bytes, str]] = []
        if request.content_type.startswith("multipart/"):
            payload: dict[str, Any] = {}
            reader = await request.multipart()
            while (part := await reader.next()) is not None:
                assert isinstance(part, aiohttp.BodyPartReader)
                name = part.name or ""
                if name == "payload_json":
                    payload = json.loads(await part.text())
                elif name.startswith("files["):
                    index = int(name[6:-1])
                    filename = part.filename or "file"
                    ctype = mimetypes.guess_type(filename)[0] or "application/octet-stream"
                    files.append((index, filename, bytes(await part.read()), ctype))
            return payload, files
        if request.can_read_body:
            text = await request.text()
            return (json.loads(text) if text else {}), files
        return {}, files

    def _authorized(self, request: web.Request) -> bool:
        return request.headers.get("Authorization") == f"Bot {self.token}"

    async def _rest(self, request: web.Request) -> web.StreamResponse:
        parts = [p for p in request.match_info["tail"].split("/") if p]
        call = Call(request.method, "/" + "/".join(parts), time.monotonic())
        self.requests.append((call.method, call.path))
        self.calls.append(call)
        response = await self._answer(request, parts)
        call.status = response.status
        if isinstance(response, web.Response) and response.status == 200 and isinstance(response.body, bytes):
            made = json.loads(response.body)
            if isinstance(made, dict) and "channel_id" in made and "id" in made:
                call.message_id = int(made["id"])
        return response

    async def _answer(self, request: web.Request, parts: list[str]) -> web.StreamResponse:
        method = request.method
        # interactions and webhooks authenticate with the token in the path
        if parts[:1] == ["interactions"]:
            return await self._callback(request, int(parts[1]), parts[2])
        if parts[:1] == ["webhooks"]:
            return await self._webhook(request, parts[2], parts[3:])
        if parts == ["oauth2", "token"] and method == "POST":
            return await self._oauth_token(request)
        bearer = request.headers.get("Authorization", "")
        if parts == ["users", "@me"] and bearer.startswith("Bearer "):
            user = self.access_tokens.get(bearer[len("Bearer ") :])
            return _json(dict(user.payload(), locale=user.locale)) if user else _error(401, 0, "401: Unauthorized")
        if not self._authorized(request):
            return _error(401, 0, "401: Unauthorized")
        bucket = self._bucket(method, parts)
        limited = self._rate_limited(method, parts, bucket)
        if limited is not None:
            return limited
        response = await self._bot_route(request, method, parts)
        if bucket is not None:
            bucket.used += 1
            response.headers.update(self._bucket_headers(bucket))
        return response

    async def _bot_route(self, request: web.Request, method: str, parts: list[str]) -> web.Response:
        if parts == ["users", "@me"]:
            return _json(self.bot)
        if parts[:1] == ["applications"] and parts[2:3] == ["activity-instances"] and len(parts) == 4:
            if parts[1] != str(APPLICATION_ID) or parts[3] not in self.instances:
                return _error(404, 10080, "Unknown Activity Instance")
            return _json(self.instances[parts[3]])
        if parts == ["oauth2", "applications", "@me"]:
            return _json(self._app_info())
        if parts == ["gateway", "bot"]:
            return _json(
                {
                    "url": f"ws://127.0.0.1:{self.port}/gateway",
                    "shards": 1,
                    "session_start_limit": {"total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": 1},
                }
            )
        if parts[:1] == ["applications"] and parts[2:] == ["commands"]:
            if method == "PUT":
                body = json.loads(await request.text())
                self.commands = [
                    dict(c, id=str(snowflake()), application_id=str(APPLICATION_ID), version="1") for c in body
                ]
                self.command_syncs += 1
            return _json(self.commands)
        if parts[:1] == ["channels"]:
            return await self._channel(request, int(parts[1]), parts[2:])
        return _error(404, 0, f"404: Not Found ({method} {'/'.join(parts)})")

    # ---------------------------------------------------------------- rate limits

    def _bucket(self, method: str, parts: list[str]) -> _Bucket | None:
        """The bucket of a channel route (``POST messages``, ``PATCH messages/{id}``, ...), its window renewed."""
        if self.limits.per_channel_route is None or parts[:1] != ["channels"] or len(parts) < 3:
            return None
        route = "/".join("{id}" if p.isdigit() else p for p in parts[2:])
        key = (method, route, int(parts[1]))
        limit, window = self.limits.per_channel_route
        bucket = self._buckets.get(key)
        now = time.monotonic()
        if bucket is None:
            name = f"{method.lower()}-{route.replace('/', '-').replace('{id}', 'x')}-{len(self._buckets):04x}"
            bucket = self._buckets[key] = _Bucket(name, limit, window)
        if now >= bucket.reset:
            bucket.reset, bucket.used = now + window, 0
        return bucket

    def _bucket_headers(self, bucket: _Bucket) -> dict[str, str]:
        after = max(0.0, bucket.reset - time.monotonic())
        return {
            "X-RateLimit-Limit": str(bucket.limit),
            "X-RateLimit-Remaining": str(max(0, bucket.limit - bucket.used)),
            "X-RateLimit-Reset": f"{time.time() + after:.3f}",
            "X-RateLimit-Reset-After": f"{after:.3f}",
            "X-RateLimit-Bucket": bucket.name,
        }

    def _rate_limited(self, method: str, parts: list[str], bucket: _Bucket | None) -> web.Response | None:
        """The 429 for a bot request over a limit (forced, global or its route's bucket), or None."""
        path = "/" + "/".join(parts)
        now = time.monotonic()
        for i, (wanted, retry_after, is_global) in enumerate(self._forced):
            if wanted in (None, method):
                del self._forced[i]
                return self._too_many(method, path, retry_after, is_global, bucket)
        if self.limits.per_second is not None:
            self._global = [t for t in self._global if now - t < 1.0]
            if len(self._global) >= self.limits.per_second:
                return self._too_many(method, path, self._global[0] + 1.0 - now, True, None)
            self._global.append(now)
        if bucket is not None and bucket.used >= bucket.limit:
            return self._too_many(method, path, bucket.reset - now, False, bucket)
        return None

    def _too_many(
        self, method: str, path: str, retry_after: float, is_global: bool, bucket: _Bucket | None
    ) -> web.Response:
        self.refused.append((method, path, is_global))
        retry_after = round(max(0.001, retry_after), 3)
        body = {"message": "You are being rate limited.", "retry_after": retry_after, "global": is_global, "code": 0}
        response = _json(body, 429)
        response.headers["Via"] = "1.1 google"  # discord.py takes a 429 without it for a Cloudflare ban
        response.headers["Retry-After"] = str(max(1, round(retry_after)))
        response.headers["X-RateLimit-Scope"] = "global" if is_global else "user"
        if is_global:
            response.headers["X-RateLimit-Global"] = "true"
        elif bucket is not None:
            response.headers.update(self._bucket_headers(bucket))
            response.headers["X-RateLimit-Remaining"] = "0"
        return response

    # ---------------------------------------------------------------- the Activity

    def grant(self, user: FakeUser) -> str:
        """A one-time OAuth2 code for ``user``, as the Discord client hands the SDK's ``authorize``."""
        code = "code-" + secrets.token_hex(8)
        self.codes[code] = user
        return code

    def open_activity(self, channel_id: int, users: list[FakeUser], guild_id: int = GUILD_ID) -> str:
        """An Activity instance running in ``channel_id`` with ``users`` in it; returns its id."""
        instance_id = "i-" + uuid.uuid4().hex[:12]
        self.instances[instance_id] = {
            "application_id": str(APPLICATION_ID),
            "instance_id": instance_id,
            "launch_id": str(snowflake()),
            "location": {
                "id": f"gc-{guild_id}-{channel_id}",
                "kind": "gc",
                "channel_id": str(channel_id),
                "guild_id": str(guild_id),
            },
            "users": [str(u.id) for u in users],
        }
        return instance_id

    async def _oauth_token(self, request: web.Request) -> web.Response:
        """``POST /oauth2/token`` (form): the application's id and secret and a code, once → an access token."""
        form = await request.post()
        if form.get("client_id") != str(APPLICATION_ID) or form.get("client_secret") != self.client_secret:
            return _json({"error": "invalid_client"}, 401)
        if form.get("grant_type") != "authorization_code":
            return _json({"error": "unsupported_grant_type"}, 400)
        user = self.codes.pop(str(form.get("code")), None)
        if user is None:
            return _json({"error": "invalid_grant", "error_description": 'Invalid "code" in request.'}, 400)
        token = "tok-" + secrets.token_hex(12)
        self.access_tokens[token] = user
        return _json({"access_token": token, "token_type": "Bearer", "expires_in": 604800, "scope": "identify"})

    def _app_info(self) -> dict[str, Any]:
        return {
            "id": str(APPLICATION_ID),
            "name": "tablebot",
            "description": "",
            "icon": None,
            "rpc_origins": [],
            "bot_public": True,
            "bot_require_code_grant": False,
            "owner": {"id": "1", "username": "owner", "discriminator": "0", "avatar": None},
            "verify_key": "0" * 64,
            "team": None,
            "flags": 0,
            "interactions_endpoint_url": None,
        }

    def _apply(
        self, msg: StoredMessage, payload: dict[str, Any], files: list[tuple[int, str, bytes, str]], *, creating: bool
    ) -> None:
        """Apply a create or edit payload to a stored message (Discord's attachment rules)."""
        if "content" in payload:
            msg.content = payload["content"] or ""
            msg.shown.append(msg.content)
        if "components" in payload:
            msg.components = payload["components"] or []
        if "flags" in payload and creating:
            msg.flags = int(payload["flags"] or 0)
        uploaded = {index: (name, data, ctype) for index, name, data, ctype in files}
        if "attachments" in payload:
            keep: list[Attachment] = []
            existing = {a.id: a for a in msg.attachments}
            for item in payload["attachments"]:
                att_id = int(item["id"])
                if att_id in uploaded and not (not creating and att_id in existing):
                    name, data, ctype = uploaded[att_id]
                    keep.append(Attachment(snowflake(), item.get("filename", name), data, ctype))
                elif att_id in existing:
                    keep.append(existing[att_id])
            msg.attachments = keep
        elif files:
            msg.attachments = [Attachment(snowflake(), name, data, ctype) for _, name, data, ctype in files]
        msg.shown_files.extend(a.filename for a in msg.attachments if a.filename not in msg.shown_files)

    async def _channel(self, request: web.Request, channel_id: int, rest: list[str]) -> web.Response:
        if channel_id not in (CHANNEL_ID, OTHER_CHANNEL_ID):
            return _error(404, 10003, "Unknown Channel")
        method = request.method
        if rest == ["messages"] and method == "POST":
            payload, files = await self._body(request)
            refused = check_message(payload)
            if refused is not None:
                return _invalid(*refused)
            msg = StoredMessage(snowflake(), channel_id, created=self.now())
            self._apply(msg, payload, files, creating=True)
            msg.flags = 0
            self.messages[msg.id] = msg
            return _json(msg.payload(self.bot))
        if len(rest) == 2 and rest[0] == "messages":
            msg = self.messages.get(int(rest[1]))
            if msg is None or msg.deleted or msg.channel_id != channel_id or msg.ephemeral:
                return _error(404, 10008, "Unknown Message")
            if method == "GET":
                return _json(msg.payload(self.bot))
            if method == "DELETE":
                msg.deleted = True
                return web.Response(status=204)
            if method == "PATCH":
                if self.fail_next_channel_edit:
                    self.fail_next_channel_edit = False
                    return _error(500, 0, "500: Internal Server Error")
                payload, files = await self._body(request)
                refused = check_message(payload)
                if refused is not None:
                    return _invalid(*refused)
                self._apply(msg, payload, files, creating=False)
                msg.edits += 1
                self.channel_edits.setdefault(channel_id, []).append(time.monotonic())
                return _json(msg.payload(self.bot))
        return _error(404, 0, "404: Not Found")

    async def _callback(self, request: web.Request, interaction_id: int, token: str) -> web.Response:
        rec = self.interactions.get(interaction_id)
        if rec is None or rec.token != token:
            return _error(404, 10062, "Unknown interaction")
        response = await self._respond(request, rec)
        code = json.loads(response.body).get("code") if response.status >= 300 else None  # type: ignore[arg-type]
        rec.callbacks.append((response.status, code))
        return response

    async def _respond(self, request: web.Request, rec: InteractionRecord) -> web.Response:
        """Discord's answer to an interaction's initial response: refused once the interaction was answered
        (40060) or its 3 seconds have passed (10062, "Unknown interaction", as Discord forgets it)."""
        elapsed = self.now() - rec.created
        if rec.callback_type is not None:
            return _error(400, 40060, "Interaction has already been acknowledged.")
        if elapsed > ACK_DEADLINE:
            rec.late = True
            return _error(404, 10062, "Unknown interaction")
        payload, files = await self._body(request)
        kind = int(payload["type"])
        data = payload.get("data") or {}
        refused = check_message(data)
        if refused is not None:
            return _invalid(f"data.{refused[0]}", refused[1])
        rec.callback_type = kind
        rec.acked_after = elapsed
        message: StoredMessage | None = None
        if kind in (4, 5):  # a new message (or its "thinking" placeholder)
            message = StoredMessage(
                snowflake(),
                rec.channel_id,
                created=self.now(),
                interaction_user=rec.user.id,
                interaction=rec.metadata(),
            )
            self._apply(message, data, files, creating=True)
            if message.ephemeral:
                message.visible_to = rec.user.id
            message.loading = kind == 5
            self.messages[message.id] = message
            rec.original_id = message.id
        elif kind in (6, 7):  # acknowledge or update the message the component is on
            rec.original_id = rec.message_id
            if kind == 7 and rec.message_id is not None:
                message = self.messages[rec.message_id]
                self._apply(message, data, files, creating=False)
                message.edits += 1
        rec.acked.set()
        result: dict[str, Any] = {
            "interaction": {
                "id": str(rec.id),
                "type": rec.kind,
                "response_message_id": str(rec.original_id) if rec.original_id else None,
                "response_message_loading": kind == 5,
                "response_message_ephemeral": bool(message and message.ephemeral),
            }
        }
        if message is not None:
            result["resource"] = {"type": kind, "message": message.payload(self.bot)}
        return _json(result)

    async def _webhook(self, request: web.Request, token: str, rest: list[str]) -> web.Response:
        rec = self.by_token.get(token)
        if rec is None:
            return _error(404, 10015, "Unknown Webhook")
        if self.now() - rec.created > TOKEN_LIFETIME:
            return _error(401, 50027, "Invalid Webhook Token")
        method = request.method
        if not rest and method == "POST":  # a follow-up message
            if rec.callback_type is None:
                return _error(404, 10015, "Unknown Webhook")
            payload, files = await self._body(request)
            refused = check_message(payload)
            if refused is not None:
                return _invalid(*refused)
            original = self.messages.get(rec.original_id) if rec.original_id is not None else None
            if original is not None and original.loading and not original.deleted:
                # Discord: the first follow-up resolves the "thinking" placeholder; its flags are ignored
                original.loading = False
                self._apply(original, {k: v for k, v in payload.items() if k != "flags"}, files, creating=True)
                original.edits += 1
                return _json(original.payload(self.bot))
            msg = StoredMessage(
                snowflake(),
                rec.channel_id,
                created=self.now(),
                interaction_user=rec.user.id,
                interaction=rec.metadata(),
            )
            self._apply(msg, payload, files, creating=True)
            if msg.ephemeral:
                msg.visible_to = rec.user.id
            self.messages[msg.id] = msg
            rec.followups.append(msg.id)
            return _json(msg.payload(self.bot))
        if len(rest) == 2 and rest[0] == "messages":
            if rest[1] == "@original":
                message_id = rec.original_id
            else:
                message_id = int(rest[1])
                if message_id not in rec.followups and message_id != rec.original_id:
                    owner = self.messages.get(message_id)
                    # a token may reach messages created through it, and the message its component was on
                    if owner is None or message_id != rec.message_id:
                        return _error(404, 10008, "Unknown Message")
            msg = self.messages.get(message_id) if message_id is not None else None
            if msg is None or msg.deleted:
                return _error(404, 10008, "Unknown Message")
            if method == "GET":
                return _json(msg.payload(self.bot))
            if method == "DELETE":
                msg.deleted = True
                return web.Response(status=204)
            if method == "PATCH":
                payload, files = await self._body(request)
                refused = check_message(payload)
                if refused is not None:
                    return _invalid(*refused)
                self._apply(msg, payload, files, creating=False)
                msg.edits += 1
                msg.loading = False
                return _json(msg.payload(self.bot))
        return _error(404, 0, "404: Not Found")
