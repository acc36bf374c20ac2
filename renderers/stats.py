"""Pictures of statistics: a player's ``me`` (his rating over his games in each game, games and wins, his
achievements as badges) and a chat's ``top`` (a table per game: place, the whole name, rating, wins).

Drawn on the score sheet's paper with the shared text sprites; every word at least 13 px when shown 480 px wide
(``renderers.measure``). The words come in the data already in the reader's language; names are never cut: a long
one wraps onto more lines.
"""

from __future__ import annotations

from typing import Any

from PIL import Image, ImageDraw

from renderers import palette
from renderers.output import Picture, encode
from renderers.text import clean_name, paste_text, text_width

WIDTH = 960
MARGIN = 36
TITLE = 44
TEXT = 30
SMALL = 26  # the smallest type: 13 px at 480 px wide
LINE = 40
CHART_H = 200


def _wrap(text: str, size: int, bold: bool, width: int) -> list[str]:
    """``text`` in lines no wider than ``width`` (at spaces where it can, else between letters): never cut."""
    words, lines, line = text.split(" "), [], ""
    for word in words:
        trial = f"{line} {word}" if line else word
        if text_width(trial, size, bold) <= width:
            line = trial
            continue
        if line:
            lines.append(line)
        line = ""
        for ch in word:  # a word wider than the column goes on letter by letter
            if text_width(line + ch, size, bold) > width and line:
                lines.append(line)
                line = ""
            line += ch
    if line or not lines:
        lines.append(line)
    return lines


def _paper(height: int) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    im = Image.new("RGB", (WIDTH, height), palette.PAPER)
    return im, ImageDraw.Draw(im)


def _chart(values: list[float], width: int) -> Image.Image:
    """A line over the games: the rating after each one, with its lowest and highest value."""
    im = Image.new("RGB", (width, CHART_H), palette.PAPER)
    d = ImageDraw.Draw(im)
    left, top, bottom = 110, 14, CHART_H - 14
    d.rectangle((left, top, width - 1, bottom), outline=palette.PAPER_LINE, width=2)
    if not values:
        return im
    lo, hi = min(values), max(values)
    flat = hi - lo < 0.05
    span = hi - lo if not flat else 1.0
    if flat:  # one value: its label halfway, the line across the middle
        lo -= 0.5
        paste_text(im, (left - 12, (top + bottom) / 2), f"{hi:.1f}", SMALL, palette.INK_SOFT, anchor="rm")
    else:
        paste_text(im, (left - 12, top), f"{hi:.1f}", SMALL, palette.INK_SOFT, anchor="rt")
        paste_text(im, (left - 12, bottom), f"{lo:.1f}", SMALL, palette.INK_SOFT, anchor="rb")
    inner = width - left - 24
    step = inner / max(1, len(values) - 1)
    points = [
        (left + 12 + (i * step if len(values) > 1 else inner / 2), bottom - 10 - (v - lo) / span * (bottom - top - 20))
        for i, v in enumerate(values)
    ]
    if len(points) > 1:
        d.line(points, fill=palette.INK_BLUE[:3], width=4, joint="curve")
    for x, y in points[-60:]:
        d.ellipse((x - 5, y - 5, x + 5, y + 5), fill=palette.INK_BLUE[:3])
    return im


def _badges(labels: list[str], width: int) -> list[list[tuple[str, int]]]:
    """Badges in rows that fit ``width``: (label, pill width)."""
    rows: list[list[tuple[str, int]]] = [[]]
    used = 0
    for label in labels:
        w = int(text_width(label, SMALL)) + 36
        w = min(w, width)
        if rows[-1] and used + w > width:
            rows.append([])
            used = 0
        rows[-1].append((label, w))
        used += w + 12
    return [r for r in rows if r]


