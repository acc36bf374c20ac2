"""Round scoring: made, bait and hanging bait, hanging pots, winner takes all, next dealer, game winner.

The declarer makes it when his points exceed every defender's: each seat writes its own points (with
*winner takes all* the declarer writes everyone's sum and the defenders 0). A defender with more points than
the declarer is a **bait**: the declarer writes 0; with two players the defender writes both players'
points, with three each defender writes his own plus half of the declarer's. A tie between the declarer and
the best defender is a **hanging bait**: the defenders write their own, the declarer's points hang. A
hanging pot goes to the declarer of the next made round, or is split by the defenders of the next bait; a
hanging round pays out nothing. Summed (default): new hanging points join the one pot. *Hanging
separately*: each hanging bait is its own pot and a round pays out only the oldest pot.
Halves: integer halves, the odd point to the first defender left of the declarer.
"""

from __future__ import annotations

from typing import Any


def defenders_of(declarer: int, players: int) -> list[int]:
    """The defenders from the declarer's left."""
    return [(declarer + k) % players for k in range(1, players)]


def split(amount: int, seats: list[int]) -> dict[int, int]:
    """Equal integer shares; the odd points go to the first seats of ``seats``."""
    base, odd = divmod(amount, len(seats))
    return {s: base + (1 if i < odd else 0) for i, s in enumerate(seats)}


def settle(
    points: list[int],
    declarer: int,
    pots: list[int],
    *,
    winner_takes_all: bool,
    hanging_separately: bool,
) -> dict[str, Any]:
    """Score one played round.

    Returns ``{"result": "made"|"bait"|"hanging", "scores": [...], "pots": [...after...], "added": int,
    "paid": int, "paid_to": [seats], "next_dealer": seat}``.
    """
    players = len(points)
    defenders = defenders_of(declarer, players)
    best_defender = max(points[s] for s in defenders)
    scores = [0] * players
    pots = list(pots)
    added = paid = 0
    paid_to: list[int] = []
    if points[declarer] > best_defender:
        result = "made"
        if winner_takes_all:
            scores[declarer] = sum(points)
        else:
            scores = list(points)
        if pots:
            paid = pots.pop(0)
            paid_to = [declarer]
            scores[declarer] += paid
    elif points[declarer] < best_defender:
        result = "bait"
        for seat in defenders:
            scores[seat] = points[seat]
        for seat, share in split(points[declarer], defenders).items():
            scores[seat] += share
        if pots:
            paid = pots.pop(0)
            paid_to = list(defenders)
            for seat, share in split(paid, defenders).items():
                scores[seat] += share
    else:
        result = "hanging"
        for seat in defenders:
            scores[seat] = points[seat]
        added = points[declarer]
        if added:
            if pots and not hanging_separately:
                pots[0] += added
            else:
                pots.append(added)
    if result == "hanging":
        next_dealer = defenders[0]
    else:
        order = [*defenders, declarer]
        top = max(scores)
        next_dealer = next(s for s in order if scores[s] == top)
    return {
        "result": result,
        "scores": scores,
        "pots": pots,
        "added": added,
        "paid": paid,
        "paid_to": paid_to,
        "next_dealer": next_dealer,
    }


def transfers(row: dict[str, Any], winner_takes_all: bool) -> dict[str, Any]:
    """What the rules did to a played round's points, read back from its score-sheet row.

    Returns ``{"moved": [...], "hanging_added": int, "paid": [...]}``: ``moved`` the points that went from
    one seat to another (a bait: the declarer's points to the defenders, the odd point to the first
    defender; winner takes all: the defenders' points to the declarer), ``hanging_added`` the declarer's
    points left hanging (a hanging bait), ``paid`` each seat's share of a hanging pot paid out. For every
    seat: ``scores == points + moved + paid`` (minus ``hanging_added`` for the declarer), as ``settle`` wrote.
    """
    points = list(row["points"])
    players = len(points)
    declarer = row["declarer"]
    defenders = defenders_of(declarer, players)
    moved = [0] * players
    hanging_added = 0
    if row["result"] == "made" and winner_takes_all:
        for seat in defenders:
            moved[seat] = -points[seat]
            moved[declarer] += points[seat]
    elif row["result"] == "bait":
        moved[declarer] = -points[declarer]
        for seat, share in split(points[declarer], defenders).items():
            moved[seat] += share
    elif row["result"] == "hanging":
        hanging_added = points[declarer]
    paid = [0] * players
    to = list(row.get("hanging_to") or [])
    if row.get("hanging_paid") and to:
        for seat, share in split(row["hanging_paid"], to).items():
            paid[seat] = share
    return {"moved": moved, "hanging_added": hanging_added, "paid": paid}


def game_winner(totals: list[int], target: int) -> int | None:
    """The seat that won: the single highest total at or above the target (a tie for it plays on)."""
    top = max(totals)
    if top < target:
        return None
    leaders = [s for s, t in enumerate(totals) if t == top]
    return leaders[0] if len(leaders) == 1 else None
