"""Colours of every picture, and the card deck styles (classic two-colour or four-colour)."""

from __future__ import annotations

RGB = tuple[int, int, int]
RGBA = tuple[int, int, int, int]

# Table and sheet
FELT: RGB = (28, 94, 62)
FELT_DARK: RGB = (16, 62, 40)
FELT_LIGHT: RGB = (40, 118, 80)
TABLE_RIM: RGB = (20, 72, 48)
# Name plates are opaque (the colours a translucent plate has over the felt near the table's edge), so a
# plate and the words on it are copied, not blended, into a picture.
PLATE: RGBA = (11, 40, 27, 255)
PLATE_EDGE: RGBA = (68, 90, 80, 255)
PLATE_ACTIVE: RGBA = (67, 62, 12, 255)
PLATE_IDLE: RGBA = (34, 53, 44, 255)
PLATE_WINNER: RGBA = (90, 71, 13, 255)
TEXT: RGBA = (244, 244, 236, 255)
TEXT_DIM: RGBA = (178, 196, 184, 255)
TEXT_DARK: RGBA = (30, 34, 32, 255)
HIGHLIGHT: RGBA = (255, 212, 64, 255)
GOOD: RGBA = (120, 220, 130, 255)
BAD: RGBA = (255, 110, 100, 255)
GOLD: RGBA = (240, 190, 60, 255)
WHITE: RGBA = (255, 255, 255, 255)

# Score sheet (paper)
PAPER: RGB = (250, 248, 240)
PAPER_LINE: RGB = (170, 190, 215)
PAPER_RULE: RGB = (200, 70, 70)
PAPER_HEAD: RGB = (232, 238, 246)
PAPER_GOLD: RGB = (255, 241, 196)
INK: RGBA = (28, 36, 60, 255)
INK_SOFT: RGBA = (110, 118, 136, 255)
INK_RED: RGBA = (200, 30, 40, 255)
INK_GREEN: RGBA = (20, 130, 60, 255)
INK_BLUE: RGBA = (30, 80, 190, 255)
INK_YELLOW: RGBA = (196, 150, 0, 255)
MARKER_YELLOW: RGBA = (255, 236, 120, 255)
MARKER_GOLD: RGBA = (255, 214, 90, 255)

# Cards
CARD_FACE: RGB = (253, 253, 250)
CARD_EDGE: RGB = (120, 120, 124)
BACK_MAIN: RGB = (150, 28, 44)
BACK_LINE: RGB = (196, 70, 84)
TILE_FACE: RGB = (250, 246, 232)
TILE_EDGE: RGB = (70, 66, 60)
TILE_PIP: RGB = (26, 26, 30)
TILE_BACK: RGB = (34, 46, 84)
TILE_BACK_LINE: RGB = (70, 90, 150)
BRASS: RGB = (190, 150, 70)

SUIT_RED: RGB = (204, 26, 42)
SUIT_BLACK: RGB = (24, 24, 30)
SUIT_BLUE: RGB = (22, 82, 206)
SUIT_GREEN: RGB = (18, 132, 58)

DECK_STYLES = ("classic", "four")


def suit_color(suit: str, style: str = "classic") -> RGB:
    """Ink of a suit: classic ♠♣ black, ♥♦ red; four-colour ♦ blue and ♣ green."""
    if style == "four":
        return {"S": SUIT_BLACK, "C": SUIT_GREEN, "D": SUIT_BLUE, "H": SUIT_RED}[suit]
    return SUIT_RED if suit in ("H", "D") else SUIT_BLACK


def tint(color: RGB, amount: float, toward: RGB = (255, 255, 255)) -> RGB:
    """``color`` moved ``amount`` (0..1) of the way toward ``toward``."""
    return tuple(round(c + (t - c) * amount) for c, t in zip(color, toward))  # type: ignore[return-value]
