"""Domino tile sprites drawn by our own code: faces with pips 0..6, horizontal and vertical, and the back.

A tile is ``length`` pixels along its long side and half as wide. ``tile_face(a, b, length, vertical)``
puts ``a`` on the left (horizontal) or on top (vertical). Sprites are drawn once, supersampled, and cached.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from renderers import palette
from renderers.canvas import opaque_bands
from renderers.cards import dimmed

SS = 4

# Pip centres in a half (unit square), for the vertical tile; the horizontal one is the same rotated.
_PIPS: dict[int, list[tuple[float, float]]] = {
    0: [],
    1: [(0.5, 0.5)],
    2: [(0.75, 0.25), (0.25, 0.75)],
    3: [(0.75, 0.25), (0.5, 0.5), (0.25, 0.75)],
    4: [(0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75)],
    5: [(0.25, 0.25), (0.75, 0.25), (0.5, 0.5), (0.25, 0.75), (0.75, 0.75)],
    6: [(0.27, 0.22), (0.27, 0.5), (0.27, 0.78), (0.73, 0.22), (0.73, 0.5), (0.73, 0.78)],
}


def parse_tile(code: str) -> tuple[int, int]:
    """``"3-5"`` -> ``(3, 5)``; raises ``ValueError`` for anything else."""
    a, sep, b = code.partition("-")
    if not sep or not a.isdigit() or not b.isdigit() or not (0 <= int(a) <= 6 and 0 <= int(b) <= 6):
        raise ValueError(f"not a tile: {code!r}")
    return int(a), int(b)


def tile_size(length: int, vertical: bool) -> tuple[int, int]:
    short = length // 2
    return (short, length) if vertical else (length, short)


def _outline(d: ImageDraw.ImageDraw, W: int, H: int, fill, edge) -> None:
    d.rounded_rectangle((0, 0, W - 1, H - 1), radius=W * 0.14, fill=(*fill, 255), outline=(*edge, 255), width=SS * 2)


def _draw_vertical(a: int, b: int, length: int) -> Image.Image:
    w, h = tile_size(length, True)
    W, H = w * SS, h * SS
    im = Image.new("RGBA", (W, H), (0, 0, 0, 0))
    d = ImageDraw.Draw(im)
    _outline(d, W, H, palette.TILE_FACE, palette.TILE_EDGE)
    # a soft shade along the bottom and right edges gives the tile some thickness
    d.rounded_rectangle(
        (W * 0.06, H * 0.03, W * 0.94, H * 0.97), radius=W * 0.1, outline=(228, 222, 204, 255), width=SS
    )
    mid = H / 2
    d.line((W * 0.12, mid, W * 0.88, mid), fill=(*palette.TILE_EDGE, 255), width=max(SS, int(W * 0.035)))
    r = W * 0.1
    for value, top in ((a, 0.0), (b, mid)):
        for u, v in _PIPS[value]:
            cx, cy = W * (0.08 + 0.84 * u), top + mid * (0.08 + 0.84 * v)
            d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=(*palette.TILE_PIP, 255))
    rr = W * 0.06
    d.ellipse((W / 2 - rr, mid - rr, W / 2 + rr, mid + rr), fill=(*palette.BRASS, 255))
    return im.reduce(SS)


@lru_cache(maxsize=1024)
def tile_face(a: int, b: int, length: int, vertical: bool = False, dim: bool = False) -> Image.Image:
    """The tile ``a|b`` (``a`` left or on top) as an RGBA sprite; cached."""
    if not (0 <= a <= 6 and 0 <= b <= 6):
        raise ValueError(f"not a tile: {a}-{b}")
    if dim:
        return opaque_bands(dimmed(tile_face(a, b, length, vertical), 0.5))
    if vertical:
        return opaque_bands(_draw_vertical(a, b, length))
    return opaque_bands(tile_face(a, b, length, True).rotate(90, expand=True))  # counter-clockwise: top goes left


@lru_cache(maxsize=32)
def tile_back(length: int, vertical: bool = False) -> Image.Image:
    """The back of a tile (bazaar, other players' tiles); cached."""
    if not vertical:
        return opaque_bands(tile_back(length, True).rotate(90, expand=True))
    w, h = tile_size(length, True)
    W, H = w * SS, h * SS
    im = Image.new("RGBA", (W, H), (0, 0, 0, 0))
    d = ImageDraw.Draw(im)
    _outline(d, W, H, palette.TILE_BACK, (20, 24, 40))
    m = W * 0.14
    d.rounded_rectangle((m, m, W - m, H - m), radius=W * 0.08, outline=(*palette.TILE_BACK_LINE, 255), width=SS * 2)
    cx, cy, s = W / 2, H / 2, W * 0.2
    d.polygon([(cx, cy - s), (cx + s, cy), (cx, cy + s), (cx - s, cy)], fill=(*palette.TILE_BACK_LINE, 255))
    return opaque_bands(im.reduce(SS))
