"""Dealing Kozel: 7 tiles each, the rest is the bazaar (2-3 players), and the automatic redeal check.

A deal is ``{"hands": [[7 tiles] per seat], "bazaar": [tiles in draw order]}`` (docs/records.md). A deal from
the seed comes from ``core.rng.stream(seed, "deal", k)`` for the k-th dealt round (redeals count).
"""

from __future__ import annotations

from typing import Any

from core.base import BadDeal
from core.kozel.tiles import PIPS, TILES, is_double, normalize, sort_tiles
from core.rng import stream

HAND_SIZE = 7
MAX_DOUBLES = 4  # five or more doubles in one hand: redeal
MAX_SAME_VALUE = 5  # six or more tiles showing one value in one hand: redeal


def random_deal(seed: int | str, index: int, players: int) -> dict[str, Any]:
    """The deal of the ``index``-th dealt round (0-based) of a seeded game."""
    tiles = list(TILES)
    stream(seed, "deal", index).shuffle(tiles)
    hands = [sort_tiles(tiles[i * HAND_SIZE : (i + 1) * HAND_SIZE]) for i in range(players)]
    return {"hands": hands, "bazaar": tiles[players * HAND_SIZE :]}


def check_deal(deal: Any, players: int) -> dict[str, Any]:
    """Validate a record's deal and return it normalized (``5-3`` -> ``3-5``); raises ``BadDeal``."""
    if not isinstance(deal, dict):
        raise BadDeal("a kozel deal must be an object with 'hands' and 'bazaar'", "bad_deal")
    unknown = set(deal) - {"hands", "bazaar"}
    if unknown:
        raise BadDeal(f"unknown deal field '{sorted(unknown)[0]}'", "bad_deal")
    hands = deal.get("hands")
    if not isinstance(hands, list) or len(hands) != players:
        raise BadDeal(f"a kozel deal needs 'hands': one list per seat ({players})", "bad_deal")
    bazaar = deal.get("bazaar", [])
    if not isinstance(bazaar, list):
        raise BadDeal("the bazaar must be a list of tiles", "bad_deal")
    out_hands: list[list[str]] = []
    for seat, hand in enumerate(hands):
        if not isinstance(hand, list) or len(hand) != HAND_SIZE:
            raise BadDeal(f"seat {seat} must get exactly {HAND_SIZE} tiles", "bad_deal", seat=seat)
        out_hands.append([_tile(t) for t in hand])
    out_bazaar = [_tile(t) for t in bazaar]
    every = [t for h in out_hands for t in h] + out_bazaar
    if len(every) != len(TILES) or set(every) != set(TILES):
        seen: set[str] = set()
        dup = next((t for t in every if t in seen or seen.add(t)), None)
        if dup is not None:
            raise BadDeal(f"tile {dup} is dealt twice", "bad_deal", tile=dup)
        missing = sorted(set(TILES) - set(every))
        raise BadDeal(f"the deal is not the 28 tiles: {missing[0]} is missing", "bad_deal", tile=missing[0])
    return {"hands": out_hands, "bazaar": out_bazaar}


def _tile(text: Any) -> str:
    tile = normalize(text)
    if tile is None:
        raise BadDeal(f"{text!r} is not a domino tile", "bad_deal", tile=str(text))
    return tile


def redeal_reason(hand: list[str]) -> str | None:
    """``"doubles"`` (five or more doubles), ``"value"`` (six or more tiles sharing a value) or None."""
    if sum(1 for t in hand if is_double(t)) > MAX_DOUBLES:
        return "doubles"
    counts = [0] * 7
    for t in hand:
        a, b = PIPS[t]
        counts[a] += 1
        if b != a:
            counts[b] += 1
    if max(counts) > MAX_SAME_VALUE:
        return "value"
    return None


def redeal_seats(hands: list[list[str]]) -> list[int]:
    """Seats whose hand forces a redeal."""
    return [seat for seat, hand in enumerate(hands) if redeal_reason(hand) is not None]
