"""What a Thousand seat remembers of the current round from the public events (and its own view).

``read_round(history, players)`` replays the events since the last ``round_started``: the cards played and
by whom, the voids each seat showed by not following suit (or not trumping), the cards a seat was shown to
hold (a declared marriage's partner, the shown talon the declarer took), the cards a seat cannot hold (a
K or Q led from trick 2 on without declaring), and the marriages the bids prove. Search play-outs keep a
``Memory`` up to date with ``note_play``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from core.base import Event
from core.cards import SUITS
from core.thousand.cards import DECK, STRENGTH

# card -> its bit in a 24-bit set of cards: 6 bits per suit (SUITS order), bit k of a suit = strength k
CARD_BIT = {c: 1 << (6 * SUITS.index(c[1]) + STRENGTH[c]) for c in DECK}
# the Q of every suit as a set of ``CARD_BIT``s (a K's bit is its Q's bit shifted left by one: strengths 3
# and 2); the Qs of the marriages held -> (their suits in the order of ``core.thousand.cards.marriages_in``,
# their K and Q cards): shared read-only values
_QUEENS = sum(CARD_BIT["Q" + s] for s in SUITS)
_MARRIAGES = {
    sum(CARD_BIT["Q" + s] for s in suits): (suits, frozenset(r + s for s in suits for r in "KQ"))
    for suits in (tuple(s for i, s in enumerate(SUITS) if held >> i & 1) for held in range(1 << len(SUITS)))
}


def hand_bits(hand: list[str]) -> int:
    """The hand as a set of ``CARD_BIT``s (distinct cards: the sum of their bits is their union)."""
    return sum(map(CARD_BIT.__getitem__, hand))


def marriages_held(bits: int) -> tuple[tuple[str, ...], frozenset[str]]:
    """The suits of the marriages in a set of ``CARD_BIT``s and their K and Q cards (shared: read them only)."""
    return _MARRIAGES[bits & bits >> 1 & _QUEENS]


@dataclass(slots=True)
class Memory:
    players: int
    played: set[str] = field(default_factory=set)  # every card played this round (open trick too): see note_play
    played_by: dict[str, int] = field(default_factory=dict)
    voids: list[set[str]] = field(default_factory=list)  # suits each seat has shown it lacks
    holds: list[set[str]] = field(default_factory=list)  # cards each seat was shown to hold
    lacks: list[set[str]] = field(default_factory=list)  # cards each seat cannot hold
    bid_marriage: list[int] = field(default_factory=list)  # marriage value each seat's bid proves (bid - 120)
    talon: list[str] | None = None  # the taken talon, when it was shown
    declarer: int | None = None
    gave_to: list[int] = field(default_factory=list)  # receivers of the declarer's cards so far
    started: bool = False  # a round_started event was seen
    played_bits: int = 0  # ``played`` as a set of ``CARD_BIT``s (kept by ``note_play``)

    def __post_init__(self) -> None:
        n = self.players
        if self.played:
            self.played_bits = 0
            for c in self.played:
                self.played_bits |= CARD_BIT[c]
        if not self.voids:
            self.voids = [set() for _ in range(n)]
            self.holds = [set() for _ in range(n)]
            self.lacks = [set() for _ in range(n)]
            self.bid_marriage = [0] * n

    def fork(self) -> Memory:
        """A copy for a play-out: only what play-outs change (played cards, voids) is copied."""
        new = Memory.__new__(Memory)
        for name in Memory.__slots__:
            setattr(new, name, getattr(self, name))
        new.played = set(self.played)
        new.played_by = dict(self.played_by)
        new.voids = [set(v) for v in self.voids]
        return new

    def note_play(self, seat: int, card: str, led: str | None, trump: str | None) -> None:
        """Remember a card played on a trick whose led suit is ``led`` (None: this card leads)."""
        self.played.add(card)
        self.played_bits |= CARD_BIT[card]
        self.played_by[card] = seat
        if led is not None and card[1] != led:
            voids = self.voids[seat]
            voids.add(led)
            if trump is not None and card[1] != trump:
                voids.add(trump)


def read_round(history: Sequence[Event], players: int) -> Memory:
    """The memory of the current round from the public events (those before its start are skipped)."""
    start = 0
    for i in range(len(history) - 1, -1, -1):
        if history[i].type == "round_started":
            start = i
            break
    reader = RoundReader(players)
    reader.feed(history, start)
    return reader.memory()


class RoundReader:
    """Reads a round's events in order into a ``Memory``; ``feed`` more events later to bring it up to date.

    ``memory()`` is ``read_round`` of every event fed so far, provided the events stop at the end of an
    action's events (a K or Q lead is then known to have declared or not).
    """

    __slots__ = ("mem", "trick", "trump", "tricks_done", "pending_lead", "fed")

    def __init__(self, players: int) -> None:
        self.mem = Memory(players)
        self.trick: list[tuple[int, str]] = []
        self.trump: str | None = None
        self.tricks_done = 0
        self.pending_lead: tuple[int, str] | None = None  # a K/Q lead from trick 2 on, until we know if it declared
        self.fed = 0  # events of the history read so far

    def memory(self) -> Memory:
        if self.pending_lead is not None:
            s, c = self.pending_lead
            self.mem.lacks[s].add(("Q" if c[0] == "K" else "K") + c[1])
            self.pending_lead = None
        return self.mem

    def feed(self, history: Sequence[Event], start: int = 0) -> None:
        """Read ``history[start:]`` (a ``round_started`` among them starts the memory afresh)."""
        mem = self.mem
        trick = self.trick
        trump = self.trump
        pending_lead = self.pending_lead
        for ev in history[start:] if start else history:
            typ, seat = ev.type, ev.seat
            if pending_lead is not None and typ != "marriage":
                s, c = pending_lead
                mem.lacks[s].add(("Q" if c[0] == "K" else "K") + c[1])
                pending_lead = None
            if typ == "card_played":
                card = ev.data["card"]
                mem.note_play(seat, card, trick[0][1][1] if trick else None, trump)  # type: ignore[arg-type]
                for h in mem.holds:
                    h.discard(card)
                if not trick and self.tricks_done > 0 and card[0] in "KQ":
                    pending_lead = (seat, card)  # type: ignore[assignment]
                trick.append((seat, card))  # type: ignore[arg-type]
            elif typ == "trick_won":
                trick.clear()
                self.tricks_done += 1
            elif typ == "marriage" and seat is not None:
                pending_lead = None
                data = ev.data
                trump = data.get("trump", data.get("suit"))
                if not data.get("ace"):
                    suit = data["suit"]
                    for r in "KQ":
                        c = r + suit
                        if c not in mem.played:
                            mem.holds[seat].add(c)
            elif typ == "round_started":
                mem = self.mem = Memory(mem.players)
                trick.clear()
                trump = None
                self.tricks_done = 0
                pending_lead = None
                mem.started = True
            elif typ == "bid" and seat is not None:
                mem.bid_marriage[seat] = max(mem.bid_marriage[seat], int(ev.data.get("value", 0)) - 120)
            elif typ == "bidding_won":
                mem.declarer = seat
            elif typ == "talon_shown":
                mem.talon = list(ev.data.get("cards", []))
                if seat is not None:
                    mem.holds[seat].update(mem.talon)
            elif typ == "card_given":
                mem.gave_to.append(ev.data["to"])
        self.trump = trump
        self.pending_lead = pending_lead
        self.fed = len(history)
