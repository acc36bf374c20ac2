"""Vector shapes drawn with polygons and ellipses: suit symbols, crowns, the barrel, sticks, chips.

Everything is drawn supersampled on a mask and reduced, so edges are smooth; results are cached.
A shape is described in unit coordinates (0..1 of its box) and scaled to the pixel box it is drawn in.
"""

from __future__ import annotations

import math
from functools import lru_cache

from PIL import Image, ImageDraw

from renderers.measure import cached_sprite, note
from renderers.palette import RGB

SS = 4  # supersampling factor for masks


def _pt(box: tuple[float, float, float, float], u: float, v: float) -> tuple[float, float]:
    x0, y0, x1, y1 = box
    return (x0 + (x1 - x0) * u, y0 + (y1 - y0) * v)


def _circle(d: ImageDraw.ImageDraw, box, cu: float, cv: float, r: float, fill) -> None:
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    cx, cy = x0 + w * cu, y0 + h * cv
    d.ellipse((cx - r * w, cy - r * h, cx + r * w, cy + r * h), fill=fill)


def _stem(d: ImageDraw.ImageDraw, box, fill) -> None:
    d.polygon([_pt(box, u, v) for u, v in ((0.45, 0.55), (0.55, 0.55), (0.7, 0.98), (0.3, 0.98))], fill=fill)


def draw_suit(d: ImageDraw.ImageDraw, suit: str, box: tuple[float, float, float, float], fill) -> None:
    """Draw a suit symbol filling ``box`` (x0, y0, x1, y1) with ``fill``."""
    if suit == "H":
        _circle(d, box, 0.275, 0.3, 0.265, fill)
        _circle(d, box, 0.725, 0.3, 0.265, fill)
        d.polygon([_pt(box, u, v) for u, v in ((0.02, 0.36), (0.5, 0.98), (0.98, 0.36), (0.5, 0.25))], fill=fill)
    elif suit == "S":
        _circle(d, box, 0.27, 0.56, 0.245, fill)
        _circle(d, box, 0.73, 0.56, 0.245, fill)
        d.polygon([_pt(box, u, v) for u, v in ((0.03, 0.5), (0.5, 0.0), (0.97, 0.5), (0.5, 0.66))], fill=fill)
        _stem(d, box, fill)
    elif suit == "C":
        _circle(d, box, 0.5, 0.25, 0.225, fill)
        _circle(d, box, 0.25, 0.57, 0.225, fill)
        _circle(d, box, 0.75, 0.57, 0.225, fill)
        _circle(d, box, 0.5, 0.5, 0.13, fill)
        _stem(d, box, fill)
    elif suit == "D":
        pts = []
        corners = ((0.5, 0.0), (0.9, 0.5), (0.5, 1.0), (0.1, 0.5))
        for i in range(4):  # slightly concave sides
            (u0, v0), (u1, v1) = corners[i], corners[(i + 1) % 4]
            for k in range(8):
                t = k / 8
                bow = 0.045 * math.sin(math.pi * t)
                u = u0 + (u1 - u0) * t + (0.5 - (u0 + (u1 - u0) * t)) * bow * 2
                v = v0 + (v1 - v0) * t + (0.5 - (v0 + (v1 - v0) * t)) * bow * 2
                pts.append(_pt(box, u, v))
        d.polygon(pts, fill=fill)
    else:
        raise ValueError(f"unknown suit {suit!r}")


@lru_cache(maxsize=256)
def suit_mask(suit: str, size: int) -> Image.Image:
    """An anti-aliased ``L`` mask of a suit symbol, ``size`` pixels square."""
    big = Image.new("L", (size * SS, size * SS), 0)
    draw_suit(ImageDraw.Draw(big), suit, (0, 0, size * SS - 1, size * SS - 1), 255)
    return big.reduce(SS)


@lru_cache(maxsize=256)
def suit_icon(suit: str, size: int, color: RGB, outline: RGB | None = None) -> Image.Image:
    """A suit symbol as an RGBA sprite (optionally with a thin outline so it reads on any background)."""
    pad = 2 if outline else 0
    im = Image.new("RGBA", (size + 2 * pad, size + 2 * pad), (*color, 0))
    if outline:
        ring = suit_mask(suit, size + 2 * pad)
        im.paste(Image.new("RGBA", im.size, (*outline, 255)), (0, 0), ring)
    im.paste(Image.new("RGBA", (size, size), (*color, 255)), (pad, pad), suit_mask(suit, size))
    return im


def _mask(size: tuple[int, int], draw) -> Image.Image:
    w, h = size
    big = Image.new("L", (w * SS, h * SS), 0)
    draw(ImageDraw.Draw(big), w * SS, h * SS)
    return big.reduce(SS)


def _colored(mask: Image.Image, color: RGB) -> Image.Image:
    im = Image.new("RGBA", mask.size, (*color, 255))
    im.putalpha(mask)
    return im


@lru_cache(maxsize=64)
def crown(width: int, height: int, color: RGB) -> Image.Image:
    """A king's crown: a band with three spikes tipped with balls (court cards, the winner's plate)."""

    def draw(d: ImageDraw.ImageDraw, w: int, h: int) -> None:
        r = h * 0.11
        base, top = h * 0.97, h * 0.2
        pts = [(w * 0.08, base), (w * 0.04, top + r), (w * 0.3, h * 0.62), (w * 0.5, top)]
        pts += [(w * 0.7, h * 0.62), (w * 0.96, top + r), (w * 0.92, base)]
        d.polygon(pts, fill=255)
        for x, y in ((0.04, top + r), (0.5, top), (0.96, top + r)):
            d.ellipse((w * x - r, y - 2 * r, w * x + r, y), fill=255)

    return _colored(_mask((width, height), draw), color)


