"""People in the fake Telegram (``testkit.fake_bot_api``) who play through the real application: they type
commands, press only buttons they can see on their screen, and open the bot's chat through deep links."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from testkit.fake_bot_api import FakeBotAPI, FakeUser, Shown
from testkit.fakeport import next_press

PREFIX = "t:"  # the adapter's callback-data prefix


@dataclass
class Player:
    api: FakeBotAPI
    user: FakeUser
    settle: Any  # async () -> None: waits until the bot has done everything it will do

    @property
    def name(self) -> str:
        return self.user.first_name

    async def say(self, chat_id: int, text: str, thread: int | None = None) -> None:
        self.api.say(self.user, chat_id, text, thread=thread)
        await self.settle()

    async def press(self, shown: Shown, data: str) -> dict[str, Any]:
        query = self.api.press(self.user, shown.chat_id, shown.message_id, data)
        answer = await self.api.wait_answer(query)
        await self.settle()
        return answer

    async def press_label(self, shown: Shown, label: str) -> dict[str, Any]:
        for b in shown.callback_buttons():
            if b["text"] == label or label in b["text"]:
                return await self.press(shown, b["callback_data"])
        raise AssertionError(f"{self.name}: no button {label!r} in {[b['text'] for b in shown.buttons()]}")

    def private(self) -> list[Shown]:
        return self.api.visible(self.user.id)

    def hands(self) -> list[Shown]:
        """My private messages with buttons, newest first."""
        return [s for s in reversed(self.private()) if s.callback_buttons()]

    def moves(self, shown: Shown) -> list[str]:
        return [
            b["callback_data"]
            for b in shown.callback_buttons()
            if b["callback_data"].startswith((PREFIX + "a.", PREFIX + "u."))
        ]

    async def play_one(self, rng: random.Random) -> bool:
        """Press one move button on my screen (following pickers). False when I have nothing to press."""
        for shown in self.hands():
            moves = self.moves(shown)
            if not moves:
                continue
            for _ in range(4):
                finals = [d for d in moves if d.startswith(PREFIX + "a.")]
                steps = [d for d in moves if d.startswith(PREFIX + "u.") and not d.endswith(".main")]
                pick_from = finals if finals and (not steps or rng.random() < 0.7) else steps or finals
                data = rng.choice(pick_from)
                await self.press(shown, data)
                if data.startswith(PREFIX + "a."):
                    return True
                current = self.api.messages[shown.chat_id][shown.message_id]
                if current.deleted:
                    return True
                moves = self.moves(current)
                if not moves:
                    return True
            return True
        return False


async def play_code(player: Player, code: str) -> bool:
    """Press my way to one action (by its code), through the pickers, using only buttons on my screen
    (the same path as ``testkit.fakeport.FakeUser.play_code``). False when no keyboard of mine leads there."""
    for _ in range(4):
        hands = player.hands()
        if not hands:
            return False
        shown = hands[0]
        payload = next_press(code, [b["callback_data"][len(PREFIX) :] for b in shown.callback_buttons()])
        if payload is None:
            return False
        await player.press(shown, PREFIX + payload)
        if payload.startswith("a."):
            return True
    return False


async def play_well(app: Any, players: list[Player], table_id: int, presses: int = 100000) -> int:
    """Up to ``presses`` moves by the people at the table, each choosing like a decent player (the core's
    normal computer player picks the action) and pressing the buttons on his own screen; computer seats move
    by themselves. Returns the number of moves made; stops when the game is over."""
    from core.ai.player import ComputerPlayer

    made = 0
    by_seat: dict[int, Player] = {}
    while made < presses:
        rec = await app.storage.table(table_id)
        if rec.status != "playing":
            return made
        if not by_seat:
            for s in rec.seats:
                if s.user is not None:
                    by_seat[s.seat] = next(p for p in players if str(p.user.id) == s.user.platform_id)
        live = await app.live(rec)
        seat = live.state.to_act
        assert seat in by_seat, f"seat {seat} should move by itself"
        action = ComputerPlayer(rec.game, "normal", seed=made).decide(live.state.view(seat), live.round_events)
        assert await play_code(by_seat[seat], action.code()), f"no button leads to {action.code()}"
        made += 1
    return made


async def play(players: list[Player], rng: random.Random, presses: int) -> int:
    """Up to ``presses`` moves by whoever has one on his screen; returns how many were made."""
    made = 0
    while made < presses:
        for p in players:
            if await p.play_one(rng):
                made += 1
                break
        else:
            break
    return made


async def play_to_end(players: list[Player], seed: int = 0, max_presses: int = 5000) -> int:
    """Everyone presses the moves they are shown until nobody has one left; returns the number of presses."""
    rng = random.Random(seed)
    presses = 0
    while presses < max_presses:
        for p in players:
            if await p.play_one(rng):
                presses += 1
                break
        else:
            return presses
    raise AssertionError("the game did not end")
