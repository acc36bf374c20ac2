"""``python -m bench.cluster``: how many tables a cluster of webhook workers holds at Telegram's real flood limits.

The bot runs as real ``python -m bot`` processes (webhook mode) on a fresh PostgreSQL database and Redis, behind
a round-robin balancer, talking to the fake Bot API in this process (``testkit.cluster_support``), with Telegram's
limits (one write per second and 20 a minute in a group). N tables of Deberts for two people move at a human
pace (a move every 3-5 s per table: about 0.75 writes a second, the group's table and two hands) and one more
table moves as fast as its players can press. For every move:

* ``answer``: from the press's update reaching a worker until its ``answerCallbackQuery`` arrives;
* ``next_turn``: from the same moment until the next player has current buttons (the fake Bot API holds his
  private message with buttons of the new version).

Baseline in the same run: a press of a button the bot does not know (answered at once by the adapter), made
between the moves. Each worker count (``--workers``, default 1 and 2) plays the table counts (``--tables``,
default 2, 6, 20, 40, 80) in turn for ``--duration`` seconds each, up to the knee: after the first count a worker
count does not hold, the larger ones are not played. A count is held when ``answer_p99_ms`` <= 1000,
``next_turn_p99_ms`` <= 2500 and no press or turn was lost; ``max_tables_held`` is the largest held count per
worker count. ``cpu_ms_per_move``: the workers' CPU time (user + system, from ``/proc``) during play, per
stored move (human and fast tables); flat as tables grow means the bot's own cost does not grow with load.
``redis_commands_per_move`` and ``redis_round_trips_per_move``: the commands the workers sent to Redis (each of a
pipeline, ``MULTI``/``EXEC`` included, a Lua script one ``EVALSHA``) and the requests they waited for, per stored
move; ``redis_scripts_per_move``: the ``EVALSHA`` among them (Redis itself counts the commands a script runs too);
``redis_commands_by_name_per_move`` (the JSON line only): by command. ``table_reads_per_move``: the tables the
workers read from the database per stored move. All are counted in the workers (``tablebot_redis_commands_total``,
``tablebot_redis_round_trips_total``, ``tablebot_table_reads_total`` on each worker's ``/metrics``, read before
and after play), so another program using the same Redis or PostgreSQL server does not count; ``load`` is the
machine's load average beside them.
Telegram allows a bot about 30 writes a second in all, so about 40 tables at a human pace: there the platform,
not the bot, stops growth. The defaults take about half an hour; ``--quick`` a few seconds. A readable table,
then one JSON line.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import sys
import time
from dataclasses import dataclass, field

from bench import add_quick
from testkit.cluster_support import PREFIX, Cluster, Counted, by_label, hands_of, percentile

GAME = "deberts"
GOAL_ANSWER_MS = 1000.0
GOAL_NEXT_TURN_MS = 2500.0
GOAL_TABLES = 40  # tables at a human pace one worker holds (Telegram's ~30 writes a second in all: ~40 tables)
WAIT = 70.0  # the longest a bench player waits for an answer or for his turn (Telegram's window is 60 s)
REDIS_COMMANDS = "tablebot_redis_commands_total"
COUNTERS = {  # figure per move <- the workers' counter (bot/metrics.py)
    "redis_commands_per_move": Counted.of(REDIS_COMMANDS),
    "redis_scripts_per_move": Counted.of(REDIS_COMMANDS, command="EVALSHA"),
    "redis_round_trips_per_move": Counted.of("tablebot_redis_round_trips_total"),
    "table_reads_per_move": Counted.of("tablebot_table_reads_total"),
}


@dataclass
class Figures:
    answer_ms: list[float] = field(default_factory=list)
    next_turn_ms: list[float] = field(default_factory=list)
    lost: int = 0  # presses never answered, or turns that never reached the next player within WAIT


async def play_table(
    cluster, chat_id: int, table_id: int, users, pace: tuple[float, float], until: float, out: Figures, rng
):
    api = cluster.api

    def current() -> tuple[object, object, str, int] | None:
        """(user, message, data, version) of a move button of the newest version at this table."""
        best = None
        for user in users:
            for shown in hands_of(api, user, table_id)[:1]:
                for _, p in cluster.buttons(shown, "a") + cluster.buttons(shown, "u"):
                    if best is None or p.version > best[3]:
                        best = (user, shown, None, p.version)
        if best is None:
            return None
        user, shown, _, version = best
        finals = [d for d, p in cluster.buttons(shown, "a") if p.version == version]
        steps = [d for d, p in cluster.buttons(shown, "u") if p.version == version and not d.endswith(".main")]
        data = rng.choice(finals) if finals else (rng.choice(steps) if steps else None)
        return None if data is None else (user, shown, data, version)

    while time.monotonic() < until:
        move = current()
        if move is None:
            with contextlib.suppress(TimeoutError):
                await api.wait_for(lambda: current() is not None, timeout=5)
            continue
        await asyncio.sleep(rng.uniform(*pace))
        user, shown, data, version = current() or move
        try:
            query = api.press(user, shown.chat_id, shown.message_id, data)
        except ValueError:
            continue
        update = api.queries[query]["update"]
        try:
            await api.wait_answer(query, timeout=WAIT)
        except TimeoutError:
            out.lost += 1
            continue
        served = api.served_at[update]
        out.answer_ms.append((api.answered_at[query] - served) * 1000)
        if not data.startswith(PREFIX + "a."):
            continue  # a picker step: no turn passes
        if await next_turn(cluster, table_id, current, version):
            out.next_turn_ms.append((time.monotonic() - served) * 1000)
        elif (await cluster.storage.table(table_id)).status == "playing":
            out.lost += 1


async def next_turn(cluster, table_id: int, current, version: int) -> bool:
    """Wait until the next player has buttons newer than ``version``; False when the game ended or WAIT passed."""

    def moved() -> bool:
        c = current()
        return c is not None and c[3] > version

    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        with contextlib.suppress(TimeoutError):
            await cluster.api.wait_for(moved, timeout=1.0)
            return True
        if (await cluster.storage.table(table_id)).status != "playing":
            return False
    return False


async def empty_presses(cluster, chat_id: int, user, until: float, out: list[float]) -> None:
    """The baseline: a forged button nobody made, pressed on the lobby message now and then."""
    api = cluster.api
    shown = api.visible(chat_id)[0]
    while time.monotonic() < until:
        await asyncio.sleep(2.0)
        query = api.press(user, chat_id, shown.message_id, PREFIX + "Z.1", forged=True)
        with contextlib.suppress(TimeoutError):
            await api.wait_answer(query, timeout=WAIT)
            out.append((api.answered_at[query] - api.served_at[api.queries[query]["update"]]) * 1000)


def cpu_seconds(pid: int | None) -> float:
    """A process's CPU time so far (user + system), from ``/proc/<pid>/stat``; 0 when it is gone."""
    if pid is None:
        return 0.0
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime, stime: fields 14 and 15


