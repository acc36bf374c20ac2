"""The end of a game: places, per-game statistics and skill ratings (openskill, Plackett–Luce) per chat and game.

Places: Thousand and Deberts rank by the winner first, then by total (higher is better); Kozel ranks the kozel
last and the others by total (lower is better). Equal totals share a place.

Ratings: every human seat is rated with openskill's multiplayer Plackett–Luce model against everyone at the
table. A computer seat takes part with a fixed rating for its level (never stored), so beating a strong computer
counts for more than beating an easy one. The stored rating shown to players is openskill's ordinal
(mu − 3·sigma). Kozel also keeps the rating points of docs/rules-kozel.md (``core.kozel.scoring``): when a seat that
was taken over by the computer after three timeouts is still taken over at the end, the game counts as ended by
that player's timeout and the timeout formula applies.
"""

from __future__ import annotations

from typing import Any

from openskill.models import PlackettLuce

from bot.storage import RatingRec, ResultSpec
from core.base import GameState
from core.kozel.scoring import rating, timeout_rating

MODEL = PlackettLuce()
COMPUTER_RATING = {"random": (12.0, 2.0), "easy": (18.0, 2.0), "normal": (25.0, 2.0), "strong": (30.0, 2.0)}


def places(state: GameState) -> list[int]:
    """1-based places of every seat at the end of a game."""
    totals = list(state.totals)
    n = len(totals)
    if state.game == "kozel":
        loser = state.loser

        def key(s: int) -> tuple[int, int]:
            return (1 if s == loser else 0, totals[s])

    else:
        winner = state.winner

        def key(s: int) -> tuple[int, int]:
            return (0 if s == winner else 1, -totals[s])

    keys = [key(s) for s in range(n)]
    return [1 + sum(1 for other in keys if other < keys[s]) for s in range(n)]


def game_stats(state: GameState, sheet: list[dict[str, Any]], seat: int) -> dict[str, Any]:
    """The per-game numbers a player's statistics add up (Thousand barrels and bolts, Deberts baits, Kozel);
    ``sheet`` is the public view's score sheet."""
    if state.game == "thousand":
        barrels = 0
        prev = 0
        bolts = 0
        for row in sheet:
            total = row["totals"][seat]
            if 880 <= total < 1000 and prev < 880:
                barrels += 1
            prev = total
            bolts += sum(
                1 for note in row.get("notes") or [] if note.get("seat") == seat and "bolt" in note.get("type", "")
            )
        return {"barrels": barrels, "bolts": bolts}
    if state.game == "deberts":
        baits = sum(1 for row in sheet if row.get("declarer") == seat and row.get("result") not in (None, "made"))
        return {"baits": baits}
    if state.game == "kozel":
        return {"kozel": state.loser == seat}
    return {}


def kozel_points(state: GameState, taken_over: list[bool]) -> list[int]:
    totals = list(state.totals)
    leavers = [s for s, gone in enumerate(taken_over) if gone]
    if leavers:
        leaver = max(leavers, key=lambda s: (totals[s], -s))
        return timeout_rating(totals, leaver)
    return rating(totals, state.loser if state.loser is not None else 0)


def results(
    state: GameState,
    user_ids: list[int | None],
    computers: list[str | None],
    taken_over: list[bool],
    ratings: dict[int, RatingRec],
) -> list[ResultSpec]:
    """Results of every seat with new ratings, ready for ``Storage.commit_move(results=...)``."""
    place = places(state)
    teams = []
    for s, uid in enumerate(user_ids):
        if uid is not None and uid in ratings:
            r = ratings[uid]
            teams.append([MODEL.rating(mu=r.mu, sigma=r.sigma)])
        elif uid is not None:
            teams.append([MODEL.rating()])
        else:
            mu, sigma = COMPUTER_RATING.get(computers[s] or "normal", COMPUTER_RATING["normal"])
            teams.append([MODEL.rating(mu=mu, sigma=sigma)])
    rated = MODEL.rate(teams, ranks=place)
    points = kozel_points(state, taken_over) if state.game == "kozel" else None
    sheet = state.view(None).get("score_sheet") or []
    out = []
    for s, uid in enumerate(user_ids):
        before = teams[s][0].ordinal() if uid is not None else None
        after_rating = rated[s][0]
        stats = game_stats(state, sheet, s)
        out.append(
            ResultSpec(
                seat=s,
                user_id=uid,
                total=int(state.totals[s]),
                place=place[s],
                rating_before=round(before, 3) if before is not None else None,
                rating_after=round(after_rating.ordinal(), 3) if uid is not None else None,
                mu=after_rating.mu if uid is not None else None,
                sigma=after_rating.sigma if uid is not None else None,
                barrels=stats.get("barrels"),
                bolts=stats.get("bolts"),
                baits=stats.get("baits"),
                kozel=stats.get("kozel"),
                rating_points=points[s] if points is not None else None,
            )
        )
    return out
