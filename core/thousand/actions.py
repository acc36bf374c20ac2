"""The Thousand actions the engine hands out, each made once: one shared, immutable ``Action`` per seat and
decision, the JSON the record logs for each, and one shared ``card_played`` event per seat and card.

A role module below the engine (``engine.py``, ``bidding.py`` and ``fastpath.py`` take their actions here).
"""

from __future__ import annotations

from itertools import chain
from typing import Any

from core.base import Action, Event
from core.thousand.cards import DECK

# Actions are immutable named tuples: the engine hands out one shared object per decision instead of building
# a new one each time (legal actions are asked for at every step of every random game and search rollout).
PLAY = [{c: Action(s, "play", card=c) for c in DECK} for s in range(4)]
GIVE = [{c: [Action(s, "give", card=c, to=to) for to in range(4)] for c in DECK} for s in range(4)]
# bids and contracts that are multiples of 5, by value // 5 (so a run of them is one list slice)
_GIVE_TABLES: dict[tuple[int, tuple[int, ...]], dict[str, tuple[Action, ...]]] = {}


def give_table(seat: int, receivers: list[int]) -> dict[str, tuple[Action, ...]]:
    """card -> (the give of that card to each receiver, in order), for one seat; built once per receiver list."""
    key = (seat, tuple(receivers))
    table = _GIVE_TABLES.get(key)
    if table is None:
        table = _GIVE_TABLES[key] = {c: tuple(GIVE[seat][c][r] for r in receivers) for c in DECK}
    return table


BID_STEP = [[Action(s, "bid", value=5 * k) for k in range(201)] for s in range(4)]
CONTRACT_STEP = [[Action(s, "contract", value=5 * k) for k in range(201)] for s in range(4)]
# the actions without a card or value, and the talon choices, by seat
SIMPLE = {t: [Action(s, t) for s in range(4)] for t in ("pass", "concede", "redeal")}
TAKE_TALON = [[Action(s, "take_talon", index=i) for i in range(2)] for s in range(4)]
# The record logs each action as its JSON object: for the shared actions above it is built once, found by the
# ``id`` of the action (the tables live as long as the module, so no other object ever has one of those ids).
# Logged objects are never changed in place: ``copy`` shares them between states already, and ``record`` and
# ``to_json`` hand out deep copies.
LOG_JSON: dict[int, dict[str, Any]] = {
    id(a): a.to_json()
    for a in chain(
        *(table.values() for table in PLAY),
        *(acts for table in GIVE for acts in table.values()),
        *BID_STEP,
        *CONTRACT_STEP,
        *SIMPLE.values(),
        *TAKE_TALON,
    )
}
PLAY_LOG = [{c: LOG_JSON[id(a)] for c, a in table.items()} for table in PLAY]
# A played card is the most frequent event: one shared, read-only ``card_played`` event per seat and card.
CARD_PLAYED = [{c: Event("card_played", s, {"card": c}) for c in DECK} for s in range(4)]


def simple_action(seat: int, typ: str) -> Action:
    """``Action(seat, typ)``: the shared one for a seat number."""
    return SIMPLE[typ][seat] if type(seat) is int and 0 <= seat < 4 else Action(seat, typ)
