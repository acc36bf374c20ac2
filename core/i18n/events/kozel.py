"""Kozel events as sentences (the chain of tiles, the bazaar, knocks, fish and carried points, the kozel)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from core.base import Event
from core.i18n.counts import points
from core.i18n.events.common import Say, Sentence, tell
from core.i18n.messages import N_, t, tn

# Why a hand must be redealt (``reasons`` of a ``redeal`` event).
REDEAL_REASONS = {"doubles": N_("five or more doubles"), "value": N_("six or more tiles of one value")}


def _round_started(e: Event, d: dict[str, Any], s: Say) -> str:
    if d.get("first_rule"):
        return t(
            s.lang,
            "Round {round}: {who} holds the lowest double (or the highest tile) and leads.",
            round=d["round"],
            who=s.seat(e.seat),
        )
    return t(s.lang, "Round {round}: {who} leads with any tile.", round=d["round"], who=s.seat(e.seat))


def _redeal(e: Event, d: dict[str, Any], s: Say) -> str:
    hands = []
    for seat, reason in zip(d.get("seats", []), d.get("reasons", [])):
        why = REDEAL_REASONS[reason]
        hands.append(f"{s.seat(seat)} ({t(s.lang, why)})")
    return t(s.lang, "Round {round}: redeal — {hands}.", round=d["round"], hands=", ".join(hands))


def _tile_played(e: Event, d: dict[str, Any], s: Say) -> str:
    fields = {"who": s.seat(e.seat), "tile": d["tile"], "left": d["left"], "right": d["right"]}
    a, _, b = str(d["tile"]).partition("-")
    if {a, b} == {str(d["left"]), str(d["right"])}:
        # the line's ends are the tile's own two numbers: the round's first tile (which lies the same way on
        # either end, so the end says nothing), or a tile whose end the ends shown tell anyway
        return t(s.lang, "{who} plays {tile} (ends {left}|{right}).", **fields)
    if d["end"] == "left":
        return t(s.lang, "{who} plays {tile} on the left end (ends {left}|{right}).", **fields)
    return t(s.lang, "{who} plays {tile} on the right end (ends {left}|{right}).", **fields)


def _drew(e: Event, d: dict[str, Any], s: Say) -> str:
    return tn(
        s.lang,
        "{who} draws {n} tile from the bazaar ({left} left).",
        "{who} draws {n} tiles from the bazaar ({left} left).",
        d["count"],
        who=s.seat(e.seat),
        left=d["bazaar"],
    )


def _knocked(e: Event, d: dict[str, Any], s: Say) -> str:
    return t(s.lang, "{who} knocks: no tile fits.", who=s.seat(e.seat))


def _went_out(e: Event, d: dict[str, Any], s: Say) -> str:
    return t(s.lang, "{who} goes out!", who=s.seat(e.seat))


def _fish(e: Event, d: dict[str, Any], s: Say) -> str:
    return t(s.lang, "Fish on {value}! {who} is the fisherman.", value=d["value"], who=s.seat(e.seat))


def _fish_taken(e: Event, d: dict[str, Any], s: Say) -> str:
    return t(
        s.lang,
        "Fish for one: {who} had the most and takes all {points}.",
        who=s.seat(e.seat),
        points=points(s.lang, d["amount"]),
    )


def _fish_tie(e: Event, d: dict[str, Any], s: Say) -> str:
    return t(
        s.lang,
        "Fish for one with a tie for the most: nobody scores, {points} carry over.",
        points=points(s.lang, d["carry"]),
    )


def _carry_taken(e: Event, d: dict[str, Any], s: Say) -> str:
    return t(
        s.lang,
        "{who} scored the most and also takes the carried {points}.",
        who=s.seat(e.seat),
        points=points(s.lang, d["amount"]),
    )


def _carry_kept(e: Event, d: dict[str, Any], s: Say) -> str:
    return t(
        s.lang, "A tie for the most: the carried {points} wait for the next round.", points=points(s.lang, d["carry"])
    )


def _round_scores(e: Event, d: dict[str, Any], s: Say) -> str:
    parts = []
    for seat in range(len(d["totals"])):
        if not d["opened"][seat]:
            now = f"+{s.num(d['remembered'][seat])}"
        elif d["opened_now"][seat]:
            now = t(s.lang, "{total} (opened)", total=s.num(d["totals"][seat]))
        else:
            now = s.num(d["totals"][seat])
        parts.append(f"{s.seat(seat)} {s.num(d['gained'][seat])} → {now}")
    # Translators: Kozel, each seat's "points in hand → account"; "+N" is remembered (12 or less), not yet written.
    return t(
        s.lang,
        "Round {round} scores (points in hand → account, +N remembered): {scores}.",
        round=d["round"],
        scores="; ".join(parts),
    )


def _game_over(e: Event, d: dict[str, Any], s: Say) -> str:
    rating = ", ".join(f"{s.seat(seat)} +{r}" for seat, r in enumerate(d["rating"]) if seat != e.seat)
    return t(
        s.lang,
        "{who} has {total} and is the kozel! Rating points: {rating}.",
        who=s.seat(e.seat),
        total=s.num(d["totals"][e.seat]),
        rating=rating,
    )


SENTENCES: dict[str, Sentence] = {
    "round_started": _round_started,
    "redeal": _redeal,
    "tile_played": _tile_played,
    "drew": _drew,
    "knocked": _knocked,
    "went_out": _went_out,
    "fish": _fish,
    "fish_taken": _fish_taken,
    "fish_tie": _fish_tie,
    "carry_taken": _carry_taken,
    "carry_kept": _carry_kept,
    "round_scores": _round_scores,
    "game_over": _game_over,
}


def describe(event: Event, lang: str, names: Sequence[str] | None = None) -> str:
    """One sentence for a Kozel event in ``lang`` (already normalized)."""
    return tell("kozel", SENTENCES, event, lang, names)