@lru_cache(maxsize=64)
def tiara(width: int, height: int, color: RGB) -> Image.Image:
    """A queen's tiara: a band under a round arch with a jewel on top."""

    def draw(d: ImageDraw.ImageDraw, w: int, h: int) -> None:
        d.pieslice((w * 0.12, h * 0.3, w * 0.88, h * 1.55), 180, 360, fill=255)
        d.pieslice((w * 0.0, h * 0.62, w * 0.4, h * 1.3), 180, 360, fill=255)
        d.pieslice((w * 0.6, h * 0.62, w * 1.0, h * 1.3), 180, 360, fill=255)
        d.rectangle((w * 0.04, h * 0.8, w * 0.96, h * 0.98), fill=255)
        r = h * 0.12
        d.ellipse((w * 0.5 - r, h * 0.02, w * 0.5 + r, h * 0.02 + 2 * r), fill=255)
        d.ellipse((w * 0.5 - r * 0.8, h * 0.62, w * 0.5 + r * 0.8, h * 0.62 + 1.6 * r), fill=0)

    return _colored(_mask((width, height), draw), color)


@lru_cache(maxsize=64)
def cap(width: int, height: int, color: RGB) -> Image.Image:
    """A jack's beret with a feather."""

    def draw(d: ImageDraw.ImageDraw, w: int, h: int) -> None:
        d.ellipse((w * 0.08, h * 0.38, w * 0.86, h * 0.86), fill=255)
        d.rectangle((w * 0.18, h * 0.72, w * 0.76, h * 0.98), fill=255)
        d.polygon([(w * 0.6, h * 0.5), (w * 0.99, h * 0.02), (w * 0.92, h * 0.3), (w * 0.72, h * 0.56)], fill=255)

    return _colored(_mask((width, height), draw), color)


@lru_cache(maxsize=32)
def barrel(size: int, color: RGB = (150, 96, 44), hoop: RGB = (60, 44, 30)) -> Image.Image:
    """A small barrel icon (Thousand: a player sitting on the barrel)."""
    w, h = int(size * 0.8), size
    im = Image.new("RGBA", (w * SS, h * SS), (0, 0, 0, 0))
    d = ImageDraw.Draw(im)
    W, H = w * SS, h * SS
    d.rounded_rectangle((W * 0.05, H * 0.04, W * 0.95, H * 0.96), radius=W * 0.3, fill=(*color, 255))
    d.rectangle((W * 0.18, H * 0.04, W * 0.82, H * 0.96), fill=(*color, 255))
    lw = max(SS, int(H * 0.06))
    for v in (0.2, 0.8):
        d.line((W * 0.07, H * v, W * 0.93, H * v), fill=(*hoop, 255), width=lw)
    for u in (0.35, 0.65):
        d.line((W * u, H * 0.06, W * u, H * 0.94), fill=(*hoop, 110), width=max(SS // 2, lw // 2))
    d.rounded_rectangle((W * 0.05, H * 0.04, W * 0.95, H * 0.96), radius=W * 0.3, outline=(*hoop, 255), width=lw)
    return im.reduce(SS)


@cached_sprite(maxsize=32)
def chip(size: int, letter: str, fill: RGB, ring: RGB) -> Image.Image:
    """A round chip (the dealer button) with a ring and a letter in the middle."""
    from renderers.text import font

    if letter:
        note(int(size * SS * 0.55) // SS)

    im = Image.new("RGBA", (size * SS, size * SS), (0, 0, 0, 0))
    d = ImageDraw.Draw(im)
    S = size * SS
    d.ellipse((0, 0, S - 1, S - 1), fill=(*ring, 255))
    d.ellipse((S * 0.1, S * 0.1, S * 0.9, S * 0.9), fill=(*fill, 255))
    if letter:
        d.text((S / 2, S / 2), letter, font=font(int(S * 0.55), True), fill=(*ring, 255), anchor="mm")
    return im.reduce(SS)


@lru_cache(maxsize=32)
def stick(width: int, height: int, color: RGB = (236, 216, 170)) -> Image.Image:
    """A bolt drawn as a small stick, like the strokes players put on paper."""
    im = Image.new("RGBA", (width * SS, height * SS), (0, 0, 0, 0))
    d = ImageDraw.Draw(im)
    W, H = width * SS, height * SS
    d.rounded_rectangle((0, 0, W - 1, H - 1), radius=W // 2, fill=(*color, 255), outline=(90, 70, 40, 255), width=SS)
    return im.reduce(SS)


@lru_cache(maxsize=32)
def fish(width: int, color: RGB = (70, 150, 210)) -> Image.Image:
    """A small fish icon (Kozel: a round that ended in a fish)."""
    h = int(width * 0.55)
    im = Image.new("RGBA", (width * SS, h * SS), (0, 0, 0, 0))
    d = ImageDraw.Draw(im)
    W, H = width * SS, h * SS
    d.ellipse((W * 0.02, H * 0.12, W * 0.72, H * 0.88), fill=(*color, 255))
    d.polygon([(W * 0.62, H * 0.5), (W * 0.98, H * 0.1), (W * 0.98, H * 0.9)], fill=(*color, 255))
    d.ellipse((W * 0.14, H * 0.36, W * 0.24, H * 0.52), fill=(255, 255, 255, 255))
    return im.reduce(SS)
