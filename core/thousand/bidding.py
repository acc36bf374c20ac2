"""Thousand bidding in numbers: the bids a seat may make and the contracts a declarer may name (RULES.md §1).

Pure functions of the hand and the bidding so far. Bids and contracts are multiples of 5 up to the cap
(120 + marriages in hand); on the barrel the minimum is 121 and others outbid him from 125.
"""

from __future__ import annotations

from core.thousand.cards import bid_cap


def first_bid_above(bid: int | None, on_barrel: bool) -> int:
    """The lowest multiple-of-5 bid above ``bid`` (the opening 100; 125 for a seat on the barrel)."""
    if on_barrel:
        return max(125, (bid // 5 + 1) * 5 if bid is not None else 125)
    return 100 if bid is None else (bid // 5 + 1) * 5


def bid_values(
    hand: list[str], bid: int | None, on_barrel: bool, ace_marriage: bool, cap: int | None = None
) -> list[int]:
    """Every bid the hand may make now, in rising order (121 first on the barrel while nobody bid 121+)."""
    if cap is None:
        cap = bid_cap(hand, ace_marriage, on_barrel)
    values = [121] if on_barrel and (bid is None or bid < 121) else []
    values += range(first_bid_above(bid, on_barrel), cap + 1, 5)
    return values


def contract_values(hand: list[str], bid: int, on_barrel: bool, ace_marriage: bool) -> list[int]:
    """Every contract the declarer may name: the bid itself, then the multiples of 5 above it up to the cap."""
    cap = bid_cap(hand, ace_marriage, on_barrel)
    values = [bid]
    values += range((bid // 5 + 1) * 5, cap + 1, 5)
    return values