def stats_image(data: dict[str, Any]) -> Image.Image:
    """``me`` as one picture: title and summary, one panel per game (its line and rating chart), the badges."""
    inner = WIDTH - 2 * MARGIN
    title = _wrap(clean_name(data.get("title"), "?"), TITLE, True, inner)
    panels = data.get("games") or []
    badge_rows = _badges(list(data.get("badges") or []), inner)
    height = MARGIN + len(title) * (TITLE + 12) + LINE + 16
    height += sum(LINE + 8 + LINE + (CHART_H + 16 if p.get("ratings") else 0) + 20 for p in panels)
    height += (LINE + 12 + len(badge_rows) * (SMALL + 30)) if badge_rows else 0
    height += 0 if panels else LINE
    im, d = _paper(height + MARGIN)
    y = MARGIN
    for line in title:
        paste_text(im, (MARGIN, y), line, TITLE, palette.INK, bold=True)
        y += TITLE + 12
    for line in _wrap(str(data.get("subtitle") or ""), SMALL, False, inner)[:1]:
        paste_text(im, (MARGIN, y), line, SMALL, palette.INK_SOFT)
    y += LINE + 16
    if not panels:
        paste_text(im, (MARGIN, y), str(data.get("empty") or ""), TEXT, palette.INK_SOFT, max_width=inner)
        y += LINE
    for p in panels:
        d.line((MARGIN, y, WIDTH - MARGIN, y), fill=palette.PAPER_LINE, width=2)
        y += 8
        paste_text(im, (MARGIN, y), str(p.get("title")), TEXT, palette.INK, bold=True)
        y += LINE
        paste_text(im, (MARGIN, y), str(p.get("line") or ""), SMALL, palette.INK, max_width=inner)
        y += LINE
        if p.get("ratings"):
            im.paste(_chart([float(v) for v in p["ratings"]], inner), (MARGIN, y))
            y += CHART_H + 16
        y += 20
    if badge_rows:
        paste_text(im, (MARGIN, y), str(data.get("badges_title") or ""), TEXT, palette.INK, bold=True)
        y += LINE + 12
        for row in badge_rows:
            x = MARGIN
            for label, w in row:
                d.rounded_rectangle(
                    (x, y, x + w, y + SMALL + 18),
                    radius=(SMALL + 18) // 2,
                    fill=palette.PAPER_GOLD,
                    outline=palette.INK_YELLOW[:3],
                    width=2,
                )
                paste_text(
                    im, (x + w / 2, y + (SMALL + 18) / 2), label, SMALL, palette.INK, anchor="mm", max_width=w - 24
                )
                x += w + 12
            y += SMALL + 30
    return im


COLUMNS = (70, None, 170, 170)  # place, name (the rest), rating, wins: the name column takes what is left


def top_image(data: dict[str, Any]) -> Image.Image:
    """``top`` as a table: a section per season and game, each row a place, the whole name, rating and wins."""
    inner = WIDTH - 2 * MARGIN
    fixed = sum(c for c in COLUMNS if c)
    name_w = inner - fixed - 24
    sections = data.get("sections") or []
    laid: list[tuple[dict[str, Any], list[tuple[list[str], list[str]]]]] = []
    height = MARGIN + TITLE + 24
    for sec in sections:
        rows = [(_wrap(clean_name(r[1], "?"), TEXT, False, name_w), r) for r in sec.get("rows") or []]
        laid.append((sec, rows))
        height += LINE + 16 + LINE + sum(max(1, len(n)) * LINE + 10 for n, _r in rows) + 24
    if not sections:
        height += LINE
    im, d = _paper(height + MARGIN)
    paste_text(im, (MARGIN, MARGIN), str(data.get("title") or ""), TITLE, palette.INK, bold=True, max_width=inner)
    y = MARGIN + TITLE + 24
    if not sections:
        paste_text(im, (MARGIN, y), str(data.get("empty") or ""), TEXT, palette.INK_SOFT, max_width=inner)
    xs = [
        MARGIN,
        MARGIN + COLUMNS[0],
        MARGIN + COLUMNS[0] + name_w + 24,
        MARGIN + COLUMNS[0] + name_w + 24 + COLUMNS[2],
    ]
    for sec, rows in laid:
        paste_text(im, (MARGIN, y), str(sec.get("title") or ""), TEXT, palette.INK_RED, bold=True, max_width=inner)
        y += LINE + 16
        head = sec.get("head") or ["", "", "", ""]
        d.rectangle((MARGIN - 8, y - 6, WIDTH - MARGIN + 8, y + LINE - 4), fill=palette.PAPER_HEAD)
        for i, word in enumerate(head):
            right = i >= 2
            x = xs[i] + (COLUMNS[i] or 0) - 8 if right else xs[i]
            paste_text(
                im,
                (x, y),
                str(word),
                SMALL,
                palette.INK_SOFT,
                anchor="rt" if right else "lt",
                max_width=(COLUMNS[i] or name_w),
            )
        y += LINE
        for names, row in rows:
            h = max(1, len(names)) * LINE + 10
            d.line((MARGIN, y + h - 2, WIDTH - MARGIN, y + h - 2), fill=palette.PAPER_LINE, width=1)
            paste_text(im, (xs[0], y + 4), str(row[0]), TEXT, palette.INK, bold=True)
            for k, line in enumerate(names):
                paste_text(im, (xs[1], y + 4 + k * LINE), line, TEXT, palette.INK)
            for i in (2, 3):
                paste_text(
                    im,
                    (xs[i] + (COLUMNS[i] or 0) - 8, y + 4),
                    str(row[i]),
                    TEXT,
                    palette.INK,
                    anchor="rt",
                    max_width=COLUMNS[i],
                )
            y += h
        y += 24
    return im


def render_stats(data: dict[str, Any]) -> Picture:
    return encode(stats_image(data))


def render_top(data: dict[str, Any]) -> Picture:
    return encode(top_image(data))
