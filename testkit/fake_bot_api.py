"""A fake Telegram Bot API server (aiohttp, real HTTP on 127.0.0.1) for the Telegram adapter's tests.

It implements the methods the bot uses and validates them the way Telegram does: callback data at most 64
bytes, captions at most 1024 characters, texts 1..4096, photo size and dimensions, the message to edit must
exist, "message is not modified", forum topics, 403 for users who never pressed Start (or blocked the bot).
Updates come through ``getUpdates`` (long polling) or are POSTed to a webhook (optionally spread over several
backends, like a load balancer in front of several workers). With ``webhook_timeout`` set the webhook is fed
like Telegram feeds it: several updates at once, and an update whose POST fails or is not answered within
the timeout is delivered again later (the same update id and callback query); ``redeliver`` sends one again
on purpose. ``latency`` delays each request by a seeded random time (a network between bot and Telegram):
``Call.at`` is when Telegram has received the request. ``fail_next`` makes the next matching call answer 429
with ``retry_after`` (or any other error).

Telegram's flood limits are on by default (``Limits``): at most one write (a message or an edit) a second in a
group, 20 a minute in a group, three a second in a private chat (short bursts), about 30 requests a second in
all; a request over a limit is answered 429 with ``retry_after`` (whole seconds, as Telegram gives it), also
``answerCallbackQuery``. A callback query is answered only within ``answer_deadline`` seconds of the press
(Telegram refuses a late answer, "query is too old", while the user's button kept spinning), and the webhook
URL must be ``https://``. A test that needs speed turns off the one limit it needs by name, e.g.
``FakeBotAPI(limits=Limits(per_group_minute=None))``; ``tests.telegram_support.settings_for`` gives the bot
the matching settings (the real ones for every limit left on).

Test helpers play the users: ``say`` (a message, e.g. a command), ``press`` (a callback button the user can
see), ``start_private`` (the user presses Start, with a deep-link payload), ``delete`` (an admin deletes a
message), ``block`` (the user blocks the bot). Everything the bot did is in ``calls``; what is on screen in
``messages``.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import io
import itertools
import json
import math
import random
import re
import time
from dataclasses import dataclass, field
from typing import Any

import aiohttp
from aiohttp import web
from PIL import Image

TOKEN = "123456789:AAFakeTokenForTheTestsOnly_abcdefghi"
BOT_ID = 123456789
BOT_USERNAME = "tablebot_test_bot"

MAX_TEXT = 4096
MAX_CAPTION = 1024
MAX_CALLBACK_DATA = 64
MAX_PHOTO_BYTES = 10 * 1024 * 1024
MAX_ANSWER_TEXT = 200
NOT_MODIFIED = (
    "Bad Request: message is not modified: specified new message content and reply markup are exactly the same "
    "as a current content and reply markup of the message"
)
COMMAND_RE = re.compile(r"^[a-z0-9_]{1,32}$")


def _release(future: asyncio.Future) -> None:
    if not future.cancelled() and future.exception() is None:
        future.result().release()


class ApiError(Exception):
    def __init__(
        self, code: int, description: str, parameters: dict[str, Any] | None = None, *, flood: bool = False
    ) -> None:
        super().__init__(description)
        self.code = code
        self.description = description
        self.parameters = parameters
        self.flood = flood  # a 429 of the fake's own limits (not an injected one)


def bad(description: str) -> ApiError:
    return ApiError(400, f"Bad Request: {description}")


@dataclass
class FakeUser:
    id: int
    first_name: str
    username: str | None = None
    language_code: str | None = "en"
    started: bool = False
    blocked: bool = False

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id, "is_bot": False, "first_name": self.first_name}
        if self.username:
            out["username"] = self.username
        if self.language_code:
            out["language_code"] = self.language_code
        return out


@dataclass
class FakeChat:
    id: int
    type: str  # "private", "group", "supergroup"
    title: str = ""
    is_forum: bool = False
    topics: set[int] = field(default_factory=set)
    user: FakeUser | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id, "type": self.type}
        if self.type == "private" and self.user is not None:
            out["first_name"] = self.user.first_name
            if self.user.username:
                out["username"] = self.user.username
        else:
            out["title"] = self.title
        if self.is_forum:
            out["is_forum"] = True
        return out


@dataclass
class Shown:
    """One message in a chat as the users see it."""

    chat_id: int
    message_id: int
    sender: int
    date: int
    thread: int | None = None
    kind: str = "text"  # text, photo, document
    text: str = ""  # the text, or the caption of a photo or document
    photo: bytes | None = None
    photo_id: str | None = None
    photo_size: tuple[int, int] = (0, 0)
    photo_name: str = ""  # the uploaded file's name (the application names hand pictures "hand.jpg")
    document: tuple[str, bytes] | None = None
    markup: list[list[dict[str, Any]]] | None = None
    deleted: bool = False
    edits: int = 0

    def buttons(self) -> list[dict[str, Any]]:
        return [b for row in self.markup or [] for b in row]

    def callback_buttons(self) -> list[dict[str, Any]]:
        return [b for b in self.buttons() if "callback_data" in b]


@dataclass
class Call:
    """One request the bot made: the method, its parameters, the uploaded files, and what it got back."""

    method: str
    params: dict[str, Any]
    files: dict[str, bytes]
    status: int
    result: Any
    at: float
    began: float = 0.0  # when the request started to arrive (``at``: when it was received and handled)

    @property
    def ok(self) -> bool:
        return self.status == 200

    @property
    def chat_id(self) -> int | None:
        value = self.params.get("chat_id")
        try:
            return int(value) if value is not None else None
        except ValueError:
            return None


@dataclass
class Failure:
    method: str | None
    chat_id: int | None
    code: int
    description: str
    parameters: dict[str, Any] | None
    remaining: int


SENDS = ("sendMessage", "sendPhoto", "sendDocument", "sendMediaGroup")
EDITS = ("editMessageText", "editMessageCaption", "editMessageMedia", "editMessageReplyMarkup")
QUERY_TOO_OLD = "query is too old and response timeout expired or query ID is invalid"


@dataclass(frozen=True)
class Limits:
    """Telegram's limits as the fake enforces them; ``None`` turns one off.

    Telegram documents "about one message a second in a chat, short bursts allowed", "no more than 20 messages a
    minute in a group" and "about 30 messages a second" overall (core.telegram.org/bots/faq): messages, so answers
    to presses are not counted there (python-telegram-bot's ``AIORateLimiter`` reads it so too: its overall limit
    is for requests made in a chat). A press's spinner lasts until ``answerCallbackQuery``, and an answer that
    comes too late is refused ("query is too old")."""

    per_chat_gap: float | None = 1.0  # seconds between two writes received in one group
    per_private_second: int | None = 3  # writes received in any second in one private chat (short bursts)
    per_group_minute: int | None = 20  # writes received in any ``group_window`` seconds in one group
    per_second: int | None = 30  # messages and edits received in any second, all chats together
    answer_deadline: float | None = 15.0  # seconds after the press that its answer is still taken
    group_window: float = 60.0  # the window of ``per_group_minute`` (a test shortens it to see it pass)

    @classmethod
    def off(cls) -> Limits:
        """No flood limit and no deadline (a test of something else that presses far faster than people)."""
        return cls(
            per_chat_gap=None, per_private_second=None, per_group_minute=None, per_second=None, answer_deadline=None
        )


JSON_FIELDS = {
    "reply_markup",
    "media",
    "commands",
    "scope",
    "allowed_updates",
    "entities",
    "caption_entities",
    "link_preview_options",
    "reply_parameters",
    "result",
}


class FakeBotAPI:
    """The server. ``await start()`` then point ``aiogram`` at ``base_url`` (``TelegramAPIServer.from_base``)."""

    def __init__(self, token: str = TOKEN, *, limits: Limits | None = None) -> None:
        self.token = token
        self.limits = limits or Limits()
        self._written: dict[int, list[float]] = {}  # chat id -> when its accepted writes were received
        self._requests: list[float] = []  # when the accepted writes and answers were received (the last second)
        self.refused: list[Call] = []  # requests answered 429 by the limits (not injected ones)
        self.bot_id = int(token.split(":", 1)[0])
        self.username = BOT_USERNAME
        self.users: dict[int, FakeUser] = {}
        self.chats: dict[int, FakeChat] = {}
        self.messages: dict[int, dict[int, Shown]] = {}
        self.calls: list[Call] = []
        self.answers: dict[str, dict[str, Any]] = {}
        self.answered_at: dict[str, float] = {}
        self.queries: dict[str, dict[str, Any]] = {}
        self.commands: dict[tuple[str, str], list[dict[str, str]]] = {}
        self.prepared: dict[str, dict[str, Any]] = {}  # savePreparedInlineMessage: id -> the user, the result
        self.files: dict[str, bytes] = {}
        self.file_names: dict[str, str] = {}
        self.failures: list[Failure] = []
        self.upload_delay: dict[str, float] = {}  # method -> seconds its request takes to arrive (a slow link)
        self.webhook: dict[str, Any] | None = None
        self.backends: dict[str, list[str]] = {}
        self.deliveries: list[tuple[int, str]] = []
        self._updates: list[dict[str, Any]] = []
        # update ids grow from a random start, as Telegram's do: workers remember the ids they handled in Redis,
        # which outlives one test
        self._update_ids = itertools.count(random.randrange(10**6, 10**9))
        self._last_update_id = 0
        self.served_at: dict[int, float] = {}  # update id -> when the bot first received it
        self._message_ids: dict[int, itertools.count] = {}
        self._query_ids = itertools.count(1)
        self._file_ids = itertools.count(1)
        self._changed = asyncio.Condition()
        self._runner: web.AppRunner | None = None
        self._delivery: asyncio.Task | None = None
        self._session: aiohttp.ClientSession | None = None
        self._rr = itertools.count()
        self._in_flight = 0
        self._fetched = 0
        self._confirmed = 0  # the bot asked for updates after this one: it has taken it in hand
        self._closing = False
        self._last_activity = time.monotonic()
        self.base_url = ""
        self.webhook_timeout: float | None = None  # set: concurrent webhook delivery, re-delivered when slow
        self.redeliver_delay = 0.5  # seconds before a failed or slow webhook update is delivered again
        self.redeliveries: list[int] = []  # update ids delivered again (after a failure, a timeout, or on purpose)
        self.posted: dict[int, list[tuple[float, float, int | None]]] = {}  # update id -> (sent, done, status)
        self.latency: Any = None  # None, or () -> seconds: each request is received that much later
        self._sent: dict[int, dict[str, Any]] = {}
        self._posts: set[asyncio.Task] = set()

    # ----------------------------------------------------------------------------------------- lifecycle
    async def start(self) -> str:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_route("*", "/bot{token}/{method}", self._handle)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        self.base_url = f"http://127.0.0.1:{port}"
        return self.base_url

    async def stop(self) -> None:
        self._closing = True
        if self._delivery:
            self._delivery.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._delivery
        for task in list(self._posts):
            task.cancel()
        await asyncio.gather(*self._posts, return_exceptions=True)
        if self._session:
            await self._session.close()
        if self._runner:
            await self._runner.cleanup()

    # ----------------------------------------------------------------------------------------- the world
    def add_user(
        self,
        id: int,
        first_name: str,
        *,
        username: str | None = None,
        language: str | None = "en",
        started: bool = True,
    ) -> FakeUser:
        user = FakeUser(id, first_name, username, language, started)
        self.users[id] = user
        self.chats[id] = FakeChat(id, "private", user=user)
        return user

    def add_group(self, id: int, title: str, *, supergroup: bool = True, forum: bool = False) -> FakeChat:
        chat = FakeChat(id, "supergroup" if supergroup else "group", title, is_forum=forum)
        if forum:
            chat.topics.add(1)
        self.chats[id] = chat
        return chat

    def add_topic(self, chat_id: int, thread_id: int) -> None:
        self.chats[chat_id].topics.add(thread_id)

    def block(self, user: FakeUser) -> None:
        user.blocked = True

    def delete(self, chat_id: int, message_id: int) -> None:
        """An admin deletes a message."""
        self.messages[chat_id][message_id].deleted = True

    def spend_window(self, chat_id: int) -> None:
        """The group's write window is spent as of now (writes Telegram counted that this bot process did not
        see: another process, a restart): its next writes are answered 429 until ``group_window`` has passed."""
        if self.limits.per_group_minute is not None:
            self._written.setdefault(chat_id, []).extend([time.monotonic()] * self.limits.per_group_minute)

    def fail_next(
        self,
        method: str | None = None,
        *,
        chat_id: int | None = None,
        code: int = 429,
        description: str | None = None,
        retry_after: int | None = 1,
        count: int = 1,
    ) -> None:
        """The next ``count`` calls of ``method`` (to ``chat_id``) fail; by default 429 with ``retry_after``."""
        params = {"retry_after": retry_after} if code == 429 and retry_after is not None else None
        if description is None:
            description = f"Too Many Requests: retry after {retry_after}" if code == 429 else "Bad Request"
        self.failures.append(Failure(method, chat_id, code, description, params, count))

    # ----------------------------------------------------------------------------------------- users act
    def _next_update_id(self) -> int:
        return self._last_update_id + 1

    def _push(self, update: dict[str, Any]) -> int:
        update_id = next(self._update_ids)
        self._last_update_id = update_id
        update["update_id"] = update_id
        self._sent[update_id] = update
        self._updates.append(update)
        self._touch()
        return update_id

    def _new_message_id(self, chat_id: int) -> int:
        counter = self._message_ids.setdefault(chat_id, itertools.count(1))
        return next(counter)

    def say(self, user: FakeUser, chat_id: int, text: str, *, thread: int | None = None) -> int:
        """The user writes ``text`` in a chat (a group, or his private chat with the bot); returns the update id."""
        chat = self.chats[chat_id]
        message_id = self._new_message_id(chat_id)
        msg: dict[str, Any] = {
            "message_id": message_id,
            "date": int(time.time()),
            "chat": chat.to_json(),
            "from": user.to_json(),
            "text": text,
        }
        if text.startswith("/"):
            msg["entities"] = [{"type": "bot_command", "offset": 0, "length": len(text.split()[0])}]
        if thread is not None:
            if thread not in chat.topics:
                raise ValueError("no such topic")
            msg["message_thread_id"] = thread
            msg["is_topic_message"] = True
        self.messages.setdefault(chat_id, {})[message_id] = Shown(
            chat_id, message_id, user.id, msg["date"], thread, "text", text
        )
        return self._push({"message": msg})

    def start_private(self, user: FakeUser, payload: str = "") -> int:
        """The user opens the bot's private chat and presses Start (through a deep link with ``payload``)."""
        user.started = True
        user.blocked = False
        return self.say(user, user.id, f"/start {payload}".strip())

    def press(self, user: FakeUser, chat_id: int, message_id: int, data: str, *, forged: bool = False) -> str:
        """The user presses the button with callback ``data`` on a message he can see; returns the query id.

        ``forged``: skip the checks that such a button is on the message and that the user can see the message (a
        modified client: any data, also on a message of another user's private chat)."""
        shown = self.messages[chat_id][message_id]
        if shown.deleted:
            raise ValueError("the message is deleted")
        if not forged and data not in [b["callback_data"] for b in shown.callback_buttons()]:
            raise ValueError(f"no button {data!r} on message {message_id}")
        if not forged and chat_id != user.id and self.chats[chat_id].type == "private":
            raise ValueError("another user's private chat")
        query_id = str(next(self._query_ids) * 7919 + 100000)
        msg = self._message_json(shown)
        self.queries[query_id] = {"user": user.id, "at": time.monotonic(), "update": self._next_update_id()}
        self._push(
            {
                "callback_query": {
                    "id": query_id,
                    "from": user.to_json(),
                    "message": msg,
                    "chat_instance": str(chat_id * 31),
                    "data": data,
                }
            }
        )
        return query_id

    def redeliver(self, update_id: int) -> None:
        """Deliver an update again, as Telegram does when it thinks the webhook did not get it."""
        self.redeliveries.append(update_id)
        self._updates.append(self._sent[update_id])
        self._touch()

    async def wait_answer(self, query_id: str, timeout: float = 10.0) -> dict[str, Any]:
        async with self._changed:
            await asyncio.wait_for(self._changed.wait_for(lambda: query_id in self.answers), timeout)
        return self.answers[query_id]

    def answer_delay(self, query_id: str) -> float:
        """Seconds from the press's update being served to the bot until its answer arrived."""
        return self.answered_at[query_id] - self.served_at[self.queries[query_id]["update"]]

    async def wait_for(self, predicate, timeout: float = 10.0) -> None:
        async with self._changed:
            await asyncio.wait_for(self._changed.wait_for(predicate), timeout)

    async def settle(self, quiet: float = 0.05, timeout: float = 30.0) -> None:
        """Wait until no request is being served and none came for ``quiet`` seconds."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            idle = time.monotonic() - self._last_activity
            if self._in_flight == 0 and not self._pending_updates() and idle >= quiet:
                return
            await asyncio.sleep(max(0.005, quiet - idle) if self._in_flight == 0 else 0.005)
        raise TimeoutError("the bot did not settle")

    def _pending_updates(self) -> bool:
        if self.webhook is not None:
            return bool(self._updates) or bool(self._posts)
        return any(u["update_id"] > self._confirmed for u in self._updates)

    # ----------------------------------------------------------------------------------------- what is seen
    def visible(self, chat_id: int, *, thread: int | None = None, from_bot: bool = True) -> list[Shown]:
        out = []
        for shown in self.messages.get(chat_id, {}).values():
            if shown.deleted or (from_bot and shown.sender != self.bot_id):
                continue
            if thread is not None and shown.thread != thread:
                continue
            out.append(shown)
        return out

    def last(self, chat_id: int, *, thread: int | None = None) -> Shown:
        return self.visible(chat_id, thread=thread)[-1]

    def calls_to(self, chat_id: int, *methods: str) -> list[Call]:
        return [c for c in self.calls if c.chat_id == chat_id and (not methods or c.method in methods)]

    # ----------------------------------------------------------------------------------------- HTTP
    def _touch(self) -> None:
        self._last_activity = time.monotonic()

    async def _notify(self) -> None:
        async with self._changed:
            self._changed.notify_all()

    async def _handle(self, request: web.Request) -> web.Response:
        if request.match_info["method"] == "getUpdates":  # a long poll is waiting, not working
            return await self._serve(request)
        self._in_flight += 1
        self._touch()
        try:
            return await self._serve(request)
        finally:
            self._in_flight -= 1
            self._touch()
            await self._notify()

    async def _serve(self, request: web.Request) -> web.Response:
        method = request.match_info["method"]
        began = time.monotonic()
        if request.match_info["token"] != self.token:
            return web.json_response({"ok": False, "error_code": 401, "description": "Unauthorized"}, status=401)
        if self.upload_delay.get(method):
            await asyncio.sleep(self.upload_delay[method])
        params, files = await self._read_params(request)
        if self.latency is not None and method != "getUpdates":
            await asyncio.sleep(self.latency())
        handler = getattr(self, "m_" + method, None)
        if handler is None:
            return web.json_response({"ok": False, "error_code": 404, "description": "Not Found"}, status=404)
        received = time.monotonic()
        try:
            self._injected_failure(method, params)
            if method == "getUpdates":
                result = await self.m_getUpdates(params, request)
            else:
                flooded = self._flood(method, params, received)  # checked, handled and counted with no await between
                if flooded is not None:
                    raise flooded
                result = handler(params, files)
                self._count(method, params, received)
        except ApiError as e:
            body: dict[str, Any] = {"ok": False, "error_code": e.code, "description": e.description}
            if e.parameters:
                body["parameters"] = e.parameters
            call = Call(method, params, files, e.code, body, time.monotonic(), began)
            self.calls.append(call)
            if e.flood:
                self.refused.append(call)
            return web.json_response(body, status=e.code)
        if method != "getUpdates":
            self.calls.append(Call(method, params, files, 200, result, time.monotonic(), began))
        return web.json_response({"ok": True, "result": result})

    # ----------------------------------------------------------------------------------------- flood limits
    def _is_group(self, chat_id: int) -> bool:
        chat = self.chats.get(chat_id)
        return chat.type != "private" if chat is not None else chat_id < 0

    @staticmethod
    def _written_chat(method: str, params: dict[str, Any]) -> int | None:
        """The chat a write goes to (None: not a chat write)."""
        if method not in SENDS and method not in EDITS:
            return None
        try:
            return int(params.get("chat_id"))  # type: ignore[arg-type]
        except (TypeError, ValueError):
            return None

    def _flood(self, method: str, params: dict[str, Any], now: float) -> ApiError | None:
        """The 429 Telegram gives this request, received ``now``, or None when it is within the limits."""
        limits = self.limits
        chat = self._written_chat(method, params)
        if chat is None:
            return None
        self._requests = [t for t in self._requests if now - t < 1.0]
        if limits.per_second is not None and len(self._requests) >= limits.per_second:
            return self._too_many(self._requests[0] + 1.0 - now)
        times = self._written.get(chat, [])
        if self._is_group(chat):
            if limits.per_chat_gap is not None and times and now - times[-1] < limits.per_chat_gap:
                return self._too_many(times[-1] + limits.per_chat_gap - now)
            window = [t for t in times if now - t < limits.group_window]
            if limits.per_group_minute is not None and len(window) >= limits.per_group_minute:
                return self._too_many(window[0] + limits.group_window - now)
        else:
            second = [t for t in times if now - t < 1.0]
            if limits.per_private_second is not None and len(second) >= limits.per_private_second:
                return self._too_many(second[0] + 1.0 - now)
        return None

    def _count(self, method: str, params: dict[str, Any], now: float) -> None:
        """An accepted write, received ``now``, counts toward the limits."""
        chat = self._written_chat(method, params)
        if chat is None:
            return
        self._requests.append(now)
        times = self._written.setdefault(chat, [])
        times.append(now)
        if len(times) > 64:
            del times[: len(times) - 64]

    @staticmethod
    def _too_many(wait: float) -> ApiError:
        retry_after = max(1, math.ceil(wait))
        return ApiError(429, f"Too Many Requests: retry after {retry_after}", {"retry_after": retry_after}, flood=True)

    async def _read_params(self, request: web.Request) -> tuple[dict[str, Any], dict[str, bytes]]:
        params: dict[str, Any] = {}
        files: dict[str, bytes] = {}
        if request.content_type == "application/json":
            params = await request.json()
            return params, files
        form = await request.post()
        for key, value in form.items():
            if isinstance(value, web.FileField):
                files[key] = value.file.read()
                params.setdefault("__filenames__", {})[key] = value.filename
                continue
            if key in JSON_FIELDS:
                with contextlib.suppress(ValueError):
                    value = json.loads(value)
            params[key] = value
        return params, files

    def _injected_failure(self, method: str, params: dict[str, Any]) -> None:
        for failure in self.failures:
            if failure.remaining <= 0:
                continue
            if failure.method not in (None, method):
                continue
            if failure.chat_id is not None and str(failure.chat_id) != str(params.get("chat_id")):
                continue
            failure.remaining -= 1
            raise ApiError(failure.code, failure.description, failure.parameters)

    # ----------------------------------------------------------------------------------------- validation
    def _chat(self, params: dict[str, Any]) -> FakeChat:
        raw = params.get("chat_id")
        if raw is None:
            raise bad("chat_id is empty")
        try:
            chat = self.chats.get(int(raw))
        except ValueError:
            chat = None
        if chat is None:
            raise bad("chat not found")
        if chat.type == "private":
            assert chat.user is not None
            if chat.user.blocked:
                raise ApiError(403, "Forbidden: bot was blocked by the user")
            if not chat.user.started:
                raise ApiError(403, "Forbidden: bot can't initiate conversation with a user")
        return chat

    def _thread(self, chat: FakeChat, params: dict[str, Any]) -> int | None:
        raw = params.get("message_thread_id")
        if raw is None:
            return None
        thread = int(raw)
        if not chat.is_forum or thread not in chat.topics:
            raise bad("message thread not found")
        return thread

    @staticmethod
    def _check_text(text: Any) -> str:
        if not isinstance(text, str) or not text.strip():
            raise bad("message text is empty")
        if len(text) > MAX_TEXT:
            raise bad("message is too long")
        return text

    @staticmethod
    def _check_caption(caption: Any) -> str:
        caption = caption or ""
        if len(caption) > MAX_CAPTION:
            raise bad("message caption is too long")
        return caption

    @staticmethod
    def _check_markup(markup: Any, chat_id: int | None = None) -> list[list[dict[str, Any]]] | None:
        """``chat_id``: where the keyboard goes (a web_app button is refused outside a private chat)."""
        if markup is None:
            return None
        if not isinstance(markup, dict) or not isinstance(markup.get("inline_keyboard"), list):
            raise bad("can't parse reply keyboard markup JSON object")
        rows = markup["inline_keyboard"]
        if sum(len(row) for row in rows) > 100:
            raise bad("reply markup is too long")
        for row in rows:
            for button in row:
                if not str(button.get("text", "")).strip():
                    raise bad("text buttons are unallowed in the inline keyboard")
                kinds = [k for k in ("callback_data", "url", "copy_text", "web_app") if k in button]
                if len(kinds) != 1:
                    raise bad("can't parse inline keyboard button: exactly one optional field must be used")
                if "callback_data" in button:
                    data = button["callback_data"]
                    if not isinstance(data, str) or not 1 <= len(data.encode()) <= MAX_CALLBACK_DATA:
                        raise bad("BUTTON_DATA_INVALID")
                if "web_app" in button and (chat_id is None or chat_id < 0):
                    raise bad("BUTTON_TYPE_INVALID")
                if "web_app" in button and not str((button["web_app"] or {}).get("url", "")).startswith("https://"):
                    raise bad("BUTTON_URL_INVALID")
                if "url" in button and not re.match(r"^(https?|tg)://\S+$", str(button["url"])):
                    raise bad("BUTTON_URL_INVALID")
                if button.get("style") not in (None, "primary", "danger", "success"):
                    raise bad("invalid button style")
        return rows

    def _check_photo(self, value: Any, files: dict[str, bytes]) -> tuple[bytes, str, tuple[int, int]]:
        if isinstance(value, str) and value.startswith("attach://"):
            value = files.get(value[len("attach://") :])
            if value is None:
                raise bad("wrong file identifier/HTTP URL specified")
        elif isinstance(value, str):
            if value not in self.files:
                raise bad("wrong file identifier/HTTP URL specified")
            data = self.files[value]
            with Image.open(io.BytesIO(data)) as im:
                return data, value, im.size
        if not isinstance(value, bytes) or not value:
            raise bad("there is no photo in the request")
        if len(value) > MAX_PHOTO_BYTES:
            raise ApiError(413, "Request Entity Too Large")
        try:
            with Image.open(io.BytesIO(value)) as im:
                im.load()
                size = im.size
        except Exception as e:  # noqa: BLE001 - any decoding failure is Telegram's IMAGE_PROCESS_FAILED
            raise bad("IMAGE_PROCESS_FAILED") from e
        w, h = size
        if w + h > 10000 or max(w, h) / max(1, min(w, h)) > 20:
            raise bad("PHOTO_INVALID_DIMENSIONS")
        file_id = "photo-" + hashlib.sha1(value).hexdigest()[:16] + f"-{next(self._file_ids)}"
        self.files[file_id] = value
        return value, file_id, size

    def _upload_name(self, params: dict[str, Any], value: Any, file_id: str) -> str:
        """The picture's file name: from the upload, or from when the reused ``file_id`` was uploaded."""
        if isinstance(value, str) and value.startswith("attach://"):
            name = params.get("__filenames__", {}).get(value[len("attach://") :], "")
            self.file_names[file_id] = name
            return name
        return self.file_names.get(str(value), "")

    def _message_json(self, shown: Shown) -> dict[str, Any]:
        chat = self.chats[shown.chat_id]
        sender = self.users.get(shown.sender)
        out: dict[str, Any] = {
            "message_id": shown.message_id,
            "date": shown.date,
            "chat": chat.to_json(),
            "from": sender.to_json()
            if sender
            else {"id": self.bot_id, "is_bot": True, "first_name": "Table", "username": self.username},
        }
        if shown.thread is not None:
            out["message_thread_id"] = shown.thread
            out["is_topic_message"] = True
        if shown.edits:
            out["edit_date"] = int(time.time())
        if shown.kind == "text":
            out["text"] = shown.text
        else:
            if shown.text:
                out["caption"] = shown.text
            if shown.kind == "photo":
                w, h = shown.photo_size
                out["photo"] = [
                    {
                        "file_id": shown.photo_id,
                        "file_unique_id": (shown.photo_id or "")[:22],
                        "width": w,
                        "height": h,
                        "file_size": len(shown.photo or b""),
                    }
                ]
            else:
                name, data = shown.document or ("file", b"")
                out["document"] = {
                    "file_id": f"doc-{shown.chat_id}-{shown.message_id}",
                    "file_unique_id": f"d{shown.message_id}",
                    "file_name": name,
                    "file_size": len(data),
                }
        if shown.markup:
            out["reply_markup"] = {"inline_keyboard": shown.markup}
        return out

    def _post(self, chat: FakeChat, params: dict[str, Any], **fields: Any) -> dict[str, Any]:
        thread = self._thread(chat, params)
        markup = self._check_markup(params.get("reply_markup"), chat.id)
        shown = Shown(
            chat.id, self._new_message_id(chat.id), self.bot_id, int(time.time()), thread, markup=markup, **fields
        )
        self.messages.setdefault(chat.id, {})[shown.message_id] = shown
        return self._message_json(shown)

    def _editable(self, params: dict[str, Any]) -> Shown:
        chat = self._chat(params)
        try:
            shown = self.messages.get(chat.id, {}).get(int(params.get("message_id", 0)))
        except ValueError:
            shown = None
        if shown is None or shown.deleted:
            raise bad("message to edit not found")
        if shown.sender != self.bot_id:
            raise bad("message can't be edited")
        return shown

    def _apply_edit(self, shown: Shown, params: dict[str, Any], **changes: Any) -> dict[str, Any]:
        markup = self._check_markup(params.get("reply_markup"), shown.chat_id)
        changes["markup"] = markup
        if all(getattr(shown, k) == v for k, v in changes.items()):
            raise bad(NOT_MODIFIED[len("Bad Request: ") :])
        for k, v in changes.items():
            setattr(shown, k, v)
        shown.edits += 1
        return self._message_json(shown)

    # ----------------------------------------------------------------------------------------- methods
    def m_getMe(self, params, files) -> dict[str, Any]:
        return {
            "id": self.bot_id,
            "is_bot": True,
            "first_name": "Table",
            "username": self.username,
            "can_join_groups": True,
            "can_read_all_group_messages": False,
            "supports_inline_queries": False,
        }

    def m_logOut(self, params, files) -> bool:
        return True

    def m_close(self, params, files) -> bool:
        return True

    async def m_getUpdates(self, params: dict[str, Any], request: web.Request) -> list[dict[str, Any]]:
        if self.webhook is not None:
            raise ApiError(
                409,
                "Conflict: can't use getUpdates method while webhook is active; use "
                "deleteWebhook to delete the webhook first",
            )
        offset = int(params.get("offset") or 0)
        limit = int(params.get("limit") or 100)
        timeout = float(params.get("timeout") or 0)
        if offset:
            self._updates = [u for u in self._updates if u["update_id"] >= offset]
            self._confirmed = max(self._confirmed, offset - 1)
            self._touch()
        deadline = time.monotonic() + timeout
        while not self._updates and time.monotonic() < deadline:
            await asyncio.sleep(0.005)
            transport = request.transport
            if self.webhook is not None or self._closing or transport is None or transport.is_closing():
                break
        batch = self._updates[:limit]
        now = time.monotonic()
        for u in batch:
            self.served_at.setdefault(u["update_id"], now)
        if batch:
            self._fetched = max(self._fetched, batch[-1]["update_id"])
            self._touch()
        return batch

    def m_setWebhook(self, params, files) -> bool:
        url = params.get("url", "")
        if not url:
            return self.m_deleteWebhook(params, files)
        if not url.startswith("https://"):
            raise bad("bad webhook: An HTTPS URL must be provided for webhook")
        if str(params.get("drop_pending_updates", "")).lower() == "true":
            self._updates.clear()
        self.webhook = {
            "url": url,
            "secret_token": params.get("secret_token"),
            "max_connections": int(params.get("max_connections") or 40),
        }
        if self._delivery is None or self._delivery.done():
            self._delivery = asyncio.get_running_loop().create_task(self._deliver())
        return True

    def m_deleteWebhook(self, params, files) -> bool:
        self.webhook = None
        if str(params.get("drop_pending_updates", "")).lower() == "true":
            self._updates.clear()
        return True

    def m_getWebhookInfo(self, params, files) -> dict[str, Any]:
        return {
            "url": (self.webhook or {}).get("url", ""),
            "has_custom_certificate": False,
            "pending_update_count": len(self._updates),
        }

    async def _deliver(self) -> None:
        """Post queued updates to the webhook (spread over its backends), each until it is accepted."""
        self._session = self._session or aiohttp.ClientSession()
        if self.webhook_timeout is not None:
            await self._deliver_concurrently()
            return
        while self.webhook is not None:
            if not self._updates:
                await asyncio.sleep(0.005)
                continue
            update = self._updates.pop(0)
            hook = self.webhook
            targets = self.backends.get(hook["url"], [hook["url"]])
            headers = {}
            if hook.get("secret_token"):
                headers["X-Telegram-Bot-Api-Secret-Token"] = hook["secret_token"]
            self._in_flight += 1
            try:
                for attempt in range(50):
                    target = targets[next(self._rr) % len(targets)]
                    sent_at = time.monotonic()
                    try:
                        async with self._session.post(target, json=update, headers=headers) as resp:
                            if resp.status < 300:
                                self.served_at.setdefault(update["update_id"], sent_at)
                                self.deliveries.append((update["update_id"], target))
                                break
                    except aiohttp.ClientError:
                        pass
                    await asyncio.sleep(0.02 * (attempt + 1))
            finally:
                self._in_flight -= 1
                self._touch()

    async def _deliver_concurrently(self) -> None:
        """Telegram's way: up to ``max_connections`` updates in flight; one not accepted within
        ``webhook_timeout`` (or refused) is delivered again after ``redeliver_delay``, the slow POST left running."""
        assert self._session is not None
        while self.webhook is not None:
            if not self._updates or len(self._posts) >= int(self.webhook.get("max_connections") or 40):
                await asyncio.sleep(0.005)
                continue
            task = asyncio.get_running_loop().create_task(self._post_update(self._updates.pop(0)))
            self._posts.add(task)
            task.add_done_callback(self._posts.discard)

    async def _post_update(self, update: dict[str, Any]) -> None:
        assert self._session is not None and self.webhook is not None
        hook = self.webhook
        targets = self.backends.get(hook["url"], [hook["url"]])
        target = targets[next(self._rr) % len(targets)]
        headers = {}
        if hook.get("secret_token"):
            headers["X-Telegram-Bot-Api-Secret-Token"] = hook["secret_token"]
        update_id = update["update_id"]
        self._in_flight += 1
        sent_at = time.monotonic()
        self.served_at.setdefault(update_id, sent_at)  # the bot may answer before its 200 comes back
        status: int | None = None
        post = asyncio.ensure_future(self._session.post(target, json=update, headers=headers))
        try:
            done, _ = await asyncio.wait([post], timeout=self.webhook_timeout)
            if done and post.exception() is None:
                resp = post.result()
                status = resp.status
                resp.release()
            elif not done:
                post.add_done_callback(_release)  # Telegram stops waiting; the bot goes on with it
        finally:
            self._in_flight -= 1
            self._touch()
        self.posted.setdefault(update_id, []).append((sent_at, time.monotonic(), status))
        if status is not None and status < 300:
            self.deliveries.append((update_id, target))
            return
        await asyncio.sleep(self.redeliver_delay)
        if not self._closing and self.webhook is not None:
            self.redeliveries.append(update_id)
            self._updates.append(update)
            self._touch()

    def m_setMyCommands(self, params, files) -> bool:
        commands = params.get("commands")
        if not isinstance(commands, list) or len(commands) > 100:
            raise bad("commands must be a list of at most 100 commands")
        for c in commands:
            if not COMMAND_RE.match(str(c.get("command", ""))):
                raise bad("BOT_COMMAND_INVALID")
            if not 1 <= len(str(c.get("description", ""))) <= 256:
                raise bad("BOT_COMMAND_DESCRIPTION_INVALID")
        lang = params.get("language_code") or ""
        if lang and not re.match(r"^[a-z]{2}$", lang):
            raise bad("LANG_CODE_INVALID")
        scope = (params.get("scope") or {"type": "default"})["type"]
        self.commands[(scope, lang)] = commands
        return True

    def m_getMyCommands(self, params, files) -> list[dict[str, str]]:
        scope = (params.get("scope") or {"type": "default"})["type"]
        return self.commands.get((scope, params.get("language_code") or ""), [])

    def m_sendMessage(self, params, files) -> dict[str, Any]:
        chat = self._chat(params)
        return self._post(chat, params, kind="text", text=self._check_text(params.get("text")))

    def m_sendPhoto(self, params, files) -> dict[str, Any]:
        chat = self._chat(params)
        caption = self._check_caption(params.get("caption"))
        value = params.get("photo") or files.get("photo")
        data, file_id, size = self._check_photo(value, files)
        return self._post(
            chat,
            params,
            kind="photo",
            text=caption,
            photo=data,
            photo_id=file_id,
            photo_size=size,
            photo_name=self._upload_name(params, value, file_id),
        )

    def m_sendDocument(self, params, files) -> dict[str, Any]:
        chat = self._chat(params)
        caption = self._check_caption(params.get("caption"))
        value = params.get("document")
        key = value[len("attach://") :] if isinstance(value, str) and value.startswith("attach://") else "document"
        data = files.get(key)
        if not data:
            raise bad("there is no document in the request")
        name = params.get("__filenames__", {}).get(key) or "document"
        return self._post(chat, params, kind="document", text=caption, document=(name, data))

    def m_editMessageText(self, params, files) -> dict[str, Any]:
        shown = self._editable(params)
        if shown.kind != "text":
            raise bad("there is no text in the message to edit")
        return self._apply_edit(shown, params, text=self._check_text(params.get("text")))

    def m_editMessageCaption(self, params, files) -> dict[str, Any]:
        shown = self._editable(params)
        if shown.kind == "text":
            raise bad("there is no caption in the message to edit")
        return self._apply_edit(shown, params, text=self._check_caption(params.get("caption")))

    def m_editMessageReplyMarkup(self, params, files) -> dict[str, Any]:
        shown = self._editable(params)
        return self._apply_edit(shown, params)

    def m_editMessageMedia(self, params, files) -> dict[str, Any]:
        shown = self._editable(params)
        media = params.get("media")
        if not isinstance(media, dict) or media.get("type") != "photo":
            raise bad("can't parse InputMedia JSON object")
        if shown.kind == "text":
            raise bad("there is no media in the message to edit")
        caption = self._check_caption(media.get("caption"))
        data, file_id, size = self._check_photo(media.get("media"), files)
        if (
            data == shown.photo
            and caption == shown.text
            and self._check_markup(params.get("reply_markup"), shown.chat_id) == shown.markup
        ):
            raise bad(NOT_MODIFIED[len("Bad Request: ") :])
        return self._apply_edit(
            shown,
            params,
            kind="photo",
            text=caption,
            photo=data,
            photo_id=file_id,
            photo_size=size,
            photo_name=self._upload_name(params, media.get("media"), file_id),
        )

    def m_deleteMessage(self, params, files) -> bool:
        chat = self._chat(params)
        shown = self.messages.get(chat.id, {}).get(int(params.get("message_id", 0)))
        if shown is None or shown.deleted:
            raise bad("message to delete not found")
        shown.deleted = True
        return True

    def m_savePreparedInlineMessage(self, params, files) -> dict[str, Any]:
        """Bot API 8.0: a message a Mini App's user may send to chats of his choice (``shareMessage``)."""
        try:
            user = self.users.get(int(params.get("user_id", "")))
        except ValueError:
            user = None
        if user is None:
            raise bad("USER_ID_INVALID")
        result = params.get("result")
        if not isinstance(result, dict) or result.get("type") not in ("article", "photo"):
            raise bad("RESULT_TYPE_INVALID")
        content = result.get("input_message_content") or {}
        if result["type"] == "article" and not str(content.get("message_text", "")).strip():
            raise bad("MESSAGE_EMPTY")
        self._check_markup(result.get("reply_markup"), -1)  # sent to any chat: a group's rules
        kinds = [k for k in ("allow_user_chats", "allow_bot_chats", "allow_group_chats", "allow_channel_chats")]
        if not any(str(params.get(k, "")).lower() == "true" for k in kinds):
            raise bad("PEER_TYPES_INVALID")
        prepared_id = f"prep{len(self.prepared) + 1}"
        self.prepared[prepared_id] = {"user_id": user.id, "result": result}
        return {"id": prepared_id, "expiration_date": int(time.time()) + 24 * 3600}

    def m_answerCallbackQuery(self, params, files) -> bool:
        query_id = str(params.get("callback_query_id", ""))
        if query_id not in self.queries or query_id in self.answers:
            raise bad(QUERY_TOO_OLD)
        deadline = self.limits.answer_deadline
        if deadline is not None and time.monotonic() - self.queries[query_id]["at"] > deadline:
            raise bad(QUERY_TOO_OLD)  # the user's button spun until Telegram gave up on the bot
        text = params.get("text") or ""
        if len(text) > MAX_ANSWER_TEXT:
            raise bad("MESSAGE_TOO_LONG")
        self.answers[query_id] = {"text": text, "show_alert": str(params.get("show_alert", "")).lower() == "true"}
        self.answered_at[query_id] = time.monotonic()
        return True
