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
from renderers.measure import cached_sprite, note, recording
from renderers.names import fit_name
from renderers.palette import RGB, RGBA
from renderers.text import ellipsize, text_sprite, text_width

MAX_ROWS = 20
PAD = 12
ROUND_W = 54
EXTRA_W = 124
SEAT_WIDTHS = {2: 250, 3: 200, 4: 170}
HEAD_LINE = 34
ROW_H = 46
LINE_GAP = 2
NAME_SIZE = 24
INK_SIZE = 28  # running totals
SMALL_INK = 24  # the smallest type on a sheet (13 px at 480 wide for the widest, 4-player sheet)


@dataclass
class Cell:
    """One seat's entry in a row: sprites left to right (wrapping onto more lines, never dropped), an
    optional highlighter marker behind."""

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


@dataclass
class Detail:
    """One line of a sheet's details block: a label left of the seat columns (wrapped at its spaces) and
    a cell per seat."""

    label: str
    cells: list[Cell]


def ink(text: str, color: RGBA = palette.INK, bold: bool = False, size: int = INK_SIZE) -> Image.Image:
    return text_sprite(text, max(size, SMALL_INK), color, bold)


@lru_cache(maxsize=64)
def dots(used: int, total: int, on: RGB, off: RGB, size: int = 12) -> Image.Image:
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