async def stored_moves(cluster: Cluster, ids: list[int]) -> int:
    """Every move stored so far at these tables (a table's version counts its moves)."""
    return sum([(await cluster.storage.table(t)).version for t in ids])


def workers_cpu(cluster: Cluster) -> float:
    return sum(cpu_seconds(w.proc.pid if w.proc is not None else None) for w in cluster.workers)


async def one_run(workers: int, tables: int, duration: float, seed: int) -> dict:
    rng = random.Random(seed)
    # no pause after a round: it is a wait the table asks for, not latency (it would be 5 s of every next_turn
    # that crosses a deal)
    async with Cluster(workers_count=workers, seed=seed, computer_pause=0.3, round_pause=0) as cluster:
        api = cluster.api
        groups = []
        for i in range(tables + 1):
            chat_id = -200000 - i
            api.add_group(chat_id, f"Table {i}")
            users = [api.add_user(10 * (i + 1) + k, f"P{i}{k}") for k in range(2)]
            groups.append((chat_id, users))
        ids = await asyncio.gather(
            *(cluster.open_table(chat_id, GAME, users[0], users[1:], 0, 2) for chat_id, users in groups)
        )
        human, fast, baseline = Figures(), Figures(), []
        versions_before = await stored_moves(cluster, ids)
        cpu_before = workers_cpu(cluster)
        counted_before = await cluster.samples()
        until = time.monotonic() + duration
        jobs = [
            play_table(cluster, chat_id, tid, users, (3.0, 5.0), until, human, random.Random(rng.random()))
            for (chat_id, users), tid in zip(groups[:-1], ids[:-1])
        ]
        chat_id, users = groups[-1]
        jobs.append(play_table(cluster, chat_id, ids[-1], users, (0.0, 0.0), until, fast, random.Random(seed)))
        jobs.append(empty_presses(cluster, groups[0][0], groups[0][1][0], until, baseline))
        await asyncio.gather(*jobs)
        cpu = workers_cpu(cluster) - cpu_before
        moves = await stored_moves(cluster, ids) - versions_before
        counted_after = await cluster.samples()

    def p(values: list[float], q: float) -> float | None:
        return round(percentile(values, q), 1) if values else None

    return {
        "workers": workers,
        "tables": tables,
        "human_moves": len(human.next_turn_ms),
        "answer_p50_ms": p(human.answer_ms, 0.5),
        "answer_p99_ms": p(human.answer_ms, 0.99),
        "next_turn_p50_ms": p(human.next_turn_ms, 0.5),
        "next_turn_p99_ms": p(human.next_turn_ms, 0.99),
        "lost": human.lost,
        "fast_moves": len(fast.next_turn_ms),
        "fast_answer_p99_ms": p(fast.answer_ms, 0.99),
        "fast_next_turn_p99_ms": p(fast.next_turn_ms, 0.99),
        "fast_lost": fast.lost,
        "empty_press_p99_ms": p(baseline, 0.99),
        "moves": moves,  # every move stored during play, by people and computers, at every table
        "cpu_ms_per_move": round(cpu * 1000 / moves, 1) if moves else None,
        **{
            figure: round((counted.total(counted_after) - counted.total(counted_before)) / moves, 1) if moves else None
            for figure, counted in COUNTERS.items()
        },
        "redis_commands_by_name_per_move": per_move(
            by_label(counted_after, REDIS_COMMANDS, "command"),
            by_label(counted_before, REDIS_COMMANDS, "command"),
            moves,
        ),
        "load": round(os.getloadavg()[0], 2),  # the machine's load average (1 min) at the run's end
    }


