"""``python -m bench.render``: milliseconds per picture (hand, table, score sheet), against a bare encode.

For every game and seat count it renders real positions (``renderers.demo.positions``: a trick in play, the
hand of the seat to act, the score sheet of a finished game) to bytes, after one warm-up call that fills
the sprite caches. In the same run, alternating with it, it times encoding a blank canvas of the same size
and format. Times are CPU milliseconds of this thread (medians of ``--repeat`` runs), so other processes
on the machine barely move them; ``ratio`` is the median of picture time / bare encode time over the
pairs (goal for tables: < 2). ``--formats`` compares PNG and JPEG settings instead (docs/pictures.md).
Last line: one JSON object with every figure.
"""

from __future__ import annotations

import argparse
import io
import json
import math
import statistics
import time
from collections.abc import Callable

from PIL import Image, ImageChops, ImageFilter, ImageStat

from bench import add_quick
from renderers import output, render_hand, render_score_sheet, render_table
from renderers.demo.positions import SEATS, available, find

NAMES = ["Александра Константинопольская", "Bob", "Олександр Вишневський", "Chen Jing"]


def _cpu(fn: Callable[[], object]) -> float:
    start = time.thread_time()
    fn()
    return time.thread_time() - start


def median_ms(fn: Callable[[], object], repeat: int) -> float:
    """Median CPU milliseconds of ``fn`` after one warm-up call (sprites and text get cached)."""
    fn()
    return statistics.median(_cpu(fn) for _ in range(repeat)) * 1000


def paired_ms(job: Callable[[], object], bare: Callable[[], object], repeat: int) -> tuple[float, float, float]:
    """Median CPU milliseconds of ``job`` and of ``bare``, timed in alternation, and the median of the
    per-pair ratios (pairs run back to back, so a busy machine slows both alike)."""
    job()
    bare()
    jobs, bares, ratios = [], [], []
    for _ in range(repeat):
        a, b = _cpu(job), _cpu(bare)
        jobs.append(a)
        bares.append(b)
        ratios.append(a / b if b else float("inf"))
    return statistics.median(jobs) * 1000, statistics.median(bares) * 1000, statistics.median(ratios)


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
        blank = Image.new("RGB", pic.size, (28, 94, 62))
        ms, bare, ratio = paired_ms(job, lambda blank=blank, fmt=pic.format: output.encode_image(blank, fmt), repeat)
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
                "ratio": round(ratio, 2),
            }
        )
    return rows


ENCODERS: dict[str, dict] = {
    "png-1": {"format": "PNG", "compress_level": 1},
    "png-6": {"format": "PNG", "compress_level": 6},
    "jpeg-85-420": {"format": "JPEG", "quality": 85, "subsampling": 2},
    "jpeg-90-444": {"format": "JPEG", "quality": 90, "subsampling": 0},
    "jpeg-95-444": {"format": "JPEG", "quality": 95, "subsampling": 0},
}


def psnr(a: Image.Image, b: Image.Image, mask: Image.Image | None = None) -> float:
    """Peak signal-to-noise ratio in dB (over ``mask`` only when given); inf when identical."""
    stat = ImageStat.Stat(ImageChops.difference(a, b), mask)
    count = (stat.count[0] or 1) * 3
    mse = sum(stat.sum2) / count
    return float("inf") if mse == 0 else 10 * math.log10(255 * 255 / mse)


def compare_formats(repeat: int) -> list[dict]:
    """Size, encode time and sharpness (PSNR overall and on edges: text, symbols) of each encoder."""
    from renderers import sheet_image, table_image
    from renderers.hand import hand_image

    moments = find("thousand", 3, only=("play", "game_over"))
    play = moments["play"]
    pictures = {
        "table": table_image(play.view(None), NAMES[:3]),
        "hand": hand_image(play.view(play.to_act)),
        "sheet": sheet_image(moments["game_over"].view(None), NAMES[:3]),
    }
    rows = []
    for kind, im in pictures.items():
        edges = im.convert("L").filter(ImageFilter.FIND_EDGES).point(lambda v: 255 if v > 48 else 0)
        for name, kw in ENCODERS.items():
            opts = dict(kw)
            fmt = opts.pop("format")

            def save(im=im, fmt=fmt, opts=opts) -> bytes:
                buf = io.BytesIO()
                im.save(buf, fmt, **opts)
                return buf.getvalue()

            data = save()
            back = Image.open(io.BytesIO(data)).convert("RGB")
            rows.append(
                {
                    "picture": kind,
                    "encoder": name,
                    "kb": round(len(data) / 1024, 1),
                    "encode_ms": round(median_ms(save, repeat), 2),
                    "psnr_db": round(psnr(im, back), 1),
                    "edge_psnr_db": round(psnr(im, back, edges), 1),
                }
            )
    return rows


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=40, help="timed runs per picture (median)")
    parser.add_argument("--only", choices=tuple(SEATS), help="one game only")
    parser.add_argument("--formats", action="store_true", help="compare PNG and JPEG settings instead")
    add_quick(parser, repeat=1)
    args = parser.parse_args(argv)

    if args.formats:
        rows = compare_formats(args.repeat)
        print(f"{'picture':<8}{'encoder':>13}{'KB':>8}{'encode ms':>11}{'PSNR dB':>9}{'edge PSNR':>11}")
        for r in rows:
            print(
                f"{r['picture']:<8}{r['encoder']:>13}{r['kb']:>8}{r['encode_ms']:>11}"
                f"{r['psnr_db']:>9}{r['edge_psnr_db']:>11}"
            )
        print(json.dumps({"benchmark": "render-formats", "repeat": args.repeat, "results": rows}))
        return

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
    summary: dict = {"benchmark": "render", "repeat": args.repeat}
    for kind in ("table", "hand", "sheet"):  # the goal: every kind within 2x the bare encode of its canvas
        ratios = [r["ratio"] for r in rows if r["picture"] == kind]
        summary[f"{kind}_ratio_max"] = max(ratios) if ratios else None
    summary["ratio_goal"] = 2.0
    summary["results"] = rows
    print(json.dumps(summary, ensure_ascii=False))


if __name__ == "__main__":
    main()
