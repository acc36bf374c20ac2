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
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image

from renderers import canvas, palette, shapes
from renderers.cards import card_back, card_face, card_size
from renderers.palette import RGBA
from renderers.text import paste_text, text_sprite

WIDTH, HEIGHT = 1280, 880
PLATE_W, PLATE_H = 300, 86
NAME_SIZE = 28
SMALL = 22
TRICK_CARD = 104
MINI_CARD = 62
BACK_CARD = 46
BACK_STEP = 15
BUBBLE_H = 46
MARGIN = 24

POSITIONS = {2: ("bottom", "top"), 3: ("bottom", "left", "right"), 4: ("bottom", "left", "top", "right")}


@dataclass(frozen=True)
class Spot:
    """Where one seat's things go, in pixels (centres)."""

    side: str
    plate: tuple[int, int]
    fan: tuple[int, int]
    trick: tuple[int, int]
    bubble: tuple[int, int]


@lru_cache(maxsize=16)
def layout(players: int, width: int = WIDTH, height: int = HEIGHT) -> tuple[Spot, ...]:
    """Spots by screen position (0 = bottom, then clockwise)."""
    cx, cy = width // 2, height // 2
    side_x = MARGIN + PLATE_W // 2 + 6
    side_y = cy - 30 if players == 4 else cy - 80
    trick_dy = -10 if players == 4 else -40
    bubble_dx = PLATE_W // 2 + 16 + 60
    spots = {
        "bottom": Spot("bottom", (cx, height - 62), (cx, height - 170), (cx, cy + 92), (cx + bubble_dx, height - 62)),
        "top": Spot("top", (cx, 62), (cx, 170), (cx, cy - 112), (cx + bubble_dx, 62)),
        "left": Spot(
            "left", (side_x, side_y), (side_x, side_y + 92), (cx - 150, cy + trick_dy), (side_x, side_y + 170)
        ),
        "right": Spot(
            "right",
            (width - side_x, side_y),
            (width - side_x, side_y + 92),
            (cx + 150, cy + trick_dy),
            (width - side_x, side_y + 170),
        ),
    }
    return tuple(spots[p] for p in POSITIONS[players])


@lru_cache(maxsize=8)
def _base(players: int) -> Image.Image:
    im = canvas.felt(WIDTH, HEIGHT).copy()
    for spot in layout(players):
        canvas.paste(im, _normal_plate(), spot.plate[0] - PLATE_W // 2, spot.plate[1] - PLATE_H // 2)
    return im


def background(players: int) -> Image.Image:
    """A fresh table to draw on: the felt with every seat's plain name plate already in place (cached)."""
    return _base(players).copy()


def _normal_plate() -> Image.Image:
    return canvas.plate(PLATE_W, PLATE_H, palette.PLATE, (255, 255, 255, 60), 18)


def screen_order(players: int, viewer: int | None) -> list[int]:
    """``order[p]`` = the seat drawn at screen position ``p`` (the viewer at the bottom)."""
    base = viewer if isinstance(viewer, int) and 0 <= viewer < players else 0
    return [(base + p) % players for p in range(players)]


def spots_by_seat(players: int, viewer: int | None, width: int = WIDTH, height: int = HEIGHT) -> dict[int, Spot]:
    spots = layout(players, width, height)
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
    dealer: bool = False,
    idle: bool = False,
    crown: bool = False,
    marks: list[Image.Image] | None = None,
    total_color: RGBA = palette.TEXT,
) -> None:
    """A seat's name plate: name (ellipsized), total, dealer chip, turn highlight and small marks."""
    x0 = spot.plate[0] - PLATE_W // 2
    y0 = spot.plate[1] - PLATE_H // 2
    if active:
        glow = canvas.halo(PLATE_W, PLATE_H, palette.HIGHLIGHT[:3], 16)
        canvas.paste(im, glow, x0 - 16, y0 - 16)
    if active or idle:  # the plain plate is already on the background (``background``)
        fill = palette.PLATE_ACTIVE if active else palette.PLATE_IDLE
        outline = palette.HIGHLIGHT if active else (255, 255, 255, 60)
        canvas.paste(im, canvas.plate(PLATE_W, PLATE_H, fill, outline, 18), x0, y0)
    left = x0 + 16
    if dealer:
        canvas.paste(im, shapes.chip(34, "D", (250, 250, 246), (40, 40, 48)), left, y0 + 8)
        left += 42
    right_edge = x0 + PLATE_W - 14
    if crown:
        icon = shapes.crown(36, 28, palette.GOLD[:3])
        canvas.paste(im, icon, right_edge - icon.width, y0 + 10)
        right_edge -= icon.width + 6
    name_color = palette.TEXT if not idle else palette.TEXT_DIM
    paste_text(im, (left, y0 + 8), name, NAME_SIZE, name_color, bold=True, max_width=right_edge - left)
    box = paste_text(im, (x0 + 16, y0 + PLATE_H - 10), total, SMALL + 2, total_color, bold=True, anchor="lb")
    x = box[2] + 12
    for mark in marks or ():
        if x + mark.width > x0 + PLATE_W - 10:
            break
        canvas.paste(im, mark, x, y0 + PLATE_H - 10 - mark.height)
        x += mark.width + 6