@cached_sprite(maxsize=64)
def tricks_sprite(text: str) -> Image.Image:
    """A small card back followed by a text (tricks taken, points so far) on a dark pill."""
    from renderers.cards import card_back
    from renderers.table import SMALL

    icon = card_back(26)
    label = text_sprite(text, SMALL, palette.TEXT, True, True)
    h = max(icon.height, label.height) + 6
    w = icon.width + 8 + label.width + 16
    im = canvas.plate(w, h, (10, 20, 16, 170), None, 10).copy()
    im.alpha_composite(icon, (6, (h - icon.height) // 2))
    im.alpha_composite(label, (icon.width + 12, (h - label.height) // 2))
    return im


@cached_sprite(maxsize=64)
def suit_points_sprite(suit: str, points: int, style: str, color: RGBA = palette.TEXT) -> Image.Image:
    """A suit symbol on a white disc and the points it brought (a declared marriage, bella)."""
    from renderers.table import SMALL, suit_badge

    badge = suit_badge(suit, style, 26)
    label = text_sprite(str(points), SMALL, color, True, True)
    h = max(badge.height, label.height)
    im = Image.new("RGBA", (badge.width + 4 + label.width, h), (0, 0, 0, 0))
    im.alpha_composite(badge, (0, (h - badge.height) // 2))
    im.alpha_composite(label, (badge.width + 4, (h - label.height) // 2))
    return im


def seat_width(players: int) -> int:
    return SEAT_WIDTHS.get(players, SEAT_WIDTHS[4])


def columns(players: int, extra: bool) -> tuple[int, list[int]]:
    """The sheet width and the x of each seat column."""
    x = PAD + ROUND_W + (EXTRA_W if extra else 0)
    sw = seat_width(players)
    xs = [x + i * sw for i in range(players)]
    return xs[-1] + sw + PAD, xs


def _lines(parts: list[Image.Image], width: int) -> list[list[Image.Image]]:
    """Parts flowed into lines ``width`` wide (a part wider than a line gets a line of its own)."""
    lines: list[list[Image.Image]] = [[]]
    used = 0
    for p in parts:
        if lines[-1] and used + 8 + p.width > width:
            lines.append([])
            used = 0
        used += (8 if lines[-1] else 0) + p.width
        lines[-1].append(p)
    return [line for line in lines if line]


def _squeezed(part: Image.Image, width: int) -> Image.Image:
    """A mark wider than its column, scaled down to fit rather than overflow or vanish. Game code keeps
    marks short, so this never happens in the gallery: the reported type size makes the readability
    test fail if it ever does."""
    k = width / part.width
    note(int(SMALL_INK * k))
    return part.resize((width, max(1, round(part.height * k))), Image.Resampling.LANCZOS)


def _lines_height(lines: list[list[Image.Image]]) -> int:
    return sum(max(p.height for p in line) for line in lines) + LINE_GAP * max(len(lines) - 1, 0)


def _place(im: Image.Image, parts: list[Image.Image], x: int, y: int, w: int, h: int) -> None:
    """Parts in wrapped lines inside the box, the block vertically centred."""
    room = w - 14
    parts = [p if p.width <= room else _squeezed(p, room) for p in parts]
    lines = _lines(parts, room)
    if not lines:
        return
    _paste_lines(im, lines, x + 8, y + (h - _lines_height(lines)) / 2)


def _paste_lines(im: Image.Image, lines: list[list[Image.Image]], left: float, top: float) -> None:
    """Paste lines of parts from (``left``, ``top``): 8 px between parts, each part centred in its line."""
    for line in lines:
        lh = max(p.height for p in line)
        cx = left
        for p in line:
            canvas.paste(im, p, cx, top + (lh - p.height) / 2)
            cx += p.width + 8
        top += lh + LINE_GAP


def _ruled(width: int, height: int, xs: list[int], players: int, extra: bool, tint: RGB | None) -> Image.Image:
    im = Image.new("RGB", (width, height), palette.PAPER)
    d = ImageDraw.Draw(im)
    if tint is not None:
        d.rectangle((PAD, 0, width - PAD, height), fill=tint)
    margin_x = PAD + ROUND_W - 6
    d.line((margin_x, 0, margin_x, height), fill=palette.PAPER_RULE, width=2)
    for x in xs[1:] + ([xs[0]] if extra else []):
        d.line((x, 0, x, height), fill=palette.PAPER_LINE, width=1)
    d.line((PAD, height - 1, width - PAD, height - 1), fill=palette.PAPER_LINE, width=1)
    return im


def row_image(row: Row, players: int, extra: bool) -> Image.Image:
    """A row drawn on its strip of ruled paper (RGB, opaque), as tall as its tallest wrapped cell."""
    width, xs = columns(players, extra)
    sw = seat_width(players)
    label = ink(ellipsize(row.label, SMALL_INK, False, ROUND_W - 8), palette.INK_SOFT, size=SMALL_INK)
    heights = [label.height, ROW_H - 8]
    if row.span is None:
        heights += [_lines_height(_lines(c.parts, sw - 14)) for c in row.cells[:players] if c.parts]
        if extra and row.extra:
            heights.append(_lines_height(_lines(row.extra, EXTRA_W - 14)))
    else:
        heights.append(text_sprite(row.span, SMALL_INK, palette.INK_SOFT, False).height)
    h = max(heights) + 10
    im = _ruled(width, h, xs, players, extra, row.tint)
    canvas.paste(im, label, PAD + ROUND_W - 12 - label.width, (h - label.height) / 2)
    if row.span is not None:
        t = text_sprite(row.span, SMALL_INK, palette.INK_SOFT, False)
        canvas.paste(im, t, xs[0] + (xs[-1] + sw - xs[0] - t.width) / 2, (h - t.height) / 2)
        return im
    if extra:
        _place(im, row.extra, PAD + ROUND_W - 4, 0, EXTRA_W, h)
    for s, cell in enumerate(row.cells[:players]):
        if cell.marker is not None:
            canvas.paste(im, canvas.plate(sw - 8, h - 7, cell.marker, None, 8), xs[s] + 4, 3)
        _place(im, cell.parts, xs[s], 0, sw, h)
    return im


_ROWS: OrderedDict[tuple, tuple[Image.Image, tuple[int, ...]]] = OrderedDict()
_ROWS_LOCK = threading.Lock()
ROW_CACHE_SIZE = 2048


def cached_row(key: tuple, build: Callable[[], Row], players: int, extra: bool) -> Image.Image:
    """The strip of a row, drawn once per ``key`` (a past round never changes) and kept in an LRU cache."""
    return cached_strip((key, players, extra), lambda: row_image(build(), players, extra))


def cached_strip(full: tuple, draw_strip: Callable[[], Image.Image]) -> Image.Image:
    """A strip of paper (a row, a details block) drawn once per key, with the type sizes it holds."""
    with _ROWS_LOCK:
        hit = _ROWS.get(full)
        if hit is not None:
            _ROWS.move_to_end(full)
    if hit is not None:
        for size in hit[1]:
            note(size)
        return hit[0]
    with recording() as sizes:
        strip = draw_strip()
    with _ROWS_LOCK:
        _ROWS[full] = (strip, tuple(sorted(set(sizes))))
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


def _name_lines(name: str, width: int) -> list[str]:
    """A header name on one line, or on two (split at its first space) when one is too narrow."""
    if text_width(name, NAME_SIZE, True) <= width or " " not in name:
        return [fit_name(name, NAME_SIZE, True, width)]
    first, rest = name.split(" ", 1)
    return [ellipsize(first, NAME_SIZE, True, width), fit_name(rest, NAME_SIZE, True, width)]


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
    notes: list[list[Image.Image]] | None = None,
    legend: list[Image.Image] | None = None,
    details: Image.Image | None = None,
) -> Image.Image:
    """The whole sheet as an RGB image: header (names; the winner crowned on gold, the loser in red), the
    rows (``folded`` labels one line standing for the earlier rounds), the totals under a double line,
    ``notes`` (per seat, under the totals: a rating, a mark), ``details`` (a block from ``details_image``:
    how the last round was scored) and a ``legend`` of the marks used."""
    n = len(names)
    extra = extra_title is not None
    if folded is not None:  # one line for the earlier rounds: "1–53 ⋯" across the seat columns
        fold = Row("", [], span=f"{folded} \u22ef")
        rows = [cached_strip(("fold", folded, n, extra), lambda: row_image(fold, n, extra))] + rows
    width, xs = columns(n, extra)
    sw = seat_width(n)
    strips = [row if isinstance(row, Image.Image) else row_image(row, n, extra) for row in rows]
    # header
    crown = shapes.crown(34, 27, palette.GOLD[:3])
    heads = [_name_lines(name, sw - 16) for name in names]
    if winner is not None and 0 <= winner < n:  # the crown goes after the last line, or on a line of its own
        last = heads[winner][-1]
        if text_width(last, NAME_SIZE, True) + 8 + crown.width > sw - 16:
            heads[winner] = heads[winner] + [""]
    head_h = max(len(h) for h in heads) * HEAD_LINE + 16
    # footer
    foot_h = max([_lines_height(_lines(c.parts, sw - 14)) for c in footer if c.parts] + [34]) + 18
    notes_h = 0
    if notes:
        notes_h = max([_lines_height(_lines(c, sw - 14)) for c in notes if c] + [0]) + 12
    legend_lines = _lines(legend or [], width - 2 * PAD - 8)
    legend_h = _lines_height(legend_lines) + 16 if legend_lines else 0
    block = details
    block_h = block.height if block is not None else 0
    height = PAD + head_h + sum(s.height for s in strips) + foot_h + notes_h + block_h + legend_h + PAD
    im = Image.new("RGB", (width, height), palette.PAPER)
    d = ImageDraw.Draw(im)
    d.rectangle((0, 0, width, PAD + head_h), fill=palette.PAPER_HEAD)
    if winner is not None and 0 <= winner < n:
        d.rectangle((xs[winner] + 1, PAD, xs[winner] + sw - 1, PAD + head_h), fill=palette.PAPER_GOLD)
    for s, lines in enumerate(heads):
        color = palette.INK_RED if s == loser else palette.INK
        x = xs[s] + 8
        y = PAD + (head_h - len(lines) * HEAD_LINE) / 2
        for line in lines:
            if line:
                sprite = text_sprite(line, NAME_SIZE, color, True)
                canvas.paste(im, sprite, x, y + (HEAD_LINE - sprite.height) / 2)
            y += HEAD_LINE
        if s == winner:
            end = x + (text_width(lines[-1], NAME_SIZE, True) + 8 if lines[-1] else 0)
            canvas.paste(im, crown, end, y - HEAD_LINE + (HEAD_LINE - crown.height) / 2)
    if extra and extra_title:
        t = ink(ellipsize(extra_title, SMALL_INK, True, EXTRA_W - 10), palette.INK_SOFT, True, SMALL_INK)
        canvas.paste(im, t, PAD + ROUND_W + 2, PAD + (head_h - t.height) / 2)
    y = PAD + head_h
    d.line((PAD, y, width - PAD, y), fill=palette.PAPER_LINE, width=2)
    for strip in strips:
        im.paste(strip, (0, y + 1) if strip.height < height - y else (0, y))
        y += strip.height
    # the rule lines through the header and the footer
    margin_x = PAD + ROUND_W - 6
    d.line((margin_x, PAD, margin_x, y), fill=palette.PAPER_RULE, width=2)
    for x in xs[1:] + ([xs[0]] if extra else []):
        d.line((x, PAD + 8, x, PAD + head_h), fill=palette.PAPER_LINE, width=1)
    d.line((PAD, y + 1, width - PAD, y + 1), fill=palette.INK[:3], width=3)
    d.line((PAD, y + 6, width - PAD, y + 6), fill=palette.INK[:3], width=1)
    y += 8
    t = ink(
        ellipsize(total_label, SMALL_INK, True, ROUND_W + (EXTRA_W if extra else 0) - 12), palette.INK, True, SMALL_INK
    )
    canvas.paste(im, t, PAD + 4, y + (foot_h - 8 - t.height) / 2)
    for s, cell in enumerate(footer[:n]):
        if s == winner:
            canvas.paste(im, canvas.plate(sw - 8, foot_h - 12, palette.MARKER_GOLD, None, 8), xs[s] + 4, y + 2)
        _place(im, cell.parts, xs[s], y, sw, foot_h - 8)
    y += foot_h - 8
    if notes:
        for s, parts in enumerate(notes[:n]):
            _place(im, parts, xs[s], y, sw, notes_h)
        y += notes_h
    if block is not None:
        im.paste(block, (0, y))
        y += block_h
    if legend_lines:
        d.line((PAD, y + 4, width - PAD, y + 4), fill=palette.PAPER_LINE, width=1)
        _place(im, [p for line in legend_lines for p in line], PAD, y + 8, width - 2 * PAD, legend_h - 8)
    return im


def details_image(title: str, lines: list[Detail], players: int, extra: bool) -> Image.Image:
    """The details block: a rule, the title, then one strip per line — its label wrapped word by word in
    the columns left of the seats, each seat's cell in its column (wrapping, never dropping parts)."""
    width, xs = columns(players, extra)
    sw = seat_width(players)
    label_w = xs[0] - PAD - 4
    head = ink(ellipsize(title, SMALL_INK, True, width - 2 * PAD - 8), palette.INK, True, SMALL_INK)
    strips: list[Image.Image] = []
    for line in lines:
        words = [ink(w, palette.INK_SOFT, size=SMALL_INK) for w in line.label.split()]
        words = [w if w.width <= label_w - 6 else _squeezed(w, label_w - 6) for w in words]
        label_lines = _lines(words, label_w - 6)
        h = max([_lines_height(label_lines)] + [_lines_height(_lines(c.parts, sw - 14)) for c in line.cells if c.parts])
        h += 10
        strip = Image.new("RGB", (width, h), palette.PAPER)
        d = ImageDraw.Draw(strip)
        for x in xs:
            d.line((x, 0, x, h), fill=palette.PAPER_LINE, width=1)
        d.line((PAD, h - 1, width - PAD, h - 1), fill=palette.PAPER_LINE, width=1)
        for s, cell in enumerate(line.cells[:players]):
            if cell.marker is not None:
                canvas.paste(strip, canvas.plate(sw - 8, h - 7, cell.marker, None, 8), xs[s] + 4, 3)
            _place(strip, cell.parts, xs[s], 0, sw, h)
        _paste_lines(strip, label_lines, PAD + 4, (h - _lines_height(label_lines)) / 2)
        strips.append(strip)
    top = 12 + head.height + 8
    im = Image.new("RGB", (width, top + sum(s.height for s in strips) + 4), palette.PAPER)
    d = ImageDraw.Draw(im)
    d.line((PAD, 4, width - PAD, 4), fill=palette.INK_SOFT[:3], width=2)
    canvas.paste(im, head, PAD + 4, 12)
    y = top
    for strip in strips:
        im.paste(strip, (0, y))
        y += strip.height
    return im


def swatch(color: tuple[int, int, int, int]) -> Image.Image:
    """A small patch of a cell marker's colour, for a legend."""
    return canvas.plate(36, 24, color, palette.PAPER_LINE + (255,), 6)


# a legend's marks carry this letter, never a number: "+45" beside "this round" read like a real score (issue 32)
SAMPLE = "N"


def legend_item(icon: Image.Image | None, text: str) -> Image.Image:
    """One entry of a sheet's legend: a mark and what it means (built once per mark and text)."""
    if icon is None:
        return _legend_item(None, text)
    return _legend_item((icon.mode, icon.size, icon.tobytes()), text)


@cached_sprite(maxsize=128)
def _legend_item(icon_key: tuple[str, tuple[int, int], bytes] | None, text: str) -> Image.Image:
    icon = None if icon_key is None else Image.frombytes(*icon_key)
    label = text_sprite(f"\u2009{text}" if icon is not None else text, SMALL_INK, palette.INK_SOFT, False)
    if icon is None:
        return label
    h = max(icon.height, label.height)
    im = Image.new("RGBA", (icon.width + 4 + label.width + 14, h), (0, 0, 0, 0))
    im.alpha_composite(icon, (0, (h - icon.height) // 2))
    im.alpha_composite(label, (icon.width + 4, (h - label.height) // 2))
    return im
