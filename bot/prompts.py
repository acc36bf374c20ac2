"""What a player's private message asks for, and why a choice is narrower than the hand.

``what(game, view, lang, names, step)`` is the "Your turn: …" question: it names what the keyboard offers now,
including the choice made so far in a picker step (the card being given, the tile being laid). ``why(game,
view, lang)`` is one line saying why only some cards or tiles may be played, why there is no Pass, or why Pass
is all there is — only where the view itself shows the reason (the led suit and trump of the trick, the open
ends of the line, the first hand's opening call, a hand whose marriages allow no higher bid); otherwise None.
Both only read the view: the rules stay in ``core``.
"""

from __future__ import annotations

from typing import Any

from bot.keyboards import card_label, pretty_suit, tile_label, tile_steps
from core.i18n import t
from core.thousand.bidding import bid_values
from core.thousand.cards import bid_cap, marriage_value


def _types(view: dict[str, Any]) -> set[str]:
    return {a.get("type") for a in view.get("legal") or [] if isinstance(a, dict)}


def opening_call(view: dict[str, Any]) -> bool:
    """Thousand: the first hand's opening call, where the bid must be made (100 or more) and nobody passes."""
    types = _types(view)
    return (
        view.get("game") == "thousand"
        and "bid" in types
        and "pass" not in types
        and view.get("bid") is None
        and view.get("seat") == view.get("first_hand")
    )


def capped_pass(view: dict[str, Any]) -> tuple[int, int, bool] | None:
    """Thousand: (cap, bid, any marriage) when Pass is the seat's only choice because its hand allows no higher bid
    (120 + its marriages: ``core.thousand.cards.bid_cap``, ``bidding.bid_values``); None otherwise."""
    bid, seat = view.get("bid"), view.get("seat")
    if view.get("game") != "thousand" or _types(view) != {"pass"} or view.get("phase") != "bidding":
        return None
    if not isinstance(bid, int) or not isinstance(seat, int):
        return None
    hand = list(view.get("hand") or [])
    barrel = view.get("barrel") or []
    on_barrel = bool(barrel[seat]) if seat < len(barrel) else False
    ace = bool((view.get("options") or {}).get("ace_marriage"))
    if bid_values(hand, bid, on_barrel, ace):
        return None
    return bid_cap(hand, ace, on_barrel), bid, marriage_value(hand, ace) > 0


def what(game: str, view: dict[str, Any], lang: str, names: list[str], step: str | None = None) -> str:
    """The question of the keyboard shown now (``step``: the picker step, None for the first page)."""
    types = _types(view)
    if step is not None and step.startswith("give~") and "give" in types:
        card = step.partition("=")[2]
        return t(lang, "who gets {card}?", card=card_label(card))
    if step is not None and step.startswith("tile~") and "play" in types:
        tile = step.partition("=")[2]
        return t(lang, "which end for {tile}?", tile=tile_label(tile))
    if opening_call(view):
        return t(lang, "open the bidding (100 or more)")
    if "bid" in types:
        return t(lang, "bid or pass")
    if capped_pass(view):
        return t(lang, "pass")
    if "contract" in types:
        return t(lang, "name your contract")
    if "give" in types:
        receivers = sorted({a.get("to") for a in view.get("legal") or [] if a.get("type") == "give"}, key=str)
        if len(receivers) == 1 and isinstance(receivers[0], int) and 0 <= receivers[0] < len(names):
            return t(lang, "give a card to {name}", name=names[receivers[0]])
        return t(lang, "give a card to each opponent")
    if "take_talon" in types:
        return t(lang, "choose a talon")
    if "play_trump" in types:
        return t(lang, "take the trump or pass")
    if "name_suit" in types:  # Deberts' second round: the buttons are suits
        return t(lang, "name a trump suit or pass") if "pass" in types else t(lang, "name a trump suit")
    if "swap_seven" in types:
        return t(lang, "swap the seven or not")
    if "play" in types:
        return t(lang, "play a tile") if game == "kozel" else t(lang, "play a card")
    return t(lang, "choose")


def why(game: str, view: dict[str, Any], lang: str) -> str | None:
    """Why the choice is narrower than it looks, when the view says so; None when nothing is constrained."""
    if opening_call(view):
        return t(lang, "The first hand must open the bidding at 100 or more: no Pass on the opening call.")
    capped = capped_pass(view)
    if capped is not None:
        cap, bid, married = capped
        if not married:
            return t(
                lang, "No marriage in your hand: you may bid up to {cap} only, and the bid is {bid}.", cap=cap, bid=bid
            )
        return t(lang, "Your marriages allow bids up to {cap} only, and the bid is {bid}.", cap=cap, bid=bid)
    if "play" not in _types(view):
        return None
    hand = list(view.get("hand") or [])
    if game == "kozel":
        return _why_tiles(view, hand, lang)
    legal = {a.get("card") for a in view.get("legal") or [] if a.get("type") == "play" and a.get("card")}
    trick = [c.get("card") for c in view.get("trick") or [] if isinstance(c, dict) and isinstance(c.get("card"), str)]
    if not legal or legal >= set(hand) or not trick:
        return None
    led, trump = trick[0][1], view.get("trump")
    if all(card[1] == led for card in legal):
        held = [c for c in hand if c[1] == led]
        if led == trump and len(legal) < len(held):
            return t(lang, "Trump was led: you must beat the highest trump on the table.")
        return t(lang, "You must follow suit ({suit}).", suit=pretty_suit(led))
    if trump and all(card[1] == trump for card in legal):
        return t(
            lang,
            "You have no {suit}: you must play a trump ({trump}).",
            suit=pretty_suit(led),
            trump=pretty_suit(trump),
        )
    return None


def _why_tiles(view: dict[str, Any], hand: list[str], lang: str) -> str | None:
    fits = tile_steps(view)
    if not fits or set(fits) >= set(hand):
        return None
    ends = view.get("ends") or {}
    if ends.get("left") is None:
        if view.get("first_rule") and len(fits) == 1:
            tile = tile_label(next(iter(fits)))
            return t(
                lang, "The game opens with {tile}: 1-1 leads, else the next double held (2-2 … 6-6, 0-0).", tile=tile
            )
        return None
    return t(lang, "Only these tiles fit the open ends ({left} and {right}).", left=ends["left"], right=ends["right"])
