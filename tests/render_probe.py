"""Test helpers for pictures: find a card or tile sprite in a picture, pixel for pixel (no numpy needed).

A sprite's opaque core (a card's corner index, a tile's pips) does not depend on what it was pasted on,
so if the sprite was pasted anywhere in the picture that exact block of pixels is there. The search looks
for one row of the core with ``bytes.find`` and checks the whole core at each hit.
"""

from __future__ import annotations

from PIL import Image


def card_core(sprite: Image.Image) -> tuple[int, int, int, int]:
    """The corner index of a card sprite (rank and suit symbol, always opaque)."""
    from renderers.cards import COMPACT_WIDTH

    w, h = sprite.size
    if w < COMPACT_WIDTH:  # small cards: a bigger index, reaching half-way down
        return (int(w * 0.05), int(h * 0.05), int(w * 0.42), int(h * 0.52))
    return (int(w * 0.05), int(h * 0.05), int(w * 0.34), int(h * 0.33))


def tile_core(sprite: Image.Image) -> tuple[int, int, int, int]:
    """The face of a tile inside its rounded border (both halves)."""
    w, h = sprite.size
    return (int(w * 0.12), int(h * 0.12), int(w * 0.88), int(h * 0.88))


def contains(picture: Image.Image, sprite: Image.Image, core: tuple[int, int, int, int]) -> bool:
    """Whether ``sprite``'s ``core`` box appears in ``picture`` exactly."""
    alpha = sprite.getchannel("A").crop(core)
    assert alpha.getextrema() == (255, 255), "the core of a sprite must be opaque"
    block = sprite.convert("RGB").crop(core)
    bw, bh = block.size
    rows = [block.crop((0, r, bw, r + 1)).tobytes() for r in range(bh)]
    # search for the most varied row; check the others (most varied first) straight in the picture's bytes
    variety = sorted(range(bh), key=lambda r: -len({rows[r][i : i + 3] for i in range(0, len(rows[r]), 3)}))
    key = variety[0]
    pic = picture if picture.mode == "RGB" else picture.convert("RGB")
    data = pic.tobytes()
    width, height = pic.size
    start = data.find(rows[key])
    while start >= 0:
        if start % 3 == 0:
            y, x = divmod(start // 3, width)
            top = y - key
            if top >= 0 and x + bw <= width and top + bh <= height:
                for r in variety[1:]:
                    off = ((top + r) * width + x) * 3
                    if data[off : off + 3 * bw] != rows[r]:
                        break
                else:
                    return True
        start = data.find(rows[key], start + 1)
    return False
