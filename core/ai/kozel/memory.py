"""What a Kozel seat remembers of the current round from the public events.

``read_round(history, players)`` replays the events since the last ``round_started``: the tiles on the
table, the open ends, and per seat the values it cannot hold (it drew or knocked because nothing fitted
the open ends; a later draw brings unknown tiles, so only the values of that draw stay certain) and the
tiles it cannot hold (round 1: the tiles before the one that had to lead were in nobody's hand).
Search play-outs keep a ``Memory`` up to date with ``note_play``, ``note_draw`` and ``note_knock``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from core.base import Event
from core.kozel.tiles import FIRST_LEAD_ORDER


@dataclass(slots=True)
class Memory:
    players: int
    played: set[str] = field(default_factory=set)
    voids: list[set[int]] = field(default_factory=list)  # values each seat cannot hold
    lacks: list[set[str]] = field(default_factory=list)  # tiles each seat cannot hold
    pending: dict[int, set[int]] = field(default_factory=dict)  # a seat that drew, until it plays
    left: int | None = None
    right: int | None = None
    started: bool = False

    def __post_init__(self) -> None:
        if not self.voids:
            self.voids = [set() for _ in range(self.players)]
            self.lacks = [set() for _ in range(self.players)]

    def fork(self) -> Memory:
        new = Memory.__new__(Memory)
        new.players = self.players
        new.played = set(self.played)
        new.voids = [set(v) for v in self.voids]
        new.lacks = [set(v) for v in self.lacks]
        new.pending = {k: set(v) for k, v in self.pending.items()}
        new.left, new.right, new.started = self.left, self.right, self.started
        return new

    def note_play(self, seat: int, tile: str, left: int, right: int) -> None:
        self.played.add(tile)
        if seat in self.pending:  # it played the fitting tile it drew: nothing else fits those ends
            self.voids[seat] = self.pending.pop(seat)
        self.left, self.right = left, right

    def note_draw(self, seat: int) -> None:
        """The seat drew: it had nothing for the open ends, and the drawn tiles do not fit either but a last
        one it must play at once; what it was known to lack before may have been drawn."""
        self.voids[seat] = set()
        self.pending[seat] = {v for v in (self.left, self.right) if v is not None}
        self.lacks[seat] = set()

    def note_knock(self, seat: int) -> None:
        self.voids[seat] |= self.pending.pop(seat, set()) | {v for v in (self.left, self.right) if v is not None}


def read_round(history: Sequence[Event], players: int) -> Memory:
    """The memory of the current round from the public events (those before its start are skipped)."""
    start = None
    for i in range(len(history) - 1, -1, -1):
        if history[i].type == "round_started":
            start = i
            break
    mem = Memory(players)
    if start is None:
        return mem
    first_rule = False
    for ev in history[start:]:
        typ, seat, data = ev.type, ev.seat, ev.data
        if typ == "round_started":
            mem.started = True
            first_rule = bool(data.get("first_rule"))
        elif typ == "tile_played":
            tile = data["tile"]
            if first_rule and not mem.played:
                earlier = FIRST_LEAD_ORDER[: FIRST_LEAD_ORDER.index(tile)]
                for s in range(players):
                    mem.lacks[s].update(earlier)
            mem.note_play(seat, tile, data["left"], data["right"])  # type: ignore[arg-type]
        elif typ == "drew" and seat is not None:
            mem.note_draw(seat)
        elif typ == "knocked" and seat is not None:
            mem.note_knock(seat)
    return mem
