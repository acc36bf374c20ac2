"""Kozel scoring: hand values, remembered points, opening, both fish variants with the carry, 101, rating.

Points are bad. A round's amount for a seat is its hand value (the one who went out: 0), plus the fish sum
(fish for one) or the carry it takes. ``book`` applies the > 12 rule: an unopened account remembers amounts
of at most 12 ("+N"); a larger amount opens it and the remembered points are added. The first total >= 101
loses the game: that player is the kozel. ``rating`` and ``timeout_rating`` are the rating formulas of
docs/rules-kozel.md, for the end of a game and for a game ended by a player's timeout.
"""

from __future__ import annotations

from dataclasses import dataclass

from core.kozel.tiles import pip_sum

OPEN_ABOVE = 12  # a round amount above this opens an account
GAME_OVER_AT = 101  # the first total at or above this loses


def hand_value(hand: list[str]) -> int:
    """Sum of pips; a lone 0-0 left in hand counts 10."""
    if hand == ["0-0"]:
        return 10
    return sum(pip_sum(t) for t in hand)


def book(total: int, remembered: int, opened: bool, amount: int) -> tuple[int, int, bool]:
    """Write one round amount to one account: returns the new ``(total, remembered, opened)``."""
    if opened:
        return total + amount, remembered, True
    if amount > OPEN_ABOVE:
        return total + remembered + amount, 0, True
    return total, remembered + amount, False


def round_half_up_tenth(x: int) -> int:
    """``round_half_up(x / 10)`` for an integer ``x`` (7.5 -> 8, 0.2 -> 0, 1.9 -> 2)."""
    return (x + 5) // 10


@dataclass(slots=True)
class RoundScore:
    """Everything a round's end writes on the score sheet."""

    ending: str  # "out" or "fish"
    by: int  # who went out / the fisherman
    points: list[int]  # hand values
    gained: list[int]  # amount written per seat before the > 12 rule (fish sum, carry included)
    scores: list[int]  # change of totals
    totals: list[int]
    remembered: list[int]
    opened: list[bool]
    carry_in: int  # carry waiting at the start of the round
    carry: int  # carry after the round
    carry_to: int | None  # who took the carry this round
    fish_to: int | None  # fish for one: who took the sum of all hands
    fish_sum: int  # fish: sum of all hand values (0 when the round ended by going out)


def score_round(
    totals: list[int],
    remembered: list[int],
    opened: list[bool],
    carry: int,
    hands: list[list[str]],
    ending: str,
    by: int,
    fish: str,
) -> RoundScore:
    """Score a finished round; ``fish`` is the table option (``"all"`` or ``"one"``)."""
    n = len(totals)
    points = [hand_value(h) for h in hands]
    top_value = max(points)
    tops = [i for i in range(n) if points[i] == top_value]
    top = tops[0] if len(tops) == 1 else None
    gained = [0] * n
    reset = [False] * n
    carry_after = carry
    carry_to: int | None = None
    fish_to: int | None = None
    fish_sum = sum(points) if ending == "fish" else 0

    if ending == "fish" and fish == "one":
        if top is None:
            carry_after = carry + fish_sum  # a tie for the most: nobody scores, the sum carries
        else:
            fish_to = top
            gained[top] = fish_sum + carry
            if carry:
                carry_to = top
            carry_after = 0
            reset = [i != top for i in range(n)]
    else:
        gained = list(points)
        if carry and top is not None:
            gained[top] += carry
            carry_to = top
            carry_after = 0
        if ending == "out":
            reset[by] = True

    new_totals, new_remembered, new_opened = list(totals), list(remembered), list(opened)
    for i in range(n):
        if reset[i]:
            new_remembered[i] = 0
        new_totals[i], new_remembered[i], new_opened[i] = book(
            new_totals[i], new_remembered[i], new_opened[i], gained[i]
        )
    return RoundScore(
        ending=ending,
        by=by,
        points=points,
        gained=gained,
        scores=[new_totals[i] - totals[i] for i in range(n)],
        totals=new_totals,
        remembered=new_remembered,
        opened=new_opened,
        carry_in=carry,
        carry=carry_after,
        carry_to=carry_to,
        fish_to=fish_to,
        fish_sum=fish_sum,
    )


def kozel(totals: list[int]) -> int | None:
    """The loser once some total is >= 101: the highest total, then the lowest seat; else None."""
    over = [i for i, t in enumerate(totals) if t >= GAME_OVER_AT]
    if not over:
        return None
    return min(over, key=lambda i: (-totals[i], i))


def rating(totals: list[int], loser: int) -> list[int]:
    """Rating points at the game's end: the kozel 0, others ``max(1, round_half_up((100 - total) / 10))``."""
    return [0 if i == loser else max(1, round_half_up_tenth(100 - t)) for i, t in enumerate(totals)]


def timeout_rating(totals: list[int], leaver: int) -> list[int]:
    """Rating when a player's timeout ends the game: the leaver 0, others
    ``max(1, round_half_up((leaver_total - total) / 10))``."""
    lt = totals[leaver]
    return [0 if i == leaver else max(1, round_half_up_tenth(lt - t)) for i, t in enumerate(totals)]
