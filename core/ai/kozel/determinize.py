"""Sampled worlds for the strong Kozel player: a full ``KozelState`` built from one seat's view, its memory
of the public events and a random deal of the tiles it cannot see (the other hands and the bazaar, in a
random draw order), consistent with the values each seat has shown it cannot hold.
"""

from __future__ import annotations

import random
from typing import Any

from core.ai.kozel.memory import Memory
from core.ai.sampling import deal_hidden
from core.kozel.options import KozelOptions
from core.kozel.state import KozelState
from core.kozel.tiles import PIPS, TILES

Holder = int | str
BAZAAR: Holder = "bazaar"


def sample_deal(view: dict[str, Any], memory: Memory, rng: random.Random) -> dict[Holder, list[str]] | None:
    me = view["seat"]
    known = set(view["hand"]) | {e["tile"] for e in view["chain"]}
    unknown = [t for t in TILES if t not in known]
    capacity: dict[Holder, int] = {s: c for s, c in enumerate(view["hand_counts"]) if s != me and c > 0}
    if view["bazaar_count"]:
        capacity[BAZAAR] = view["bazaar_count"]
    if sum(capacity.values()) != len(unknown):
        return None
    for level in range(3):  # 0: everything; 1: no lacked tiles; 2: nothing
        allowed: dict[str, list[Holder]] = {}
        for t in unknown:
            a, b = PIPS[t]
            hs: list[Holder] = []
            for h in capacity:
                if isinstance(h, int) and level < 2:
                    if a in memory.voids[h] or b in memory.voids[h]:
                        continue
                    if level == 0 and t in memory.lacks[h]:
                        continue
                hs.append(h)
            allowed[t] = hs
        deal = deal_hidden(unknown, capacity, allowed, rng)
        if deal is not None:
            if BAZAAR in deal:
                rng.shuffle(deal[BAZAAR])
            return deal
    return None


def build_state(view: dict[str, Any], memory: Memory, deal: dict[Holder, list[str]]) -> KozelState:
    n = view["players"]
    me = view["seat"]
    st = KozelState(n, KozelOptions.from_dict(n, view["options"]), 0)
    st.phase = "play"
    st.turn = view["to_act"]
    hands: list[list[str]] = [[] for _ in range(n)]
    hands[me] = list(view["hand"])
    for h, tiles in deal.items():
        if isinstance(h, int):
            hands[h] = list(tiles)
    st.hands = hands
    st.bazaar = list(deal.get(BAZAAR, []))
    st.chain = [dict(e, pips=list(e["pips"])) for e in view["chain"]]
    st.left, st.right = view["ends"]["left"], view["ends"]["right"]
    if view["first_rule"] and view["seat"] == view["to_act"]:
        st.forced = view["legal"][0]["tile"]
    st.lead_seat = view["lead_seat"]
    st._totals = list(view["totals"])
    st.remembered = list(view["remembered"])
    st.opened = list(view["opened"])
    st.carry = view["carry"]
    st.log = [{"deal": {"hands": [], "bazaar": []}, "actions": []}]
    return st


def sample_world(view: dict[str, Any], memory: Memory, rng: random.Random) -> KozelState | None:
    deal = sample_deal(view, memory, rng)
    return None if deal is None else build_state(view, memory, deal)
