"""Card play of the normal Thousand policy: leads, follows and discards from what the seat has seen.

It counts the cards still out (not in hand, not played), knows which of its cards are top of their suit,
which opponents have shown a void (and may trump), keeps marriage cards to declare them, declares the best
marriage on its first lead from trick 2 on (after cashing a sure winner while there is no trump yet;
a declarer with two marriages declares at once, the bigger first),
draws trumps, wins tricks cheaply when the win is sure (a defender without a trick takes one whenever the
win is sure, even from his partner: a bolt costs), feeds points to a partner's sure trick (not its own top
cards, which take their points later) and throws its cheapest card otherwise. In Thousand the defenders are
partners against the declarer; a defender's marriage counts for less than the declarer's when it chooses
what to throw (it needs the lead to declare it).
"""

from __future__ import annotations

from core.ai.thousand.memory import hand_bits, marriages_held
from core.ai.thousand.table import Table
from core.cards import SUITS
from core.thousand.cards import MARRIAGE, POINTS, STRENGTH

# a suit's 6-bit set of cards (bit k: strength k) -> the strengths in it (ascending), and the highest (-1: none)
_OUT = [tuple(k for k in range(6) if mask >> k & 1) for mask in range(64)]
_HIGHEST = [max(strengths, default=-1) for strengths in _OUT]
_COUNT = [len(strengths) for strengths in _OUT]  # a suit's 6-bit set of cards -> how many cards
DEF_MARRIAGE = 0.25  # a defender's marriage card is kept at this share of the marriage (it needs the lead)


def beats(card: str, best: str, trump: str | None) -> bool:
    if card[1] == best[1]:
        return STRENGTH[card] > STRENGTH[best]
    return card[1] == trump


def trick_winner(trick: list, trump: str | None) -> tuple[int, str]:
    best_seat, best = trick[0]
    for s, c in trick[1:]:
        if STRENGTH[c] > STRENGTH[best] if c[1] == best[1] else c[1] == trump:  # (``beats`` written out)
            best_seat, best = s, c
    return best_seat, best


def seats_after(t: Table) -> list[int]:
    """The seats still to play on the current trick after this seat, in order."""
    act = t.active
    left = len(act) - len(t.trick) - 1
    if left <= 0:
        return []
    i = act.index(t.seat) + 1
    return (act[i:] + act[:i])[:left]


def opponents(t: Table, seats: list[int]) -> list[int]:
    """The seats of ``seats`` that play against this seat (``Table.is_opponent``), in order."""
    declarer = t.declarer
    me = t.seat
    if declarer is None or me == declarer:
        return [s for s in seats if s != me]
    return [declarer] if declarer in seats else []


class Reading:
    """Cards still out per suit, the seat's marriage cards and suit lengths, computed once per decision from
    bit sets (the memory's played cards and the hand's ``CARD_BIT``s); its tuples and sets are shared: read
    them only."""

    __slots__ = ("out", "mcards", "msuits", "highest", "held")

    def __init__(self, t: Table) -> None:
        held = self.held = hand_bits(t.hand)
        gone = t.memory.played_bits | held
        out_s, out_c, out_d, out_h = ~gone & 63, ~gone >> 6 & 63, ~gone >> 12 & 63, ~gone >> 18 & 63
        # per suit, the strengths of the cards still out
        self.out = {"S": _OUT[out_s], "C": _OUT[out_c], "D": _OUT[out_d], "H": _OUT[out_h]}
        # the strongest card still out per suit
        self.highest = {"S": _HIGHEST[out_s], "C": _HIGHEST[out_c], "D": _HIGHEST[out_d], "H": _HIGHEST[out_h]}
        # the suits of the marriages held (as ``marriages_in(hand)``) and their cards
        self.msuits, self.mcards = marriages_held(held)

    def is_top(self, card: str) -> bool:
        return STRENGTH[card] > self.highest[card[1]]

    def counts(self) -> dict[str, int]:
        """How many cards of each suit the hand holds."""
        held = self.held
        return {
            "S": _COUNT[held & 63],
            "C": _COUNT[held >> 6 & 63],
            "D": _COUNT[held >> 12 & 63],
            "H": _COUNT[held >> 18],
        }


def choose_card(t: Table, cards: list[str]) -> str:
    if len(cards) == 1:
        return cards[0]
    rd = Reading(t)
    if not t.trick:
        return _lead(t, cards, rd)
    return _follow(t, cards, rd)


def _ruff_risk_any(t: Table, rd: Reading, suit: str, opps: list[int], trump: str | None) -> bool:
    """Could one of these opponents trump a card of ``suit``? Not while there is no trump or none is out, nor
    an opponent who showed he has none; yes if he showed a void in ``suit`` or at most one card of it is out."""
    if trump is None or suit == trump or not rd.out[trump]:
        return False
    short = len(rd.out[suit]) <= 1
    all_voids = t.memory.voids
    for o in opps:
        voids = all_voids[o]
        if trump not in voids and (suit in voids or short):
            return True
    return False


def _keep_value(t: Table, rd: Reading, card: str) -> float:
    """What spending this card now costs in later tricks."""
    if card in rd.mcards:
        share = 0.5 if t.seat == t.declarer else DEF_MARRIAGE
        return MARRIAGE[card[1]] * share
    v = 0.0
    if STRENGTH[card] > rd.highest[card[1]]:  # (``rd.is_top``)
        v += 8 + POINTS[card] / 2
    if card[1] == t.trump:
        v += 4 + STRENGTH[card]
    return v


