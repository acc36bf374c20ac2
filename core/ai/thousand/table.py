"""``Table``: one seat's picture of a Thousand round, the single input of the easy and normal policies.

It is built either from the seat's view plus its ``Memory`` of the public events (a real decision) or
from a search state plus a play-out memory (``from_state``; that state is a sampled world, so reading
it hides nothing from anyone). Both give the policies the same fields.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from core.ai.thousand.memory import Memory
from core.base import Action
from core.thousand.cards import DECK
from core.thousand.options import ThousandOptions

_OPTIONS_CACHE: dict[tuple[int, tuple], ThousandOptions] = {}


def options_of(players: int, data: dict[str, Any]) -> ThousandOptions:
    key = (players, tuple(sorted(data.items())))
    opts = _OPTIONS_CACHE.get(key)
    if opts is None:
        opts = _OPTIONS_CACHE[key] = ThousandOptions.from_dict(players, data)
    return opts


@dataclass(slots=True)
class Table:
    seat: int
    players: int
    phase: str
    hand: list[str]
    legal: list[Action]
    active: list[int]
    first_hand: int
    declarer: int | None
    bid: int | None
    bids: list[Any]
    contract: int | None
    trump: str | None
    trick: list[tuple[int, str]]
    tricks_done: int
    round_points: list[int]
    tricks_taken: list[int]
    totals: list[int]
    barrel: list[bool]
    barrel_attempts: list[int]
    bolts: list[int]
    options: ThousandOptions
    memory: Memory
    talons: list[dict[str, Any]]  # the view's talons: {"count", "cards"}

    def unseen(self) -> set[str]:
        """Cards neither in this seat's hand nor played this round."""
        return set(DECK).difference(self.hand, self.memory.played)

    def is_opponent(self, other: int) -> bool:
        """The declarer plays against everyone; the defenders play against the declarer."""
        if other == self.seat:
            return False
        if self.declarer is None or self.seat == self.declarer:
            return True
        return other == self.declarer


def from_view(view: dict[str, Any], memory: Memory, legal: list[Action]) -> Table:
    n = view["players"]
    seat = view["seat"]
    trick = [(t["seat"], t["card"]) for t in view["trick"]]
    return Table(
        seat=seat,
        players=n,
        phase=view["phase"],
        hand=list(view["hand"]),
        legal=legal,
        active=list(view["active"]),
        first_hand=view["first_hand"],
        declarer=view["declarer"],
        bid=view["bid"],
        bids=list(view["bids"]),
        contract=view["contract"],
        trump=view["trump"],
        trick=trick,
        tricks_done=sum(view["tricks_taken"]),
        round_points=list(view["round_points"]),
        tricks_taken=list(view["tricks_taken"]),
        totals=list(view["totals"]),
        barrel=list(view["barrel"]),
        barrel_attempts=list(view["barrel_attempts"]),
        bolts=list(view["bolts"]),
        options=options_of(n, view["options"]),
        memory=memory,
        talons=view["talons"],
    )


def from_state(state: Any, seat: int, memory: Memory, legal: list[Action]) -> Table:
    """A sampled world's table for one seat (search play-outs)."""
    mp = state.marriage_points
    return Table(
        seat=seat,
        players=state.players,
        phase=state.phase,
        hand=state.hands[seat],
        legal=legal,
        active=state.active,
        first_hand=state.first_hand,
        declarer=state.declarer,
        bid=state.bid,
        bids=state.bids,
        contract=state.contract,
        trump=state.trump,
        trick=state.trick,
        tricks_done=state.tricks_done,
        round_points=[state.card_pts[s] + mp[s] for s in range(state.players)],
        tricks_taken=state.tricks_taken,
        totals=state.totals,
        barrel=state.barrel,
        barrel_attempts=state.barrel_attempts,
        bolts=state.bolts,
        options=state.options,
        memory=memory,
        talons=[],
    )
