"""``python -m bench.aidigest``: one fingerprint of seeded self-play games of the computer players, to prove that
a speed-up of a player (or of what it reads) kept every decision.

It plays complete games through ``core.ai.match.play_one`` -- the path of ``python -m core.selfplay`` and
``bench.selfplay`` -- with every seat at one level: Thousand 2, 3 and 4 players at ``easy``, ``normal``
(with default options and with every table convention away from its default), ``random`` and ``strong``,
Deberts and Kozel at ``normal`` for every seat count. ``strong`` searches a fixed budget without a clock
(``STRONG``) so its games are reproducible; ``strong`` and ``random`` games stop after ``--strong-rounds``
and ``--random-rounds`` rounds (a search is slow, and random players hardly ever finish a game). Every
action of each game (its record: deals and actions), its final score sheet and its result are hashed, in
order. Run it before and after an optimisation: equal digests mean the same games, decision by decision.
Last line: one JSON object with every digest.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import time
from typing import Any

from bench import add_quick
from bench.digest import OTHER_OPTIONS
from core.ai.match import play_one
from core.ai.search import Budget

SEED = 1
AI_SEED = 1
STRONG = Budget(steps=300, min_worlds=2, max_worlds=4, cap_ms=None)  # no wall-time cap: reproducible

# (name, game, seat counts, level, table options) of every series
SERIES: list[tuple[str, str, tuple[int, ...], str, dict[str, Any] | None]] = [
    ("thousand/easy", "thousand", (2, 3, 4), "easy", None),
    ("thousand/normal", "thousand", (2, 3, 4), "normal", None),
    ("thousand/normal/options", "thousand", (2, 3, 4), "normal", OTHER_OPTIONS["thousand"]),
    ("thousand/random", "thousand", (2, 3, 4), "random", None),
    ("thousand/strong", "thousand", (2, 3, 4), "strong", None),
    ("deberts/normal", "deberts", (2, 3), "normal", None),
    ("kozel/normal", "kozel", (2, 3, 4), "normal", None),
]


def _feed(h: Any, value: Any) -> None:
    h.update(json.dumps(value, sort_keys=True, separators=(",", ":")).encode())
    h.update(b"\n")


def game_digest(
    game: str, level: str, players: int, index: int, options: dict[str, Any] | None, max_rounds: int, h: Any
) -> int:
    """Play game ``index`` of a series, feeding its record and results into ``h``; returns its actions."""
    budget = STRONG if level == "strong" else Budget()
    state = play_one(
        game, [level] * players, index, SEED, options, max_rounds=max_rounds, budget=budget, ai_seed=AI_SEED
    )
    record = state.record()
    actions = 0
    for rnd in record["rounds"]:
        _feed(h, rnd)
        actions += len(rnd.get("actions", ()))
    _feed(h, state.result())
    _feed(h, state.view(None)["score_sheet"])
    return actions


def series_digest(
    game: str, level: str, players: int, options: dict[str, Any] | None, games: int, max_rounds: int
) -> dict[str, Any]:
    h = hashlib.sha256()
    start = time.process_time()
    actions = sum(game_digest(game, level, players, i, options, max_rounds, h) for i in range(games))
    return {
        "games": games,
        "actions": actions,
        "seconds": round(time.process_time() - start, 2),
        "digest": h.hexdigest()[:32],
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="complete games per series and seat count")
    parser.add_argument("--strong-games", type=int, default=3, help="games per seat count of strong")
    parser.add_argument("--strong-rounds", type=int, default=8, help="rounds after which a strong game stops")
    parser.add_argument("--random-rounds", type=int, default=20, help="rounds after which a random game stops")
    parser.add_argument("--max-rounds", type=int, default=400, help="rounds after which any other game stops")
    parser.add_argument("--only", help="only the series whose name starts with this (e.g. thousand/normal)")
    add_quick(parser, games=1, strong_games=1, strong_rounds=1, random_rounds=2, max_rounds=3)
    args = parser.parse_args(argv)
    digests: dict[str, dict[str, Any]] = {}
    print(f"{'series':<26}{'seats':>6}{'games':>7}{'actions':>9}{'cpu s':>8}  digest")
    for name, game, counts, level, options in SERIES:
        if args.only and not name.startswith(args.only):
            continue
        games_n = args.strong_games if level == "strong" else args.games
        rounds = {"strong": args.strong_rounds, "random": args.random_rounds}.get(level, args.max_rounds)
        for players in counts:
            row = series_digest(game, level, players, options, games_n, rounds)
            digests[f"{name}/{players}"] = row
            print(
                f"{name:<26}{players:>6}{row['games']:>7}{row['actions']:>9}{row['seconds']:>8}  {row['digest']}",
                flush=True,
            )
    print(json.dumps({"benchmark": "aidigest", "digests": {k: r["digest"] for k, r in digests.items()}}))


if __name__ == "__main__":
    main()
