"""``python -m core.selfplay``: complete games between computer players, with wins, totals and timings.

Example: ``python -m core.selfplay --game thousand --players 3 --seats strong,normal,easy --games 200
--seed 1``. Seats are levels (``random``, ``easy``, ``normal``, ``strong``) or the dotted name of a module
with a ``player`` function (``bench.baseline``: the frozen Thousand normal), one per seat. Game ``i``
uses ``first_dealer = i % players``. A readable table comes first; the LAST line is one JSON object:
``{"game", "players", "games", "rounds", "seats": [{"level", "wins", "mean_total"}...], "decision_ms":
{level: {"mean", "p95", "max"}}}`` (Thousand also ``"deals"``, rounds whose bidding ended, and ``"no_bid"``,
those where nobody bid and the first hand played 100; Kozel: ``wins`` counts games the seat was not the kozel,
plus ``kozel``).
The computer seats are seeded from ``--ai-seed`` (their own seed, never the deal's; a fresh random one when
not given), which the JSON records as ``"ai_seed"`` so that a run can be repeated exactly.
``--cap-ms`` is the wall-time cap of each strong decision (default 300; 0 turns it off, so that a series is
reproducible). ``--offset`` starts the series at another game number, so long runs can be split into chunks
that together play exactly the games of one run.
"""

from __future__ import annotations

import argparse
import json
import secrets
import sys
import time
from dataclasses import replace

from core import games
from core.ai.match import MAX_ROUNDS, Tally, play_one
from core.ai.player import LEVELS
from core.ai.search import DEFAULT


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", required=True, choices=games.NAMES)
    parser.add_argument("--players", type=int, required=True)
    parser.add_argument("--seats", required=True, help="comma-separated levels, one per seat")
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--ai-seed", type=int, help="seed of the computer seats (default: a fresh random one)")
    parser.add_argument("--offset", type=int, default=0, help="number of the first game")
    parser.add_argument("--options", default="{}", help="table options as a JSON object")
    parser.add_argument("--max-rounds", type=int, default=MAX_ROUNDS)
    parser.add_argument("--progress", action="store_true", help="a line per finished game on stderr")
    parser.add_argument(
        "--cap-ms", type=float, default=DEFAULT.cap_ms, help="wall-time cap of a strong decision (0: none)"
    )
    args = parser.parse_args(argv)

    levels = [s.strip() for s in args.seats.split(",")]
    if len(levels) != args.players:
        parser.error(f"--seats needs {args.players} levels, got {len(levels)}")
    bad = [lv for lv in levels if lv not in LEVELS and "." not in lv]
    if bad:
        parser.error(f"unknown level {bad[0]!r} (choose from {', '.join(LEVELS)})")
    rules = games.get(args.game)
    rules.check_players(args.players)
    options = json.loads(args.options)

    ai_seed = args.ai_seed if args.ai_seed is not None else secrets.randbits(32)
    budget = replace(DEFAULT, cap_ms=args.cap_ms or None)
    tally = Tally(args.game, args.players, levels)
    started = time.perf_counter()
    for i in range(args.offset, args.offset + args.games):
        state = play_one(args.game, levels, i, args.seed, options, tally, args.max_rounds, budget, ai_seed=ai_seed)
        if args.progress:
            print(f"game {i}: totals {state.totals} winner {state.winner} loser {state.loser}", file=sys.stderr)
    elapsed = time.perf_counter() - started
    summary = tally.summary()
    summary["seed"] = args.seed
    summary["ai_seed"] = ai_seed

    width = max(8, *(len(lv) + 1 for lv in levels))
    print(
        f"{args.game}, {args.players} players, {tally.games} games, {tally.rounds} rounds, {elapsed:.1f} s"
        f" (seed {args.seed}, ai seed {ai_seed})"
    )
    if tally.unfinished:
        print(f"{tally.unfinished} games stopped after {args.max_rounds} rounds without an end")
    head = f"{'seat':>4}  {'level':<{width}}{'wins':>6}{'share':>8}{'mean total':>12}"
    print(head + (f"{'kozel':>7}" if args.game == "kozel" else ""))
    for s, row in enumerate(summary["seats"]):
        share = 100 * row["wins"] / tally.games if tally.games else 0
        line = f"{s:>4}  {row['level']:<{width}}{row['wins']:>6}{share:>7.1f}%{row['mean_total']:>12}"
        print(line + (f"{row['kozel']:>7}" if args.game == "kozel" else ""))
    if tally.deals:
        print(f"deals where nobody bid: {tally.no_bid} of {tally.deals} ({100 * tally.no_bid / tally.deals:.1f}%)")
    for level, t in summary["decision_ms"].items():
        print(f"decision time {level:<{width}} mean {t['mean']:.2f} ms, p95 {t['p95']:.2f} ms, max {t['max']:.2f} ms")
    print(json.dumps(summary))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
