"""Seeded monkeys in the fake Telegram (issue 26): several users press random buttons they see (fresh and
stale), press twice, press buttons of a table they do not sit at, forge callback data (huge numbers, garbage,
another player's move) and type commands, through the real application and the real aiogram client.

Checked: no error logged, every callback query answered exactly once, no hand outside its owner's private
chat. Bounded for CI; ``TELEGRAM_MONKEY_STEPS=2000`` (and ``TELEGRAM_MONKEY_SEED``) make a longer run."""

from __future__ import annotations

import logging
import os
import random

from testkit.fake_bot_api import FakeBotAPI, FakeUser
from tests.telegram_bot_support import LiveBot, uploads, writes
from tests.telegram_support import KITCHEN

GROUP = KITCHEN  # the shared ``api`` fixture's group (tests/conftest.py)
STEPS = int(os.environ.get("TELEGRAM_MONKEY_STEPS", "100"))
SEED = int(os.environ.get("TELEGRAM_MONKEY_SEED", "26"))
COMMANDS = [
    "/new",
    "/new thousand 3",
    "/new deberts 2",
    "/new kozel 4",
    "/new thousand 99999999999999999999",
    "/join",
    "/leave",
    "/stop",
    "/table",
    "/rules",
    "/score",
    "/top",
    "/me",
    "/history",
    "/help",
    "/settings",
    "/lang uk",
    "/lang xx",
    "/export 99999999999999999999",
]
FORGED = [
    "t:a.99999999999999999999.1.pass",
    "t:a.1.99999999999999999999.pass",
    "t:a.1.-1.pass",
    "t:j.1000000000000000000000000",
    "t:h.1",
    "t:k.1",
    "t:u.1.1.main",
    "t:zz",
    "t:",
    "garbage",
    "t:a.1.1." + "x" * 40,
    "t:y.1.99999999999999999999",
    "t:y.1.0",
    "t:g.1.-1",
    "t:p.1",
    "t:p.99999999999999999999",
    "t:i.1.1",
]


class Monkeys:
    def __init__(self, api: FakeBotAPI, users: list[FakeUser], rng: random.Random) -> None:
        self.api = api
        self.users = users
        self.rng = rng
        self.queries: list[str] = []

    def screens(self, user: FakeUser) -> list:
        """Messages this user sees with buttons: the group's and his own private chat's."""
        return [s for s in self.api.visible(GROUP) + self.api.visible(user.id) if s.callback_buttons()]

    def press(self, user: FakeUser, shown, data: str, forged: bool = False) -> None:
        self.queries.append(self.api.press(user, shown.chat_id, shown.message_id, data, forged=forged))

    def step(self) -> None:
        rng, user = self.rng, self.rng.choice(self.users)
        screens = self.screens(user)
        roll = rng.random()
        if roll < 0.2 or not screens:
            chat = GROUP if rng.random() < 0.8 else user.id
            self.api.say(user, chat, rng.choice(COMMANDS))
            return
        shown = rng.choice(screens[-4:] if rng.random() < 0.7 else screens)  # mostly fresh, sometimes stale
        buttons = [b["callback_data"] for b in shown.callback_buttons()]
        if roll < 0.75:
            self.press(user, shown, rng.choice(buttons))
        elif roll < 0.85:
            data = rng.choice(buttons)
            self.press(user, shown, data)
            self.press(user, shown, data)  # a double tap
        elif roll < 0.93:
            self.press(user, shown, rng.choice(FORGED), forged=True)
        else:  # a button from somebody else's private chat, forged into mine
            other = rng.choice([u for u in self.users if u is not user])
            theirs = [b["callback_data"] for s in self.api.visible(other.id) for b in s.callback_buttons()]
            if theirs:
                self.press(user, shown, rng.choice(theirs), forged=True)


async def test_monkeys_press_and_type_at_random(api, tmp_path, caplog):
    caplog.set_level(logging.WARNING)
    users = [api.add_user(11 + i, name) for i, name in enumerate(("Ann", "Bob", "Cid", "Dan"))]
    users.append(api.add_user(20, "Eve", started=False))  # never opened the bot's chat
    # a short pause after each round: the round end, its claim and the deal run as in a real chat
    bot = await LiveBot(api, tmp_path / "bot.sqlite3", round_pause=0.5).start()
    monkeys = Monkeys(api, users, random.Random(SEED))
    try:
        api.say(users[0], GROUP, "/new thousand 3")
        await bot.settle()
        for n in range(STEPS):
            monkeys.step()
            if n % 5 == 4:
                await bot.settle()
        await bot.settle()
        for q in monkeys.queries:
            await api.wait_answer(q, timeout=30)
        await bot.settle()
    finally:
        await bot.stop()
    answered: dict[str, int] = {}
    for c in api.calls:
        if c.method == "answerCallbackQuery" and c.ok:
            key = str(c.params["callback_query_id"])
            answered[key] = answered.get(key, 0) + 1
    assert len(monkeys.queries) > STEPS / 2
    assert [q for q in monkeys.queries if answered.get(q) != 1] == []
    assert not [c for c in api.calls if c.method == "answerCallbackQuery" and not c.ok]
    errors = [f"{r.name}: {r.getMessage()}" for r in caplog.records if r.levelno >= logging.ERROR]
    assert errors == []
    # hands go to private chats only, and only to people who sat at a table
    seated = {str(u.id) for u in users}
    for call in api.calls:
        if call.ok and "hand.jpg" in uploads(call):
            assert call.chat_id is not None and call.chat_id > 0 and str(call.chat_id) in seated
    assert not any("hand.jpg" in uploads(c) for c in writes(api.calls, GROUP))
    assert not any("hand.jpg" in uploads(c) for c in writes(api.calls, 20))
