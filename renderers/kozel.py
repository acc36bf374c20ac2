"""Kozel pictures: the table (the chain laid out as a snake, hands as tile backs, the bazaar) and the sheet.

The chain comes from the view's ``chain`` and ``line`` (left end to right end, each tile's pips as they lie).
It is laid out boustrophedon: left to right, a tile turned downwards at the row's end, right to left, and so
on; doubles lie across the line. The tile size is the largest that lets the whole line (up to all 28
tiles) fit the free middle of the table. Accounts follow the paper convention of the Kozel source text
(docs/rules-kozel.md): remembered points are written "+N" in yellow, an opened account in red.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from PIL import Image

from renderers import canvas, palette, shapes, sheet
from renderers import table as T
from renderers.dominoes import parse_tile, tile_back, tile_face, tile_size
from renderers.hand import legal_tiles
from renderers.labels import number, seat_names, signed, word
from renderers.measure import cached_sprite
from renderers.names import fit_name

TILE_LENGTHS = (120, 108, 96, 88, 80, 72, 64, 58, 52, 46, 40, 36)
BACK_LENGTH = 72
BACK_STEP = 16
OWN_LENGTH = 76
SHOWN_LENGTH = 64
REMEMBERED = palette.HIGHLIGHT
OPENED = palette.BAD


@dataclass(frozen=True)
class Placed:
    """One tile of the snake: top-left corner, the halves as drawn (left/top first), orientation."""

    x: int
    y: int
    first: int
    second: int
    vertical: bool
    index: int  # index into the view's chain
    heading: str = "right"  # where the line goes on from this tile: right, left or down (a turn)


def chain_area(players: int) -> tuple[int, int, int, int]:
    """The free middle of the table where the chain goes (x0, y0, x1, y1): the whole width under the
    other seats' tiles (they sit along the top edge) and above the bottom seat's, with room for the end tags."""
    width, height = T.size(players)
    spots = T.layout(players, tiles=True)
    bottom = spots[0].fan[1] - OWN_LENGTH // 2 - 16 - 40  # and room for an end tag under the last tile
    top = max(spot.fan[1] for spot in spots[1:]) + BACK_LENGTH // 2 + 16
    if players > 2:  # under the side seats' rows too (their bubbles between rounds)
        top = max(spot.bubble[1] for spot in spots[1:]) + T.BUBBLE_H + 10
    return (60, top, width - 60, bottom)


def snake(tiles: list[tuple[int, int, bool]], width: int, length: int) -> tuple[list[Placed], int, int]:
    """Lay ``tiles`` (pips left to right along the line, double?) in rows ``width`` wide.

    Returns the placements (relative to the block's top-left), the block's width and height.
    """
    L, Tk = length, length // 2
    gap = max(2, length // 20)
    pitch = L + gap
    out: list[Placed] = []
    direction = 1
    cursor = 0  # left edge (going right) or right edge (going left) of the next tile
    row = 0
    after_turn = False
    for i, (near, far, double) in enumerate(tiles):
        yc = row * pitch + L // 2
        across = double and not after_turn
        ext = Tk if across else L
        last = i == len(tiles) - 1
        room = (width - cursor) if direction > 0 else cursor
        if ext + (0 if last else Tk) <= room or (i == 0 and ext <= room):
            x = cursor if direction > 0 else cursor - ext
            heading = "right" if direction > 0 else "left"
            if across:
                out.append(Placed(x, yc - L // 2, near, far, True, i, heading))
            elif direction > 0:
                out.append(Placed(x, yc - Tk // 2, near, far, False, i, heading))
            else:
                out.append(Placed(x, yc - Tk // 2, far, near, False, i, heading))
            cursor = x + ext if direction > 0 else x
            after_turn = False
            continue
        # no room: this tile turns the line downwards at the row's end
        x = cursor if direction > 0 else cursor - Tk
        out.append(Placed(x, yc - Tk // 2, near, far, True, i, "down"))
        row += 1
        direction = -direction
        cursor = x + Tk if direction < 0 else x
        after_turn = True
    if not out:
        return [], 0, 0
    min_x = min(p.x for p in out)
    max_x = max(p.x + (Tk if p.vertical else L) for p in out)
    max_y = max(p.y + (L if p.vertical else Tk) for p in out)
    min_y = min(p.y for p in out)
    shifted = [Placed(p.x - min_x, p.y - min_y, p.first, p.second, p.vertical, p.index, p.heading) for p in out]
    return shifted, max_x - min_x, max_y - min_y


def fit_snake(
    tiles: list[tuple[int, int, bool]], area: tuple[int, int, int, int]
) -> tuple[list[Placed], int, int, int]:
    """The largest tile length whose snake fits ``area``; returns placements, length, width, height."""
    x0, y0, x1, y1 = area
    for length in TILE_LENGTHS:
        placed, w, h = snake(tiles, x1 - x0, length)
        if w <= x1 - x0 and h <= y1 - y0:
            return placed, length, w, h
    length = TILE_LENGTHS[-1]
    placed, w, h = snake(tiles, x1 - x0, length)
    return placed, length, w, h


def line_tiles(view: dict[str, Any]) -> list[tuple[int, int, bool, int]]:
    """The chain from its left end to its right end: (left pip, right pip, double, chain index)."""
    chain = view.get("chain") or []
    order = view.get("line") or list(range(len(chain)))
    out = []
    for i in order:
        e = chain[i]
        a, b = e.get("pips") or parse_tile(e["tile"])
        out.append((int(a), int(b), bool(e.get("double", a == b)), i))
    return out


def draw_chain(im: Image.Image, view: dict[str, Any], area: tuple[int, int, int, int], lang: str = "en") -> None:
    tiles = line_tiles(view)
    if not tiles:
        return
    placed, length, w, h = fit_snake([(a, b, d) for a, b, d, _i in tiles], area)
    x0, y0, x1, y1 = area
    ox = x0 + (x1 - x0 - w) // 2
    oy = y0 + (y1 - y0 - h) // 2
    last_played = len(view.get("chain") or []) - 1
    for p in placed:
        chain_index = tiles[p.index][3]
        sprite = tile_face(p.first, p.second, length, p.vertical)
        if chain_index == last_played and view.get("phase") == "play":
            glow = canvas.halo(sprite.width, sprite.height, palette.HIGHLIGHT[:3], 10)
            canvas.paste(im, glow, ox + p.x - 10, oy + p.y - 10)
        canvas.paste(im, sprite, ox + p.x, oy + p.y)
    if len(placed) > 1:  # which end is "left" and which "right" (the buttons name them)
        first, last = placed[0], placed[-1]
        fw, fh = tile_size(length, first.vertical)
        _end_tag(im, word("end_left", lang), ox + first.x - 8, oy + first.y + fh / 2, "left")
        lw, lh = tile_size(length, last.vertical)
        x, y = ox + last.x, oy + last.y
        if last.heading == "right":
            _end_tag(im, word("end_right", lang), x + lw + 8, y + lh / 2, "right")
        elif last.heading == "left":
            _end_tag(im, word("end_right", lang), x - 8, y + lh / 2, "left")
        else:
            _end_tag(im, word("end_right", lang), x + lw / 2, y + lh + 8, "below")


def _end_tag(im: Image.Image, text: str, x: float, y: float, side: str) -> None:
    """A small pill naming a chain end, beside the end tile (``side`` = where it goes from the point)."""
    tag = _tag(text)
    if side == "left":
        canvas.paste(im, tag, x - tag.width, y - tag.height / 2)
    elif side == "right":
        canvas.paste(im, tag, x, y - tag.height / 2)
    else:
        canvas.paste(im, tag, x - tag.width / 2, y)


@cached_sprite(maxsize=16)
def _tag(text: str) -> Image.Image:
    label = T.label(text, T.SMALL, palette.TEXT_DARK)
    h = label.height + 4
    size = max(label.width + 14, h)
    pill = canvas.plate(size, h, palette.HIGHLIGHT, None, h // 2).copy()
    pill.alpha_composite(label, ((size - label.width) // 2, (h - label.height) // 2))
    return pill


@lru_cache(maxsize=64)
def tiles_row(
    tiles: tuple[tuple[int, int], ...], length: int, step: int, dim: tuple[bool, ...] | None = None
) -> Image.Image:
    """Tiles standing upright side by side (a revealed hand, the viewer's own tiles; ``dim``: per tile)."""
    w, h = tile_size(length, True)
    im = Image.new("RGBA", (w + step * max(len(tiles) - 1, 0), h), (0, 0, 0, 0))
    for i, (a, b) in enumerate(tiles):
        im.alpha_composite(tile_face(a, b, length, True, dim=bool(dim and dim[i])), (i * step, 0))
    return canvas.opaque_bands(im) if tiles else im


@lru_cache(maxsize=64)
def backs_row(count: int) -> Image.Image:
    back = tile_back(BACK_LENGTH, True)
    im = Image.new("RGBA", (back.width + BACK_STEP * max(count - 1, 0), back.height), (0, 0, 0, 0))
    for i in range(count):
        im.alpha_composite(back, (i * BACK_STEP, 0))
    return canvas.opaque_bands(im) if count else im


def _account(v: dict[str, Any], s: int) -> tuple[str, tuple[int, int, int, int]]:
    """A seat's standing as players write it: an open account in red, else "+N" remembered in yellow."""
    opened = (v.get("opened") or [False] * (s + 1))[s]
    total = int((v.get("totals") or [0] * (s + 1))[s])
    remembered = int((v.get("remembered") or [0] * (s + 1))[s])
    if opened:
        return number(total), OPENED
    if remembered:
        return f"+{remembered}", REMEMBERED
    return number(total), palette.TEXT


def _bubble_for(v: dict[str, Any], s: int, lang: str) -> Image.Image | None:
    rows = v.get("score_sheet") or []
    phase = v.get("phase")
    if phase == "game_over":
        if v.get("loser") == s:
            return T.bubble_sprite(word("loser", lang), palette.TEXT, (190, 40, 40, 240))
        rating = v.get("rating")
        if rating:  # rating points, named as such: they are not game points
            text = f"\u2605 {word('rating', lang)} {signed(int(rating[s]))}"
            return T.bubble_sprite(text, palette.TEXT_DARK, (190, 200, 255, 245), T.SMALL)
        return None
    if phase != "round_over" or not rows or rows[-1].get("redeal"):
        return None
    last = rows[-1]
    if last.get("ending") == "out" and last.get("by") == s:
        return T.bubble_sprite(word("out", lang), palette.TEXT_DARK, palette.GOOD)
    counted = int((last.get("points") or [0] * (s + 1))[s])  # the pips left on the seat's tiles
    opened = (last.get("opened") or [False] * (s + 1))[s]
    return T.bubble_sprite(f"+{counted}", OPENED if opened else REMEMBERED, (20, 24, 22, 220))


def table_image(view: dict[str, Any], names: list[str] | None, style: str = "classic", lang: str = "en") -> Image.Image:
    v = view
    n = int(v["players"])
    names_ = seat_names(names, n, lang)
    spots = T.spots_by_seat(n, v.get("seat"), tiles=True)
    im = T.background(n, tiles=True)
    counts = v.get("hand_counts") or [0] * n
    revealed = v.get("revealed")
    finished = bool(v.get("finished"))
    for s in range(n):
        spot = spots[s]
        text, color = _account(v, s)
        T.draw_plate(
            im,
            spot,
            names_[s],
            text,
            active=not finished and v.get("to_act") == s,
            total_color=color,
            idle=finished and v.get("loser") == s,
        )
        own = v.get("hand") if s == v.get("seat") and v.get("phase") == "play" else None
        shown = revealed[s] if revealed and s < len(revealed) and v.get("phase") != "play" else None
        fan_w = 0
        if own or shown:
            tiles = tuple(sorted(tuple(sorted(parse_tile(t))) for t in (own or shown)))
            length = OWN_LENGTH if own else SHOWN_LENGTH
            step = min(length // 2 + 6, 440 // max(len(tiles), 1))
            playable = legal_tiles(v) if own else set()
            dim = tuple(t not in playable for t in tiles) if playable else None
            sprite = tiles_row(tiles, length, step, dim)
            canvas.paste_center(im, sprite, *spot.fan)
            fan_w = sprite.width
        elif counts[s]:
            sprite = backs_row(min(int(counts[s]), 21))
            canvas.paste_center(im, sprite, *spot.fan)
            fan_w = sprite.width
            tag = T.count_tag(int(counts[s]))  # every opponent's tile count
            canvas.paste(im, tag, spot.fan[0] - sprite.width / 2 - 8 - tag.width, spot.fan[1] - tag.height / 2)
        marks: list[Image.Image] = []
        T.draw_extras(im, spot, fan_w, _bubble_for(v, s, lang), marks)
    draw_chain(im, v, chain_area(n), lang)
    _draw_bazaar(im, v, lang)
    _draw_info(im, v, names_, lang)
    return im


def _draw_bazaar(im: Image.Image, v: dict[str, Any], lang: str) -> None:
    count = int(v.get("bazaar_count") or 0)
    if int(v.get("players", 4)) == 4 and not count:
        return
    back = tile_back(BACK_LENGTH, False)
    x = im.width - T.MARGIN - 8 - back.width
    y = im.height - T.MARGIN - 8 - back.height
    for i in range(min(3, count)):
        canvas.paste(im, back, x - i * 4, y - i * 4)
    label = T.label(f"{word('bazaar', lang)}: {count}", T.SMALL, palette.TEXT if count else palette.TEXT_DIM)
    canvas.paste(im, label, x + back.width - label.width, y - 10 - label.height)


def _draw_info(im: Image.Image, v: dict[str, Any], names: list[str], lang: str) -> None:
    """Top left: the round, a fish carried over, and between rounds who went out or made the fish."""
    rows: list[list[Image.Image]] = [[T.label(f"{word('round', lang)} {v.get('round', 0)}", T.SMALL, palette.TEXT_DIM)]]
    carry = int(v.get("carry") or 0)
    if carry:
        rows.append([shapes.fish(44), T.bubble_sprite(f"+{carry}", palette.TEXT_DARK, palette.HIGHLIGHT, T.SMALL)])
    if v.get("phase") in ("round_over", "game_over"):
        rows.append(_summary(v, names, lang))
    T.info_lines(im, rows, bottom=int(v["players"]) > 2)  # the top corners hold seats


def _summary(v: dict[str, Any], names: list[str], lang: str) -> list[Image.Image]:
    rows = v.get("score_sheet") or []
    if not rows:
        return []
    last = rows[-1]
    if last.get("redeal"):
        return [T.label(word("redeal", lang), T.SMALL, palette.TEXT_DIM)]
    by = last.get("by")
    who = names[by] if isinstance(by, int) and 0 <= by < len(names) else ""
    parts = [T.label(fit_name(who, T.SMALL, True, 220), T.SMALL)] if who else []
    if last.get("ending") == "fish":
        parts += [
            shapes.fish(44),
            T.bubble_sprite(word("fish", lang), palette.TEXT_DARK, (120, 190, 240, 255), T.SMALL),
        ]
    elif last.get("ending") == "out":
        parts.append(T.bubble_sprite(word("out", lang), palette.TEXT_DARK, palette.GOOD, T.SMALL))
    return parts


# ------------------------------------------------------------------------------------------------------
# Score sheet


def sheet_image(view: dict[str, Any], names: list[str] | None, style: str = "classic", lang: str = "en") -> Image.Image:
    v = view
    n = int(v["players"])
    names_ = seat_names(names, n, lang)
    folded, rows = sheet.shown_rows(v.get("score_sheet") or [])
    strips = [
        sheet.cached_row(sheet.row_key("kozel", r, lang), lambda r=r: _sheet_row(r, n, lang), n, True) for r in rows
    ]
    footer = []
    for s in range(n):
        text, color = _account(v, s)
        ink = palette.INK_RED if color == OPENED else palette.INK_YELLOW if color == REMEMBERED else palette.INK
        footer.append(sheet.Cell([sheet.ink(text, ink, bold=True, size=30)]))
    rating = v.get("rating")
    notes = None
    if rating:  # only once the game is over and rated: rating points, named as such
        notes = [[sheet.ink(f"\u2605 {signed(int(r))}", palette.INK_BLUE, True, sheet.SMALL_INK)] for r in rating]
    return sheet.draw(
        names_,
        strips,
        footer,
        word("total", lang),
        extra_title="",
        loser=v.get("loser"),
        lang=lang,
        folded=folded,
        notes=notes,
        legend=_legend(rows, bool(rating), lang),
    )


def _sheet_row(r: dict[str, Any], n: int, lang: str) -> sheet.Row:
    """One round: per seat the account after it — red total once open, else "+N" remembered in yellow — and
    the hand's value small; who went out (green) or made the fish (fish icon); a fish carried over."""
    if r.get("redeal"):
        return sheet.Row(str(r.get("round", "")), [], span=word("redeal", lang))
    ending, by = r.get("ending"), r.get("by")
    extra: list[Image.Image] = []
    if ending == "fish":
        extra.append(shapes.fish(36))
    elif ending == "out":
        extra.append(sheet.ink("\u2713", palette.INK_GREEN, bold=True, size=sheet.SMALL_INK))  # see the legend
    if r.get("carry"):
        extra.append(sheet.ink(f"+{r['carry']}", palette.INK_BLUE, bold=True, size=sheet.SMALL_INK))
    cells = []
    opened = r.get("opened") or [False] * n
    remembered = r.get("remembered") or [0] * n
    points = r.get("points") or [0] * n
    for s in range(n):
        if opened[s]:
            parts = [sheet.ink(number(int(r["totals"][s])), palette.INK_RED, bold=True)]
        elif remembered[s]:
            parts = [sheet.ink(f"+{int(remembered[s])}", palette.INK_YELLOW, bold=True)]
        else:
            parts = [sheet.ink("0", palette.INK, bold=True)]
        parts.append(sheet.ink(str(int(points[s])), palette.INK_SOFT, size=sheet.SMALL_INK))
        taken = s in (r.get("fish_to"), r.get("carry_to"))
        if taken:
            parts.append(shapes.fish(28))
        marker = (210, 240, 210, 255) if ending == "out" and by == s else None
        if ending == "fish" and by == s:
            marker = (210, 230, 250, 255)
        cells.append(sheet.Cell(parts, marker=marker))
    return sheet.Row(str(r.get("round", "")), cells, extra=extra)


def _legend(rows: list[dict[str, Any]], rated: bool, lang: str) -> list[Image.Image]:
    """What the sheet's marks mean: remembered "+N", an open account, the hand's points, ✓ who went out, the
    fish, the rating line (only the ones shown)."""
    out = []
    played = [r for r in rows if not r.get("redeal")]
    if any(any(r.get("remembered") or ()) and not all(r.get("opened") or ()) for r in played):
        out.append(
            sheet.legend_item(
                sheet.ink(f"+{sheet.SAMPLE}", palette.INK_YELLOW, True, sheet.SMALL_INK),
                word("legend_remembered", lang),
            )
        )
    if any(any(r.get("opened") or ()) for r in played):
        out.append(
            sheet.legend_item(
                sheet.ink(sheet.SAMPLE, palette.INK_RED, True, sheet.SMALL_INK), word("legend_open", lang)
            )
        )
    if played:
        out.append(
            sheet.legend_item(
                sheet.ink(sheet.SAMPLE, palette.INK_SOFT, size=sheet.SMALL_INK), word("legend_hand", lang)
            )
        )
    if any(r.get("ending") == "out" for r in rows):
        out.append(sheet.legend_item(sheet.ink("\u2713", palette.INK_GREEN, True, sheet.SMALL_INK), word("out", lang)))
    if any(r.get("ending") == "fish" for r in rows):
        out.append(sheet.legend_item(shapes.fish(36), word("fish", lang)))
    if rated:
        out.append(sheet.legend_item(None, f"\u2605 {word('rating', lang)}"))
    return out
