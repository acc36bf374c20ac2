"""Card play of the normal Deberts policy: leads and follows weighed by the chance that a card holds.

For every unseen card it estimates who may hold it (hand sizes, shown voids, trumps a seat cannot hold,
cards seen in the stock, cards a seat was shown to hold), so it knows how likely a card is to win the
trick against the seats still to play (a higher card of the suit, or a trump from a seat void in the suit).
It draws trumps as a strong declarer, cashes likely winners, wins a trick cheaply when the win is worth
it (the last trick is worth 10 more; a seat whose runs are pending needs a trick), feeds points to a
partner's safe trick, and otherwise throws its cheapest card.
"""

from __future__ import annotations

from core.ai.deberts.table import Table
from core.cards import SUITS
from core.deberts.cards import LAST_TRICK, points, power


def beats(card: str, best: str, trump: str) -> bool:
    if card[1] == best[1]:
        return power(card, trump) > power(best, trump)
    return card[1] == trump


def current_winner(trick: list, trump: str) -> tuple[int, str]:
    best_seat, best = trick[0]
    for s, c in trick[1:]:
        if beats(c, best, trump):
            best_seat, best = s, c
    return best_seat, best


def seats_after(t: Table) -> list[int]:
    n = t.players
    left = n - len(t.trick) - 1
    return [(t.seat + j) % n for j in range(1, left + 1)]


class Reading:
    """Who may hold each unseen card, computed once per decision."""

    __slots__ = ("t", "trump", "unseen", "held_p", "by_suit", "_survive")

    def __init__(self, t: Table) -> None:
        self.t = t
        self.trump = t.trump or SUITS[0]
        unseen = t.unseen()
        self.unseen = unseen
        mem = t.memory
        counts = t.hand_counts
        others = [s for s in range(t.players) if s != t.seat]
        owner: dict[str, int] = {}
        for s in others:
            for c in mem.holds[s]:
                if c in unseen:
                    owner[c] = s
        room = dict.fromkeys(others, 0)
        possible: dict[str, list[int]] = {}
        for c in unseen:
            if c in owner:
                continue
            suit = c[1]
            ps = [s for s in others if counts[s] and suit not in mem.voids[s] and c not in mem.lacks[s]]
            possible[c] = ps
            for s in ps:
                room[s] += 1
        pinned = dict.fromkeys(others, 0)
        for s in owner.values():
            pinned[s] += 1
        # a seat's free places spread over the unseen cards it may hold (the stock takes the rest)
        rate = {s: min(1.0, max(0, counts[s] - pinned[s]) / room[s]) if room[s] else 0.0 for s in others}
        held: dict[str, list[float]] = {}
        zero = [0.0] * t.players
        for c in unseen:
            row = list(zero)
            if c in owner:
                row[owner[c]] = 1.0
            else:
                for s in possible[c]:
                    row[s] = rate[s]
            held[c] = row
        self.held_p = held
        by_suit: dict[str, list[str]] = {s: [] for s in SUITS}
        for c in unseen:
            by_suit[c[1]].append(c)
        self.by_suit = by_suit
        self._survive: dict[tuple[str, tuple[int, ...]], float] = {}

    def p_void(self, seat: int, suit: str) -> float:
        if suit in self.t.memory.voids[seat]:
            return 1.0
        p = 1.0
        for c in self.by_suit[suit]:
            p *= 1.0 - self.held_p[c][seat]
        return p

    def survive(self, card: str, later: list[int]) -> float:
        """Chance that ``card`` is not beaten by the opponents in ``later``."""
        if not later:
            return 1.0
        key = (card, tuple(later))
        got = self._survive.get(key)
        if got is not None:
            return got
        trump = self.trump
        pw = power(card, trump)
        p = 1.0
        for h in self.by_suit[card[1]]:
            if power(h, trump) > pw:
                row = self.held_p[h]
                p *= 1.0 - min(1.0, sum(row[o] for o in later))
        if card[1] != trump:
            for o in later:
                p *= 1.0 - self.p_void(o, card[1]) * (1.0 - self.p_void(o, trump))
        self._survive[key] = p
        return p


def choose_card(t: Table, cards: list[str]) -> str:
    if len(cards) == 1:
        return cards[0]
    rd = Reading(t)
    if not t.trick:
        return _lead(t, cards, rd)
    return _follow(t, cards, rd)


def _keep(t: Table, rd: Reading, card: str) -> float:
    """What spending this card now costs later: strong cards win later tricks."""
    trump = rd.trump
    v = 0.0
    if card[1] == trump:
        v += 4 + power(card, trump) * 1.5
    opps = [s for s in range(t.players) if t.is_opponent(s)]
    if points(card, trump) >= 10:
        v += 0.4 * points(card, trump) * rd.survive(card, opps)
    return v


def _lead(t: Table, cards: list[str], rd: Reading) -> str:
    trump = rd.trump
    opps = [s for s in range(t.players) if t.is_opponent(s)]
    need_trick = t.runs_pending and t.runs_scorer == t.seat
    sure = {c: rd.survive(c, opps) for c in cards}
    if need_trick:
        best = max(cards, key=lambda c: (sure[c], -points(c, trump), c))
        if sure[best] >= 0.5:
            return best
    my_trumps = [c for c in t.hand if c[1] == trump]
    opp_trumps = any(1.0 - rd.p_void(o, trump) > 0.25 for o in opps)
    if my_trumps and opp_trumps and (t.seat == t.declarer or len(my_trumps) >= 3):
        top = max(my_trumps, key=lambda c: power(c, trump))
        if sure.get(top, 0) >= 0.85:
            return top
    cash = [c for c in cards if c[1] != trump and sure[c] >= 0.75 and points(c, trump) >= 10]
    if cash:
        return max(cash, key=lambda c: (points(c, trump), c))
    counts = {s: 0 for s in SUITS}
    for c in t.hand:
        counts[c[1]] += 1

    def cost(c: str) -> tuple[float, str]:
        v = points(c, trump) * (1.0 - sure[c]) + _keep(t, rd, c) * 0.5 + counts[c[1]] * 0.2
        if c[1] == trump:
            v += 6
        return v, c

    return min(cards, key=cost)


def _follow(t: Table, cards: list[str], rd: Reading) -> str:
    trump = rd.trump
    best_seat, best = current_winner(t.trick, trump)
    later = [s for s in seats_after(t) if t.is_opponent(s)]
    value = sum(points(c, trump) for _s, c in t.trick)
    if t.tricks_done == 8:
        value += LAST_TRICK
    if t.runs_pending and t.runs_scorer == t.seat and t.tricks_taken[t.seat] == 0:
        value += t.runs_points
    if not t.is_opponent(best_seat) and best_seat != t.seat and rd.survive(best, later) >= 0.75:
        return max(cards, key=lambda c: (points(c, trump) - _keep(t, rd, c), -power(c, trump), c))

    def worth(c: str) -> float:
        pts = points(c, trump)
        if beats(c, best, trump):
            s = rd.survive(c, later)
            return s * (value + pts) - (1.0 - s) * pts - _keep(t, rd, c)
        return -pts - _keep(t, rd, c)

    return max(cards, key=lambda c: (worth(c), -power(c, trump), c))
