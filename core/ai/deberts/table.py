"""``Table``: one seat's picture of a Deberts round, the single input of the easy and normal policies.

Built from the seat's view plus its ``Memory`` (a real decision) or from a sampled world (``from_state``,
search play-outs). Both give the policies the same fields.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from core.ai.deberts.memory import Memory
from core.base import Action
from core.deberts.cards import DECK


@dataclass(slots=True)
class Table:
    seat: int
    players: int
    phase: str
    hand: list[str]
    legal: list[Action]
    dealer: int
    circle: int
    open: str | None
    trump: str | None
    declarer: int | None
    trick: list  # [(seat, card)] in play order
    tricks_done: int
    round_points: list[int]
    tricks_taken: list[int]
    totals: list[int]
    target: int
    runs_scorer: int | None
    runs_pending: bool
    runs_points: int
    seven_swap: bool
    hand_counts: list[int]
    stock_known: tuple[str, ...]  # cards seen lying in the stock (the bottom card, the face-up card)
    memory: Memory

    def unseen(self) -> set[str]:
        """Cards that may be in another hand: not held, not played, not seen in the stock."""
        return set(DECK).difference(self.hand, self.memory.played, self.stock_known)

    def is_opponent(self, other: int) -> bool:
        """The declarer plays against everyone; the defenders play against the declarer."""
        if other == self.seat:
            return False
        if self.declarer is None or self.seat == self.declarer:
            return True
        return other == self.declarer


def stock_cards(open_card: dict[str, Any] | None, bottom: str | None, trump: str | None) -> tuple[str, ...]:
    """Cards known to lie in the stock: the face-up card (once trump is named) and the bottom card."""
    out = []
    if open_card is not None and trump is not None and open_card.get("shown"):
        out.append(open_card["shown"])
    if bottom is not None:
        out.append(bottom)
    return tuple(out)


def from_view(view: dict[str, Any], memory: Memory, legal: list[Action]) -> Table:
    runs = view["runs"]
    return Table(
        seat=view["seat"],
        players=view["players"],
        phase=view["phase"],
        hand=list(view["hand"]),
        legal=legal,
        dealer=view["dealer"],
        circle=view["circle"],
        open=(view["open_card"] or {}).get("card"),
        trump=view["trump"],
        declarer=view["declarer"],
        trick=[(t["seat"], t["card"]) for t in view["trick"]],
        tricks_done=view["trick_number"],
        round_points=list(view["round_points"]),
        tricks_taken=list(view["tricks_taken"]),
        totals=list(view["totals"]),
        target=view["target"],
        runs_scorer=None if runs is None else runs["scorer"],
        runs_pending=runs is not None and runs["status"] == "pending",
        runs_points=0 if runs is None else runs["points"],
        seven_swap=view["options"]["seven_swap"],
        hand_counts=list(view["hand_counts"]),
        stock_known=stock_cards(view["open_card"], view["bottom_card"], view["trump"]),
        memory=memory,
    )


def from_state(state: Any, seat: int, memory: Memory, legal: list[Action]) -> Table:
    """A sampled world's table for one seat (search play-outs)."""
    runs = state.runs
    return Table(
        seat=seat,
        players=state.players,
        phase=state.phase,
        hand=state.hands[seat],
        legal=legal,
        dealer=state.dealer,
        circle=state.circle,
        open=state.open,
        trump=state.trump,
        declarer=state.declarer,
        trick=state.trick,
        tricks_done=sum(state.tricks),
        round_points=state.round_points(),
        tricks_taken=state.tricks,
        totals=state._totals,
        target=state.options.target,
        runs_scorer=None if runs is None else runs["scorer"],
        runs_pending=runs is not None and runs["status"] == "pending",
        runs_points=0 if runs is None else runs["points"],
        seven_swap=state.options.seven_swap,
        hand_counts=[len(h) for h in state.hands],
        stock_known=stock_cards({"shown": state.shown}, state.bottom, state.trump),
        memory=memory,
    )
