"""Playing-card sprites drawn by our own code: faces (7..A of ♠♣♦♥), the back, dimmed faces.

Every sprite is drawn once per (card, width, deck style) — supersampled, then reduced — and kept in a
module-level cache; pictures only paste them. Cards are 5:7. Faces carry big corner indices (the rank and
the suit symbol, top-left and upside down bottom-right) so a fanned hand stays readable on a phone; 7..10
show their pips, J Q K a double-ended framed letter with a cap or crown, the ace one large symbol. Narrow
cards (under ``COMPACT_WIDTH``) drop the pips and show a bigger index and one suit symbol instead.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from renderers import palette, shapes
from renderers.canvas import opaque_bands
from renderers.measure import cached_sprite, note
from renderers.text import font

RANKS = ("7", "8", "9", "T", "J", "Q", "K", "A")
SUITS = ("S", "C", "D", "H")
ASPECT = 1.4
COMPACT_WIDTH = 84
DIM_TO = (92, 100, 96)

# Pip positions (u, v) in card units for 7..10 (v > 0.5 are drawn upside down, as on real cards).
_PIPS = {
    "7": [(0.38, 0.2), (0.62, 0.2), (0.5, 0.35), (0.38, 0.5), (0.62, 0.5), (0.38, 0.8), (0.62, 0.8)],
    "8": [(0.38, 0.2), (0.62, 0.2), (0.5, 0.35), (0.38, 0.5), (0.62, 0.5), (0.5, 0.65), (0.38, 0.8), (0.62, 0.8)],
    "9": [(0.38, 0.2), (0.62, 0.2), (0.38, 0.4), (0.62, 0.4), (0.5, 0.5), (0.38, 0.6), (0.62, 0.6)]
    + [(0.38, 0.8), (0.62, 0.8)],
    "T": [(0.38, 0.2), (0.62, 0.2), (0.5, 0.3), (0.38, 0.4), (0.62, 0.4), (0.38, 0.6), (0.62, 0.6)]
    + [(0.5, 0.7), (0.38, 0.8), (0.62, 0.8)],
}


def card_size(width: int) -> tuple[int, int]:
    return width, round(width * ASPECT)


def rank_label(rank: str) -> str:
    return "10" if rank == "T" else rank


def _supersample(width: int) -> int:
    return 4 if width < 100 else 3


def _rank_layer(label: str, size: int, color: tuple[int, int, int]) -> Image.Image:
    """The rank drawn tight in its ink; "10" is drawn condensed so that it is no wider than a letter."""
    f = font(size, True)
    x0, y0, x1, y1 = f.getbbox(label)
    im = Image.new("L", (x1 - x0 + 2, y1 - y0 + 2), 0)
    ImageDraw.Draw(im).text((-x0 + 1, -y0 + 1), label, font=f, fill=255)
    if len(label) > 1:
        im = im.resize((int(im.width * 0.6), im.height), Image.Resampling.LANCZOS)
    layer = Image.new("RGBA", im.size, (*color, 0))
    layer.putalpha(im)
    return layer


def _index(label: str, suit: str, W: int, color, compact: bool) -> Image.Image:
    """Rank over suit symbol, centred on each other, as one layer (drawn at supersampled scale)."""
    rank_size = int(W * (0.4 if compact else 0.3))
    suit_px = int(W * (0.3 if compact else 0.2))
    rank = _rank_layer(label, rank_size, color)
    gap = int(W * 0.03)
    w = max(rank.width, suit_px)
    h = rank.height + gap + suit_px
    layer = Image.new("RGBA", (w, h), (*color, 0))
    layer.alpha_composite(rank, ((w - rank.width) // 2, 0))
    sym = Image.new("L", (suit_px, suit_px), 0)
    shapes.draw_suit(ImageDraw.Draw(sym), suit, (0, 0, suit_px - 1, suit_px - 1), 255)
    ink = Image.new("RGBA", (suit_px, suit_px), (*color, 255))
    ink.putalpha(sym)
    layer.alpha_composite(ink, ((w - suit_px) // 2, rank.height + gap))
    return layer


def _draw_suit_at(im: Image.Image, suit: str, cx: float, cy: float, size: float, color, flip: bool) -> None:
    s = int(size)
    sym = Image.new("L", (s, s), 0)
    shapes.draw_suit(ImageDraw.Draw(sym), suit, (0, 0, s - 1, s - 1), 255)
    if flip:
        sym = sym.rotate(180)
    ink = Image.new("RGBA", (s, s), (*color, 255))
    ink.putalpha(sym)
    im.alpha_composite(ink, (int(cx - s / 2), int(cy - s / 2)))


def _court_half(rank: str, suit: str, w: int, h: int, color, style: str) -> Image.Image:
    """The upper half of a court card's frame: headgear over a big letter, a suit symbol beside it."""
    half = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    hat_w, hat_h = int(w * 0.66), int(h * 0.32)
    draw = {"K": shapes.crown, "Q": shapes.tiara, "J": shapes.cap}[rank]
    headgear = draw(hat_w, hat_h, color)
    half.alpha_composite(headgear, ((w - hat_w) // 2, int(h * 0.07)))
    letter = _rank_layer(rank, int(w * 0.74), color)
    half.alpha_composite(letter, ((w - letter.width) // 2, int(h * 0.44)))
    return half


def _draw_face(card: str, width: int, style: str) -> Image.Image:
    rank, suit = card[0], card[1]
    k = _supersample(width)
    w, h = card_size(width)
    W, H = w * k, h * k
    color = palette.suit_color(suit, style)
    compact = width < COMPACT_WIDTH
    im = Image.new("RGBA", (W, H), (0, 0, 0, 0))
    d = ImageDraw.Draw(im)
    d.rounded_rectangle(
        (0, 0, W - 1, H - 1),
        radius=W * 0.075,
        fill=(*palette.CARD_FACE, 255),
        outline=(*palette.CARD_EDGE, 255),
        width=k,
    )
    idx = _index(rank_label(rank), suit, W, color, compact)
    ix, iy = int(W * 0.05), int(H * 0.035)
    im.alpha_composite(idx, (ix, iy))
    if compact:
        _draw_suit_at(im, suit, W * 0.62, H * 0.7, W * 0.56, color, False)
        return im.reduce(k)
    im.alpha_composite(idx.rotate(180), (W - ix - idx.width, H - iy - idx.height))
    if rank in _PIPS:
        for u, v in _PIPS[rank]:
            _draw_suit_at(im, suit, W * u, H * v, W * 0.15, color, v > 0.5)
    elif rank == "A":
        _draw_suit_at(im, suit, W * 0.5, H * 0.5, W * 0.44, color, False)
    else:
        fx0, fy0, fx1, fy1 = int(W * 0.315), int(H * 0.06), int(W * 0.685), int(H * 0.94)
        d.rounded_rectangle(
            (fx0, fy0, fx1, fy1),
            radius=W * 0.04,
            fill=(*palette.tint(color, 0.88), 255),
            outline=(*color, 255),
            width=k * 2,
        )
        fw, fh = fx1 - fx0, fy1 - fy0
        top = _court_half(rank, suit, fw, fh // 2, color, style)
        im.alpha_composite(top, (fx0, fy0))
        im.alpha_composite(top.rotate(180), (fx0, fy0 + fh - top.height))
        mid = fy0 + fh // 2
        d.line((fx0 + k * 4, mid, fx1 - k * 4, mid), fill=(*palette.tint(color, 0.5), 255), width=k)
    return im.reduce(k)


def index_size(width: int) -> int:
    """The type size of a card's corner rank at this card width (what a reader sees of the card)."""
    k = _supersample(width)
    return int(width * k * (0.4 if width < COMPACT_WIDTH else 0.3)) // k


@cached_sprite(maxsize=1024)
def card_face(card: str, width: int, style: str = "classic", dim: bool = False) -> Image.Image:
    """The face of ``card`` (``AS``, ``TH``...) as an RGBA sprite ``width`` pixels wide; cached."""
    note(index_size(width))
    if len(card) != 2 or card[0] not in RANKS or card[1] not in SUITS:
        raise ValueError(f"not a card: {card!r}")
    if style not in palette.DECK_STYLES:
        raise ValueError(f"unknown deck style {style!r}")
    if dim:
        return opaque_bands(dimmed(card_face(card, width, style)))
    return opaque_bands(_draw_face(card, width, style))


def dimmed(sprite: Image.Image, amount: float = 0.55) -> Image.Image:
    """A sprite washed toward grey (a card or tile that may not be played now); alpha kept."""
    rgb = sprite.convert("RGB")
    grey = Image.new("RGB", sprite.size, DIM_TO)
    out = Image.blend(rgb, grey, amount).convert("RGBA")
    out.putalpha(sprite.getchannel("A"))
    return out


@lru_cache(maxsize=64)
def card_back(width: int) -> Image.Image:
    """The card back: a red lattice in a white border; cached per width."""
    k = _supersample(width)
    w, h = card_size(width)
    W, H = w * k, h * k
    im = Image.new("RGBA", (W, H), (0, 0, 0, 0))
    d = ImageDraw.Draw(im)
    d.rounded_rectangle(
        (0, 0, W - 1, H - 1),
        radius=W * 0.075,
        fill=(*palette.CARD_FACE, 255),
        outline=(*palette.CARD_EDGE, 255),
        width=k,
    )
    m = int(W * 0.07)
    inner = (m, m, W - 1 - m, H - 1 - m)
    d.rounded_rectangle(inner, radius=W * 0.05, fill=(*palette.BACK_MAIN, 255))
    lattice = Image.new("L", (W, H), 0)
    ld = ImageDraw.Draw(lattice)
    step = max(W // 7, 4)
    lw = max(k, W // 60)
    for x in range(-H, W + H, step):
        ld.line((x, 0, x + H, H), fill=255, width=lw)
        ld.line((x, H, x + H, 0), fill=255, width=lw)
    clip = Image.new("L", (W, H), 0)
    ImageDraw.Draw(clip).rounded_rectangle(inner, radius=W * 0.05, fill=255)
    lattice = Image.composite(lattice, Image.new("L", (W, H), 0), clip)
    im.paste(Image.new("RGBA", (W, H), (*palette.BACK_LINE, 255)), (0, 0), lattice)
    cx, cy, rx, ry = W / 2, H / 2, W * 0.2, H * 0.16
    d.ellipse((cx - rx, cy - ry, cx + rx, cy + ry), fill=(*palette.CARD_FACE, 255), outline=(*palette.BACK_LINE, 255))
    s = int(W * 0.2)
    _draw_suit_at(im, "S", cx, cy, s, palette.BACK_MAIN, False)
    d.rounded_rectangle(inner, radius=W * 0.05, outline=(*palette.tint(palette.BACK_MAIN, 0.4), 255), width=k)
    return opaque_bands(im.reduce(k))


def preload(widths: tuple[int, ...], style: str = "classic") -> None:
    """Draw every face and the back at these widths now (a bot may warm its caches at start)."""
    for width in widths:
        card_back(width)
        for s in SUITS:
            for r in RANKS:
                card_face(r + s, width, style)
