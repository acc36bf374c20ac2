"""Deberts events as sentences (the open card, trump, runs and which of them count, bella, bait, hanging points)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from core.base import Event
from core.cards import pretty
from core.i18n.counts import points
from core.i18n.events.common import Say, Sentence, tell
from core.i18n.messages import N_, t

RUN_KINDS = {"terz": N_("terz"), "berz": N_("berz")}
# Why a player's runs do not count (``reason`` of a beaten run or of ``runs_lost``).
REASONS = {
    "berz_beats_terz": N_("a berz beats a terz"),
    "higher_top": N_("the higher top card wins"),
    "trump_run": N_("the trump run wins"),
    "deal_order": N_("the earlier seat in deal order wins"),
    "no_trick": N_("no trick taken"),
}


def _reason(s: Say, key: str) -> str:
    return t(s.lang, REASONS[key])


def _run(s: Say, run: dict[str, Any]) -> str:
    kind = RUN_KINDS[run["kind"]]
    if "cards" not in run:  # a beaten run is known only by its kind and top rank
        top = "10" if run["top"] == "T" else run["top"]
        return t(s.lang, "{kind} to {top}", kind=t(s.lang, kind), top=top)
    return f"{t(s.lang, kind)} {' '.join(pretty(c) for c in run['cards'])}"


def _runs_of(s: Say, runs: list[dict[str, Any]]) -> str:
    return ", ".join(_run(s, r) for r in runs)


def _deal(e: Event, d: dict[str, Any], s: Say) -> str:
    return t(
        s.lang,
        "Round {round}: {who} deals; the open card is {card}.",
        round=d["round"],
        who=s.seat(e.seat),
        card=pretty(d["open"]),
    )


def _trump_named(e: Event, d: dict[str, Any], s: Say) -> str:
    suit = s.suit_with_symbol(d["suit"])
    if d["circle"] == 1:
        return t(s.lang, "{who} plays the open suit: trump is {suit}.", who=s.seat(e.seat), suit=suit)
    return t(s.lang, "{who} names trump: {suit}.", who=s.seat(e.seat), suit=suit)


def _pass(e: Event, d: dict[str, Any], s: Say) -> str:
    return t(s.lang, "{who} passes.", who=s.seat(e.seat))


def _all_passed(e: Event, d: dict[str, Any], s: Say) -> str:
    return t(s.lang, "Everybody passed twice: {dealer} deals anew.", dealer=s.seat(d["next_dealer"]))


def _extra_dealt(e: Event, d: dict[str, Any], s: Say) -> str:
    return t(s.lang, "Three more cards each; the bottom card of the stock is {card}.", card=pretty(d["bottom"]))


def _seven_swapped(e: Event, d: dict[str, Any], s: Say) -> str:
    return t(
        s.lang,
        "{who} swaps the trump {seven} for the open {card}.",
        who=s.seat(e.seat),
        seven=pretty(d["seven"]),
        card=pretty(d["open"]),
    )


def _seven_kept(e: Event, d: dict[str, Any], s: Say) -> str:
    return t(s.lang, "{who} keeps the trump 7.", who=s.seat(e.seat))


def _runs(e: Event, d: dict[str, Any], s: Say) -> str:
    by_seat = d["runs"]
    out = [
        t(
            s.lang,
            "{who} holds the best runs: {runs} — {points} once {who} takes a trick.",
            who=s.seat(e.seat),
            runs=_runs_of(s, by_seat[e.seat]),
            points=points(s.lang, d["points"]),
        )
    ]
    for beaten in d["beaten"]:
        other = beaten["seat"]
        out.append(
            t(
                s.lang,
                "{who}'s runs ({runs}) do not count: {reason}.",
                who=s.seat(other),
                runs=_runs_of(s, by_seat[other]),
                reason=_reason(s, beaten["reason"]),
            )
        )
    return " ".join(out)


def _card_played(e: Event, d: dict[str, Any], s: Say) -> str:
    return t(s.lang, "{who} plays {card}.", who=s.seat(e.seat), card=pretty(d["card"]))


def _bella(e: Event, d: dict[str, Any], s: Say) -> str:
    return t(s.lang, "{who}: bella! +{points}.", who=s.seat(e.seat), points=d["points"])


def _trick_won(e: Event, d: dict[str, Any], s: Say) -> str:
    return t(
        s.lang,
        "{who} takes trick {trick}: {points}.",
        who=s.seat(e.seat),
        trick=d["trick"],
        points=points(s.lang, d["points"]),
    )


def _runs_counted(e: Event, d: dict[str, Any], s: Say) -> str:
    return t(
        s.lang,
        "{who} has taken a trick: the runs count, {points}.",
        who=s.seat(e.seat),
        points=points(s.lang, d["points"]),
    )


def _last_trick(e: Event, d: dict[str, Any], s: Say) -> str:
    return t(s.lang, "{who} takes the last trick: +{points}.", who=s.seat(e.seat), points=d["points"])


def _runs_lost(e: Event, d: dict[str, Any], s: Say) -> str:
    return t(
        s.lang,
        "{who}'s runs ({points}) do not count: {reason}.",
        who=s.seat(e.seat),
        points=points(s.lang, d["points"]),
        reason=_reason(s, d["reason"]),
    )


def _round_result(e: Event, d: dict[str, Any], s: Say) -> str:
    declarer, pts = e.seat, d["points"]
    who, mine = s.seat(declarer), points(s.lang, pts[declarer])
    parts = []
    if d["result"] == "made" and d["winner_takes_all"]:
        parts.append(
            t(
                s.lang,
                "{who} made it with {points} and takes all: {total}.",
                who=who,
                points=mine,
                total=points(s.lang, sum(pts)),
            )
        )
    elif d["result"] == "made":
        parts.append(t(s.lang, "{who} made it with {points}.", who=who, points=mine))
    elif d["result"] == "bait":
        defenders = [(declarer + k) % len(pts) for k in range(1, len(pts))]
        best = max(defenders, key=lambda x: pts[x])
        parts.append(
            t(
                s.lang,
                "Bait! {who} has {points}, {best} {best_points}: {who} writes 0, the defenders write "
                "the declarer's points.",
                who=who,
                points=mine,
                best=s.seat(best),
                best_points=points(s.lang, pts[best]),
            )
        )
    else:
        parts.append(t(s.lang, "Hanging bait! {who} ties at {points}: these points hang.", who=who, points=mine))
    paid, to = d["hanging_paid"], d["hanging_to"]
    if paid and len(to) == 1:
        parts.append(t(s.lang, "{who} takes the hanging {points}.", who=s.seat(to[0]), points=points(s.lang, paid)))
    elif paid:
        parts.append(t(s.lang, "{who} share the hanging {points}.", who=s.seats(to), points=points(s.lang, paid)))
    if d["hanging"]:
        parts.append(t(s.lang, "Hanging now: {points}.", points=points(s.lang, d["hanging"])))
    parts.append(t(s.lang, "Written: {scores}.", scores=s.scores(d["scores"])))
    return " ".join(parts)


def _game_won(e: Event, d: dict[str, Any], s: Say) -> str:
    return t(
        s.lang,
        "{who} wins the game with {total} (playing to {target})!",
        who=s.seat(e.seat),
        total=s.num(d["total"]),
        target=s.num(d["target"]),
    )


def _play_on(e: Event, d: dict[str, Any], s: Say) -> str:
    return t(s.lang, "{who} are tied at {total}: play on.", who=s.seats(d["seats"]), total=s.num(d["total"]))


SENTENCES: dict[str, Sentence] = {
    "deal": _deal,
    "trump_named": _trump_named,
    "pass": _pass,
    "all_passed": _all_passed,
    "extra_dealt": _extra_dealt,
    "seven_swapped": _seven_swapped,
    "seven_kept": _seven_kept,
    "runs": _runs,
    "card_played": _card_played,
    "bella": _bella,
    "trick_won": _trick_won,
    "runs_counted": _runs_counted,
    "last_trick": _last_trick,
    "runs_lost": _runs_lost,
    "round_result": _round_result,
    "game_won": _game_won,
    "play_on": _play_on,
}


def describe(event: Event, lang: str, names: Sequence[str] | None = None) -> str:
    """One sentence (or a few, for a round's result) for a Deberts event in ``lang`` (already normalized)."""
    return tell("deberts", SENTENCES, event, lang, names)