def per_move(after: dict[str, float], before: dict[str, float], moves: int) -> dict[str, float]:
    """Each name's growth per move, most first, the ones that did not grow left out."""
    grown = {name: after[name] - before.get(name, 0.0) for name in after}
    ranked = sorted(((n, g) for n, g in grown.items() if g > 0), key=lambda item: -item[1])
    return {name: round(g / moves, 2) for name, g in ranked} if moves else {}


def held(run: dict) -> bool:
    """The table count held: answers and next turns within their goals at the 99th percentile, nothing lost."""
    return (
        run["answer_p99_ms"] is not None
        and run["answer_p99_ms"] <= GOAL_ANSWER_MS
        and run["next_turn_p99_ms"] is not None
        and run["next_turn_p99_ms"] <= GOAL_NEXT_TURN_MS
        and run["lost"] == 0
    )


async def bench(workers: list[int], tables: list[int], duration: float, seed: int) -> dict:
    runs = []
    for w in workers:
        for n in sorted(tables):
            run = await one_run(w, n, duration, seed)
            run["held"] = held(run)
            runs.append(run)
            print(f"  {w} worker(s), {n} tables: {json.dumps(run)}", file=sys.stderr, flush=True)
            if not run["held"]:
                break  # the knee: more tables would not be held either
    headline = max(runs, key=lambda r: (r["held"], r["workers"], r["tables"]))
    out = {
        "game": GAME,
        "duration_s": duration,
        "answer_p99_ms": headline["answer_p99_ms"],
        "next_turn_p99_ms": headline["next_turn_p99_ms"],
        "empty_press_p99_ms": headline["empty_press_p99_ms"],
        "answer_ratio_to_empty": round(headline["answer_p99_ms"] / headline["empty_press_p99_ms"], 2)
        if headline["answer_p99_ms"] and headline["empty_press_p99_ms"]
        else None,
        "headline": {"workers": headline["workers"], "tables": headline["tables"]},
        "max_tables_held": {
            str(w): max([r["tables"] for r in runs if r["workers"] == w and r["held"]], default=0) for w in workers
        },
        **{
            figure: {str(w): [[r["tables"], r[figure]] for r in runs if r["workers"] == w] for w in workers}
            for figure in ("cpu_ms_per_move", *COUNTERS)
        },
        "runs": runs,
    }
    # every worker count holds the goal's table count (or the most tables played, when fewer), and more workers
    # hold at least as many as fewer
    target = min(GOAL_TABLES, max(tables))
    most = [out["max_tables_held"][str(w)] for w in sorted(workers)]
    out["goals_met"] = all(m >= target for m in most) and most == sorted(most)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--workers", default="1,2", help="worker counts to run, e.g. 1,2 (default)")
    parser.add_argument(
        "--tables", default="2,6,20,40,80", help="human-pace table counts, up to the knee (default 2,6,20,40,80)"
    )
    parser.add_argument("--duration", type=float, default=60.0, help="seconds of play per run (default 60)")
    parser.add_argument("--seed", type=int, default=1)
    add_quick(parser, workers="1", tables="1", duration=2.0)
    args = parser.parse_args()
    workers = [int(x) for x in args.workers.split(",") if x]
    tables = [int(x) for x in args.tables.split(",") if x]
    started = time.monotonic()
    result = asyncio.run(bench(workers, tables, args.duration, args.seed))
    result["wall_s"] = round(time.monotonic() - started, 1)
    header = (
        "workers",
        "tables",
        "moves",
        "answer p50/p99 ms",
        "next turn p50/p99 ms",
        "lost",
        "fast p99 ms",
        "empty p99",
        "cpu ms/move",
        "redis cmds/scripts/trips per move",
        "table reads/move",
        "held",
        "load",
    )
    print("  ".join(header))
    for r in result["runs"]:
        print(
            "  ".join(
                str(x)
                for x in (
                    r["workers"],
                    r["tables"],
                    r["human_moves"],
                    f"{r['answer_p50_ms']}/{r['answer_p99_ms']}",
                    f"{r['next_turn_p50_ms']}/{r['next_turn_p99_ms']}",
                    r["lost"],
                    f"{r['fast_answer_p99_ms']}/{r['fast_next_turn_p99_ms']}",
                    r["empty_press_p99_ms"],
                    r["cpu_ms_per_move"],
                    f"{r['redis_commands_per_move']}/{r['redis_scripts_per_move']}/{r['redis_round_trips_per_move']}",
                    r["table_reads_per_move"],
                    "yes" if r["held"] else "no",
                    r["load"],
                )
            )
        )
    print(
        f"max tables held (p99 answer <= 1 s, next turn <= 2.5 s) by workers: {result['max_tables_held']}; "
        f"goals met: {result['goals_met']}"
    )
    print(json.dumps(result))


if __name__ == "__main__":
    main()
