"""Shared parts of the Telegram tests: the fake Bot API running, bot workers pointed at it, a recording
stand-in for the chat application, and small JPEG pictures."""

from __future__ import annotations

import contextlib
import io
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

from PIL import Image

from bot.config import Settings
from bot.port import Button, Chat, Command, Message, MessageRef, Press, PrivateStart, Unreachable
from bot.telegram.runner import TelegramRunner
from testkit.fake_bot_api import TOKEN, FakeBotAPI

KITCHEN = -1001  # the group of the shared ``api`` fixture (tests/conftest.py)
HOOK = "https://bot.example.org/telegram/hook"  # the webhook address in-process workers are set to


def picture(n: int, size: tuple[int, int] = (48, 32)) -> bytes:
    """A small distinct JPEG for every ``n``."""
    im = Image.new("RGB", size, ((n * 37) % 256, (n * 91) % 256, (n * 53) % 256))
    out = io.BytesIO()
    im.save(out, "JPEG", quality=80)
    return out.getvalue()


def settings_for(server: FakeBotAPI, **overrides) -> Settings:
    """The bot's settings against ``server``: Telegram's real flood settings for every limit the fake keeps, fast
    ones only for a limit the test turned off (``Limits``)."""
    limits = server.limits
    values: dict = dict(telegram_bot_token=TOKEN, telegram_api_url=server.base_url)
    if limits.per_chat_gap is None:
        values["telegram_edit_interval"] = 0.02
    if limits.per_private_second is None:
        values["telegram_private_interval"] = 0.02
    if limits.per_group_minute is None:
        values["telegram_group_per_minute"] = 0
    else:
        values["telegram_group_per_minute"] = limits.per_group_minute
        values["telegram_group_window"] = limits.group_window
    if limits.per_second is None:
        values["telegram_global_per_second"] = 1000
    values.update(overrides)
    return Settings(_env_file=None, **values)


def webhook_options(redis_url: str, **overrides) -> dict:
    """The settings of one of several webhook workers behind one address, on a free port of 127.0.0.1, sharing
    ``redis_url`` (plus ``overrides``): give each ``Worker`` of a test the same."""
    return dict(
        telegram_webhook_url=HOOK,
        telegram_webhook_host="127.0.0.1",
        telegram_webhook_port=0,
        redis_url=redis_url,
        **overrides,
    )


TABLE_BUTTONS = ((Button("Show my hand", "hand"), Button("Move", "move", style="primary")),)


@dataclass
class RecordingApp:
    """Stands in for ``bot.app.Application``: records what arrives and drives the port the way the app does
    (a table picture per chat edited after every move, hands in private, invitations when unreachable)."""

    port: object = None
    commands: list[Command] = field(default_factory=list)
    presses: list[Press] = field(default_factory=list)
    starts: list[PrivateStart] = field(default_factory=list)
    tables: dict[tuple, MessageRef] = field(default_factory=dict)
    moves: dict[tuple, int] = field(default_factory=dict)
    hands: dict[str, MessageRef] = field(default_factory=dict)
    invited: dict[str, Chat] = field(default_factory=dict)

    def attach(self, port) -> None:
        self.port = port

    def twin(self) -> RecordingApp:
        """Another worker's application over the same tables (as two processes share one database)."""
        return RecordingApp(tables=self.tables, moves=self.moves, hands=self.hands, invited=self.invited)

    def table(self, n: int) -> Message:
        return Message(f"Table, move {n}", image=picture(n), buttons=TABLE_BUTTONS)

    async def command(self, cmd: Command) -> None:
        self.commands.append(cmd)
        if cmd.name == "new" and cmd.chat is not None:
            self.moves[cmd.chat.key] = 0
            self.tables[cmd.chat.key] = await self.port.send_public(cmd.chat, self.table(0), reply_to=cmd)
        elif cmd.name == "join" and cmd.chat is not None:
            await self.give_hand(cmd.chat, cmd.user, cmd)

    async def give_hand(self, chat: Chat, user, via) -> None:
        hand = Message(
            f"Your hand, {user.name}", image=picture(100 + len(self.hands)), buttons=((Button("Play", "play"),),)
        )
        try:
            self.hands[user.id] = await self.port.send_private(user, hand, via=via)
        except Unreachable:
            self.invited[user.id] = chat
            await self.port.invite_private(
                chat, user, Message(f"{user.name}, open the chat with me"), f"seat-{user.id}"
            )

    async def press(self, press: Press) -> None:
        self.presses.append(press)
        if press.payload == "move" and press.chat is not None:
            key = press.chat.key
            self.moves[key] += 1
            self.tables[key] = await self.port.edit_public(self.tables[key], self.table(self.moves[key]))
            await self.port.answer(press)
        elif press.payload == "hand" and press.chat is not None:
            await self.give_hand(press.chat, press.user, press)
            await self.port.answer(press, "Sent to your private chat")
        elif press.payload == "play":
            ref = self.hands[press.user.id]
            self.hands[press.user.id] = await self.port.edit_private(
                press.user, ref, Message(f"You played, {press.user.name}", image=picture(300))
            )
            await self.port.answer(press)
        else:
            await self.port.answer(press, "That button is stale", alert=True)

    async def private_start(self, start: PrivateStart) -> None:
        self.starts.append(start)
        chat = self.invited.pop(start.user.id, None)
        if chat is not None and start.payload == f"seat-{start.user.id}":
            await self.give_hand(chat, start.user, start)


class Worker:
    """One bot process's worth of adapter (in this event loop): runner + recording app."""

    def __init__(self, server: FakeBotAPI, app: RecordingApp | None = None, **overrides) -> None:
        self.app = app or RecordingApp()
        self.runner = TelegramRunner(self.app, settings_for(server, **overrides))

    @property
    def port(self):
        return self.runner.port

    async def __aenter__(self) -> Worker:
        await self.runner.start()
        return self

    async def __aexit__(self, *exc) -> None:
        await self.runner.stop()


@contextlib.asynccontextmanager
async def webhook_worker() -> AsyncIterator[tuple[FakeBotAPI, Worker, str]]:
    """A fake Bot API and one worker in webhook mode on a free port of 127.0.0.1: (api, worker, hook address)."""
    api = FakeBotAPI()
    await api.start()
    try:
        async with Worker(api, telegram_webhook_url=HOOK, telegram_webhook_port=0) as w:
            address = w.runner.webhook_address
            assert address is not None and address.startswith("http://127.0.0.1:")
            yield api, w, address
    finally:
        await api.stop()
