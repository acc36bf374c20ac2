"""The score sheet, drawn like the paper one players keep: a column per player, a row per round, totals.

Game modules turn their ``score_sheet`` rows into ``Row``s of ``Cell``s (small sprites: ink text, sticks,
barrels, dots) and call ``draw``. Long games keep the picture readable: only the last ``MAX_ROWS`` rounds
are drawn, under one line that says which earlier rounds are folded (every row holds running totals, so
nothing is lost). The ruled paper of a given size is cached; a sheet pastes its sprites on a copy.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache

from PIL import Image, ImageDraw

from renderers import canvas, palette, shapes
from renderers.palette import RGB, RGBA
from renderers.text import ellipsize, text_sprite

MAX_ROWS = 20
PAD = 18
ROUND_W = 70
EXTRA_W = 150
SEAT_W = 210
HEAD_H = 66
ROW_H = 46
FOOT_H = 60
NAME_SIZE = 24
INK_SIZE = 24


@dataclass
class Cell:
    """One seat's entry in a row: sprites left to right, an optional highlighter marker behind."""

    parts: list[Image.Image]
    marker: RGBA | None = None


@dataclass
class Row:
    """One round: its label (the round number), a cell per seat, the optional extra column, a tint.

    ``span`` replaces the cells by one text across all seat columns (a redeal).
    """

    label: str
    cells: list[Cell]
    extra: list[Image.Image] = field(default_factory=list)
    span: str | None = None
    tint: RGB | None = None


def ink(text: str, color: RGBA = palette.INK, bold: bool = False, size: int = INK_SIZE) -> Image.Image:
    return text_sprite(text, size, color, bold)


@lru_cache(maxsize=64)
def dots(used: int, total: int, on: RGB, off: RGB, size: int = 10) -> Image.Image:
    """``total`` small dots, the first ``used`` filled (barrel attempts)."""
    gap = 4
    im = Image.new("RGBA", (total * size + (total - 1) * gap, size), (0, 0, 0, 0))
    for i in range(total):
        dot = shapes.chip(size, "", on if i < used else off, (60, 60, 60) if i < used else (150, 150, 150))
        im.alpha_composite(dot, (i * (size + gap), 0))
    return im


@lru_cache(maxsize=8)
def crossed_barrel(size: int) -> Image.Image:
    """A barrel struck through with a red cross (fell off the barrel)."""
    sprite = shapes.barrel(size)
    ss = 4
    w, h = sprite.size
    im = sprite.resize((w * ss, h * ss))
    d = ImageDraw.Draw(im)
    lw = 3 * ss
    d.line((0, 0, w * ss, h * ss), fill=palette.INK_RED, width=lw)
    d.line((0, h * ss, w * ss, 0), fill=palette.INK_RED, width=lw)
    return im.reduce(ss)


