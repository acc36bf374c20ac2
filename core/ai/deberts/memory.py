"""What a Deberts seat remembers of the current round from the public events.

``read_round(history, players)`` replays the events since the last ``deal``: the cards played and by whom,
voids (not following suit; not trumping when void), trumps a seat cannot hold (trump was led and it did
not beat the highest trump on the table although that is a must), cards a seat was shown to hold (the
scorer's runs, bella's partner card, the open card the declarer swapped in). Search
play-outs keep a ``Memory`` up to date with ``note_play``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from core.base import Event
from core.deberts.cards import DECK, TRUMP_POWER


@dataclass(slots=True)
class Memory:
    players: int
    played: set[str] = field(default_factory=set)
    played_by: dict[str, int] = field(default_factory=dict)
    voids: list[set[str]] = field(default_factory=list)
    lacks: list[set[str]] = field(default_factory=list)
    holds: list[set[str]] = field(default_factory=list)
    open: str | None = None
    bottom: str | None = None
    swapped: bool = False
    started: bool = False

    def __post_init__(self) -> None:
        n = self.players
        if not self.voids:
            self.voids = [set() for _ in range(n)]
            self.lacks = [set() for _ in range(n)]
            self.holds = [set() for _ in range(n)]

    def fork(self) -> Memory:
        """A copy for a play-out: only what play-outs change is copied."""
        new = Memory.__new__(Memory)
        for name in Memory.__slots__:
            setattr(new, name, getattr(self, name))
        new.played = set(self.played)
        new.played_by = dict(self.played_by)
        new.voids = [set(v) for v in self.voids]
        new.lacks = [set(v) for v in self.lacks]
        return new

    def note_play(self, seat: int, card: str, trick: list, trump: str | None) -> None:
        """Remember ``card`` played by ``seat`` on ``trick`` (the ``[seat, card]`` pairs before it)."""
        self.played.add(card)
        self.played_by[card] = seat
        if not trick or trump is None:
            return
        led = trick[0][1][1]
        if card[1] != led:
            self.voids[seat].add(led)
            if led != trump and card[1] != trump:
                self.voids[seat].add(trump)
        elif led == trump:
            top = max(TRUMP_POWER[c[0]] for _s, c in trick if c[1] == trump)
            if TRUMP_POWER[card[0]] < top:  # could not beat the top trump: holds none above it
                self.lacks[seat].update(c for c in DECK if c[1] == trump and TRUMP_POWER[c[0]] > top)


def read_round(history: Sequence[Event], players: int) -> Memory:
    """The memory of the current round from the public events (those before its deal are skipped)."""
    start = None
    for i in range(len(history) - 1, -1, -1):
        if history[i].type == "deal":
            start = i
            break
    mem = Memory(players)
    if start is None:
        return mem
    trick: list[tuple[int, str]] = []
    trump: str | None = None
    for ev in history[start:]:
        typ, seat, data = ev.type, ev.seat, ev.data
        if typ == "deal":
            mem.started = True
            mem.open = data.get("open")
        elif typ == "trump_named":
            trump = data["suit"]
        elif typ == "extra_dealt":
            mem.bottom = data.get("bottom")
        elif typ == "seven_swapped" and seat is not None:
            mem.swapped = True
            mem.holds[seat].add(data["open"])
        elif typ == "runs" and seat is not None:
            for run in data["runs"][seat]:
                mem.holds[seat].update(c for c in run.get("cards", []) if c not in mem.played)
        elif typ == "card_played" and seat is not None:
            card = data["card"]
            mem.note_play(seat, card, trick, trump)
            for h in mem.holds:
                h.discard(card)
            trick.append((seat, card))
        elif typ == "bella" and seat is not None:
            for r in "KQ":
                c = r + data["suit"]
                if c not in mem.played:
                    mem.holds[seat].add(c)
        elif typ == "trick_won":
            trick = []
    return mem
