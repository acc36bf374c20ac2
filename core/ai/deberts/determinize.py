"""Sampled worlds for the strong Deberts player: a full ``DebertsState`` built from one seat's view, its
memory of the public events and a random deal of the cards it cannot see.

While bidding the hidden cards are the other six-card hands, every seat's three extra cards (this seat's
too), the bottom card and the rest of the stock; once trump is named they are the other hands and the
unseen part of the stock. Every count matches the view and every inference holds (voids, trumps a seat
could not hold when it had to beat, the runs and bella cards shown, the swapped open card); when the
inferences contradict each other the weakest are dropped.
"""

from __future__ import annotations

import random
from typing import Any

from core.ai.deberts.memory import Memory
from core.ai.sampling import deal_hidden
from core.deberts.cards import BELLA, DECK
from core.deberts.options import DebertsOptions
from core.deberts.state import DebertsState

Holder = int | tuple[str, int]
STOCK: Holder = ("stock", 0)
BOTTOM: Holder = ("bottom", 0)

_OPTIONS: dict[tuple[int, tuple], DebertsOptions] = {}


def options_of(players: int, data: dict[str, Any]) -> DebertsOptions:
    key = (players, tuple(sorted(data.items())))
    if key not in _OPTIONS:
        _OPTIONS[key] = DebertsOptions.from_dict(players, data)
    return _OPTIONS[key]


def hidden_cards(view: dict[str, Any], memory: Memory) -> tuple[list[str], dict[Holder, int]]:
    """The cards this seat cannot see and how many each hidden holder has."""
    me = view["seat"]
    n = view["players"]
    open_card = view["open_card"] or {}
    known = set(view["hand"]) | memory.played
    capacity: dict[Holder, int] = {}
    if view["phase"] == "bidding":
        known.add(open_card.get("card"))
        for s in range(n):
            if s != me:
                capacity[s] = view["hand_counts"][s]
            capacity[("extra", s)] = 3
        capacity[BOTTOM] = 1
        capacity[STOCK] = 32 - 9 * n - 2
    else:
        known.update(c for c in (open_card.get("shown"), view["bottom_card"]) if c)
        for s in range(n):
            if s != me and view["hand_counts"][s] > 0:
                capacity[s] = view["hand_counts"][s]
        capacity[STOCK] = view["stock_count"] - 2
    unknown = [c for c in DECK if c not in known]
    return unknown, capacity


def sample_deal(view: dict[str, Any], memory: Memory, rng: random.Random) -> dict[Holder, list[str]] | None:
    unknown, capacity = hidden_cards(view, memory)
    if sum(capacity.values()) != len(unknown) or any(v < 0 for v in capacity.values()):
        return None
    me = view["seat"]
    unknown_set = set(unknown)
    for level in range(3):  # 0: everything; 1: no trump caps; 2: only the cards seats were shown to hold
        allowed: dict[str, list[Holder]] = {}
        pins: dict[str, int] = {}
        for s, cards in enumerate(memory.holds):
            if s != me:
                for c in cards:
                    if c in unknown_set and s in capacity:
                        pins[c] = s
        for c in unknown:
            if c in pins:
                allowed[c] = [pins[c]]
                continue
            hs = []
            for h in capacity:
                if isinstance(h, int):
                    if level <= 1 and c[1] in memory.voids[h]:
                        continue
                    if level == 0 and c in memory.lacks[h]:
                        continue
                hs.append(h)
            allowed[c] = hs
        deal = deal_hidden(unknown, capacity, allowed, rng)
        if deal is not None:
            return deal
    return None


def build_state(view: dict[str, Any], memory: Memory, deal: dict[Holder, list[str]]) -> DebertsState:
    n = view["players"]
    me = view["seat"]
    phase = view["phase"]
    opts = options_of(n, view["options"])
    st = DebertsState(n, opts, 0, view["dealer"])
    st.dealer = st.next_dealer = view["dealer"]
    st.round = view["round"]
    st.phase = phase
    st._totals = list(view["totals"])
    st.pots = list(view["hanging"]["pots"])
    hands: list[list[str]] = [[] for _ in range(n)]
    hands[me] = list(view["hand"])
    for h, cards in deal.items():
        if isinstance(h, int):
            hands[h] = list(cards)
    open_card = view["open_card"]
    if phase == "bidding":
        extra = [list(deal[("extra", s)]) for s in range(n)]
        bottom = deal[BOTTOM][0]
        st.deal = {"hands": [list(h) for h in hands], "open": open_card["card"], "extra": extra, "bottom": bottom}
    else:
        st.deal = {"hands": [], "open": open_card["card"], "extra": [], "bottom": view["bottom_card"]}
    st.log = [{"deal": st.deal, "actions": []}]
    st.hands = hands
    st.open = open_card["card"]
    st.shown = open_card["shown"]
    st.swapped = open_card["swapped"]
    st.circle = view["circle"]
    st.bids = list(view["bids"])
    st.turn = view["to_act"]
    st.trump = view["trump"]
    st.declarer = view["declarer"]
    st.bottom = view["bottom_card"]
    st.trick = [[t["seat"], t["card"]] for t in view["trick"]]
    last = view["last_trick"]
    st.last = (
        None if last is None else {"cards": [[x["seat"], x["card"]] for x in last["cards"]], "winner": last["winner"]}
    )
    st.tricks = list(view["tricks_taken"])
    runs = view["runs"]
    pts = list(view["round_points"])
    if runs is not None:
        st.runs = {
            "by_seat": runs["by_seat"],
            "scorer": runs["scorer"],
            "points": runs["points"],
            "beaten": runs["beaten"],
            "status": runs["status"],
        }
        if runs["status"] == "scored":
            pts[runs["scorer"]] -= runs["points"]
    st.bella = view["bella"]
    if st.bella is not None:
        pts[st.bella] -= BELLA
    st.card_points = pts
    return st


def sample_world(view: dict[str, Any], memory: Memory, rng: random.Random) -> DebertsState | None:
    deal = sample_deal(view, memory, rng)
    return None if deal is None else build_state(view, memory, deal)
