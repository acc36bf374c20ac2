"""``python -m bench.engine``: complete random games per second for every game and seat count.

Plays seeded complete games with the guided random policy (``core.randomplay``) and reports games per
second, actions per second and rounds per game. Two baselines are measured in the same process:

- how many 32-card shuffles per second this machine does; ``ratio`` = actions/s per 1,000 shuffles/s;
- for Thousand, a minimal trick loop of the same deal (3 hands of 8 cards and 8 tricks; 2 players: 2 hands
  of 11 and 11 tricks): shuffle, deal, then every trick a random card that follows suit, else trumps when it
  can (a trump suit drawn per round), else any card; the trick's winner and its card points counted. No
  bidding, no validation, no events, no objects. ``vs_minimal_trick_loop`` = seconds per round of a full
  random game / seconds per round of that loop (the goal is 8 or less).

Times are this process's CPU time (``time.process_time``), so other work on a shared machine disturbs the
figures little. Last line: one JSON object with every figure.
"""

from __future__ import annotations

import argparse
import json
import random
import time

from bench import add_quick
from core import games
from core.randomplay import play_game

SEAT_COUNTS = {"thousand": (2, 3, 4), "deberts": (2, 3), "kozel": (2, 3, 4)}


def shuffles_per_second(seconds: float = 0.3) -> float:
    rng = random.Random(1)
    deck = list(range(32))
    n = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        for _ in range(200):
            rng.shuffle(deck)
        n += 200
    return n / (time.process_time() - start)


MINIMAL_DEAL = {2: (2, 11), 3: (3, 8), 4: (3, 8)}  # seat count -> (hands that play, cards per hand)
_RANK = {"9": 0, "J": 1, "Q": 2, "K": 3, "T": 4, "A": 5}
_POINTS = {"9": 0, "J": 2, "Q": 3, "K": 4, "T": 10, "A": 11}


def minimal_trick_loop(hands_n: int, size: int, rounds: int, seed: int = 1) -> int:
    """Play ``rounds`` bare Thousand trick rounds; returns the card points counted (so nothing is skipped)."""
    rng = random.Random(seed)
    deck = [r + s for r in "9JQKTA" for s in "SCDH"]
    total = 0
    for _ in range(rounds):
        rng.shuffle(deck)
        hands = [deck[i * size : (i + 1) * size] for i in range(hands_n)]
        trump = "SCDH"[rng.randrange(4)]
        points = [0] * hands_n
        leader = 0
        for _trick in range(size):
            led = None
            best_seat = best = None
            pts = 0
            for k in range(hands_n):
                seat = (leader + k) % hands_n
                hand = hands[seat]
                if led is None:
                    options = hand
                else:
                    options = [c for c in hand if c[1] == led] or [c for c in hand if c[1] == trump] or hand
                card = options[rng.randrange(len(options))]
                hand.remove(card)
                pts += _POINTS[card[0]]
                if led is None:
                    led, best_seat, best = card[1], seat, card
                elif card[1] == best[1]:
                    if _RANK[card[0]] > _RANK[best[0]]:
                        best_seat, best = seat, card
                elif card[1] == trump:
                    best_seat, best = seat, card
            points[best_seat] += pts
            leader = best_seat
        total += sum(points)
    return total


def minimal_rounds_per_second(players: int, seconds: float = 0.1) -> tuple[int, float]:
    """Rounds of the minimal loop played in about ``seconds``: (rounds, elapsed seconds)."""
    hands_n, size = MINIMAL_DEAL[players]
    n = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        minimal_trick_loop(hands_n, size, 100, seed=n)
        n += 100
    return n, time.process_time() - start


def measure(name: str, players: int, games_n: int, seed: int) -> dict:
    """Play ``games_n`` seeded games; for Thousand, alternate with the minimal trick loop (so that both see
    the same machine load) and compare seconds per round."""
    rules = games.get(name)
    chunks = 5 if name == "thousand" else 1
    states = []
    elapsed = 0.0
    minimal_rounds, minimal_elapsed = 0, 0.0
    for k in range(chunks):
        if name == "thousand":
            n, t = minimal_rounds_per_second(players)
            minimal_rounds += n
            minimal_elapsed += t
        start = time.process_time()
        states += [play_game(rules, players, seed + i) for i in range(k, games_n, chunks)]
        elapsed += time.process_time() - start
    # counted after the clock stopped: every action taken is in the game's record
    records = [state.record() for state in states]
    actions = sum(len(r["actions"]) for record in records for r in record["rounds"])
    rounds = sum(len(record["rounds"]) for record in records)
    row = {
        "game": name,
        "players": players,
        "games": games_n,
        "seconds": round(elapsed, 3),
        "games_per_s": round(games_n / elapsed, 2),
        "actions_per_s": round(actions / elapsed),
        "rounds_per_game": round(rounds / games_n, 1),
        "rounds_per_s": round(rounds / elapsed),
    }
    if name == "thousand":
        row["minimal_rounds_per_s"] = round(minimal_rounds / minimal_elapsed)
        row["vs_minimal_trick_loop"] = round((elapsed / rounds) / (minimal_elapsed / minimal_rounds), 2)
    return row


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="games per game kind and seat count")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only", choices=games.NAMES, help="one game only")
    add_quick(parser, games=1)
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
    minimal_rows = [r for r in rows if "vs_minimal_trick_loop" in r]
    if minimal_rows:
        print()
        print(f"{'thousand':<10}{'seats':>6}{'rounds/s':>10}{'minimal loop rounds/s':>23}{'vs_minimal_trick_loop':>23}")
        for r in minimal_rows:
            print(
                f"{'':<10}{r['players']:>6}{r['rounds_per_s']:>10,}{r['minimal_rounds_per_s']:>23,}"
                f"{r['vs_minimal_trick_loop']:>23}"
            )
    print(json.dumps({"benchmark": "engine", "baseline_shuffles_per_s": round(baseline), "results": rows}))


if __name__ == "__main__":
    main()
