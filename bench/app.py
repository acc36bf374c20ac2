"""``python -m bench.app``: how fast the chat application answers, through the fake port and a real SQLite file.

Measured in one run:
* a card play in 3-player Thousand: from the button press to all its messages handed to the port (state load,
  apply, store, the table picture and the changed hands), median and p95;
* beside it, a trivial press that is only answered (an out-of-date button: one read, one answer);
* the largest event-loop stall while ``strong`` computer players think at another table (a ticker that sleeps
  5 ms and records how late it wakes up), with the card plays going on meanwhile.

Prints a table; the last line is one JSON object with every figure. Goal: ``max_stall_ms`` ≤ 50.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import statistics
import tempfile
import time
from pathlib import Path

from bench import add_quick, within
from bot.app import Application
from bot.port import Chat, Press
from bot.storage import Storage
from core.ai.player import ComputerPlayer
from testkit.fakeport import FakePort, FakeUser

WAIT = 60.0  # seconds a table may take to open, a task to stop (a benchmark never hangs: ``bench.within``)
PHASE = 600.0  # seconds a phase of card plays may take


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def open_table(app: Application, port: FakePort, chat: Chat, users: list[FakeUser], levels: list[str]) -> int:
    host = users[0]
    await host.say(chat, "new", f"thousand {len(users) + len(levels)}")
    lobby = port.public(chat.id)[-1]
    table_id = int(next(b.payload for b in lobby.buttons() if b.payload.startswith("j.")).split(".")[1])
    for u in users[1:]:
        lobby = port.public(chat.id)[-1]
        await u.press(lobby, next(b for b in lobby.buttons() if b.payload.startswith("j.")), chat)
    for level in levels:
        lobby = [s for s in port.public(chat.id) if any(b.payload.startswith("c.") for b in s.buttons())][-1]
        await host.press(lobby, next(b for b in lobby.buttons() if b.payload.endswith("." + level)), chat)
    lobby = [s for s in port.public(chat.id) if any(b.payload.startswith("s.") for b in s.buttons())][-1]
    await host.press(lobby, next(b for b in lobby.buttons() if b.payload.startswith("s.")), chat)
    return table_id


async def next_move(app: Application, table_id: int, users: list[FakeUser]) -> tuple[FakeUser, str, str] | None:
    """Whose turn (a human), the code a decent player chooses, and the phase."""
    rec = await app.storage.table(table_id)
    if rec.status != "playing":
        return None
    live = await app.live(rec)
    seat = live.state.to_act
    seat_rec = next(s for s in rec.seats if s.seat == seat)
    if seat_rec.user is None:
        return None
    user = next(u for u in users if u.user.id == seat_rec.user.platform_id)
    action = ComputerPlayer(rec.game, "normal", seed=rec.version).decide(live.state.view(seat), live.round_events)
    return user, action.code(), live.state.phase


async def run(plays: int, folder: Path) -> dict:
    storage = await Storage.open(f"sqlite+aiosqlite:///{folder / 'bench.sqlite3'}")
    app = Application(storage, computer_pause=0, tick_interval=0, think_cap=5, round_pause=0)
    port = FakePort("bench")
    app.attach(port)
    await app.start()
    chat_a = Chat("bench", "A", None, "Table A", "en")
    chat_b = Chat("bench", "B", None, "Table B", "en")
    a_users = [FakeUser(app, port, f"a{i}", f"A{i}") for i in range(3)]
    b_users = [FakeUser(app, port, "b0", "B0")]
    table_a = await within(open_table(app, port, chat_a, a_users, []), WAIT, "table A opened and started")
    table_b = await within(open_table(app, port, chat_b, b_users, ["strong", "strong"]), WAIT, "table B opened")

    card_ms: list[float] = []
    trivial_ms: list[float] = []
    stalls: list[float] = []
    stop = asyncio.Event()

    async def ticker() -> None:
        while not stop.is_set():
            t0 = time.perf_counter()
            await asyncio.sleep(0.005)
            stalls.append((time.perf_counter() - t0 - 0.005) * 1000)

    async def table_b_human() -> None:
        while not stop.is_set():
            await asyncio.sleep(0.01)
            move = await next_move(app, table_b, b_users)
            if move is None:
                if (await app.storage.table(table_b)).status != "playing":
                    return
                continue
            user, code, _phase = move
            await user.play_code(code)

    async def card_plays(count: int, out: list[float], trivial: list[float]) -> None:
        while len(out) < count:
            move = await next_move(app, table_a, a_users)
            if move is None:
                return
            user, code, phase = move
            if phase != "play" or not code.startswith("play"):
                await user.play_code(code)
                continue
            hand = user.hands()[0]
            button = next((b for b in hand.buttons() if b.payload.endswith("." + code)), None)
            if button is None:
                await user.play_code(code)
                continue
            rec = await app.storage.table(table_a)
            t0 = time.perf_counter()
            await app.press(Press(user.user, None, button.payload, None))
            out.append((time.perf_counter() - t0) * 1000)
            stale = button.payload.replace(f".{rec.version}.", f".{rec.version + 1000}.", 1)
            t0 = time.perf_counter()
            await app.press(Press(user.user, None, stale, None))
            trivial.append((time.perf_counter() - t0) * 1000)

    # baseline: the same card plays with nobody thinking elsewhere (the machine's own noise)
    tick_task = asyncio.create_task(ticker())
    base_card: list[float] = []
    await within(card_plays(max(10, plays // 4), base_card, []), PHASE, "the baseline's card plays at table A")
    stop.set()
    await within(tick_task, WAIT, "the stall ticker stopping")
    baseline_stalls = list(stalls)
    stalls.clear()
    stop.clear()

    tick_task = asyncio.create_task(ticker())
    b_task = asyncio.create_task(table_b_human())
    await within(card_plays(plays, card_ms, trivial_ms), PHASE, "the card plays at table A beside the strong table")
    stop.set()
    await within(tick_task, WAIT, "the stall ticker stopping")
    b_task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await within(b_task, WAIT, "table B's player stopping")
    b_moves = (await app.storage.table(table_b)).version
    await app.close()
    return {
        "card_plays": len(card_ms),
        "card_play_ms_median": round(statistics.median(card_ms), 2),
        "card_play_ms_p95": round(pct(card_ms, 0.95), 2),
        "trivial_ms_median": round(statistics.median(trivial_ms), 2),
        "trivial_ms_p95": round(pct(trivial_ms, 0.95), 2),
        "ratio_median": round(statistics.median(card_ms) / statistics.median(trivial_ms), 2),
        "ratio_p95": round(pct(card_ms, 0.95) / pct(trivial_ms, 0.95), 2),
        "strong_table_moves": b_moves,
        "max_stall_ms": round(max(stalls), 2),
        "baseline_max_stall_ms": round(max(baseline_stalls), 2),
        "p99_stall_ms": round(pct(stalls, 0.99), 2),
        "stall_goal_ms": 50,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plays", type=int, default=60, help="card plays to time")
    add_quick(parser, plays=6)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-app-", dir=".") as folder:
        out = asyncio.run(run(args.plays, Path(folder)))
    print(f"{'what':<44}{'median ms':>12}{'p95 ms':>12}")
    print(f"{'card play (press -> all messages)':<44}{out['card_play_ms_median']:>12}{out['card_play_ms_p95']:>12}")
    print(f"{'trivial press (answer only)':<44}{out['trivial_ms_median']:>12}{out['trivial_ms_p95']:>12}")
    print(f"{'ratio':<44}{out['ratio_median']:>12}{out['ratio_p95']:>12}")
    print(
        f"largest event-loop stall while strong players think: {out['max_stall_ms']} ms "
        f"(p99 {out['p99_stall_ms']} ms; goal ≤ 50; {out['strong_table_moves']} moves at the strong table)"
    )
    print(json.dumps(out))


if __name__ == "__main__":
    main()
