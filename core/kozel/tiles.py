"""Domino tiles of the double-six set: notation ``a-b`` with ``a <= b`` (``0-0`` … ``6-6``), pips and order.

Tiles are plain strings everywhere in the state. ``normalize`` reads user or record input (``5-3`` is
``3-5``); ``PIPS`` gives the two halves; ``TILE_ORDER`` sorts hands the way players hold them.
"""

from __future__ import annotations

TILES: tuple[str, ...] = tuple(f"{a}-{b}" for a in range(7) for b in range(a, 7))
TILE_SET: frozenset[str] = frozenset(TILES)
PIPS: dict[str, tuple[int, int]] = {t: (int(t[0]), int(t[2])) for t in TILES}
TILE_ORDER: dict[str, int] = {t: i for i, t in enumerate(TILES)}
DOUBLES: tuple[str, ...] = tuple(f"{v}-{v}" for v in range(7))
NON_DOUBLES_WITH: dict[int, tuple[str, ...]] = {
    v: tuple(t for t in TILES if v in PIPS[t] and PIPS[t][0] != PIPS[t][1]) for v in range(7)
}

_INPUT: dict[str, str] = {}
for _t in TILES:
    _a, _b = PIPS[_t]
    _INPUT[f"{_a}-{_b}"] = _t
    _INPUT[f"{_b}-{_a}"] = _t


def normalize(text: object) -> str | None:
    """The canonical form of a tile written ``a-b`` or ``b-a`` (``"5-3"`` -> ``"3-5"``), else None."""
    if not isinstance(text, str):
        return None
    return _INPUT.get(text)


def is_double(tile: str) -> bool:
    return tile[0] == tile[2]


def pip_sum(tile: str) -> int:
    a, b = PIPS[tile]
    return a + b


def fits(tile: str, value: int) -> bool:
    """Whether a tile can be laid against an open end showing ``value``."""
    a, b = PIPS[tile]
    return a == value or b == value


def other_half(tile: str, value: int) -> int:
    """The half that stays open after laying ``tile`` against ``value`` (the tile must fit)."""
    a, b = PIPS[tile]
    return b if a == value else a


def sort_tiles(tiles: list[str]) -> list[str]:
    return sorted(tiles, key=TILE_ORDER.__getitem__)


def first_lead_order() -> list[str]:
    """Round 1: the tile that must lead, first held wins: 1-1 … 6-6, 0-0, then the highest non-double.

    Non-doubles are ordered by the higher half, then the lower half: 5-6, 4-6, …, 0-6, 4-5, …, 0-1.
    """
    order = [f"{v}-{v}" for v in range(1, 7)] + ["0-0"]
    singles = [t for t in TILES if not is_double(t)]
    singles.sort(key=lambda t: (PIPS[t][1], PIPS[t][0]), reverse=True)
    return order + singles


FIRST_LEAD_ORDER: tuple[str, ...] = tuple(first_lead_order())
