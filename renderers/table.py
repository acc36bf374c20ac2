"""The table picture's shared layout: seats around a felt table, name plates, backs, trick, corner panels.

Seats sit clockwise starting at the bottom (the viewer's seat in a private view, seat 0 in the public
one): 2 players bottom/top, 3 bottom/left/right, 4 bottom/left/top/right. Each seat has a name plate
(highlighted when it is that seat's turn, a dealer chip, the game total and the game's small marks), a fan
of backs for the cards or tiles it holds, a bubble for what it said, and a spot in the middle where its
trick card lies. The corners hold the game info (top left), the last trick (top right) and spare piles
(bottom right). Game modules (``thousand``, ``deberts``, ``kozel``) fill these in from their views.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import lru_cache

from PIL import Image

from renderers import canvas, palette, shapes
from renderers.cards import card_back, card_face, card_size
from renderers.measure import cached_sprite
from renderers.names import fit_name
from renderers.palette import RGBA
from renderers.text import paste_text, text_sprite

WIDTH = 960  # every table; the height depends on the seat count (no empty felt)
HEIGHTS = {2: 720, 3: 740, 4: 800}
PLATE_WIDTHS = {2: 360, 3: 330, 4: 280}
PLATE_WIDE = {4: 340}  # the top and bottom plates of 4 players
INFO_WIDTH = {2: 280, 3: 600, 4: 300}  # room for the top-left info panel beside the top plate (if any)
TRICK_CARDS = {2: 110, 3: 104, 4: 96}
PLATE_H = 92
NAME_SIZE = 30
SMALL = 26  # the smallest type on a table: 13 px when the table is shown 480 px wide
BIG = 28
TRICK_CARD = 104
MINI_CARD = 66  # last trick, talon, cards given: the compact index is 26 px
BACK_CARD = 50
BACK_STEP = 14
BUBBLE_H = 50
MARGIN = 14
GAP = 10
ROW_BELOW = 58  # from the middle of a seat's cards to the top of the row under them

POSITIONS = {2: ("bottom", "top"), 3: ("bottom", "left", "right"), 4: ("bottom", "left", "top", "right")}


def size(players: int) -> tuple[int, int]:
    """The table picture's size for a seat count."""
    return WIDTH, HEIGHTS.get(players, HEIGHTS[4])


def plate_width(players: int) -> int:
    return PLATE_WIDTHS.get(players, PLATE_WIDTHS[4])


def trick_card(players: int) -> int:
    return TRICK_CARDS.get(players, TRICK_CARDS[4])


@dataclass(frozen=True)
class Spot:
    """Where one seat's things go, in pixels (centres); ``row`` is where its bubble and marks start."""

    side: str
    plate: tuple[int, int]
    fan: tuple[int, int]
    trick: tuple[int, int]
    bubble: tuple[int, int]
    plate_w: int = 300
    row: str = "under"  # where the bubble and marks go: beside_plate, beside_cards or under the cards
    key: tuple[int, bool, int] = (0, False, 0)  # (players, tiles, screen position): finds its cached plates


