"""The hand picture: one seat's cards (sorted, trump first, unplayable ones dimmed) or domino tiles.

Cards are fanned left to right with their corner indices showing, grouped by suit with a small gap
between suits; under the trump cards (first) the trump suit's symbol and a gold bar as far as they show.
When some of the cards may be played now (the view's ``legal`` actions name cards), those are raised and
the others dimmed. Tiles stand upright in a row (two rows when a player drew many from the bazaar);
playable tiles are raised with a glow.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from PIL import Image

from renderers import canvas, palette, shapes
from renderers.cards import card_face, card_size
from renderers.dominoes import parse_tile, tile_face, tile_size

CARD_WIDTH = 150
STEP = 0.62  # visible part of an overlapped card, in card widths
TIGHT_STEP = 0.44  # with more than TIGHT_FROM cards: still the whole corner index, a narrower picture
TIGHT_FROM = 8
SUIT_GAP = 0.14
PAD = 18
RAISE = 26
TILE_LENGTH = 168
TILE_GAP = 14
TILES_PER_ROW = 10
TRUMP_ICON = 14  # the trump suit's symbol under the hand, before the gold bar under the trump cards
TRUMP_MARK_GAP = 6

# Rank order high to low, per game (Deberts' trump suit has its own).
RANK_ORDER = {"thousand": "ATKQJ9", "deberts": "ATKQJ987"}
TRUMP_RANK_ORDER = {"deberts": "J9ATKQ87"}
_BLACK, _RED = ("S", "C"), ("H", "D")


def suit_order(trump: str | None) -> list[str]:
    """Suits in display order: trump first, colours alternating where possible."""
    if trump not in ("S", "C", "D", "H"):
        return ["S", "H", "C", "D"]
    same = [s for s in (_BLACK if trump in _BLACK else _RED) if s != trump]
    other = list(_RED if trump in _BLACK else _BLACK)
    return [trump, other[0], same[0], other[1]]


def sort_cards(cards: list[str], game: str, trump: str | None = None) -> list[str]:
    """Cards by suit (trump first) and rank (high to low, the game's own order)."""
    suits = suit_order(trump)
    plain = RANK_ORDER.get(game, "AKQJT98765432")
    trump_order = TRUMP_RANK_ORDER.get(game, plain)

    def key(card: str) -> tuple[int, int]:
        order = trump_order if card[1] == trump else plain
        return (suits.index(card[1]), order.index(card[0]) if card[0] in order else len(order))

    return sorted(cards, key=key)


def legal_cards(view: dict[str, Any]) -> set[str]:
    return {a["card"] for a in view.get("legal") or () if isinstance(a, dict) and isinstance(a.get("card"), str)}


def legal_tiles(view: dict[str, Any]) -> set[tuple[int, int]]:
    out = set()
    for a in view.get("legal") or ():
        if isinstance(a, dict) and isinstance(a.get("tile"), str):
            x, y = parse_tile(a["tile"])
            out.add((min(x, y), max(x, y)))
    return out


def draw_cards(
    cards: list[str], legal: set[str], style: str = "classic", width: int = CARD_WIDTH, trump: str | None = None
) -> Image.Image:
    """The fan of cards (already sorted) as an RGB image."""
    w, h = card_size(width)
    marking = bool(legal) and not set(cards) <= legal
    xs = _card_xs(cards, width)
    total_w = (xs[-1] + w + PAD) if cards else 2 * PAD + w
    total_h = h + 2 * PAD + (RAISE if marking else 0)
    im = Image.new("RGB", (total_w, total_h), palette.FELT)  # plain felt: a hand is a narrow strip
    top = PAD + (RAISE if marking else 0)
    if not cards:
        canvas.paste(im, canvas.plate(w, h, (0, 0, 0, 60), (255, 255, 255, 90), radius=width // 12), PAD, top)
        return im
    trumps = [i for i, card in enumerate(cards) if card[1] == trump]
    if trumps:  # the trump suit's symbol and a gold bar under the trump cards, as far as they show
        first, last = xs[trumps[0]], trumps[-1]
        end = xs[last + 1] - TRUMP_MARK_GAP if last + 1 < len(cards) else xs[last] + w
        y = total_h - PAD + 3
        icon = shapes.suit_icon(trump, TRUMP_ICON, palette.GOLD[:3])
        canvas.paste(im, icon, first, y)
        left = first + TRUMP_ICON + TRUMP_MARK_GAP
        if end > left:
            canvas.paste(im, canvas.plate(end - left, 8, palette.GOLD, None, 4), left, y + (TRUMP_ICON - 8) // 2)
    for card, x in zip(cards, xs):
        playable = card in legal
        sprite = card_face(card, width, style, dim=marking and not playable)
        canvas.paste(im, sprite, x, top - (RAISE if marking and playable else 0))
    return im


def _card_xs(cards: list[str], width: int) -> list[int]:
    """Where each card of the fan starts (overlapped, a small gap between suits)."""
    step = round(width * (TIGHT_STEP if len(cards) > TIGHT_FROM else STEP))
    gap = round(width * SUIT_GAP)
    xs: list[int] = []
    x = PAD
    for i, card in enumerate(cards):
        if i and card[1] != cards[i - 1][1]:
            x += gap
        xs.append(x)
        x += step
    return xs


def _tile_rows(tiles: list[tuple[int, int]]) -> list[list[tuple[int, int]]]:
    n_rows = max(1, -(-len(tiles) // TILES_PER_ROW))
    per = max(1, -(-len(tiles) // n_rows))
    return [tiles[i : i + per] for i in range(0, len(tiles), per)] or [[]]


def draw_tiles(tiles: list[tuple[int, int]], legal: set[tuple[int, int]], length: int = TILE_LENGTH) -> Image.Image:
    """The seat's tiles standing upright, playable ones raised with a glow."""
    tw, th = tile_size(length, True)
    marking = bool(legal)
    rows = _tile_rows(tiles)
    per_row = max(len(r) for r in rows) or 1
    row_h = th + (RAISE if marking else 0) + PAD
    total_w = 2 * PAD + per_row * tw + (per_row - 1) * TILE_GAP
    total_h = PAD + len(rows) * row_h
    im = Image.new("RGB", (total_w, total_h), palette.FELT)
    for r, row in enumerate(rows):
        top = PAD + r * row_h + (RAISE if marking else 0)
        for i, (a, b) in enumerate(row):
            x = PAD + i * (tw + TILE_GAP)
            playable = (a, b) in legal
            y = top - (RAISE if playable else 0)
            margin = GLOW if playable else 0
            im.paste(_tile_on_felt(a, b, length, marking and not playable, playable), (x - margin, y - margin))
    if not tiles:
        canvas.paste(im, canvas.plate(tw, th, (0, 0, 0, 60), (255, 255, 255, 90), radius=tw // 6), PAD, PAD)
    return im


GLOW = 12


@lru_cache(maxsize=256)
def _tile_on_felt(a: int, b: int, length: int, dim: bool, glow: bool) -> Image.Image:
    """A standing tile already laid on the hand's plain felt (with its glow when playable): an opaque
    patch copied into the picture (tiles do not overlap, so nothing under them is lost)."""
    tile = tile_face(a, b, length, True, dim=dim)
    margin = GLOW if glow else 0
    im = Image.new("RGBA", (tile.width + 2 * margin, tile.height + 2 * margin), (*palette.FELT, 255))
    if glow:
        im.alpha_composite(canvas.halo(tile.width, tile.height, palette.HIGHLIGHT[:3], GLOW))
    im.alpha_composite(tile, (margin, margin))
    return im.convert("RGB")


def _tile_key(code: str) -> tuple[int, int]:
    a, b = parse_tile(code)
    return (min(a, b), max(a, b))


def picture_order(view: dict[str, Any]) -> list[str]:
    """The seat's cards or tiles (their codes) in the order the hand picture shows them, left to right and row
    by row: the order a keyboard follows so that a button is found where the picture shows its card."""
    hand = list(view.get("hand") or ())
    if view.get("game") == "kozel":
        return sorted(hand, key=_tile_key)
    return sort_cards(hand, str(view.get("game")), view.get("trump"))


def hand_image(view: dict[str, Any], style: str = "classic") -> Image.Image:
    if view.get("hand") is None:
        raise ValueError("the public view holds no hand: render a seat's own view")
    if view.get("game") == "kozel":
        return draw_tiles([_tile_key(code) for code in picture_order(view)], legal_tiles(view))
    trump = view.get("trump")
    return draw_cards(picture_order(view), legal_cards(view), style, trump=trump)


Box = tuple[int, int, int, int]


def hand_boxes(view: dict[str, Any]) -> list[tuple[str, Box]]:
    """Where each card or tile is in ``hand_image(view)``: ``(code, (left, top, right, bottom))`` in picture
    pixels, in ``picture_order``, the visible part of an overlapped card only. A tile's code is ``"low-high"``."""
    out: list[tuple[str, Box]] = []
    if view.get("game") == "kozel":
        tiles = [_tile_key(code) for code in picture_order(view)]
        tw, th = tile_size(TILE_LENGTH, True)
        raise_ = RAISE if legal_tiles(view) else 0
        for r, row in enumerate(_tile_rows(tiles)):
            top = PAD + r * (th + raise_ + PAD)
            for i, (a, b) in enumerate(row):
                x = PAD + i * (tw + TILE_GAP)
                out.append((f"{a}-{b}", (x, top, x + tw, top + th + raise_)))
        return out
    cards = picture_order(view)
    w, h = card_size(CARD_WIDTH)
    legal = legal_cards(view)
    raise_ = RAISE if legal and not set(cards) <= legal else 0
    xs = _card_xs(cards, CARD_WIDTH)
    for i, (card, x) in enumerate(zip(cards, xs)):
        right = xs[i + 1] if i + 1 < len(xs) else x + w
        out.append((card, (x, PAD, right, PAD + h + raise_)))
    return out
