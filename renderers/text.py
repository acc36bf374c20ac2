"""Text for pictures: the shipped fonts, clean player names, ellipsizing and cached text sprites.

DejaVu Sans draws Latin, Cyrillic and our symbols; characters it lacks (Chinese, Japanese, Korean, ...)
are drawn with the fallback font, Droid Sans Fallback, run by run. Names come from chat users: emoji,
invisible characters and characters neither font can draw are stripped (a name left empty becomes
"Seat N"), and a name never overflows its box (cut by measured width, ending in ``…``). Rendered text is
cached as small RGBA sprites so that drawing a picture pastes instead of rasterizing glyphs again; every
sprite reports its type size to ``renderers.measure``.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from renderers.measure import cached_sprite, note

FONT_DIR = Path(__file__).resolve().parent.parent / "assets" / "fonts"
REGULAR = FONT_DIR / "DejaVuSans.ttf"
BOLD = FONT_DIR / "DejaVuSans-Bold.ttf"
FALLBACK = FONT_DIR / "DroidSansFallbackFull.ttf"  # CJK and other scripts DejaVu lacks (Apache 2.0)

ELLIPSIS = "…"
MAX_NAME_CHARS = 64

# Emoji and pictographs (stripped from names): ranges of code points.
_EMOJI_RANGES = (
    (0x1F000, 0x1FAFF),  # mahjong .. symbols and pictographs extended-A (incl. flags, skin tones)
    (0x2600, 0x27BF),  # miscellaneous symbols, dingbats
    (0x2300, 0x23FF),  # technical (watch, hourglass, ...)
    (0x2B00, 0x2BFF),  # arrows and stars used as emoji
    (0x1F900, 0x1F9FF),
    (0xFE00, 0xFE0F),  # variation selectors
    (0xE0000, 0xE007F),  # tags (subdivision flags)
    (0x20E3, 0x20E3),  # combining keycap
    (0x3030, 0x3030),
    (0x303D, 0x303D),
    (0x3297, 0x3299),
)


@lru_cache(maxsize=64)
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """The shipped DejaVu Sans at a pixel size (basic layout: fast, enough for Latin and Cyrillic)."""
    return ImageFont.truetype(str(BOLD if bold else REGULAR), size, layout_engine=ImageFont.Layout.BASIC)


@lru_cache(maxsize=64)
def fallback_font(size: int) -> ImageFont.FreeTypeFont:
    """The fallback font (one weight: bold text is drawn with a thin stroke)."""
    return ImageFont.truetype(str(FALLBACK), size, layout_engine=ImageFont.Layout.BASIC)


def _any_font(size: int, bold: bool, fallback: bool) -> ImageFont.FreeTypeFont:
    return fallback_font(size) if fallback else font(size, bold)


@lru_cache(maxsize=2)
def _notdef(fallback: bool) -> tuple[tuple[int, int], bytes]:
    mask = _any_font(24, False, fallback).getmask("\ue000")  # private use: the font's "missing" box
    return mask.size, bytes(mask)


@lru_cache(maxsize=4096)
def has_glyph(ch: str) -> bool:
    """Whether DejaVu Sans draws this character (not its missing-glyph box)."""
    mask = font(24).getmask(ch)
    return (mask.size, bytes(mask)) != _notdef(False)


@lru_cache(maxsize=4096)
def has_fallback_glyph(ch: str) -> bool:
    """Whether the fallback font draws this character."""
    mask = fallback_font(24).getmask(ch)
    return (mask.size, bytes(mask)) != _notdef(True)


@lru_cache(maxsize=2048)
def runs(text: str) -> tuple[tuple[str, bool], ...]:
    """``text`` cut into runs of (characters, drawn with the fallback font?)."""
    out: list[tuple[str, bool]] = []
    for ch in text:
        fb = not has_glyph(ch) and has_fallback_glyph(ch)
        if out and (out[-1][1] == fb or ch == " "):
            out[-1] = (out[-1][0] + ch, out[-1][1])
        else:
            out.append((ch, fb))
    return tuple(out)


def _is_emoji(cp: int) -> bool:
    return any(lo <= cp <= hi for lo, hi in _EMOJI_RANGES)


@lru_cache(maxsize=1024)
def clean_name(name: str | None, fallback: str = "?") -> str:
    """A name safe to draw: no emoji, no control/format characters, nothing the font lacks; else ``fallback``."""
    if not isinstance(name, str):
        return fallback
    out: list[str] = []
    for ch in name[:MAX_NAME_CHARS]:
        cp = ord(ch)
        cat = unicodedata.category(ch)
        if ch in "\r\n\t" or cat == "Zs":
            out.append(" ")
        elif _is_emoji(cp) or cat[0] == "C":
            continue
        elif cat.startswith("M"):
            if out and out[-1] != " ":
                out.append(ch)
        elif has_glyph(ch) or has_fallback_glyph(ch):
            out.append(ch)
    text = " ".join("".join(out).split())
    return text or fallback


@lru_cache(maxsize=4096)
def text_width(text: str, size: int, bold: bool = False) -> float:
    """The drawn width of ``text`` in pixels (each run measured with the font that draws it)."""
    return sum(_any_font(size, bold, fb).getlength(part) for part, fb in runs(text))


@lru_cache(maxsize=2048)
def ellipsize(text: str, size: int, bold: bool, max_width: int) -> str:
    """``text`` cut to fit ``max_width`` pixels (measured with the font), ending in ``…`` when cut."""
    if text_width(text, size, bold) <= max_width:
        return text
    lo, hi = 0, len(text)
    while lo < hi:  # the longest prefix that fits together with the ellipsis
        mid = (lo + hi + 1) // 2
        if text_width(text[:mid].rstrip() + ELLIPSIS, size, bold) <= max_width:
            lo = mid
        else:
            hi = mid - 1
    return text[:lo].rstrip() + ELLIPSIS if lo else ELLIPSIS


@cached_sprite(maxsize=4096)
def text_sprite(
    text: str,
    size: int,
    color: tuple[int, ...],
    bold: bool = False,
    shadow: bool = False,
    bg: tuple[int, ...] | None = None,
) -> Image.Image:
    """The text drawn once on a transparent RGBA sprite (tight around the line's ascent/descent); on an
    opaque ``bg`` colour (text on a plate of that colour) the sprite is opaque and pastes as a copy."""
    note(size)
    f = font(size, bold)
    ascent, descent = f.getmetrics()
    parts = runs(text)
    if any(fb for _p, fb in parts):
        fa, fd = fallback_font(size).getmetrics()
        ascent, descent = max(ascent, fa), max(descent, fd)
    width = max(1, int(text_width(text, size, bold) + 0.999))
    pad = 2 if shadow else 0
    im = Image.new("RGBA", (width + pad, ascent + descent + pad), (*bg[:3], 255) if bg else (0, 0, 0, 0))
    d = ImageDraw.Draw(im)
    x = 0.0
    for part, fb in parts:
        pf = _any_font(size, bold, fb)
        y = ascent - pf.getmetrics()[0]  # one baseline for every run
        stroke = max(1, size // 24) if fb and bold else 0
        if shadow:
            d.text((x + 2, y + 2), part, font=pf, fill=(0, 0, 0, 150), stroke_width=stroke, stroke_fill=(0, 0, 0, 150))
        d.text((x, y), part, font=pf, fill=color, stroke_width=stroke, stroke_fill=color)
        x += pf.getlength(part)
    if bg:
        from renderers.canvas import opaque_bands

        return opaque_bands(im)
    return im


def paste_text(
    canvas: Image.Image,
    xy: tuple[float, float],
    text: str,
    size: int,
    color: tuple[int, ...],
    bold: bool = False,
    anchor: str = "lt",
    max_width: int | None = None,
    shadow: bool = False,
    bg: tuple[int, ...] | None = None,
) -> tuple[int, int, int, int]:
    """Paste cached text at ``xy`` with an anchor like Pillow's (``l/m/r`` + ``t/m/b``); returns its box.
    ``bg``: the opaque colour under the text (a plate), for an opaque sprite that is copied, not blended."""
    if max_width is not None:
        text = ellipsize(text, size, bold, max_width)
    if not text:
        return (int(xy[0]), int(xy[1]), int(xy[0]), int(xy[1]))
    sprite = text_sprite(text, size, color, bold, shadow, bg)
    w, h = sprite.size
    x, y = xy
    if anchor[0] == "m":
        x -= w / 2
    elif anchor[0] == "r":
        x -= w
    if anchor[1] == "m":
        y -= h / 2
    elif anchor[1] == "b":
        y -= h
    box = (round(x), round(y))
    from renderers.canvas import paste

    paste(canvas, sprite, *box)
    return (box[0], box[1], box[0] + w, box[1] + h)
