"""Shared helpers of the Kozel tests: deals built from hand-picked tiles, records on disk, state snapshots."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from core.base import Action
from core.kozel import RULES, KozelState
from core.kozel.tiles import TILES

RECORDS = Path(__file__).parent / "records" / "kozel"


def deal_of(hands: list[list[str]], bazaar: list[str] | None = None) -> dict[str, Any]:
    """A full deal: the given hands, and the other tiles in the bazaar (in tile order unless given)."""
    if bazaar is None:
        used = {t for h in hands for t in h}
        bazaar = [t for t in TILES if t not in used]
    return {"hands": [list(h) for h in hands], "bazaar": list(bazaar)}


def start(
    hands: list[list[str]],
    bazaar: list[str] | None = None,
    fish: str = "all",
    leader: int | None = None,
    **fields: Any,
) -> KozelState:
    """A game whose next round is dealt from ``hands``; ``leader`` and score fields may be preset."""
    state = RULES.new_game(len(hands), {"fish": fish}, start=False)
    state.leader = leader
    for name, value in fields.items():
        setattr(state, name, value)
    state.next_round_in_place(deal_of(hands, bazaar))
    return state


def play(state: KozelState, seat: int, tile: str, end: str) -> list:
    return state.apply_in_place(Action(seat, "play", tile=tile, end=end))


def snapshot(state: KozelState) -> str:
    return json.dumps(state.to_json(), sort_keys=True)


def load_record(name: str) -> dict[str, Any]:
    return json.loads((RECORDS / f"{name}.json").read_text(encoding="utf-8"))


def load_expected(name: str) -> dict[str, Any]:
    return json.loads((RECORDS / f"{name}.expected.json").read_text(encoding="utf-8"))


# Design A (4 players, no bazaar): ten plays end in a fish on 0 while 0-0 is still in seat 2's hand.
HANDS_A = [
    ["1-1", "0-3", "5-6", "2-2", "1-3", "2-5", "4-6"],
    ["0-1", "3-4", "0-6", "3-3", "1-4", "2-6", "3-6"],
    ["1-2", "0-4", "0-0", "4-4", "1-5", "2-3", "4-5"],
    ["0-2", "0-5", "5-5", "6-6", "1-6", "2-4", "3-5"],
]
PLAYS_A = [
    (0, "1-1", "left"),
    (1, "0-1", "left"),
    (2, "1-2", "right"),
    (3, "0-2", "right"),
    (0, "0-3", "right"),
    (1, "3-4", "right"),
    (2, "0-4", "right"),
    (3, "0-5", "right"),
    (0, "5-6", "right"),
    (1, "0-6", "right"),
]
