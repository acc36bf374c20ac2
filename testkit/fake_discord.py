"""A fake Discord for tests: the REST API under ``/api/v10`` and the gateway websocket, served by aiohttp on
127.0.0.1, so that a real discord.py client talks HTTP and websocket to it exactly as it would to Discord.

What it keeps is what a user would see: channel messages (content, decoded attachments, components),
ephemeral messages (visible to one user only), the application commands synced, and every interaction with
the time it was acknowledged. Tests act as users through ``slash``, ``click`` and ``choose``, which push an
``INTERACTION_CREATE`` frame down the gateway.

Discord behaviours kept on purpose (the adapter must cope with them):

* an interaction must get its callback within 3 seconds, otherwise the callback fails with 404 (and the test
  sees ``late`` on the interaction);
* an interaction token lives 15 minutes (``advance`` moves the fake clock); after that the webhook
  endpoints answer 401 ``Invalid Webhook Token`` (code 50027);
* an ephemeral message can only be edited through an interaction token, never through the channel endpoint;
* a deferred response with a "thinking" placeholder (callback type 5) has its visibility fixed when it is deferred:
  while it is still loading, the first follow-up message takes its place, public or ephemeral as deferred, whatever
  the follow-up's own flags say (``loading``); once the placeholder was edited, follow-ups are messages of their own;
* JSON replies carry ``Content-Type: application/json`` exactly (discord.py checks the header verbatim);
* each gateway connection identifies as one shard ``[id, count]`` (kept in ``shards``); an event of the guild goes
  to the connections of shard ``(guild_id >> 22) % count`` only, as Discord routes it.
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
TOKEN_LIFETIME = 15 * 60.0
ACK_DEADLINE = 3.0
APPLICATION_ID = 500_000_000_000_000_001
BOT_ID = 500_000_000_000_000_002
GUILD_ID = 600_000_000_000_000_001
CHANNEL_ID = 600_000_000_000_000_010
OTHER_CHANNEL_ID = 600_000_000_000_000_011
PERMISSIONS_ALL = str((1 << 50) - 1)

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
    acked: asyncio.Event = field(default_factory=asyncio.Event)


class FakeDiscord:
    """The fake server. Use ``async with FakeDiscord() as fake:``; ``fake.install()`` points discord.py at it."""

    def __init__(self) -> None:
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
        method = request.method
        self.requests.append((method, "/" + "/".join(parts)))
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
                self._apply(msg, payload, files, creating=False)
                msg.edits += 1
                self.channel_edits.setdefault(channel_id, []).append(time.monotonic())
                return _json(msg.payload(self.bot))
        return _error(404, 0, "404: Not Found")

    async def _callback(self, request: web.Request, interaction_id: int, token: str) -> web.Response:
        rec = self.interactions.get(interaction_id)
        if rec is None or rec.token != token:
            return _error(404, 10062, "Unknown interaction")
        elapsed = self.now() - rec.created
        if rec.callback_type is not None:
            return _error(400, 40060, "Interaction has already been acknowledged.")
        if elapsed > ACK_DEADLINE:
            rec.late = True
            return _error(404, 10062, "Unknown interaction")
        payload, files = await self._body(request)
        kind = int(payload["type"])
        data = payload.get("data") or {}
        rec.callback_type = kind
        rec.acked_after = elapsed
        message: StoredMessage | None = None
        if kind in (4, 5):  # a new message (or its "thinking" placeholder)
            message = StoredMessage(snowflake(), rec.channel_id, created=self.now(), interaction_user=rec.user.id)
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
            original = self.messages.get(rec.original_id) if rec.original_id is not None else None
            if original is not None and original.loading and not original.deleted:
                # Discord: the first follow-up resolves the "thinking" placeholder; its flags are ignored
                original.loading = False
                self._apply(original, {k: v for k, v in payload.items() if k != "flags"}, files, creating=True)
                original.edits += 1
                return _json(original.payload(self.bot))
            msg = StoredMessage(snowflake(), rec.channel_id, created=self.now(), interaction_user=rec.user.id)
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
                self._apply(msg, payload, files, creating=False)
                msg.edits += 1
                msg.loading = False
                return _json(msg.payload(self.bot))
        return _error(404, 0, "404: Not Found")
