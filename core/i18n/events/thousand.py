"""Thousand events as sentences (bidding, the talon, marriages, the barrel, bolts, the dump truck, redeals)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from core.base import Event
from core.cards import SUIT_SYMBOLS, pretty
from core.i18n.counts import points
from core.i18n.events.common import Say, Sentence, tell
from core.i18n.messages import N_, t

# Why a player may call a redeal (the ``reason`` of a ``redeal`` event).
REDEAL_REASONS = {
    "four_nines": N_("four nines"),
    "under_14": N_("under 14 points"),
    "talon_nines": N_("a talon of nines"),
}


def _round_started(e: Event, d: dict[str, Any], s: Say) -> str:
    out = [t(s.lang, "Round {round}: {dealer} deals.", round=d["round"], dealer=s.seat(d["dealer"]))]
    if d.get("sitting_out") is not None:
        out.append(t(s.lang, "{who} sits out on the talon.", who=s.seat(d["sitting_out"])))
    if d.get("golden"):
        out.append(t(s.lang, "Golden round: results count double."))
    return " ".join(out)


def _barrel_takes_talon(e: Event, d: dict[str, Any], s: Say) -> str:
    return t(
        s.lang,
        "{who} is on the barrel and takes the talon at {value} without bidding.",
        who=s.seat(e.seat),
        value=d["value"],
    )


def _auto_pass(e: Event, d: dict[str, Any], s: Say) -> str:
    return t(s.lang, "{who} is below {floor} and passes automatically.", who=s.seat(e.seat), floor=s.num(d["floor"]))


def _plays_by_default(e: Event, d: dict[str, Any], s: Say) -> str:
    return t(s.lang, "Nobody else may bid: {who} plays {value}.", who=s.seat(e.seat), value=d["value"])


def _bid(e: Event, d: dict[str, Any], s: Say) -> str:
    return t(s.lang, "{who} bids {value}.", who=s.seat(e.seat), value=d["value"])


def _pass(e: Event, d: dict[str, Any], s: Say) -> str:
    return t(s.lang, "{who} passes.", who=s.seat(e.seat))


def _bidding_won(e: Event, d: dict[str, Any], s: Say) -> str:
    if d.get("on_hundred"):
        return t(
            s.lang, "{who} wins the bidding at {value} (sitting on a hundred).", who=s.seat(e.seat), value=d["value"]
        )
    return t(s.lang, "{who} wins the bidding at {value}.", who=s.seat(e.seat), value=d["value"])


def _talon_shown(e: Event, d: dict[str, Any], s: Say) -> str:
    cards = " ".join(pretty(c) for c in d["cards"])
    return t(s.lang, "{who} takes the talon: {cards}.", who=s.seat(e.seat), cards=cards)


def _talon_hidden(e: Event, d: dict[str, Any], s: Say) -> str:
    return t(s.lang, "{who} takes the talon without showing it.", who=s.seat(e.seat))


def _card_given(e: Event, d: dict[str, Any], s: Say) -> str:
    return t(s.lang, "{who} gives a card to {to}.", who=s.seat(e.seat), to=s.seat(d["to"]))


def _contract_asked(e: Event, d: dict[str, Any], s: Say) -> str:
    return t(s.lang, "{who}, name your contract (at least {bid}).", who=s.seat(e.seat), bid=d["bid"])


def _contract(e: Event, d: dict[str, Any], s: Say) -> str:
    # Translators: Thousand, the declarer names the contract he will play for (not a card played).
    return t(s.lang, "{who} names the contract: {value}.", who=s.seat(e.seat), value=d["value"])


def _conceded(e: Event, d: dict[str, Any], s: Say) -> str:
    return t(s.lang, "{who} concedes {contract}.", who=s.seat(e.seat), contract=d["contract"])


def _card_played(e: Event, d: dict[str, Any], s: Say) -> str:
    return t(s.lang, "{who} plays {card}.", who=s.seat(e.seat), card=pretty(d["card"]))


def _marriage(e: Event, d: dict[str, Any], s: Say) -> str:
    who, symbol, value = s.seat(e.seat), SUIT_SYMBOLS[d["trump"]], d["points"]
    if d.get("ace"):
        return t(
            s.lang, "{who} declares the ace marriage: +{points}. Trump: {symbol}.", who=who, points=value, symbol=symbol
        )
    return t(
        s.lang,
        "{who} declares the {suit} marriage: +{points}. Trump: {symbol}.",
        who=who,
        suit=s.suit(d["suit"]),
        points=value,
        symbol=symbol,
    )


def _trick_won(e: Event, d: dict[str, Any], s: Say) -> str:
    return t(s.lang, "{who} takes the trick ({points}).", who=s.seat(e.seat), points=points(s.lang, d["points"]))


def _round_scored(e: Event, d: dict[str, Any], s: Say) -> str:
    who, contract, scores = s.seat(e.seat), d["contract"], s.scores(d["scores"])
    still = bool(d.get("stand_still"))
    if d["conceded"]:
        if still:
            text = t(
                s.lang,
                "Round {round}: {who} conceded {contract}, the others stand still; {scores}.",
                round=d["round"],
                who=who,
                contract=contract,
                scores=scores,
            )
        else:
            text = t(
                s.lang,
                "Round {round}: {who} conceded {contract}; {scores}.",
                round=d["round"],
                who=who,
                contract=contract,
                scores=scores,
            )
    elif d["made"]:
        if still:
            text = t(
                s.lang,
                "Round {round}: {who} made {contract}, the others stand still; {scores}.",
                round=d["round"],
                who=who,
                contract=contract,
                scores=scores,
            )
        else:
            text = t(
                s.lang,
                "Round {round}: {who} made {contract}; {scores}.",
                round=d["round"],
                who=who,
                contract=contract,
                scores=scores,
            )
    elif still:
        text = t(
            s.lang,
            "Round {round}: {who} failed {contract}, the others stand still; {scores}.",
            round=d["round"],
            who=who,
            contract=contract,
            scores=scores,
        )
    else:
        text = t(
            s.lang,
            "Round {round}: {who} failed {contract}; {scores}.",
            round=d["round"],
            who=who,
            contract=contract,
            scores=scores,
        )
    return text


def _bolt(e: Event, d: dict[str, Any], s: Say) -> str:
    return t(s.lang, "{who} took no trick: bolt #{value}.", who=s.seat(e.seat), value=d["value"])


def _bolt_penalty(e: Event, d: dict[str, Any], s: Say) -> str:
    return t(s.lang, "{who}: three bolts, −120.", who=s.seat(e.seat))


def _barrel_on(e: Event, d: dict[str, Any], s: Say) -> str:
    return t(s.lang, "{who} climbs on the barrel (880).", who=s.seat(e.seat))


def _barrel_attempt(e: Event, d: dict[str, Any], s: Say) -> str:
    return t(s.lang, "{who}: barrel attempt {attempt} of 3 missed.", who=s.seat(e.seat), attempt=d["attempt"])


def _barrel_fall(e: Event, d: dict[str, Any], s: Say) -> str:
    who, reason = s.seat(e.seat), d.get("reason", "")
    if reason == "pushed":
        return t(s.lang, "{who} is pushed off the barrel by another player: −120.", who=who)
    if reason == "together":
        return t(s.lang, "{who} falls off the barrel: climbed on together with another player, −120.", who=who)
    if reason == "attempts":
        return t(s.lang, "{who} falls off the barrel after three missed attempts: −120.", who=who)
    return t(s.lang, "{who} falls off the barrel: −120.", who=who)


def _barrel_fail(e: Event, d: dict[str, Any], s: Say) -> str:
    return t(
        s.lang,
        "{who} fails {contract} on the barrel: {value}, and falls off the barrel.",
        who=s.seat(e.seat),
        contract=d["contract"],
        value=d["value"],
    )


def _barrel_win(e: Event, d: dict[str, Any], s: Say) -> str:
    return t(s.lang, "{who} makes it from the barrel!", who=s.seat(e.seat))


def _missed_barrels_reset(e: Event, d: dict[str, Any], s: Say) -> str:
    return t(s.lang, "{who}: three missed barrels, the total becomes 0.", who=s.seat(e.seat))


def _dump_truck(e: Event, d: dict[str, Any], s: Say) -> str:
    return t(s.lang, "{who} hits the dump truck: {old} becomes 0.", who=s.seat(e.seat), old=s.num(-d["value"]))


def _redeal(e: Event, d: dict[str, Any], s: Say) -> str:
    reason = REDEAL_REASONS[d["reason"]]
    return t(
        s.lang,
        "{who} calls a redeal ({reason}). {dealer} deals again.",
        who=s.seat(e.seat),
        reason=t(s.lang, reason),
        dealer=s.seat(d["dealer"]),
    )


def _game_won(e: Event, d: dict[str, Any], s: Say) -> str:
    return t(s.lang, "{who} wins the game with {total}!", who=s.seat(e.seat), total=s.num(d["total"]))


SENTENCES: dict[str, Sentence] = {
    "round_started": _round_started,
    "barrel_takes_talon": _barrel_takes_talon,
    "auto_pass": _auto_pass,
    "plays_by_default": _plays_by_default,
    "bid": _bid,
    "pass": _pass,
    "bidding_won": _bidding_won,
    "talon_shown": _talon_shown,
    "talon_hidden": _talon_hidden,
    "card_given": _card_given,
    "contract_asked": _contract_asked,
    "contract": _contract,
    "conceded": _conceded,
    "card_played": _card_played,
    "marriage": _marriage,
    "trick_won": _trick_won,
    "round_scored": _round_scored,
    "bolt": _bolt,
    "bolt_penalty": _bolt_penalty,
    "barrel_on": _barrel_on,
    "barrel_attempt": _barrel_attempt,
    "barrel_fall": _barrel_fall,
    "barrel_fail": _barrel_fail,
    "barrel_win": _barrel_win,
    "missed_barrels_reset": _missed_barrels_reset,
    "dump_truck": _dump_truck,
    "redeal": _redeal,
    "game_won": _game_won,
}


def describe(event: Event, lang: str, names: Sequence[str] | None = None) -> str:
    """One sentence for a Thousand event in ``lang`` (already normalized)."""
    return tell("thousand", SENTENCES, event, lang, names)
