"""``python -m bench.digest``: one fingerprint of many seeded random games, to prove an engine change kept results.

For every game and seat count it plays ``--games`` seeded games with the guided policy, as many with the
uniform policy (cut at ``--max-rounds``) and as many guided games with every table convention away from its
default, and hashes everything a player could notice: the legal actions at
every step, every event, the final result, the record and the stored state. Run it before and after an
optimisation: equal digests mean the same games, step by step. A change that only adds a view key shows it
with ``--skip-view-key KEY``: the digests without that key equal the earlier ones. Last line: one JSON
object with every digest.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import time
from typing import Any

from bench import add_quick
from core import games
from core.randomplay import policy_for
from core.rng import stream

SEAT_COUNTS = {"thousand": (2, 3, 4), "deberts": (2, 3), "kozel": (2, 3, 4)}
# every convention away from its default, for a third set of games
OTHER_OPTIONS: dict[str, dict[str, Any]] = {
    "thousand": {
        "bidding_floor": -200,
        "second_talon_to_last_trick": True,
        "show_talon_on_100": True,
        "may_concede": True,
        "concede_penalty": False,
        "redeal": True,
        "bolts_in_a_row": True,
        "bidding_on_barrel": False,
        "missed_barrels_reset": True,
        "ace_marriage": True,
        "dump_truck": True,
        "golden_round": True,
    },
    "deberts": {
        "winner_takes_all": True,
        "obligatory_order": True,
        "seven_swap": False,
        "hanging_separately": True,
        "trump_in_combinations": "kharkov",
    },
    "kozel": {"fish": "one"},
}


SKIPPED: set[str] = set()  # view keys left out of the hash (--skip-view-key)


def _feed(h: Any, value: Any) -> None:
    h.update(json.dumps(value, sort_keys=True, separators=(",", ":")).encode())
    h.update(b"\n")


def game_digest(
    name: str,
    players: int,
    seed: int,
    policy: str,
    max_rounds: int | None,
    h: Any,
    options: dict[str, Any] | None = None,
) -> int:
    """Play one game, feeding every step into ``h``; returns the number of actions."""
    rules = games.get(name)
    choose = policy_for(rules, policy)
    rng = stream(seed, "policy")
    state = rules.new_game(players, options, seed=seed)
    rounds, actions = 1, 0
    while not state.finished:
        if state.phase == "round_over":
            if max_rounds is not None and rounds >= max_rounds:
                break
            _feed(h, [e.to_json() for e in state.next_round_in_place()])
            rounds += 1
            continue
        seat = state.to_act
        legal = state.legal_actions(seat)
        _feed(h, [a.to_json() for a in legal])
        action = choose(state, seat, legal, rng)
        _feed(h, [e.to_json() for e in state.apply_in_place(action)])
        actions += 1
    _feed(h, state.result())
    _feed(h, state.record())
    _feed(h, state.to_json())
    for seat in (None, *range(players)):
        view = state.view(seat)
        _feed(h, {k: v for k, v in view.items() if k not in SKIPPED} if SKIPPED else view)
    return actions


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games per game kind, seat count and policy")
    parser.add_argument("--max-rounds", type=int, default=6, help="rounds per uniform-policy game")
    parser.add_argument("--only", choices=games.NAMES, help="one game only")
    parser.add_argument(
        "--skip-view-key",
        action="append",
        default=[],
        metavar="KEY",
        help="leave this view key out of the hash (shows that a change only added it)",
    )
    add_quick(parser, games=2, max_rounds=2)
    args = parser.parse_args(argv)
    SKIPPED.clear()
    SKIPPED.update(args.skip_view_key)

    rows = []
    for name in games.available():
        if args.only and name != args.only:
            continue
        for players in SEAT_COUNTS[name]:
            h = hashlib.sha256()
            start = time.perf_counter()
            actions = 0
            for i in range(args.games):
                actions += game_digest(name, players, 1000 + i, "guided", None, h)
                actions += game_digest(name, players, 5000 + i, "uniform", args.max_rounds, h)
                actions += game_digest(name, players, 9000 + i, "guided", None, h, OTHER_OPTIONS[name])
            rows.append(
                {
                    "game": name,
                    "players": players,
                    "games": 3 * args.games,
                    "actions": actions,
                    "seconds": round(time.perf_counter() - start, 2),
                    "digest": h.hexdigest()[:32],
                }
            )
    print(f"{'game':<10}{'seats':>6}{'games':>7}{'actions':>10}{'seconds':>9}  digest")
    for r in rows:
        print(f"{r['game']:<10}{r['players']:>6}{r['games']:>7}{r['actions']:>10}{r['seconds']:>9}  {r['digest']}")
    print(json.dumps({"benchmark": "digest", "games": args.games, "max_rounds": args.max_rounds, "results": rows}))


if __name__ == "__main__":
    main()
