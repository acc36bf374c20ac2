"""``Table``: one seat's picture of a Kozel round, the single input of the easy and normal policies.

Built from the seat's view plus its ``Memory`` (a real decision) or from a sampled world (``from_state``,
search play-outs).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from core.ai.kozel.memory import Memory
from core.base import Action
from core.kozel.tiles import TILES


@dataclass(slots=True)
class Table:
    seat: int
    players: int
    hand: list[str]
    legal: list[Action]
    left: int | None
    right: int | None
    hand_counts: list[int]
    bazaar: int
    totals: list[int]
    remembered: list[int]
    opened: list[bool]
    fish: str
    memory: Memory

    def unseen(self) -> list[str]:
        """Tiles in other hands or the bazaar: neither held nor on the table."""
        hand = set(self.hand)
        played = self.memory.played
        return [t for t in TILES if t not in hand and t not in played]


def from_view(view: dict[str, Any], memory: Memory, legal: list[Action]) -> Table:
    ends = view["ends"]
    return Table(
        seat=view["seat"],
        players=view["players"],
        hand=list(view["hand"]),
        legal=legal,
        left=ends["left"],
        right=ends["right"],
        hand_counts=list(view["hand_counts"]),
        bazaar=view["bazaar_count"],
        totals=list(view["totals"]),
        remembered=list(view["remembered"]),
        opened=list(view["opened"]),
        fish=view["options"]["fish"],
        memory=memory,
    )


def from_state(state: Any, seat: int, memory: Memory, legal: list[Action]) -> Table:
    return Table(
        seat=seat,
        players=state.players,
        hand=state.hands[seat],
        legal=legal,
        left=state.left,
        right=state.right,
        hand_counts=[len(h) for h in state.hands],
        bazaar=len(state.bazaar),
        totals=state._totals,
        remembered=state.remembered,
        opened=state.opened,
        fish=state.options.fish,
        memory=memory,
    )
