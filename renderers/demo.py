"""``python -m renderers.demo OUT_DIR``: a gallery of every picture for every game and seat count.

Positions are real (``renderers.positions``: seeded random games stopped at mid-bidding, mid-trick, end of
round, the barrel, a long domino chain, the end of the game). For each: the public table, the table and
the hand of the seat to act, and each game's score sheet. Games whose engine is not importable are skipped
with a note. Writes the pictures and an ``index.html`` that shows them all.
"""

from __future__ import annotations

import argparse
import html
import time
from pathlib import Path

from core import games
from renderers import render_hand, render_score_sheet, render_table
from renderers.positions import SEATS, find

NAMES = [
    "Александра Константинопольская",
    "Bob 🔥🔥",
    "Олександр Вишневський-Коваленко-Пе",
    "Chen Jing 陈静",
]
LANGS = {2: "en", 3: "ru", 4: "uk"}
STYLES = {2: "classic", 3: "four", 4: "classic"}
PRIVATE = {"give", "play", "second_circle", "bella", "long_chain", "talon"}


def build(out: Path) -> list[tuple[str, list[str]]]:
    """Write the gallery into ``out``; returns (section title, file names) for the index."""
    out.mkdir(parents=True, exist_ok=True)
    sections: list[tuple[str, list[str]]] = []
    known = set(games.available())
    for game, seat_counts in SEATS.items():
        if game not in known:
            print(f"note: core.{game} is not importable here: no {game} pictures")
            continue
        for n in seat_counts:
            lang, style = LANGS[n], STYLES[n]
            names = NAMES[:n]
            files: list[str] = []
            moments = find(game, n)
            for moment, state in moments.items():
                pub = state.view(None)
                files.append(_write(out, f"{game}-{n}p-{moment}-table", render_table(pub, names, style, lang)))
                seat = state.to_act if state.to_act is not None else 0
                own = state.view(seat)
                if moment in PRIVATE:
                    pic = render_table(own, names, style, lang)
                    files.append(_write(out, f"{game}-{n}p-{moment}-table-seat{seat + 1}", pic))
                if own.get("hand") and own["phase"] not in ("round_over", "game_over"):
                    pic = render_hand(own, style, lang)
                    files.append(_write(out, f"{game}-{n}p-{moment}-hand-seat{seat + 1}", pic))
            for moment in ("round_over", "game_over"):
                if moment in moments:
                    pic = render_score_sheet(moments[moment].view(None), names, style, lang)
                    files.append(_write(out, f"{game}-{n}p-{moment}-sheet", pic))
            sections.append((f"{game}, {n} players ({lang}, {style} deck)", files))
            print(f"{game} {n}p: {len(files)} pictures ({', '.join(moments)})")
    _index(out, sections)
    return sections


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


if __name__ == "__main__":
    main()
