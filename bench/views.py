"""``python -m bench.views``: what the bot's path costs per move: the seats' views and ``decide(view, history)``.

The bot builds, after every action, the view of every seat (each player's picture and the computer seats'
input), and a computer seat decides from its view (``ComputerPlayer.decide``, not self-play's
``decide_in_game``). For every game and seat count this plays seeded games between ``normal`` seats that way
and reports the microseconds of one ``state.view(seat)`` (mean and p95, the view of every seat after every
action) and the milliseconds of one ``decide(view, history)`` (mean and p95). Games are capped at
``--max-rounds`` rounds so that late views (long score sheets) are in the sample. Last line: one JSON object.
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

from bench import add_quick
from core import games
from core.ai.match import computer_seeds
from core.ai.player import player

SEAT_COUNTS = {"thousand": (2, 3, 4), "deberts": (2, 3), "kozel": (2, 3, 4)}


def quantiles(xs: list[float]) -> tuple[float, float]:
    ordered = sorted(xs)
    return sum(xs) / len(xs), ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]


def measure(game: str, players: int, games_n: int, max_rounds: int) -> dict[str, Any]:
    rules = games.get(game)
    view_us: list[float] = []
    decide_ms: list[float] = []
    clock = time.perf_counter
    for i in range(games_n):
        seeds = computer_seeds(0, i, players)
        seats = [player(game, "normal", seed=seeds[s]) for s in range(players)]
        state = rules.new_game(players, None, seed=1_000_003 + i, first_dealer=i % players, start=False)
        history: list = []
        rounds = 0
        while not state.finished:
            if state.phase == "round_over":
                if rounds >= max_rounds:
                    break
                history = list(state.next_round_in_place())
                rounds += 1
                continue
            views = []
            for s in range(players):  # the bot's refresh: every seat's view
                start = clock()
                views.append(state.view(s))
                view_us.append((clock() - start) * 1e6)
            seat = state.to_act
            start = clock()
            action = seats[seat].decide(views[seat], history)
            decide_ms.append((clock() - start) * 1000)
            history.extend(state.apply_in_place(action))
    v_mean, v_p95 = quantiles(view_us)
    d_mean, d_p95 = quantiles(decide_ms)
    return {
        "game": game,
        "players": players,
        "games": games_n,
        "views": len(view_us),
        "view_us_mean": round(v_mean, 1),
        "view_us_p95": round(v_p95, 1),
        "decide_ms_mean": round(d_mean, 4),
        "decide_ms_p95": round(d_p95, 4),
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6, help="games per game and seat count")
    parser.add_argument("--max-rounds", type=int, default=40, help="rounds after which a game is stopped")
    parser.add_argument("--game", choices=sorted(SEAT_COUNTS), help="only this game")
    add_quick(parser, games=1, max_rounds=3)
    args = parser.parse_args(argv)
    rows = []
    print(f"{'game':<10}{'seats':>6}{'views':>8}{'view us':>10}{'p95':>9}{'decide ms':>11}{'p95':>9}")
    for game, counts in SEAT_COUNTS.items():
        if args.game and game != args.game:
            continue
        for players in counts:
            r = measure(game, players, args.games, args.max_rounds)
            rows.append(r)
            print(
                f"{game:<10}{players:>6}{r['views']:>8}{r['view_us_mean']:>10.1f}{r['view_us_p95']:>9.1f}"
                f"{r['decide_ms_mean']:>11.4f}{r['decide_ms_p95']:>9.4f}",
                flush=True,
            )
    print(json.dumps({"benchmark": "views", "games": args.games, "max_rounds": args.max_rounds, "rows": rows}))


if __name__ == "__main__":
    main()