@lru_cache(maxsize=16)
def layout(players: int, tiles: bool = False) -> tuple[Spot, ...]:
    """Spots by screen position (0 = bottom, then clockwise), sized to the seat count.

    Bottom seat: the plate at the bottom edge, its cards above it, its bubble and marks right of the
    plate. Top seat: the plate at the top edge, its cards under it, bubble and marks right of the cards
    (2 players) or under them (4 players). Side seats: plate, cards under it, one row under the cards.
    With ``tiles`` (Kozel: no trick, a long chain instead) the side seats sit in the top corners, so the
    chain has the whole width of the table's middle.
    """
    width, height = size(players)
    pw = plate_width(players)
    wide = PLATE_WIDE.get(players, pw)  # top and bottom plates have more room than side ones
    cx, cy = width // 2, height // 2
    card_h = round(trick_card(players) * 1.4)
    bottom_plate = height - MARGIN - PLATE_H // 2
    top_plate = MARGIN + PLATE_H // 2
    fan_gap = PLATE_H // 2 + GAP + 52
    side_x = MARGIN + pw // 2
    if players == 2:  # between the top seat's backs and the bottom seat's cards
        top_edge = top_plate + fan_gap - 16 + 35 + 8
        bottom_edge = bottom_plate - fan_gap - 51 - 8
        tricks = {"bottom": (cx + 30, bottom_edge - card_h // 2), "top": (cx - 30, top_edge + card_h // 2)}
        side_y = cy
    elif players == 3:
        side_y = cy - 130  # under the corners' panels (info, last trick)
        tricks = {"bottom": (cx, cy + 80), "left": (cx - 100, cy), "right": (cx + 100, cy)}
    else:
        side_y = cy - 50  # the trick sits low: the top seat's row (two lines at most) is above it
        tricks = {"bottom": (cx, cy + 112), "top": (cx, cy - 40), "left": (cx - 118, cy + 35)}
        tricks["right"] = (cx + 118, cy + 35)
    if tiles and players > 2:
        side_y = top_plate
    side_fan = side_y + fan_gap - (16 if tiles and players > 2 else 10)
    spots = {
        "bottom": Spot(
            "bottom",
            (cx, bottom_plate),
            (cx, bottom_plate - fan_gap),
            tricks["bottom"],
            (cx + wide // 2 + 16, bottom_plate),
            wide,
            "beside_plate",
        ),
        "top": Spot(
            "top",
            (cx, top_plate),
            (cx, top_plate + fan_gap - 16),
            tricks.get("top", (cx, cy)),
            (cx, top_plate + fan_gap - 16 + ROW_BELOW),
            wide,
            "beside_cards" if players == 2 else "under",
        ),
        "left": Spot(
            "left",
            (side_x, side_y),
            (side_x, side_fan),
            tricks.get("left", (cx, cy)),
            (side_x, side_fan + ROW_BELOW),
            pw,
        ),
        "right": Spot(
            "right",
            (width - side_x, side_y),
            (width - side_x, side_fan),
            tricks.get("right", (cx, cy)),
            (width - side_x, side_fan + ROW_BELOW),
            pw,
        ),
    }
    return tuple(replace(spots[p], key=(players, tiles, i)) for i, p in enumerate(POSITIONS[players]))


@lru_cache(maxsize=8)
def _base(players: int, tiles: bool) -> Image.Image:
    w, h = size(players)
    im = canvas.felt(w, h).copy()
    for spot in layout(players, tiles):
        canvas.paste(im, _normal_plate(spot.plate_w), spot.plate[0] - spot.plate_w // 2, spot.plate[1] - PLATE_H // 2)
    return im


def background(players: int, tiles: bool = False) -> Image.Image:
    """A fresh table to draw on: the felt with every seat's plain name plate already in place (cached)."""
    return _base(players, tiles).copy()


def _normal_plate(width: int) -> Image.Image:
    return canvas.plate(width, PLATE_H, palette.PLATE, palette.PLATE_EDGE, 18)


def screen_order(players: int, viewer: int | None) -> list[int]:
    """``order[p]`` = the seat drawn at screen position ``p`` (the viewer at the bottom)."""
    base = viewer if isinstance(viewer, int) and 0 <= viewer < players else 0
    return [(base + p) % players for p in range(players)]


def spots_by_seat(players: int, viewer: int | None, tiles: bool = False) -> dict[int, Spot]:
    spots = layout(players, tiles)
    return {seat: spots[p] for p, seat in enumerate(screen_order(players, viewer))}


# ------------------------------------------------------------------------------------------------------
# Plates and bubbles


def draw_plate(
    im: Image.Image,
    spot: Spot,
    name: str,
    total: str,
    *,
    active: bool = False,
    dealer: str | None = None,
    idle: bool = False,
    crown: bool = False,
    marks: list[Image.Image] | None = None,
    total_color: RGBA = palette.TEXT,
) -> None:
    """A seat's name plate: name (shortened to fit), total, dealer chip (``dealer``: its letter in the
    picture's language), turn highlight, the winner's crown and small marks (which wrap, never drop)."""
    pw = spot.plate_w
    x0 = spot.plate[0] - pw // 2
    y0 = spot.plate[1] - PLATE_H // 2
    fill = palette.PLATE
    if active or idle or crown:  # the plain plate is already on the background (``background``)
        state = "active" if active else "idle" if idle else "winner"
        fill = palette.PLATE_ACTIVE if active else palette.PLATE_IDLE if idle else palette.PLATE_WINNER
        if spot.key[0]:
            patch, px, py = _plate_patch(*spot.key, state)
            im.paste(patch, (px, py))
        else:  # a spot not from ``layout`` (tests): blend the plate
            canvas.paste(im, _lit_plate(pw, state), x0 - (16 if active else 0), y0 - (16 if active else 0))
    left = x0 + 12
    if dealer:
        canvas.paste(im, shapes.chip(48, dealer, (250, 250, 246), (40, 40, 48)), left, y0 + 4)
        left += 54
    right_edge = x0 + pw - 12
    if crown:
        icon = shapes.crown(40, 31, palette.GOLD[:3])
        canvas.paste(im, icon, right_edge - icon.width, y0 + 8)
        right_edge -= icon.width + 6
    name_color = palette.TEXT if not idle else palette.TEXT_DIM
    shown = fit_name(name, NAME_SIZE, True, right_edge - left)
    paste_text(im, (left, y0 + 5), shown, NAME_SIZE, name_color, bold=True, bg=fill)
    box = paste_text(im, (x0 + 14, y0 + PLATE_H - 6), total, BIG, total_color, bold=True, anchor="lb", bg=fill)
    x = box[2] + 10
    for mark in marks or ():
        if x + mark.width > x0 + pw - 8:
            break  # callers keep plate marks few (bolts, the barrel); anything else goes in the seat's row
        canvas.paste(im, mark, x, y0 + PLATE_H - 8 - mark.height)
        x += mark.width + 6


@lru_cache(maxsize=16)
def _lit_plate(width: int, state: str) -> Image.Image:
    """A plate whose seat is to act (gold, with a soft glow 16 px around), sits out (grey) or has won."""
    fill = {"active": palette.PLATE_ACTIVE, "idle": palette.PLATE_IDLE, "winner": palette.PLATE_WINNER}[state]
    outline = palette.PLATE_EDGE if state == "idle" else palette.HIGHLIGHT
    plate = canvas.plate(width, PLATE_H, fill, outline, 18)
    if state != "active":
        return plate
    im = canvas.halo(width, PLATE_H, palette.HIGHLIGHT[:3], 16).copy()
    im.alpha_composite(plate, (16, 16))
    return im


@lru_cache(maxsize=96)
def _plate_patch(players: int, tiles: bool, pos: int, state: str) -> tuple[Image.Image, int, int]:
    """The lit plate already laid on the felt at its seat's place: an opaque patch that is copied into a
    picture instead of blended (a glow is the largest blend a table would have)."""
    base = _base(players, tiles)
    spot = layout(players, tiles)[pos]
    sprite = _lit_plate(spot.plate_w, state)
    margin = (sprite.width - spot.plate_w) // 2
    x0 = spot.plate[0] - spot.plate_w // 2 - margin
    y0 = spot.plate[1] - PLATE_H // 2 - margin
    box = (max(0, x0), max(0, y0), min(base.width, x0 + sprite.width), min(base.height, y0 + sprite.height))
    patch = base.crop(box).convert("RGBA")
    # the patch starts where the sprite does, or at the picture's edge when a glow reaches past it
    patch.alpha_composite(sprite, (0, 0), (max(0, -x0), max(0, -y0)))
    return patch.convert("RGB"), box[0], box[1]


def bubble_sprite(text: str, fg: RGBA, bg: RGBA, size: int = BIG) -> Image.Image:
    """A pill with text (a bid, "pass", a contract, a round result)."""
    return _bubble(text, fg, bg, max(size, SMALL))


@cached_sprite(maxsize=512)
def _bubble(text: str, fg: RGBA, bg: RGBA, size: int) -> Image.Image:
    label = text_sprite(text, size, fg, True)
    h = max(BUBBLE_H, label.height + 10)
    w = max(h + 10, label.width + 28)
    pill = canvas.plate(w, h, bg, (0, 0, 0, 90), h // 2).copy()
    pill.alpha_composite(label, ((w - label.width) // 2, (h - label.height) // 2))
    return pill


def draw_extras(
    im: Image.Image, spot: Spot, fan_width: int, bubble: Image.Image | None, sprites: list[Image.Image]
) -> None:
    """What a seat said (a bubble) and its small marks (marriages, tricks taken, points, ...).

    Bottom seat: one row right of the plate, wrapping upwards. Top seat with 2 players: right of its
    cards. Every other seat: centred rows under the cards, wrapping downwards. Nothing is dropped.
    """
    row = ([bubble] if bubble is not None else []) + sprites
    if not row:
        return
    width = im.width
    if spot.row == "beside_plate":
        _flow(im, row, spot.bubble[0], width - MARGIN, spot.bubble[1], -1, align="left", anchor="middle")
        return
    if spot.row == "beside_cards":  # two players: room right of the top seat's cards
        x = spot.fan[0] + max(fan_width, 120) / 2 + 16
        _flow(im, row, x, width - MARGIN, spot.fan[1], 1, align="left", anchor="middle")
        return
    left = spot.plate[0] - spot.plate_w / 2  # within the plate's width: the corners' panels are beside it
    right = spot.plate[0] + spot.plate_w / 2
    _flow(im, row, max(MARGIN, left), min(width - MARGIN, right), spot.bubble[1], 1, align="center", anchor="top")


def _flow(
    im: Image.Image,
    sprites: list[Image.Image],
    left: float,
    right: float,
    y: float,
    step: int,
    align: str,
    anchor: str,
) -> None:
    """Sprites in rows between ``left`` and ``right``, the first row centred on ``y`` (``anchor``
    "middle") or with its top at ``y`` ("top"), the next ones below (``step`` 1) or above (-1)."""
    rows: list[list[Image.Image]] = [[]]
    for sp in sprites:
        if rows[-1] and _row_width(rows[-1] + [sp]) > right - left:
            rows.append([])
        rows[-1].append(sp)
    for i, r in enumerate(rows):
        h = max(sp.height for sp in r)
        if anchor == "top":
            y += h / 2  # ``y`` is now this row's middle
        x = left if align == "left" else (left + right) / 2 - _row_width(r) / 2
        for sp in r:
            canvas.paste(im, sp, x, y - sp.height / 2)
            x += sp.width + GAP
        if anchor == "top":
            y += h / 2 + 6
        else:
            nxt = max(sp.height for sp in rows[i + 1]) if i + 1 < len(rows) else h
            y += step * ((h + nxt) / 2 + 6)


def _row_width(sprites: list[Image.Image]) -> float:
    return sum(sp.width for sp in sprites) + GAP * max(len(sprites) - 1, 0)


def mark_sprites_sticks(count: int) -> list[Image.Image]:
    """Bolts as sticks on the plate (one per bolt)."""
    return [shapes.stick(9, 32)] * count


# ------------------------------------------------------------------------------------------------------
# Backs, trick, corner panels


@lru_cache(maxsize=128)
def fan(count: int) -> Image.Image:
    """``count`` card backs overlapped in a row, one sprite per count."""
    back = card_back(BACK_CARD)
    n = max(count, 0)
    im = Image.new("RGBA", (back.width + BACK_STEP * max(n - 1, 0), back.height), (0, 0, 0, 0))
    for i in range(n):
        im.alpha_composite(back, (i * BACK_STEP, 0))
    return canvas.opaque_bands(im) if n else im


def draw_fan(im: Image.Image, spot: Spot, count: int) -> int:
    """The backs a seat holds, centred on its fan spot, with their number beside them; returns the width."""
    if count <= 0:
        return 0
    sprite = fan(min(count, 24))
    canvas.paste_center(im, sprite, *spot.fan)
    tag = count_tag(count)
    canvas.paste(im, tag, spot.fan[0] - sprite.width / 2 - 8 - tag.width, spot.fan[1] - tag.height / 2)
    return sprite.width


def count_tag(count: int) -> Image.Image:
    """How many cards or tiles a seat holds, on a dark pill beside its backs."""
    return bubble_sprite(str(count), palette.TEXT, (10, 20, 16, 190), SMALL)


OWN_CARD = 72
OWN_SPAN = 400  # the widest the viewer's own cards may spread on the table
FACE_WIDTHS = tuple(sorted({*TRICK_CARDS.values(), TRICK_CARD, MINI_CARD, OWN_CARD}))  # every face width on a table


def draw_own_cards(im: Image.Image, spot: Spot, cards: list[str], style: str) -> int:
    """The viewer's own cards, face up and overlapped, where the others have backs (private view only)."""
    if not cards:
        return 0
    w, h = card_size(OWN_CARD)
    step = min(40, (OWN_SPAN - w) // max(len(cards) - 1, 1))
    total = w + step * (len(cards) - 1)
    x = spot.fan[0] - total / 2
    for card in cards:
        canvas.paste(im, card_face(card, OWN_CARD, style), x, spot.fan[1] - h / 2)
        x += step
    return total


def draw_trick(im: Image.Image, spots: dict[int, Spot], trick: list[dict], style: str, width: int = TRICK_CARD) -> None:
    """The cards of the trick in play, each in front of the seat that played it, in play order."""
    for entry in trick:
        spot = spots.get(entry.get("seat"))
        card = entry.get("card")
        if spot is None or not isinstance(card, str):
            continue
        canvas.paste_center(im, card_face(card, width, style), *spot.trick)


def draw_last_trick(
    im: Image.Image, cards: list[dict], winner: int | None, names: list[str], style: str, title: str
) -> None:
    """The previous trick, small, in the top-right corner (at the right edge's middle with 2 players,
    where the right is free): the cards in play order, the winner's card outlined, his name under them."""
    if not cards:
        return
    w, h = card_size(MINI_CARD)
    gap = 6
    right = im.width - MARGIN - 6
    total_w = len(cards) * w + (len(cards) - 1) * gap
    x0 = right - total_w
    top = MARGIN if len(names) != 2 else im.height // 2 - 90
    box = paste_text(
        im, (right, top), title, SMALL, palette.TEXT_DIM, bold=True, anchor="rt", max_width=330, shadow=True
    )
    y = box[3] + 6
    for i, entry in enumerate(cards):
        x = x0 + i * (w + gap)
        if entry.get("seat") == winner:
            canvas.paste(im, canvas.plate(w + 8, h + 8, (0, 0, 0, 0), palette.HIGHLIGHT, 9), x - 4, y - 4)
        canvas.paste(im, card_face(entry["card"], MINI_CARD, style), x, y)
    if isinstance(winner, int) and 0 <= winner < len(names):
        who = fit_name(names[winner], SMALL, True, 330)
        paste_text(im, (right, y + h + 8), f"\u2192 {who}", SMALL, palette.TEXT, bold=True, anchor="rt", shadow=True)


def draw_cards_row(
    im: Image.Image, cx: float, cy: float, cards: list[str | None], width: int, style: str, gap: int = 10
) -> None:
    """Cards side by side centred on (cx, cy); ``None`` draws a back."""
    w, h = card_size(width)
    total = len(cards) * w + (len(cards) - 1) * gap
    x = cx - total / 2
    for card in cards:
        sprite = card_back(width) if card is None else card_face(card, width, style)
        canvas.paste(im, sprite, x, cy - h / 2)
        x += w + gap


def suit_badge(suit: str, style: str, size: int = 40) -> Image.Image:
    """A suit symbol on a white disc, readable on the felt (trump mark)."""
    return _suit_badge(suit, style, size)


@lru_cache(maxsize=32)
def _suit_badge(suit: str, style: str, size: int) -> Image.Image:
    disc = shapes.chip(size + 16, "", (252, 252, 248), (210, 210, 204)).copy()
    icon = shapes.suit_icon(suit, size - 8, palette.suit_color(suit, style))
    disc.alpha_composite(icon, ((disc.width - icon.width) // 2, (disc.height - icon.height) // 2))
    return disc


def info_lines(im: Image.Image, lines: list[list[Image.Image]], bottom: bool = False) -> int:
    """The info panel: rows of sprites (text, badges), each row vertically centred, in the top-left
    corner (or the bottom-left one with ``bottom``); returns the panel's far edge."""
    rows = [row for row in lines if row]
    heights = [max(s.height for s in row) for row in rows]
    y = MARGIN if not bottom else im.height - MARGIN - sum(heights) - 6 * max(len(rows) - 1, 0)
    for row, h in zip(rows, heights):
        x = MARGIN + 6
        for s in row:
            canvas.paste(im, s, x, y + (h - s.height) / 2)
            x += s.width + 8
        y += h + 6
    return y


def label(text: str, size: int = SMALL, color: RGBA = palette.TEXT, bold: bool = True) -> Image.Image:
    return text_sprite(text, max(size, SMALL), color, bold, True)


def draw_card_seats(
    im: Image.Image,
    v: dict,
    names: list[str],
    spots: dict[int, Spot],
    style: str,
    *,
    lang: str,
    bubble: Callable[[int], Image.Image | None],
    marks: Callable[[int], list[Image.Image]],
    plate: Callable[[int], dict] | None = None,
) -> None:
    """Every seat of a card game: its plate (turn, dealer, winner), its cards (the viewer's face up, the
    others' as backs with their number) and its bubble and marks; ``plate`` adds game-specific arguments."""
    from renderers.hand import sort_cards
    from renderers.labels import number, word

    n = int(v["players"])
    totals = v.get("totals") or [0] * n
    counts = v.get("hand_counts") or [0] * n
    finished = bool(v.get("finished"))
    chip = word("dealer_chip", lang)
    for s in range(n):
        spot = spots[s]
        draw_plate(
            im,
            spot,
            names[s],
            number(int(totals[s])),
            active=not finished and v.get("to_act") == s,
            dealer=chip if v.get("dealer") == s else None,
            crown=v.get("winner") == s,
            **(plate(s) if plate else {}),
        )
        own = v.get("hand") if s == v.get("seat") else None
        if own:
            fan_w = draw_own_cards(im, spot, sort_cards(list(own), v["game"], v.get("trump")), style)
        else:
            fan_w = draw_fan(im, spot, int(counts[s]))
        draw_extras(im, spot, fan_w, bubble(s), marks(s))