@lru_cache(maxsize=64)
def tricks_sprite(text: str) -> Image.Image:
    """A small card back followed by a number (tricks taken)."""
    from renderers.cards import card_back

    icon = card_back(24)
    label = text_sprite(text, 22, palette.TEXT, True, True)
    h = max(icon.height, label.height)
    im = Image.new("RGBA", (icon.width + 6 + label.width, h), (0, 0, 0, 0))
    im.alpha_composite(icon, (0, (h - icon.height) // 2))
    im.alpha_composite(label, (icon.width + 6, (h - label.height) // 2))
    return im


@lru_cache(maxsize=64)
def suit_points_sprite(suit: str, points: int, style: str, color: RGBA = palette.TEXT) -> Image.Image:
    """A suit symbol on a white disc and the points it brought (a declared marriage)."""
    from renderers.table import suit_badge

    badge = suit_badge(suit, style, 24)
    label = text_sprite(str(points), 20, color, True, True)
    h = max(badge.height, label.height)
    im = Image.new("RGBA", (badge.width + 4 + label.width, h), (0, 0, 0, 0))
    im.alpha_composite(badge, (0, (h - badge.height) // 2))
    im.alpha_composite(label, (badge.width + 4, (h - label.height) // 2))
    return im


def columns(players: int, extra: bool) -> tuple[int, list[int]]:
    """The sheet width and the x of each seat column."""
    x = PAD + ROUND_W + (EXTRA_W if extra else 0)
    xs = [x + i * SEAT_W for i in range(players)]
    return xs[-1] + SEAT_W + PAD, xs


@lru_cache(maxsize=32)
def paper(players: int, rows: int, extra: bool) -> Image.Image:
    """The ruled paper: header band, a line under every row, a red margin, column lines."""
    width, xs = columns(players, extra)
    height = PAD + HEAD_H + rows * ROW_H + FOOT_H + PAD
    im = Image.new("RGB", (width, height), palette.PAPER)
    d = ImageDraw.Draw(im)
    d.rectangle((0, 0, width, PAD + HEAD_H), fill=palette.PAPER_HEAD)
    for i in range(rows + 1):
        y = PAD + HEAD_H + i * ROW_H
        d.line((PAD, y, width - PAD, y), fill=palette.PAPER_LINE, width=2 if i == 0 else 1)
    foot_y = PAD + HEAD_H + rows * ROW_H
    d.line((PAD, foot_y, width - PAD, foot_y), fill=palette.INK[:3], width=3)
    d.line((PAD, foot_y + 5, width - PAD, foot_y + 5), fill=palette.INK[:3], width=1)
    margin_x = PAD + ROUND_W - 6
    d.line((margin_x, PAD, margin_x, height - PAD), fill=palette.PAPER_RULE, width=2)
    for x in xs[1:] + ([xs[0]] if extra else []):
        d.line((x, PAD + 8, x, height - PAD), fill=palette.PAPER_LINE, width=1)
    return im


def _place_parts(im: Image.Image, parts: list[Image.Image], x: int, y: int, w: int, h: int) -> None:
    cx = x + 12
    for p in parts:
        if cx + p.width > x + w - 6:
            break
        canvas.paste(im, p, cx, y + (h - p.height) / 2)
        cx += p.width + 8


@lru_cache(maxsize=32)
def blank_row(players: int, extra: bool, tint: RGB | None) -> Image.Image:
    """One row of ruled paper (between two horizontal lines): margin, column lines, optional tint."""
    width, xs = columns(players, extra)
    h = ROW_H - 1
    im = Image.new("RGB", (width, h), palette.PAPER)
    d = ImageDraw.Draw(im)
    if tint is not None:
        d.rectangle((PAD, 0, width - PAD, h), fill=tint)
    margin_x = PAD + ROUND_W - 6
    d.line((margin_x, 0, margin_x, h), fill=palette.PAPER_RULE, width=2)
    for x in xs[1:] + ([xs[0]] if extra else []):
        d.line((x, 0, x, h), fill=palette.PAPER_LINE, width=1)
    return im


def row_image(row: Row, players: int, extra: bool) -> Image.Image:
    """A row drawn on its strip of paper (RGB, opaque): the round label, then its cells or its span."""
    width, xs = columns(players, extra)
    im = blank_row(players, extra, row.tint).copy()
    h = im.height
    label = text_sprite(ellipsize(row.label, 18, False, ROUND_W - 14), 18, palette.INK_SOFT, False)
    canvas.paste(im, label, PAD + ROUND_W - 14 - label.width, (h - label.height) / 2)
    if row.span is not None:
        t = text_sprite(row.span, 22, palette.INK_SOFT, False)
        canvas.paste(im, t, xs[0] + (xs[-1] + SEAT_W - xs[0] - t.width) / 2, (h - t.height) / 2)
        return im
    if extra:
        _place_parts(im, row.extra, PAD + ROUND_W - 8, 0, EXTRA_W, h)
    for s, cell in enumerate(row.cells[:players]):
        if cell.marker is not None:
            canvas.paste(im, canvas.plate(SEAT_W - 8, h - 7, cell.marker, None, 8), xs[s] + 4, 3)
        _place_parts(im, cell.parts, xs[s], 0, SEAT_W, h)
    return im


_ROWS: OrderedDict[tuple, Image.Image] = OrderedDict()
_ROWS_LOCK = threading.Lock()
ROW_CACHE_SIZE = 2048


def cached_row(key: tuple, build: Callable[[], Row], players: int, extra: bool) -> Image.Image:
    """The strip of a row, drawn once per ``key`` (a past round never changes) and kept in an LRU cache."""
    full = (key, players, extra)
    with _ROWS_LOCK:
        strip = _ROWS.get(full)
        if strip is not None:
            _ROWS.move_to_end(full)
            return strip
    strip = row_image(build(), players, extra)
    with _ROWS_LOCK:
        _ROWS[full] = strip
        if len(_ROWS) > ROW_CACHE_SIZE:
            _ROWS.popitem(last=False)
    return strip


def row_key(game: str, raw: dict, *context: object) -> tuple:
    """A cache key for a raw score-sheet row (plain JSON data) and what else its drawing depends on."""
    return (game, json.dumps(raw, sort_keys=True), *context)


def shown_rows(rows: list, max_rows: int = MAX_ROWS) -> tuple[str | None, list]:
    """The rows to draw and, when earlier ones are folded, the label of the fold ("1–65").

    Game modules call this on their raw score-sheet rows first, so folded rounds are never even built.
    """
    if len(rows) <= max_rows:
        return None, rows
    folded = len(rows) - (max_rows - 1)
    first, last = rows[0].get("round", 1), rows[folded - 1].get("round", folded)
    return (f"{first}\u2013{last}" if folded > 1 else str(first)), rows[folded:]


def draw(
    names: list[str],
    rows: list[Row | Image.Image],
    footer: list[Cell],
    total_label: str,
    extra_title: str | None = None,
    winner: int | None = None,
    loser: int | None = None,
    lang: str = "en",
    folded: str | None = None,
) -> Image.Image:
    """The whole sheet as an RGB image; ``folded`` labels one line standing for the earlier rounds."""
    n = len(names)
    extra = extra_title is not None
    if folded is not None:
        rows = [Row(folded, [], span="\u22ef")] + rows
    shown = max(len(rows), 1)
    width, xs = columns(n, extra)
    im = paper(n, shown, extra).copy()
    # header: names, winner crowned, the loser ("kozel") in red
    for s, name in enumerate(names):
        color = palette.INK_RED if s == loser else palette.INK
        avail = SEAT_W - 20
        if s == winner:
            crown = shapes.crown(30, 24, palette.GOLD[:3])
            canvas.paste(im, crown, xs[s] + 10, PAD + (HEAD_H - crown.height) / 2)
            avail -= crown.width + 6
            x = xs[s] + 10 + crown.width + 6
        else:
            x = xs[s] + 10
        text = ellipsize(name, NAME_SIZE, True, avail)
        sprite = text_sprite(text, NAME_SIZE, color, True)
        canvas.paste(im, sprite, x, PAD + (HEAD_H - sprite.height) / 2)
    if extra and extra_title:
        t = text_sprite(ellipsize(extra_title, 18, True, EXTRA_W - 12), 18, palette.INK_SOFT, True)
        canvas.paste(im, t, PAD + ROUND_W + 4, PAD + (HEAD_H - t.height) / 2)
    # rows: each drawn on its own strip of ruled paper (game modules cache the strips of past rounds)
    for i, row in enumerate(rows):
        strip = row if isinstance(row, Image.Image) else row_image(row, n, extra)
        im.paste(strip, (0, PAD + HEAD_H + i * ROW_H + 1))
    # footer: totals
    y = PAD + HEAD_H + shown * ROW_H + 6
    t = text_sprite(ellipsize(total_label, 20, True, ROUND_W + (EXTRA_W if extra else 0) - 16), 20, palette.INK, True)
    canvas.paste(im, t, PAD + 4, y + (FOOT_H - 6 - t.height) / 2)
    for s, cell in enumerate(footer[:n]):
        _place_parts(im, cell.parts, xs[s], y, SEAT_W, FOOT_H - 6)
    return im
