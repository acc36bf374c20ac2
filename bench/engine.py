"""``python -m bench.engine``: complete random games per second for every game and seat count.

Plays seeded complete games with the guided random policy (``core.randomplay``) and reports games per
second, actions per second and rounds per game. The baseline, measured in the same process, is how many
32-card shuffles per second this machine does; ``ratio`` (actions/s per 1,000 shuffles/s) makes runs on
different machines comparable. Last line: one JSON object with every figure.
"""

from __future__ import annotations

import argparse
import json
import random
import time

from core import games
from core.randomplay import play_game

SEAT_COUNTS = {"thousand": (2, 3, 4), "deberts": (2, 3), "kozel": (2, 3, 4)}


def shuffles_per_second(seconds: float = 0.3) -> float:
    rng = random.Random(1)
    deck = list(range(32))
    n = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _ in range(200):
            rng.shuffle(deck)
        n += 200
    return n / (time.perf_counter() - start)


def measure(name: str, players: int, games_n: int, seed: int) -> dict:
    rules = games.get(name)
    actions = 0
    rounds = 0

    def count(state) -> None:
        nonlocal actions
        if state.to_act is not None:  # called before each step: an action follows (not a new deal)
            actions += 1

    start = time.perf_counter()
    for i in range(games_n):
        state = play_game(rules, players, seed + i, on_step=count)
        rounds += len(state.result()["rounds"])
    elapsed = time.perf_counter() - start
    return {
        "game": name,
        "players": players,
        "games": games_n,
        "seconds": round(elapsed, 3),
        "games_per_s": round(games_n / elapsed, 2),
        "actions_per_s": round(actions / elapsed),
        "rounds_per_game": round(rounds / games_n, 1),
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="games per game kind and seat count")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only", choices=games.NAMES, help="one game only")
    args = parser.parse_args(argv)

    baseline = shuffles_per_second()
    rows = []
    for name in games.available():
        if args.only and name != args.only:
            continue
        for players in SEAT_COUNTS[name]:
            row = measure(name, players, args.games, args.seed)
            row["ratio"] = round(row["actions_per_s"] / (baseline / 1000), 2)
            rows.append(row)

    print(f"baseline: {baseline:,.0f} shuffles of 32 cards per second")
    print(f"{'game':<10}{'seats':>6}{'games':>7}{'games/s':>10}{'actions/s':>12}{'rounds/game':>13}{'ratio':>8}")
    for r in rows:
        print(
            f"{r['game']:<10}{r['players']:>6}{r['games']:>7}{r['games_per_s']:>10}"
            f"{r['actions_per_s']:>12,}{r['rounds_per_game']:>13}{r['ratio']:>8}"
        )
    print(json.dumps({"benchmark": "engine", "baseline_shuffles_per_s": round(baseline), "results": rows}))


if __name__ == "__main__":
    main()
