"""``python -m tools.gallery OUT_DIR``: a gallery of every picture for every game and seat count.

Positions are real (``testkit.positions``: seeded random games stopped at mid-bidding, mid-trick, end of
round, the barrel, a long domino chain, the end of the game). For each, in Russian, Ukrainian and
English: the public table, the table and the hand of the seat to act, and each game's score sheet; the
smallest type of each kind of picture (as shown 480 px wide) is printed at the end. Games whose engine
is not importable are skipped with a note. Writes the pictures and an ``index.html`` that shows them all.

A tool of the checkout, not of the product: it draws ``testkit``'s positions, which the wheel does not ship, and
``renderers`` imports nothing but ``core`` and Pillow (``tests/test_package_layout.py``).
"""

from __future__ import annotations

import argparse
import html
import time
from pathlib import Path

from core import games
from renderers import measure, render_hand, render_score_sheet, render_table
from testkit.positions import SEATS, find

SMALLEST: dict[str, float] = {}  # picture kind -> smallest type seen, as shown 480 px wide

NAMES = [  # two names that only differ after the first word, emoji, a script DejaVu lacks, a long one
    "Александр Петров",
    "Bob 🔥🔥",
    "Александр Сидоров",
    "陈静",
]
LONG_NAMES = ["Александра Константинопольская", "Александра Константинова", "Олександр Вишневський-Коваленко"]
LANGS = ("ru", "uk", "en")
STYLES = {2: "classic", 3: "four", 4: "classic"}
SHEETS = ("round_over", "hanging_bait", "game_over")  # moments that also get their score sheet
PRIVATE = {"give", "play", "second_circle", "bella", "long_chain", "talon"}


def build(out: Path) -> list[tuple[str, list[str]]]:
    """Write the gallery into ``out``; returns (section title, file names) for the index.

    Every game at every seat count in Russian, Ukrainian and English: tables and sheets in each language,
    hands (no words) once; 3-player games use names that look alike up to their last letters."""
    out.mkdir(parents=True, exist_ok=True)
    sections: list[tuple[str, list[str]]] = []
    known = set(games.available())
    for game, seat_counts in SEATS.items():
        if game not in known:
            print(f"note: core.{game} is not importable here: no {game} pictures")
            continue
        for n in seat_counts:
            style = STYLES[n]
            names = (LONG_NAMES if n == 3 else NAMES)[:n]
            moments = find(game, n)
            for lang in LANGS:
                files: list[str] = []
                for moment, state in moments.items():
                    pub = state.view(None)
                    pic = _measured("table", render_table, pub, names, style, lang)
                    files.append(_write(out, f"{game}-{n}p-{lang}-{moment}-table", pic))
                    seat = state.to_act if state.to_act is not None else 0
                    own = state.view(seat)
                    if moment in PRIVATE:
                        pic = _measured("table", render_table, own, names, style, lang)
                        files.append(_write(out, f"{game}-{n}p-{lang}-{moment}-table-seat{seat + 1}", pic))
                    if lang == LANGS[0] and own.get("hand") and own["phase"] not in ("round_over", "game_over"):
                        pic = _measured("hand", render_hand, own, style, lang)
                        files.append(_write(out, f"{game}-{n}p-{moment}-hand-seat{seat + 1}", pic))
                for moment in SHEETS:
                    if moment in moments:
                        view = moments[moment].view(None)
                        pic = _measured("sheet", render_score_sheet, view, names, style, lang)
                        files.append(_write(out, f"{game}-{n}p-{lang}-{moment}-sheet", pic))
                sections.append((f"{game}, {n} players ({lang}, {style} deck)", files))
            print(f"{game} {n}p: {len(files)} pictures per language ({', '.join(moments)})")
    _index(out, sections)
    return sections


def _measured(kind: str, render, *args):
    """Render and note the smallest type size of the picture (at 480 px wide) for its kind."""
    with measure.recording() as sizes:
        pic = render(*args)
    if sizes:
        at_phone = measure.at_phone(min(sizes), pic.width)
        SMALLEST[kind] = min(SMALLEST.get(kind, at_phone), at_phone)
    return pic


def _write(out: Path, stem: str, pic) -> str:
    name = f"{stem}.{pic.extension}"
    (out / name).write_bytes(pic.data)
    return name


def _index(out: Path, sections: list[tuple[str, list[str]]]) -> None:
    parts = [
        "<!doctype html><meta charset='utf-8'><title>tablebot pictures</title>",
        "<style>body{font-family:sans-serif;background:#222;color:#eee}img{max-width:600px;margin:6px;"
        "vertical-align:top}figure{display:inline-block;margin:4px}figcaption{font-size:12px}</style>",
    ]
    for title, files in sections:
        parts.append(f"<h2>{html.escape(title)}</h2>")
        for f in files:
            parts.append(f"<figure><img src='{html.escape(f)}'><figcaption>{html.escape(f)}</figcaption></figure>")
    (out / "index.html").write_text("\n".join(parts), encoding="utf-8")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path, help="folder to write the pictures into")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    sections = build(args.out)
    total = sum(len(f) for _t, f in sections)
    print(f"{total} pictures in {args.out} ({time.perf_counter() - start:.1f} s); open {args.out / 'index.html'}")
    sizes = ", ".join(f"{kind} {px:.1f} px" for kind, px in sorted(SMALLEST.items()))
    print(f"smallest type at 480 px wide (rule: at least {measure.MIN_AT_480} px): {sizes}")


if __name__ == "__main__":
    main()
