"""``python -m bench.telegram``: the Telegram bot's answer time for a game move, against a trivial press.

The real bot runs as its own process (``python -m bot``: the chat application over a fresh SQLite file, with
the Telegram adapter, long polling) and talks over HTTP to the fake Bot API (``testkit/fake_bot_api.py``)
running in this process. Three users open a Thousand table in a group and play it by pressing the buttons
they see. For each press this measures the time from its update being served to the bot (``getUpdates``)
until the bot's ``answerCallbackQuery`` arrives:

* ``move``: a press of a move button (storage, rules, pictures, the group table edit and the private hand
  edit included; the application answers after them);
* ``trivial``: in the same run, interleaved, a press of a button the application only answers ("this
  button is not valid"): the baseline of the adapter, HTTP and the application's press path.

``p95_ratio`` = p95 of moves / p95 of trivial presses (goal ≤ 3). Bot API calls made because of each move are
counted, to the group and to private chats (goal: 1 group edit per move and no new group message). The
per-chat interval is set to ``--interval`` so that every move gets its own edit (with 1 s, fast moves are
coalesced and cost fewer), and the per-minute and global limits are lifted (the bench presses far faster than
people do). Last line: one JSON object with every figure.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import signal
import statistics
import sys
import tempfile
import time
from pathlib import Path

from bench import add_quick

GROUP = -100777
WRITES = (
    "sendMessage",
    "sendPhoto",
    "sendDocument",
    "editMessageText",
    "editMessageCaption",
    "editMessageMedia",
    "editMessageReplyMarkup",
    "deleteMessage",
)


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


async def bench(moves_wanted: int, interval: float, seed: int) -> dict:
    from testkit.fake_bot_api import TOKEN, FakeBotAPI, Limits
    from testkit.telegram_players import PREFIX, Player

    # the per-chat, per-minute and global limits lifted as for the bot (below); the answer deadline kept
    api = FakeBotAPI(limits=Limits(per_chat_gap=None, per_private_second=None, per_group_minute=None, per_second=None))
    await api.start()
    api.add_group(GROUP, "Bench")
    users = [api.add_user(1000 + i, name) for i, name in enumerate(("Ann", "Bob", "Cid"))]
    tmp = tempfile.mkdtemp(prefix="bench-telegram-")
    env = dict(os.environ)
    env.update(
        TELEGRAM_BOT_TOKEN=TOKEN,
        TELEGRAM_API_URL=api.base_url,
        DATABASE_URL=f"sqlite+aiosqlite:///{Path(tmp) / 'bot.sqlite3'}",
        DATA_DIR=tmp,
        TELEGRAM_EDIT_INTERVAL=str(interval),
        TELEGRAM_PRIVATE_INTERVAL=str(interval),
        TELEGRAM_GROUP_PER_MINUTE="0",  # the bench presses far faster than people: Telegram's per-minute and
        TELEGRAM_GLOBAL_PER_SECOND="1000",  # global limits would only measure their own waits
        COMPUTER_PAUSE="0",
    )
    proc = await asyncio.create_subprocess_exec(sys.executable, "-m", "bot", env=env, stdout=asyncio.subprocess.DEVNULL)
    try:
        await api.wait_for(lambda: ("default", "uk") in api.commands, timeout=120)

        async def settle() -> None:
            await api.settle(quiet=max(0.15, 3 * interval), timeout=60)

        ann, bob, cid = (Player(api, u, settle) for u in users)
        api.say(ann.user, GROUP, "/new thousand 3")
        await api.wait_for(lambda: bool(api.visible(GROUP)), timeout=60)
        await settle()
        lobby = api.last(GROUP)
        await bob.press_label(lobby, "Join")
        await cid.press_label(api.messages[GROUP][lobby.message_id], "Join")
        await ann.press_label(api.messages[GROUP][lobby.message_id], "Start")
        await api.wait_for(lambda: any(p.hands() for p in (ann, bob, cid)), timeout=60)
        await settle()
        rng = random.Random(seed)
        move_times: list[float] = []
        trivial_times: list[float] = []
        group_calls: list[int] = []
        group_edits: list[int] = []
        group_posts: list[int] = []
        private_calls: list[int] = []
        players = [ann, bob, cid]
        finished = False
        while len(move_times) < moves_wanted:
            mover = next((p for p in players if any(p.moves(s) for s in p.hands())), None)
            if mover is None:
                finished = True
                break
            shown = next(s for s in mover.hands() if mover.moves(s))
            finals = [d for d in mover.moves(shown) if d.startswith(PREFIX + "a.")]
            data = rng.choice(finals) if finals else rng.choice(mover.moves(shown))
            before = len(api.calls)
            query = api.press(mover.user, shown.chat_id, shown.message_id, data)
            await api.wait_answer(query, timeout=60)
            await settle()
            if not data.startswith(PREFIX + "a."):
                continue  # a picker step (private only), not a move
            move_times.append(api.answer_delay(query))
            made = [c for c in api.calls[before:] if c.method in WRITES]
            group = [c for c in made if c.chat_id == GROUP]
            group_calls.append(len(group))
            group_edits.append(sum(c.method.startswith("edit") for c in group))
            group_posts.append(sum(c.method.startswith("send") for c in group))
            private_calls.append(len(made) - len(group))
            table = next((s for s in reversed(api.visible(GROUP)) if s.callback_buttons()), None)
            if table is not None:
                trivial = api.press(ann.user, GROUP, table.message_id, PREFIX + "Z.1", forged=True)
                await api.wait_answer(trivial, timeout=60)
                trivial_times.append(api.answer_delay(trivial))
                await settle()
    finally:
        with contextlib.suppress(ProcessLookupError):
            proc.send_signal(signal.SIGTERM)
        try:
            await asyncio.wait_for(proc.wait(), 30)
        except TimeoutError:
            proc.kill()
        await api.stop()
    n = len(move_times)
    return {
        "moves": n,
        "trivial_presses": len(trivial_times),
        "game_finished": finished,
        "interval_s": interval,
        "move_median_ms": round(statistics.median(move_times) * 1000, 1),
        "move_p95_ms": round(p95(move_times) * 1000, 1),
        "trivial_median_ms": round(statistics.median(trivial_times) * 1000, 1),
        "trivial_p95_ms": round(p95(trivial_times) * 1000, 1),
        "p95_ratio": round(p95(move_times) / p95(trivial_times), 2),
        "median_ratio": round(statistics.median(move_times) / statistics.median(trivial_times), 2),
        "group_calls_per_move": round(sum(group_calls) / n, 3),
        "group_edits_per_move": round(sum(group_edits) / n, 3),
        "group_new_messages_per_move": round(sum(group_posts) / n, 3),
        "max_group_calls_one_move": max(group_calls),
        "private_calls_per_move": round(sum(private_calls) / n, 3),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--moves", type=int, default=60, help="moves to time (default 60)")
    parser.add_argument("--interval", type=float, default=0.05, help="seconds between writes in one chat")
    parser.add_argument("--seed", type=int, default=1)
    add_quick(parser, moves=4)
    args = parser.parse_args()
    started = time.monotonic()
    result = asyncio.run(bench(args.moves, args.interval, args.seed))
    result["wall_s"] = round(time.monotonic() - started, 1)
    rows = [
        ("game moves timed", result["moves"]),
        ("trivial presses timed", result["trivial_presses"]),
        ("move answer, median / p95 ms", f"{result['move_median_ms']} / {result['move_p95_ms']}"),
        ("trivial answer, median / p95 ms", f"{result['trivial_median_ms']} / {result['trivial_p95_ms']}"),
        ("p95 ratio (goal <= 3)", result["p95_ratio"]),
        ("group calls per move (goal 1)", result["group_calls_per_move"]),
        (
            "  of which edits / new messages",
            f"{result['group_edits_per_move']} / {result['group_new_messages_per_move']}",
        ),
        ("most group calls of one move", result["max_group_calls_one_move"]),
        ("private calls per move", result["private_calls_per_move"]),
    ]
    width = max(len(r[0]) for r in rows)
    for name, value in rows:
        print(f"{name:<{width}}  {value}")
    print(json.dumps(result))


if __name__ == "__main__":
    main()
