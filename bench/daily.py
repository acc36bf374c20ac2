"""``python -m bench.daily``: a chat of many members finishing the daily deal within one minute.

The chat application runs in this process over a real SQLite file, with the in-memory platform
(``testkit.fakeport``) behind a group write window like Telegram's: at most ``--per-minute`` writes (edits
included) to the group in any 60 s, each write waiting for its slot, as the Telegram adapter's flood control does.
Every member presses ▶ under the group's daily message (his attempt starts: his table and cards come privately),
then plays up to his last decision (stored straight through the storage, to spend the machine on what is measured);
then, spread evenly over ``--window`` seconds, each member makes his last move: the computers finish the round,
his result is counted, sent to him and shown in the group's one daily message.

Figures: the answer time of those last presses (p50 / p95 / max), whether every one was answered and every result
counted, the group message's edits (and the most in any 60 s: within the window by construction, the point is how
few a burst costs), and how long after the last result the group message showed every result (goal: the last
result visible within 60 s of the first). Last line: one JSON object with every figure.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import tempfile
import time
from collections import deque
from pathlib import Path
from typing import Any

from bench import within
from bot.app import Application
from bot.live import step
from bot.port import Chat, Command, Message, MessageRef, Press
from bot.storage import DAILY_DONE, Storage
from core.ai.player import ComputerPlayer
from testkit.fakeport import FakePort, FakeUser

GROUP = "g-bench"
WAIT = 120.0  # seconds any one wait may take (the application going idle, the last results counted)
SHOWN_WAIT = 120.0  # seconds after the last result within which the group's message must show the final board


class GroupWindow(FakePort):
    """The fake platform with a group's write window: at most ``per_minute`` group writes in any 60 s."""

    def __init__(self, per_minute: int) -> None:
        super().__init__()
        self.per_minute = per_minute
        self.writes: deque[float] = deque()
        self.lock = asyncio.Lock()
        self.edit_times: list[float] = []

    async def _slot(self) -> None:
        async with self.lock:
            while len(self.writes) >= self.per_minute:
                wait = self.writes[0] + 60.0 - time.perf_counter()
                if wait <= 0:
                    self.writes.popleft()
                    continue
                await asyncio.sleep(wait)
            self.writes.append(time.perf_counter())

    async def send_public(self, chat: Chat, msg: Message, *, reply_to: Command | None = None, **kw) -> MessageRef:
        if chat.id == GROUP:
            await self._slot()
        return await super().send_public(chat, msg, reply_to=reply_to, **kw)

    async def edit_public(self, ref: MessageRef, msg: Message, *, version: int | None = None) -> MessageRef:
        shown = self.shown.get(self.written.current(ref.message_id))
        if ref.chat_id == GROUP and (shown is None or shown.message != msg):  # an edit that changes nothing is no
            await self._slot()  # write (the ports skip it): it takes no slot
            self.edit_times.append(time.perf_counter())
        return await super().edit_public(ref, msg, version=version)


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))] if ordered else 0.0


def most_in_a_minute(times: list[float]) -> int:
    return max((sum(1 for u in times if t <= u < t + 60) for t in times), default=0)


async def fast_forward(app: Application, table_id: int, seed: str) -> tuple[int, str]:
    """Store the attempt's moves up to the person's last decision of the round (the core decides every seat);
    return the version and the code of that last move."""
    rec = await app.storage.table(table_id)
    live = await app.live(rec)
    state, history = live.state, list(live.round_events)
    plan = []
    while state.phase != "round_over" and not state.finished:
        seat = state.to_act
        player = ComputerPlayer(rec.game, "normal", seed=seed if seat == 0 else app.turns.seat_seed(rec, seat))
        action = player.decide(state.view(seat), history)
        plan.append((seat, action, state))
        state, events = state.apply(action)
        history += events
    last = max(i for i, (seat, _a, _s) in enumerate(plan) if seat == 0)
    version = rec.version
    for seat, action, _before in plan[:last]:
        new, _events, _dealt, _deal = step(live.state, action)
        await app.storage.commit_move(
            table_id, version, seat=seat, action=action.to_json(), actor_user_id=None, by="bench", state=new.to_json()
        )
        live.state, version = new, version + 1
    app.ctx.forget(table_id)
    return version, plan[last][1].code()


async def all_done(app: Application, chat_id: int) -> list[Any]:
    """The chat's attempts of the day, once every one is done (its round over and its result counted)."""
    while True:
        board = await app.storage.attempts(chat_id)
        if all(a.status == DAILY_DONE for a in board):
            return board
        await asyncio.sleep(0.05)