def _feed_value(t: Table, rd: Reading, card: str) -> float:
    """What giving this card to the partner's sure trick is worth: its points, unless it wins them later."""
    if card in rd.mcards:
        return POINTS[card] - _keep_value(t, rd, card)
    if rd.is_top(card):
        return -8.0 - (4 + STRENGTH[card] if card[1] == t.trump else 0)
    return POINTS[card] - (4 + STRENGTH[card] if card[1] == t.trump else 0)


def _lead(t: Table, cards: list[str], rd: Reading) -> str:
    if t.seat == t.declarer:
        return _lead_as_declarer(t, cards, rd)
    return _lead_as_defender(t, cards, rd)


def _lead_as_declarer(t: Table, cards: list[str], rd: Reading) -> str:
    """The declarer's lead: from trick 2 on its marriages at once, the biggest first (a single marriage
    after cashing its sure winners while there is no trump); else ``_plain_lead``."""
    if t.tricks_done >= 1 and rd.msuits:
        if len(rd.msuits) == 1 and t.trump is None and len(t.hand) > 3:
            winners = [c for c in cards if c not in rd.mcards and rd.is_top(c)]
            if winners:
                return max(winners, key=lambda c: (POINTS[c], c))
        # with two marriages, no time for cashing: the bigger first (declaring the one that would be
        # the better trump last lost clearly, 161 against 196 wins of 600)
        return _declaring_lead(rd)
    return _plain_lead(t, cards, rd, opponents(t, t.active))


def _lead_as_defender(t: Table, cards: list[str], rd: Reading) -> str:
    """A defender's lead: declare its marriage (from trick 2 on, after cashing sure winners while there is
    no trump and the hand has cards to spare), else ``_plain_lead`` against the declarer."""
    if t.tricks_done >= 1 and rd.msuits:
        if t.trump is None and len(t.hand) > 2 * len(rd.msuits) + 1:
            tops = [c for c in cards if c not in rd.mcards and rd.is_top(c)]
            if tops:
                return max(tops, key=lambda c: (POINTS[c], c))
        return _declaring_lead(rd)
    return _plain_lead(t, cards, rd, [t.declarer])  # type: ignore[list-item]


def _declaring_lead(rd: Reading) -> str:
    """The lead that declares the biggest marriage held: its K when no higher card of the suit is out, else its Q."""
    suit = max(rd.msuits, key=lambda s: MARRIAGE[s])
    king = "K" + suit
    return king if rd.highest[suit] <= STRENGTH[king] else "Q" + suit


def _plain_lead(t: Table, cards: list[str], rd: Reading, opps: list[int]) -> str:
    """A lead without a marriage to declare: a sure winner no opponent of ``opps`` can trump (trumps first
    while trumps are out, then the most points), else the cheapest card to lose."""
    trump = t.trump
    ruffs = {s: _ruff_risk_any(t, rd, s, opps, trump) for s in SUITS}
    winners = [c for c in cards if c not in rd.mcards and rd.is_top(c) and not ruffs[c[1]]]
    if winners:
        draw = trump is not None and bool(rd.out[trump])
        return max(winners, key=lambda c: (draw and c[1] == trump, POINTS[c], c))
    counts = rd.counts()

    def lead_cost(c: str) -> tuple[float, str]:
        s = c[1]
        cost = POINTS[c] + STRENGTH[c] * 0.5
        if c in rd.mcards:
            cost += 100
        if c[0] == "T" and rd.highest[s] > STRENGTH[c]:
            cost += 12  # a ten led under an ace still out is usually lost
        if s == trump:
            cost += 6
        if ruffs[s]:
            cost += 8
        return cost + counts[s] * 0.3, c

    return min(cards, key=lead_cost)


def needs_a_trick(t: Table) -> bool:
    """A defender who has taken no trick yet and may get a bolt for it."""
    me = t.seat
    return t.declarer is not None and me != t.declarer and t.tricks_taken[me] == 0 and not t.barrel[me]


def _follow(t: Table, cards: list[str], rd: Reading) -> str:
    trump = t.trump
    best_seat, best = trick_winner(t.trick, trump)
    later_opps = opponents(t, seats_after(t))
    voids = t.memory.voids

    def holds_up(c: str) -> bool:
        """Once on the trick, does this card stay the winner against the opponents still to play?"""
        if not later_opps:
            return True
        s = c[1]
        if rd.highest[s] > STRENGTH[c] and any(s not in voids[o] for o in later_opps):
            return False
        return not _ruff_risk_any(t, rd, s, later_opps, trump)

    wins = [c for c in cards if beats(c, best, trump)]
    sure = [c for c in wins if holds_up(c)]
    if sure and needs_a_trick(t):  # a defender without a trick takes one while he surely can: no bolt
        return min(sure, key=lambda c: (_keep_value(t, rd, c) - POINTS[c], STRENGTH[c], c))
    if not t.is_opponent(best_seat) and best_seat != t.seat and holds_up(best):
        # the partner's trick is safe: give it points, keeping what wins later
        return max(cards, key=lambda c: (_feed_value(t, rd, c), -STRENGTH[c], c))
    if sure:
        return min(sure, key=lambda c: (_keep_value(t, rd, c) - POINTS[c], STRENGTH[c], c))
    counts = rd.counts()
    return min(cards, key=lambda c: (POINTS[c] + _keep_value(t, rd, c) + counts[c[1]] * 0.2, STRENGTH[c], c))
