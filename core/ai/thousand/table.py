"""``Table``: one seat's picture of a Thousand round, the single input of the easy and normal policies.

It is built either from the seat's view plus its ``Memory`` of the public events (a real decision) or
from a search state plus a play-out memory (``from_state``; that state is a sampled world, so reading
it hides nothing from anyone). Both give the policies the same fields.
"""

from __future__ import annotations

from dataclasses import dataclass
from operator import add
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
    # round_points: card points plus declared marriages (``marriage_points`` only when there are marriages); like
    # the hand and the trick, the state's own list when it holds them (read-only)
    round_points = list(map(add, state.card_pts, state.marriage_points)) if state.marriages else state.card_pts
    # positional, in the order of the fields (a self-play decision makes one per action)
    return Table(
        seat,
        state.players,
        state.phase,
        state.hands[seat],
        legal,
        state.active,
        state.first_hand,
        state.declarer,
        state.bid,
        state.bids,
        state.contract,
        state.trump,
        state.trick,
        state.tricks_done,
        round_points,
        state.tricks_taken,
        state.totals,
        state.barrel,
        state.barrel_attempts,
        state.bolts,
        state.options,
        memory,
        [],  # talons
    )
