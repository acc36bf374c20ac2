"""Sampled worlds for the strong Thousand player: a full ``ThousandState`` built from one seat's view, its
memory of the public events and a random deal of the cards it cannot see.

The hidden cards (not in the seat's hand, not played) are dealt to the other hands and face-down talons
so that every count matches the view and every inference holds: shown voids (not following suit, not
trumping), cards a seat was shown to hold (a declared marriage's partner, the shown talon the declarer
took, cards this seat gave), cards a seat cannot hold (a K or Q led without declaring), and marriages
that bids above 120 prove. When the inferences contradict each other the weakest are dropped.
"""

from __future__ import annotations

import random
from itertools import combinations
from typing import Any

from core.ai.sampling import deal_hidden
from core.ai.thousand.memory import Memory
from core.ai.thousand.table import options_of
from core.cards import SUITS
from core.thousand.cards import DECK, MARRIAGE
from core.thousand.state import ThousandState

Holder = int | tuple[str, int]


def hidden_cards(view: dict[str, Any], memory: Memory) -> tuple[list[str], dict[Holder, int]]:
    """The cards this seat cannot see and how many each hidden holder has; None-safe for any phase."""
    me = view["seat"]
    known = set(view["hand"]) | memory.played
    unknown = [c for c in DECK if c not in known]
    capacity: dict[Holder, int] = {}
    for s, count in enumerate(view["hand_counts"]):
        if s != me and count > 0:
            capacity[s] = count
    for i, t in enumerate(view["talons"]):
        if t["count"] > 0:
            capacity[("talon", i)] = t["count"]
    return unknown, capacity


def _pins(view: dict[str, Any], memory: Memory, unknown: set[str], rng: random.Random) -> dict[str, Holder]:
    me = view["seat"]
    pins: dict[str, Holder] = {}
    for g in view["given"]:
        if g["from"] == me and g["card"] in unknown:
            pins[g["card"]] = g["to"]
    for s, cards in enumerate(memory.holds):
        if s != me:
            for c in cards:
                if c in unknown:
                    pins.setdefault(c, s)
    d = view["declarer"]
    if d is not None and d != me and memory.talon:
        # the declarer may have given one of the shown talon cards to another receiver: surely so for a
        # card of a suit he has shown a void in, maybe so for the others
        talon_cards = sorted(c for c, h in pins.items() if h == d and c in memory.talon)
        forced = [c for c in talon_cards if c[1] in memory.voids[d]]
        for c in forced:
            del pins[c]
        for r in memory.gave_to:
            if r in (me, d):
                continue
            fits = [c for c in talon_cards if c[1] not in memory.voids[r] and c not in memory.lacks[r]]
            must = [c for c in forced if c in fits]
            if must:
                pins[must[0]] = r
            elif fits and not forced and rng.random() < 0.1 * len(fits):
                pins[rng.choice(fits)] = r
    return pins


def _marriage_needs(view: dict[str, Any], memory: Memory) -> dict[int, int]:
    """Marriage value each other seat must hold (or have held) to make its bids and contract legal."""
    me = view["seat"]
    needs: dict[int, int] = {}
    for s in view["active"]:
        if s == me:
            continue
        floor = 121 if view["barrel"][s] else 120
        need = memory.bid_marriage[s] + 120
        if view["declarer"] == s and view["contract"] is not None:
            need = max(need, view["contract"])
        if need > floor:
            needs[s] = need - 120
    return needs


def _pin_marriages(view, memory, unknown, pins, allowed_for, rng) -> None:  # noqa: ANN001
    for s, need in _marriage_needs(view, memory).items():
        have = 0
        possible = []
        for suit in SUITS:
            pair = ("K" + suit, "Q" + suit)
            states = []
            for c in pair:
                if memory.played_by.get(c) == s or pins.get(c) == s:
                    states.append("with")
                elif c in unknown and c not in pins and allowed_for(c, s):
                    states.append("maybe")
                else:
                    states.append("no")
            if states == ["with", "with"]:
                have += MARRIAGE[suit]
            elif "no" not in states:
                possible.append(suit)
        if have >= need:
            continue
        for size in range(1, len(possible) + 1):
            fits = [combo for combo in combinations(possible, size) if have + sum(MARRIAGE[x] for x in combo) >= need]
            if fits:
                for suit in rng.choice(fits):
                    for r in "KQ":
                        if r + suit in unknown and r + suit not in pins:
                            pins[r + suit] = s
                break