def bubble_sprite(text: str, fg: RGBA, bg: RGBA, size: int = 26) -> Image.Image:
    """A pill with text (a bid, "pass", a contract, a round result)."""
    return _bubble(text, fg, bg, size)


@lru_cache(maxsize=512)
def _bubble(text: str, fg: RGBA, bg: RGBA, size: int) -> Image.Image:
    label = text_sprite(text, size, fg, True)
    w = max(BUBBLE_H + 10, label.width + 30)
    pill = canvas.plate(w, BUBBLE_H, bg, (0, 0, 0, 90), BUBBLE_H // 2).copy()
    pill.alpha_composite(label, ((w - label.width) // 2, (BUBBLE_H - label.height) // 2))
    return pill


def draw_extras(
    im: Image.Image, spot: Spot, fan_width: int, bubble: Image.Image | None, sprites: list[Image.Image]
) -> None:
    """What a seat said (a bubble) and its small marks (marriages, tricks taken, ...).

    Bottom and top seats: the bubble beside the plate, the marks right of the fan. Left and right seats:
    everything in one centred row under the fan.
    """
    if spot.side in ("bottom", "top"):
        if bubble is not None:
            bx, by = spot.bubble
            canvas.paste(im, bubble, bx - 60, by - bubble.height / 2)
        x = spot.fan[0] + fan_width / 2 + 16 if fan_width else spot.fan[0] - _row_width(sprites) / 2
        for sp in sprites:
            canvas.paste(im, sp, x, spot.fan[1] - sp.height / 2)
            x += sp.width + 10
        return
    row = ([bubble] if bubble is not None else []) + sprites
    x = spot.bubble[0] - _row_width(row) / 2
    for sp in row:
        canvas.paste(im, sp, x, spot.bubble[1] - sp.height / 2)
        x += sp.width + 10


def _row_width(sprites: list[Image.Image]) -> float:
    return sum(sp.width for sp in sprites) + 10 * max(len(sprites) - 1, 0)


def mark_sprites_sticks(count: int) -> list[Image.Image]:
    """Bolts as sticks on the plate (one per bolt)."""
    return [shapes.stick(8, 30)] * count


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
    return im


def draw_fan(im: Image.Image, spot: Spot, count: int) -> int:
    """The backs a seat holds, centred on its fan spot; returns the fan's width."""
    if count <= 0:
        return 0
    sprite = fan(min(count, 24))
    canvas.paste_center(im, sprite, *spot.fan)
    if count > 10:
        label = text_sprite(str(count), SMALL, palette.TEXT, True, True)
        canvas.paste(im, label, spot.fan[0] - sprite.width / 2 - 8 - label.width, spot.fan[1] - label.height / 2)
    return sprite.width


OWN_CARD = 62
OWN_STEP = 30
FACE_WIDTHS = tuple(sorted({TRICK_CARD, MINI_CARD, OWN_CARD}))  # every width a card face has on a table


def draw_own_cards(im: Image.Image, spot: Spot, cards: list[str], style: str) -> int:
    """The viewer's own cards, face up and small, where the others have backs (private view only)."""
    if not cards:
        return 0
    w, h = card_size(OWN_CARD)
    total = w + OWN_STEP * (len(cards) - 1)
    x = spot.fan[0] - total / 2
    for card in cards:
        canvas.paste(im, card_face(card, OWN_CARD, style), x, spot.fan[1] - h / 2)
        x += OWN_STEP
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
    """The previous trick, small, in the top-right corner; the winner's card outlined."""
    if not cards:
        return
    w, h = card_size(MINI_CARD)
    gap = 8
    total_w = len(cards) * w + (len(cards) - 1) * gap
    x0 = WIDTH - MARGIN - 8 - total_w
    right = WIDTH - MARGIN - 8
    box = paste_text(
        im, (right, MARGIN + 4), title, SMALL, palette.TEXT_DIM, bold=True, anchor="rt", max_width=300, shadow=True
    )
    y = box[3] + 6
    for i, entry in enumerate(cards):
        x = x0 + i * (w + gap)
        if entry.get("seat") == winner:
            canvas.paste(im, canvas.plate(w + 10, h + 10, (0, 0, 0, 0), palette.HIGHLIGHT, 10), x - 5, y - 5)
        canvas.paste(im, card_face(entry["card"], MINI_CARD, style), x, y)
        seat = entry.get("seat")
        if isinstance(seat, int) and 0 <= seat < len(names):
            paste_text(im, (x + w / 2, y + h + 6), names[seat], 16, palette.TEXT, anchor="mt", max_width=w + gap)


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


def info_lines(im: Image.Image, lines: list[list[Image.Image]]) -> None:
    """The top-left info panel: rows of sprites (text, badges), each row vertically centred."""
    y = MARGIN + 4
    for row in lines:
        if not row:
            continue
        h = max(s.height for s in row)
        x = MARGIN + 8
        for s in row:
            canvas.paste(im, s, x, y + (h - s.height) / 2)
            x += s.width + 10
        y += h + 8


def label(text: str, size: int = SMALL, color: RGBA = palette.TEXT, bold: bool = True) -> Image.Image:
    return text_sprite(text, size, color, bold, True)


def draw_card_seats(
    im: Image.Image,
    v: dict,
    names: list[str],
    spots: dict[int, Spot],
    style: str,
    *,
    bubble: Callable[[int], Image.Image | None],
    marks: Callable[[int], list[Image.Image]],
    plate: Callable[[int], dict] | None = None,
) -> None:
    """Every seat of a card game: its plate (turn, dealer, winner), its cards (the viewer's face up, the
    others' as backs) and its bubble and marks; ``plate`` adds game-specific plate arguments."""
    from renderers.hand import sort_cards
    from renderers.labels import number

    n = int(v["players"])
    totals = v.get("totals") or [0] * n
    counts = v.get("hand_counts") or [0] * n
    finished = bool(v.get("finished"))
    for s in range(n):
        spot = spots[s]
        draw_plate(
            im,
            spot,
            names[s],
            number(int(totals[s])),
            active=not finished and v.get("to_act") == s,
            dealer=v.get("dealer") == s,
            crown=v.get("winner") == s,
            **(plate(s) if plate else {}),
        )
        own = v.get("hand") if s == v.get("seat") else None
        if own:
            fan_w = draw_own_cards(im, spot, sort_cards(list(own), v["game"], v.get("trump")), style)
        else:
            fan_w = draw_fan(im, spot, int(counts[s]))
        draw_extras(im, spot, fan_w, bubble(s), marks(s))
