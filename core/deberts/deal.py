"""Dealing: a seeded deal of one round, and the check of a deal given by a record (docs/records.md).

A deal is ``{"hands": [[6 cards] per seat], "open": card, "extra": [[3 cards] per seat], "bottom": card}``.
Six cards go to each seat, the next card is turned face up (the proposed trump); once trump is named every
seat gets three more cards and the bottom card of the stock is shown. A record may leave ``extra`` and
``bottom`` out in a round where everybody passes.
"""

from __future__ import annotations

from typing import Any

from core.base import BadDeal
from core.deberts.cards import DECK, DECK_SET
from core.rng import stream

DEAL_KEYS = ("hands", "open", "extra", "bottom")


def seeded_deal(seed: int | str, round_index: int, players: int, dealer: int) -> dict[str, Any]:
    """The deal of round ``round_index`` (0-based) from the game's seed; cards go out from the dealer's left."""
    deck = list(DECK)
    stream(seed, "deal", round_index).shuffle(deck)
    hands: list[list[str]] = [[] for _ in range(players)]
    extra: list[list[str]] = [[] for _ in range(players)]
    for k in range(players):
        seat = (dealer + 1 + k) % players
        hands[seat] = deck[6 * k : 6 * k + 6]
        extra[seat] = deck[6 * players + 1 + 3 * k : 6 * players + 4 + 3 * k]
    return {"hands": hands, "open": deck[6 * players], "extra": extra, "bottom": deck[-1]}


def _cards(value: Any, size: int, what: str) -> list[str]:
    if not isinstance(value, list) or len(value) != size:
        raise BadDeal(f"{what} must be a list of {size} cards", "bad_deal")
    for card in value:
        if not isinstance(card, str) or card not in DECK_SET:
            raise BadDeal(f"{what}: unknown card {card!r}", "bad_deal")
    return list(value)


def _card(value: Any, what: str) -> str:
    if not isinstance(value, str) or value not in DECK_SET:
        raise BadDeal(f"'{what}' must be a card, got {value!r}", "bad_deal")
    return value


def check_deal(deal: Any, players: int) -> dict[str, Any]:
    """A clean copy of a record's deal, or ``BadDeal``: known, distinct cards, 6 per hand, 3 extra per seat."""
    if not isinstance(deal, dict):
        raise BadDeal("a deal must be a JSON object", "bad_deal")
    unknown = set(deal) - set(DEAL_KEYS)
    if unknown:
        raise BadDeal(f"unknown deal field '{sorted(unknown)[0]}'", "bad_deal")
    hands = deal.get("hands")
    if not isinstance(hands, list) or len(hands) != players:
        raise BadDeal(f"'hands' must hold one hand per seat ({players})", "bad_deal")
    out: dict[str, Any] = {"hands": [_cards(h, 6, f"hand of seat {i}") for i, h in enumerate(hands)]}
    if "open" not in deal:
        raise BadDeal("the deal needs the 'open' card", "bad_deal")
    out["open"] = _card(deal["open"], "open")
    if deal.get("extra") is not None:
        extra = deal["extra"]
        if not isinstance(extra, list) or len(extra) != players:
            raise BadDeal(f"'extra' must hold three cards per seat ({players} lists)", "bad_deal")
        out["extra"] = [_cards(e, 3, f"extra cards of seat {i}") for i, e in enumerate(extra)]
    if deal.get("bottom") is not None:
        out["bottom"] = _card(deal["bottom"], "bottom")
    every = [c for h in out["hands"] for c in h] + [out["open"]]
    every += [c for e in out.get("extra", []) for c in e]
    if "bottom" in out:
        every.append(out["bottom"])
    seen: set[str] = set()
    for card in every:
        if card in seen:
            raise BadDeal(f"card {card} is dealt twice", "bad_deal", card=card)
        seen.add(card)
    return out


def has_second_deal(deal: dict[str, Any]) -> bool:
    """Whether the deal holds the extra cards and the bottom card (needed once trump is named)."""
    return "extra" in deal and "bottom" in deal
