"""``python -m bench.thousand_length``: where the rounds of a Thousand game go, from complete computer games.

It plays games exactly as ``python -m core.selfplay`` does (same seeds, same seats, same options, so the
round count is the same) and reads each game's score sheet afterwards:

- the rounds before anyone first climbs on the barrel and the rounds after (the barrel phase);
- climbs, falls (three failed attempts, pushed off by a climber, two climbing at once), attempts and how
  many of them won the game;
- bolt penalties (−120 each) per game and the points they took;
- the contracts: the share made, the rounds won on 100 (``core.selfplay``'s ``no_bid``: nobody bid over the
  first hand) and the rounds actually played at 100, and the contracts played at 105 and how often they were
  made;
- how much a round changes the declarer's total and the defenders' totals (penalties included).

Example: ``python -m bench.thousand_length --seats normal,normal,normal --games 300`` (the issue-18 game
length), or with ``--options '{"bolts_in_a_row": true, "bidding_on_barrel": false}'`` to see how long the same
players' games are under other conventions. A readable table first; the LAST line is one JSON object with
every figure.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from typing import Any

from bench import add_quick
from core.ai.match import play_one
from core.base import OptionsError
from core.thousand import RULES
from core.thousand.scoring import PENALTY


def anatomy(seats: list[str], games: int, seed: int, ai_seed: int, options: dict[str, Any]) -> dict[str, Any]:
    """The figures of ``games`` games (numbered from 0, as ``core.selfplay``) between ``seats``."""
    c: Counter[str] = Counter()
    for i in range(games):
        state = play_one("thousand", seats, i, seed, options, ai_seed=ai_seed)
        rows = [r for r in state.history if not r.get("redeal")]  # the engine's own sheet: it holds the bids
        c["rounds"] += len(rows)
        first_climb = len(rows)
        for k, r in enumerate(rows):
            for note in r["notes"]:
                kind = note["type"]
                c[f"{kind}:{note['reason']}" if kind == "barrel_fall" else kind] += 1
                if kind == "barrel_on":
                    first_climb = min(first_climb, k + 1)
            d = r["declarer"]
            if d is None:
                continue
            c["contracts"] += 1
            c["made"] += bool(r["made"])
            c["conceded"] += bool(r["conceded"])
            c["won_on_100"] += r["bid"] == 100
            c["played_at_100"] += r["contract"] == 100
            if r["contract"] == 105:
                c["played_at_105"] += 1
                c["made_105"] += bool(r["made"])
            c["declarer_change"] += r["scores"][d]
            c["defenders_change"] += sum(r["scores"][s] for s in range(len(seats)) if s != d)
        c["before_climb"] += first_climb
    rounds, contracts = c["rounds"] or 1, c["contracts"] or 1
    falls = {why: c[f"barrel_fall:{why}"] for why in ("attempts", "pushed", "together")}
    return {
        "seats": seats,
        "games": games,
        "seed": seed,
        "ai_seed": ai_seed,
        "options": options,
        "rounds": c["rounds"],
        "rounds_per_game": round(c["rounds"] / games, 2),
        "rounds_before_first_climb": round(c["before_climb"] / games, 2),
        "rounds_after_first_climb": round((c["rounds"] - c["before_climb"]) / games, 2),
        "climbs_per_game": round(c["barrel_on"] / games, 2),
        "falls_per_game": {why: round(n / games, 2) for why, n in falls.items()},
        "barrel_attempts": c["barrel_attempt"],
        "barrel_wins": c["barrel_win"],
        "bolts_per_game": round(c["bolt"] / games, 2),
        "bolt_penalties_per_game": round(c["bolt_penalty"] / games, 2),
        "bolt_points_per_round": round(-PENALTY * c["bolt_penalty"] / rounds, 1),
        "contracts": c["contracts"],
        "made_share": round(c["made"] / contracts, 3),
        "conceded": c["conceded"],
        "won_on_100_share": round(c["won_on_100"] / contracts, 3),
        "played_at_100_share": round(c["played_at_100"] / contracts, 3),
        "played_at_105": c["played_at_105"],
        "made_105": c["made_105"],
        "declarer_change_per_round": round(c["declarer_change"] / rounds, 1),
        "defenders_change_per_round": round(c["defenders_change"] / rounds, 1),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seats", default="normal,normal,normal", help="comma-separated levels, one per seat")
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--ai-seed", type=int, default=1, help="seed of the computer seats")
    parser.add_argument("--options", default="{}", help="table options as a JSON object")
    add_quick(parser, games=2)
    args = parser.parse_args(argv)
    seats = [s.strip() for s in args.seats.split(",")]
    try:
        RULES.check_players(len(seats))
    except OptionsError as err:
        parser.error(str(err))
    a = anatomy(seats, args.games, args.seed, args.ai_seed, json.loads(args.options))

    games = a["games"]
    print(
        f"Thousand, {', '.join(seats)}: {games} games, seed {a['seed']}, ai seed {a['ai_seed']}, options {a['options']}"
    )
    lines = [
        ("rounds per game", a["rounds_per_game"]),
        ("  before anyone first climbs on the barrel", a["rounds_before_first_climb"]),
        ("  after", a["rounds_after_first_climb"]),
        ("climbs on the barrel per game", a["climbs_per_game"]),
        *((f"  falls per game: {why}", n) for why, n in a["falls_per_game"].items()),
        ("barrel attempts that won the game", f"{a['barrel_wins']} of {a['barrel_attempts']}"),
        ("bolts per game", a["bolts_per_game"]),
        (f"bolt penalties per game (-{PENALTY} each)", a["bolt_penalties_per_game"]),
        ("  points per round", a["bolt_points_per_round"]),
        ("contracts made", f"{a['made_share']:.1%} of {a['contracts']}"),
        ("won on 100 (nobody bid over the first hand)", f"{a['won_on_100_share']:.1%}"),
        ("played at 100", f"{a['played_at_100_share']:.1%}"),
        ("played at 105, made", f"{a['made_105']} of {a['played_at_105']}"),
        ("change of the declarer's total per round", a["declarer_change_per_round"]),
        ("change of the defenders' totals per round", a["defenders_change_per_round"]),
    ]
    width = max(len(label) for label, _ in lines)
    for label, value in lines:
        print(f"{label:<{width}}  {value}")
    print(json.dumps(a))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
