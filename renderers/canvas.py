"""Shared drawing pieces: cached felt backgrounds, plates (rounded panels), badges and the paste helper.

A picture starts as a copy of a cached background and gets sprites pasted on it; nothing here is drawn
twice for the same size.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw, ImageFilter

from renderers import palette
from renderers.palette import RGB, RGBA

BLOCK = 8  # JPEG's block size


@lru_cache(maxsize=32)
def felt(width: int, height: int, rim: bool = True) -> Image.Image:
    """A green felt table: a radial light in the middle, darker to the edges, and a rim.

    The light changes only from one 8x8 block to the next (each block is one flat colour, one step from
    its neighbours): it looks smooth, and JPEG codes a flat block as cheaply as a blank canvas.
    """
    bw, bh = -(-width // BLOCK), -(-height // BLOCK)
    small = Image.radial_gradient("L").resize((bw, bh), Image.Resampling.BILINEAR)
    light = Image.new("RGB", small.size, palette.FELT_LIGHT)
    dark = Image.new("RGB", small.size, palette.FELT_DARK)
    im = Image.composite(dark, light, small.point(lambda v: min(255, int(v * 1.15))))
    im = im.resize((bw * BLOCK, bh * BLOCK), Image.Resampling.NEAREST).crop((0, 0, width, height))
    if rim:
        d = ImageDraw.Draw(im)
        m = max(4, min(width, height) // 60)
        d.rounded_rectangle(
            (m, m, width - 1 - m, height - 1 - m), radius=m * 6, outline=palette.TABLE_RIM, width=max(2, m // 2)
        )
    return im


def background(width: int, height: int, rim: bool = True) -> Image.Image:
    """A fresh RGB canvas to draw one picture on (a copy of the cached felt)."""
    return felt(width, height, rim).copy()


@lru_cache(maxsize=256)
def plate(width: int, height: int, fill: RGBA, outline: RGBA | None = None, radius: int | None = None) -> Image.Image:
    """A rounded translucent panel (name plates, badges) as an RGBA sprite."""
    r = radius if radius is not None else height // 3
    ss = 3
    im = Image.new("RGBA", (width * ss, height * ss), (0, 0, 0, 0))
    d = ImageDraw.Draw(im)
    d.rounded_rectangle(
        (0, 0, width * ss - 1, height * ss - 1),
        radius=r * ss,
        fill=fill,
        outline=outline,
        width=3 * ss if outline else 0,
    )
    return opaque_bands(im.reduce(ss))


@lru_cache(maxsize=64)
def halo(width: int, height: int, color: RGB, spread: int = 14) -> Image.Image:
    """A soft glow around a ``width``x``height`` box (whose turn it is, playable tiles)."""
    W, H = width + 2 * spread, height + 2 * spread
    mask = Image.new("L", (W, H), 0)
    ImageDraw.Draw(mask).rounded_rectangle(
        (spread // 2, spread // 2, W - 1 - spread // 2, H - 1 - spread // 2), radius=spread + height // 6, fill=255
    )
    mask = mask.filter(ImageFilter.GaussianBlur(spread / 2.2))
    im = Image.new("RGBA", (W, H), (*color, 255))
    im.putalpha(mask)
    return im


def opaque_bands(sprite: Image.Image) -> Image.Image:
    """Mark a cached RGBA sprite whose middle rows are fully opaque (a card, a tile): ``paste`` then copies
    those rows without blending and blends only the rounded top and bottom bands (3-4× faster). Returns
    the sprite."""
    w, h = sprite.size
    alpha = sprite.getchannel("A")
    top = 0
    while top < h // 2 and alpha.crop((0, top, w, top + 1)).getextrema()[0] < 255:
        top += 1
    bottom = h
    while bottom > h // 2 and alpha.crop((0, bottom - 1, w, bottom)).getextrema()[0] < 255:
        bottom -= 1
    if bottom - top >= h // 2 and (w * h >= 4000 or (top == 0 and bottom == h)):  # small ones: one blend is cheaper
        sprite.opaque_split = (  # type: ignore[attr-defined]
            sprite.crop((0, 0, w, top)),
            sprite.crop((0, top, w, bottom)).convert("RGB"),
            top,
            sprite.crop((0, bottom, w, h)),
            bottom,
        )
    return sprite


def paste(canvas: Image.Image, sprite: Image.Image, x: float, y: float) -> None:
    """Paste an RGBA sprite with its alpha at (x, y) (top-left).

    On an RGB picture this calls Pillow's core paste directly (the checks of ``Image.paste`` cost as much
    as a small paste: a table has some 60 of them), and a sprite marked by ``opaque_bands`` has its opaque
    middle copied and only its rounded bands blended."""
    x, y = round(x), round(y)
    if canvas.mode != "RGB" or sprite.mode not in ("RGB", "RGBA"):
        canvas.paste(sprite, (x, y), sprite if sprite.mode in ("RGBA", "LA", "L") else None)
        return
    core = canvas.im
    split = getattr(sprite, "opaque_split", None)
    if split is not None:
        head, body, top, foot, bottom = split
        w = sprite.width
        if top:
            core.paste(head.im, (x, y, x + w, y + top), head.im)
        core.paste(body.im, (x, y + top, x + w, y + bottom))
        if foot.height:
            core.paste(foot.im, (x, y + bottom, x + w, y + bottom + foot.height), foot.im)
        return
    w, h = sprite.size
    if sprite.mode == "RGB":
        core.paste(sprite.im, (x, y, x + w, y + h))
    else:
        core.paste(sprite.im, (x, y, x + w, y + h), sprite.im)


def paste_center(canvas: Image.Image, sprite: Image.Image, cx: float, cy: float) -> None:
    paste(canvas, sprite, cx - sprite.width / 2, cy - sprite.height / 2)
