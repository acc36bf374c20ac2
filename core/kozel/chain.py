"""The line of tiles on the table as plain data a renderer can lay out, and what fits its two open ends.

The chain is a list of entries in play order::

    {"tile": "3-5", "end": "left", "seat": 2, "double": false, "pips": [5, 3]}

``end`` is the end the tile was added to (for the first tile: the end named in its action; it starts the
line), ``pips`` the two halves as they lie from left to right (the first tile ``a-b`` lies ``[a, b]``), so
``pips[0]`` of the leftmost tile is the left open value and ``pips[1]`` of the rightmost the right one.
``line(chain)`` gives the entries' indices from the left end to the right end.
"""

from __future__ import annotations

from typing import Any

from core.kozel.tiles import NON_DOUBLES_WITH, PIPS

ENDS = ("left", "right")


def fitting_ends(tile: str, left: int | None, right: int | None) -> list[str]:
    """The ends a tile may be laid on (both for the first tile of the round)."""
    if left is None:
        return ["left", "right"]
    a, b = PIPS[tile]
    out = []
    if a == left or b == left:
        out.append("left")
    if a == right or b == right:
        out.append("right")
    return out


def place(
    chain: list[dict[str, Any]], left: int | None, right: int | None, tile: str, end: str, seat: int
) -> tuple[int, int]:
    """Append the tile (it must fit) and return the new ``(left, right)`` open values."""
    a, b = PIPS[tile]
    if left is None or right is None:
        pips = [a, b]
        left, right = a, b
    elif end == "left":
        outer = b if a == left else a
        pips = [outer, left]
        left = outer
    else:
        outer = b if a == right else a
        pips = [right, outer]
        right = outer
    chain.append({"tile": tile, "end": end, "seat": seat, "double": a == b, "pips": pips})
    return left, right


def line(chain: list[dict[str, Any]]) -> list[int]:
    """Indices of the chain's entries from the left end to the right end."""
    if not chain:
        return []
    lefts = [i for i in range(1, len(chain)) if chain[i]["end"] == "left"]
    rights = [i for i in range(1, len(chain)) if chain[i]["end"] == "right"]
    return lefts[::-1] + [0] + rights


def is_fish(chain: list[dict[str, Any]], left: int | None, right: int | None) -> bool:
    """Both ends show the same value N and all six non-double N-tiles lie on the table (N-N anywhere)."""
    if left is None or left != right:
        return False
    on_table = {e["tile"] for e in chain}
    return all(t in on_table for t in NON_DOUBLES_WITH[left])
