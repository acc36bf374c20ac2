"""``python -m bench.selfplay``: rounds per second of ``normal`` self-play beside random play, per game and seat count.

For every game and seat count, in one process and one after the other, it plays complete seeded games
(each capped at ``--max-rounds``) for at least ``--seconds`` of CPU time (``time.process_time``, so other
work on a shared machine disturbs the figures little) with:

- ``normal``: every seat the ``normal`` computer player through ``core.ai.match.play_one``, exactly as
  ``python -m core.selfplay`` plays (views, public events, decisions);
- ``random``: the engine's own random play (``core.randomplay``, the guided random policy ``bench.engine``
  measures): no views, no computer players, only the engine's rules -- the fastest a game can be played;
- ``random_seats``: every seat the ``random`` computer player through ``play_one`` (views and events like
  ``normal``, a random legal action instead of thinking);
- Thousand also ``baseline``: every seat the frozen ``normal`` of ``bench.baseline`` (today's figure of
  the player before issue 18, measured in the same run).

``ratio_vs_random`` = normal rounds per second / random rounds per second (the issue-18 goal for Thousand
3 players: at least 1/3). ``vs_baseline`` = normal / baseline rounds per second (the speed-up of the
normal player, robust to the machine's load). A round is a finished round of the score sheet (redeals
included). Last line: one JSON object with every figure.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable
from typing import Any

from bench import add_quick
from core import games
from core.ai.match import play_one
from core.randomplay import play_game

SEAT_COUNTS = {"thousand": (2, 3, 4), "deberts": (2, 3), "kozel": (2, 3, 4)}
SEED = 1


def rounds_of(state: Any) -> int:
    return len(state.view(None)["score_sheet"])


def rate(play: Callable[[int], Any], seconds: float) -> tuple[float, int, int]:
    """Rounds per CPU second of whole games ``play(i)``, i = 0, 1, ... until ``seconds`` have passed."""
    rounds = games_n = 0
    start = time.process_time()
    while True:
        rounds += rounds_of(play(games_n))
        games_n += 1
        spent = time.process_time() - start
        if spent >= seconds:
            return rounds / spent, rounds, games_n


def measure(game: str, players: int, seconds: float, max_rounds: int) -> dict[str, Any]:
    rules = games.get(game)

    def seats(spec: str) -> Callable[[int], Any]:
        return lambda i: play_one(game, [spec] * players, i, SEED, max_rounds=max_rounds)

    row: dict[str, Any] = {"game": game, "players": players}
    kinds: dict[str, Callable[[int], Any]] = {
        "normal": seats("normal"),
        "random": lambda i: play_game(rules, players, SEED * 1_000_003 + i, max_rounds=max_rounds),
        "random_seats": seats("random"),
    }
    if game == "thousand":
        kinds["baseline"] = seats("bench.baseline")
    for kind, play in kinds.items():
        per_s, rounds, games_n = rate(play, seconds)
        row[f"{kind}_rounds_per_s"] = round(per_s, 1)
        row[f"{kind}_rounds"] = rounds
        row[f"{kind}_games"] = games_n
    row["ratio_vs_random"] = round(row["normal_rounds_per_s"] / row["random_rounds_per_s"], 4)
    if game == "thousand":
        row["vs_baseline"] = round(row["normal_rounds_per_s"] / row["baseline_rounds_per_s"], 3)
    return row


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="CPU seconds per kind of play and row")
    parser.add_argument("--max-rounds", type=int, default=60, help="rounds after which a game is stopped")
    parser.add_argument("--game", choices=sorted(SEAT_COUNTS), help="only this game")
    parser.add_argument("--players", type=int, help="only this seat count")
    add_quick(parser, seconds=0.05, max_rounds=3)
    args = parser.parse_args(argv)
    rows = []
    print(
        f"{'game':<10}{'seats':>6}{'normal r/s':>12}{'random r/s':>12}{'ratio':>8}{'random seats':>14}"
        f"{'baseline r/s':>14}{'vs baseline':>13}"
    )
    for game, counts in SEAT_COUNTS.items():
        if args.game and game != args.game:
            continue
        for players in counts:
            if args.players and players != args.players:
                continue
            row = measure(game, players, args.seconds, args.max_rounds)
            rows.append(row)
            base = f"{row['baseline_rounds_per_s']:>14.1f}{row['vs_baseline']:>12.2f}x" if "vs_baseline" in row else ""
            rates = f"{row['normal_rounds_per_s']:>12.1f}{row['random_rounds_per_s']:>12.1f}"
            print(
                f"{game:<10}{players:>6}{rates}{row['ratio_vs_random']:>8.3f}"
                f"{row['random_seats_rounds_per_s']:>14.1f}{base}",
                flush=True,
            )
    print(json.dumps({"benchmark": "selfplay", "seconds": args.seconds, "max_rounds": args.max_rounds, "rows": rows}))


if __name__ == "__main__":
    main()