def sample_deal(view: dict[str, Any], memory: Memory, rng: random.Random) -> dict[Holder, list[str]] | None:
    """A random deal of the hidden cards consistent with what the seat knows (None if counts disagree).

    Inferences are dropped, weakest first, until a deal exists: the guess of which shown talon card the
    declarer gave away and the marriages bids prove, then where the talon cards are, then the undeclared
    leads, then the voids.
    """
    unknown, capacity = hidden_cards(view, memory)
    if sum(capacity.values()) != len(unknown):
        return None
    unknown_set = set(unknown)
    me = view["seat"]
    declarer = view["declarer"]
    voids, lacks = memory.voids, memory.lacks
    own = {g["card"]: g["to"] for g in view["given"] if g["from"] == me and g["card"] in unknown_set}
    talon = set(memory.talon or ())
    for level in range(5):
        pins = _pins(view, memory, unknown_set, rng) if level == 0 else dict(own)
        if level in (1, 2, 3):  # every card a seat was shown to hold, but the talon cards only loosely
            for s, cards in enumerate(memory.holds):
                if s != me and (level == 1 or s != declarer):
                    for c in cards:
                        if c in unknown_set and c not in talon:
                            pins.setdefault(c, s)

        def allowed_for(c: str, h: Holder, level: int = level) -> bool:
            if isinstance(h, tuple):
                return True
            if level <= 3 and c[1] in voids[h]:
                return False
            return not (level <= 2 and c in lacks[h])

        if level == 0:
            _pin_marriages(view, memory, unknown_set, pins, allowed_for, rng)
        loose = set()
        if level in (1, 2, 3) and declarer is not None and declarer != me:
            loose = {c for c in talon if c in unknown_set and c not in pins}
        receivers = {declarer, *memory.gave_to}
        allowed: dict[str, list[Holder]] = {}
        for c in unknown:
            if c in pins and pins[c] in capacity:
                allowed[c] = [pins[c]]
            elif c in loose:
                allowed[c] = [h for h in capacity if h in receivers and allowed_for(c, h)]
            else:
                allowed[c] = [h for h in capacity if allowed_for(c, h) and not (isinstance(h, tuple) and c in pins)]
        deal = deal_hidden(unknown, capacity, allowed, rng)
        if deal is not None:
            return deal
    return None  # pragma: no cover - the last level only pins this seat's own gives, always placeable


def build_state(view: dict[str, Any], memory: Memory, deal: dict[Holder, list[str]]) -> ThousandState:
    """The full game state of this world: the view's public facts, this seat's hand, the sampled cards."""
    n = view["players"]
    me = view["seat"]
    phase = view["phase"]
    st = ThousandState(n, options_of(n, view["options"]), 0, view["dealer"])
    sheet = view["score_sheet"]
    st.phase = phase
    st.dealer = st.next_dealer = view["dealer"]
    st.round_index = len(sheet) + 1
    st.rounds_scored = sum(1 for r in sheet if not r["redeal"])
    st.totals = list(view["totals"])
    st.bolts = list(view["bolts"])
    st.barrel = list(view["barrel"])
    st.barrel_attempts = list(view["barrel_attempts"])
    st.missed_barrels = list(view["missed_barrels"])
    st.history = []  # the score sheet is not needed to play the round out
    st.log = []
    hands: list[list[str]] = [[] for _ in range(n)]
    hands[me] = list(view["hand"])
    for h, cards in deal.items():
        if isinstance(h, int):
            hands[h] = list(cards)
    st.hands = hands
    declarer = view["declarer"]
    talons = []
    taken = None
    for i, t in enumerate(view["talons"]):
        if ("talon", i) in deal:
            talons.append(list(deal[("talon", i)]))
        elif t["cards"] is not None:
            talons.append(list(t["cards"]))
            taken = i
        else:  # taken face down: which cards they were is unknown and matters little
            size = 2 if n == 2 else 3
            pool = sorted(c for c, s in memory.played_by.items() if s == declarer) + hands[declarer]
            talons.append(pool[:size])
            taken = i
    st.talons = talons
    st.active = list(view["active"])
    st.sitting_out = view["sitting_out"]
    st.bids = list(view["bids"])
    st.bid = view["bid"]
    st.declarer = declarer
    st.turn = view["to_act"] if phase in ("bidding", "play") else None
    st.talon_taken = taken if phase in ("give", "contract", "play") else None
    if st.talon_taken is not None:
        st.talon_shown = memory.talon is not None if memory.started else view["talons"][taken]["cards"] is not None
    given = {g["to"]: g["card"] for g in view["given"]}
    receivers = memory.gave_to if memory.started else list(given)
    st.gives = [{"card": given.get(r), "from": declarer, "to": r} for r in receivers]
    st.contract = view["contract"]
    st.trump = view["trump"]
    st.trick = [[t["seat"], t["card"]] for t in view["trick"]]
    st.leader = view["leader"]
    st.tricks_taken = list(view["tricks_taken"])
    st.tricks_done = sum(st.tricks_taken)
    st.marriages = [dict(m) for m in view["marriages"]]
    mp = st.marriage_points
    st.card_pts = [view["round_points"][s] - mp[s] for s in range(n)]
    last = view["last_trick"]
    st.last_trick = None if last is None else {"cards": [dict(x) for x in last["cards"]], "winner": last["winner"]}
    st.played = sorted(memory.played)
    st.golden = view["golden"]
    st.round_actions = 1
    return st


def sample_world(view: dict[str, Any], memory: Memory, rng: random.Random) -> ThousandState | None:
    deal = sample_deal(view, memory, rng)
    return None if deal is None else build_state(view, memory, deal)