async def bench(members: int, window: float, per_minute: int, game: str) -> dict[str, Any]:
    folder = Path(tempfile.mkdtemp(prefix="bench-daily-"))
    storage = await Storage.open(f"sqlite+aiosqlite:///{folder / 'bot.sqlite3'}")
    app = Application(storage, computer_pause=0, tick_interval=0, think_cap=30, round_pause=0)
    port = GroupWindow(per_minute)
    app.attach(port)
    await app.start()
    chat = Chat(port.platform, GROUP, None, "Bench", "en")
    users = [FakeUser(app, port, f"m{i}", f"Member {i:03d}") for i in range(members)]
    try:
        await users[0].say(chat, "daily")
        await within(app.idle(), WAIT, "the application idle after /daily")
        post = next(s for s in port.public(GROUP) if s.text.startswith("📅"))
        button = next(b for b in post.buttons() if b.payload.endswith("." + game))
        t0 = time.perf_counter()
        for user in users:  # everyone starts his attempt (answered, his table and cards sent privately)
            await user.press(post, button, chat)
        await within(app.idle(), WAIT, "the application idle after every member started his attempt")
        start_s = time.perf_counter() - t0
        group = await app.storage.chat(port.platform, GROUP, None)
        attempts = {a.user_id: a for a in await app.storage.attempts(group.id)}
        last_moves = []
        for user in users:
            rec = await app.storage.user(port.platform, user.user.id, user.user.name)
            table_id = attempts[rec.id].table_id
            assert table_id is not None
            version, code = await fast_forward(app, table_id, "bench-member")
            last_moves.append((user, table_id, version, code))
        edits_before = len(port.edit_times)
        answer_ms: list[float] = []
        done_at: list[float] = []
        begin = time.perf_counter()

        async def finish(i: int, user: FakeUser, table_id: int, version: int, code: str) -> None:
            await asyncio.sleep(i * window / members)
            press = Press(user.user, None, f"a.{table_id}.{version}.{code}", None)
            t = time.perf_counter()
            await app.press(press)
            answer_ms.append((time.perf_counter() - t) * 1000)
            done_at.append(time.perf_counter())

        finishing = asyncio.gather(*(finish(i, *m) for i, m in enumerate(last_moves)))
        await within(finishing, window + WAIT, "every member's last move answered")
        # the last result is counted once its table's round is over: wait for it, then for the group message
        board = await within(all_done(app, group.id), WAIT, "every attempt counted as done")
        last_result = time.perf_counter()
        day = board[0].day
        text_done = None
        while text_done is None:  # until the group message shows the final board
            if time.perf_counter() - last_result > SHOWN_WAIT:
                raise RuntimeError(f"the group's message of the day did not show the final board in {SHOWN_WAIT} s")
            expected = (await app.daily.board(group, day)).text
            if next(s for s in port.public(GROUP) if s.text.startswith("📅")).text == expected:
                text_done = time.perf_counter()
                break
            await asyncio.sleep(0.05)
        await within(app.idle(), WAIT, "the application idle after the final board")
        answered = sum(1 for p, _t, _a in port.answers if p.payload.startswith("a."))
        edits = port.edit_times[edits_before:]
        post = next(s for s in port.public(GROUP) if s.text.startswith("📅"))
        return {
            "members": members,
            "game": game,
            "window_s": window,
            "per_minute": per_minute,
            "start_s": round(start_s, 2),
            "answered": answered,
            "results_counted": sum(1 for a in board if a.status == DAILY_DONE),
            "answer_p50_ms": round(pct(answer_ms, 0.5), 1),
            "answer_p95_ms": round(pct(answer_ms, 0.95), 1),
            "answer_max_ms": round(max(answer_ms), 1),
            "group_messages": len([s for s in port.public(GROUP) if s.text.startswith("📅")]),
            "group_edits": len(edits),
            "most_edits_in_60s": most_in_a_minute(edits),
            "last_result_s": round(last_result - begin, 2),
            "last_result_visible_s": round(text_done - begin, 2),
            "visible_after_last_result_s": round(text_done - last_result, 2),
            "edits_of_post": post.edits,
            "load": os.getloadavg()[0],
        }
    finally:
        await app.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--members", type=int, default=200)
    parser.add_argument("--window", type=float, default=60.0, help="seconds over which the members finish")
    parser.add_argument("--per-minute", type=int, default=20, help="group writes allowed in any 60 s (Telegram: 20)")
    parser.add_argument("--game", default="kozel", choices=("thousand", "deberts", "kozel"))
    parser.add_argument("--quick", action="store_true", help="20 members over 10 s")
    args = parser.parse_args()
    members, window = (20, 10.0) if args.quick else (args.members, args.window)
    out = asyncio.run(bench(members, window, args.per_minute, args.game))
    rows = [
        ("members finishing", f"{out['members']} ({out['game']}) over {out['window_s']:.0f} s"),
        ("starting every attempt", f"{out['start_s']:.1f} s"),
        ("last presses answered", f"{out['answered']} of {out['members']}"),
        ("results counted", f"{out['results_counted']} of {out['members']}"),
        ("answer p50 / p95 / max", f"{out['answer_p50_ms']} / {out['answer_p95_ms']} / {out['answer_max_ms']} ms"),
        ("group daily messages", str(out["group_messages"])),
        ("group edits (most in 60 s)", f"{out['group_edits']} ({out['most_edits_in_60s']} of {out['per_minute']})"),
        ("last result counted at", f"{out['last_result_s']:.1f} s"),
        ("every result visible at", f"{out['last_result_visible_s']:.1f} s"),
        ("visible after the last result", f"{out['visible_after_last_result_s']:.1f} s"),
        ("load average", f"{out['load']:.1f}"),
    ]
    width = max(len(k) for k, _ in rows)
    for key, value in rows:
        print(f"{key:<{width}}  {value}")
    print(json.dumps(out, sort_keys=True))


if __name__ == "__main__":
    main()
