"""``python -m bench.render``: milliseconds per picture (hand, table, score sheet), against a bare encode.

For every game and seat count it renders real positions (``renderers.positions``: a trick in play, the
hand of the seat to act, the score sheet of a finished game) to bytes, after one warm-up call that fills
the sprite caches, and takes the median of ``--repeat`` runs. In the same run it times encoding a blank
canvas of the same size and format: ``ratio`` = picture time / bare encode time (goal for tables: < 2).
Last line: one JSON object with every figure.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Callable

from PIL import Image

from renderers import output, render_hand, render_score_sheet, render_table
from renderers.positions import SEATS, available, find

NAMES = ["Александра Константинопольская", "Bob", "Олександр Вишневський", "Chen Jing"]


def median_ms(fn: Callable[[], object], repeat: int) -> float:
    fn()  # warm-up: sprites and text are drawn once and cached
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def bare_encode_ms(size: tuple[int, int], fmt: str, repeat: int) -> float:
    blank = Image.new("RGB", size, (28, 94, 62))
    return median_ms(lambda: output.encode_image(blank, fmt), repeat)


def measure(game: str, players: int, repeat: int) -> list[dict]:
    moments = find(game, players, only=("play", "game_over"))
    play, over = moments["play"], moments["game_over"]
    seat = play.to_act
    pub, own, final = play.view(None), play.view(seat), over.view(None)
    names = NAMES[:players]
    jobs = {
        "hand": lambda: render_hand(own),
        "table": lambda: render_table(pub, names),
        "sheet": lambda: render_score_sheet(final, names),
    }
    rows = []
    for kind, job in jobs.items():
        pic = job()
        ms = median_ms(job, repeat)
        bare = bare_encode_ms(pic.size, pic.format, repeat)
        rows.append(
            {
                "game": game,
                "players": players,
                "picture": kind,
                "width": pic.width,
                "height": pic.height,
                "format": pic.format,
                "bytes": len(pic.data),
                "ms": round(ms, 2),
                "bare_encode_ms": round(bare, 2),
                "ratio": round(ms / bare, 2),
            }
        )
    return rows


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=30, help="timed runs per picture (median)")
    parser.add_argument("--only", choices=tuple(SEATS), help="one game only")
    args = parser.parse_args(argv)

    rows: list[dict] = []
    for game in available():
        if args.only and game != args.only:
            continue
        for players in SEATS[game]:
            rows.extend(measure(game, players, args.repeat))

    print(f"{'game':<10}{'seats':>6}{'picture':>9}{'size':>11}{'fmt':>6}{'KB':>7}{'ms':>8}{'bare ms':>9}{'ratio':>7}")
    for r in rows:
        size = f"{r['width']}x{r['height']}"
        print(
            f"{r['game']:<10}{r['players']:>6}{r['picture']:>9}{size:>11}{r['format']:>6}"
            f"{r['bytes'] / 1024:>7.0f}{r['ms']:>8.2f}{r['bare_encode_ms']:>9.2f}{r['ratio']:>7.2f}"
        )
    tables = [r["ratio"] for r in rows if r["picture"] == "table"]
    summary = {
        "benchmark": "render",
        "repeat": args.repeat,
        "table_ratio_max": max(tables) if tables else None,
        "table_ratio_goal": 2.0,
        "results": rows,
    }
    print(json.dumps(summary, ensure_ascii=False))


if __name__ == "__main__":
    main()
