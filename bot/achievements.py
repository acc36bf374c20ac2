"""Achievements: what a player earns in a chat, computed from a finished game's move log and results (and, for the
daily deal, from his attempts), so they can be computed again for old games (``python -m bot achievements
--backfill``) and give the same set as live play (``docs/achievements.md``).

Pure: ``replay`` turns a table's log into the game's events and final state through the core; ``at_table`` says
which achievements one seat earned with that game, given his counts in the chat including it; ``by_daily`` which
ones his daily-deal days give. Storing them once is ``bot.storage``'s; telling them is ``bot.app.achievements``'.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Any

from core import games
from core.base import Action, Event, GameState
from core.i18n import N_, t


@dataclass(frozen=True, slots=True)
class Achievement:
    code: str
    badge: str
    title: str  # msgid
    game: str  # "all", a game's name, or "daily"


ACHIEVEMENTS: tuple[Achievement, ...] = (
    Achievement("first_game", "🎲", N_("First game"), "all"),
    Achievement("first_win", "🥇", N_("First win"), "all"),
    Achievement("games_10", "🔟", N_("10 games"), "all"),
    Achievement("games_100", "💯", N_("100 games"), "all"),
    Achievement("games_1000", "🏛", N_("1,000 games"), "all"),
    Achievement("wins_10", "🏆", N_("10 wins"), "all"),
    Achievement("wins_100", "👑", N_("100 wins"), "all"),
    Achievement("all_three", "🎪", N_("All three games played"), "all"),
    Achievement("beat_strong", "🤖", N_("Won against a strong computer"), "all"),
    Achievement("t_contract_200", "💪", N_("A contract of 200 or more made"), "thousand"),
    Achievement("t_barrel_first", "🛢", N_("Off the barrel at the first try"), "thousand"),
    Achievement("t_comeback", "📈", N_("Won from below zero"), "thousand"),
    Achievement("t_hearts", "❤", N_("A hearts marriage declared"), "thousand"),
    Achievement("d_bella_fifty", "🎩", N_("A game won with a bella and a fifty declared"), "deberts"),
    Achievement("d_no_bait", "🛡", N_("A game won without ever being bait"), "deberts"),
    Achievement("d_sweep", "🧹", N_("All nine tricks in one round"), "deberts"),
    Achievement("k_zero", "😇", N_("A Kozel game ended without a point"), "kozel"),
    Achievement("k_out_five", "🏃", N_("Went out first five times in one game"), "kozel"),
    Achievement("k_fisherman", "🐟", N_("Fisherman: ended a round with a fish"), "kozel"),
    Achievement("daily_first", "📅", N_("First daily deal"), "daily"),
    Achievement("daily_3", "🔥", N_("Daily deal three days running"), "daily"),
    Achievement("daily_7", "🌟", N_("Daily deal seven days running"), "daily"),
)
BY_CODE = {a.code: a for a in ACHIEVEMENTS}


def label(code: str, lang: str) -> str:
    """The badge and title of an achievement in ``lang``."""
    a = BY_CODE[code]
    return f"{a.badge} {t(lang, a.title)}"


@dataclass(frozen=True, slots=True)
class Played:
    """One seat of a finished game, as the achievements see it."""

    game: str
    seat: int
    place: int
    events: list[Event]
    final: GameState
    computers: list[str | None] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class Counts:
    """The player's finished games in the chat, this one included."""

    games: int
    wins: int
    kinds: frozenset[str]


def replay(game: str, players: int, options: dict[str, Any], seed: str, actions: list[dict[str, Any]]):
    """Every event of a game from its seed and logged actions, and its final state (the core deals each round as
    the application does)."""
    state = games.get(game).new_game(players, options, seed=seed, start=False)
    events = list(state.next_round_in_place())
    for raw in actions:
        if state.phase == "round_over" and not state.finished:
            events += state.next_round_in_place()
        events += state.apply_in_place(Action.from_json(raw))
    return events, state


def _sheet(state: GameState) -> list[dict[str, Any]]:
    return [r for r in state.view(None).get("score_sheet") or [] if not r.get("redeal")]


def _rounds(events: list[Event]) -> list[list[Event]]:
    """The events split at each deal."""
    starts = {"round_started", "deal"}
    out: list[list[Event]] = [[]]
    for e in events:
        if e.type in starts and out[-1]:
            out.append([])
        out[-1].append(e)
    return out


# each game's own feats, registered by the game's name (core.games is the one list of games)
PER_GAME: dict[str, Callable[[Played], set[str]]] = {}


def feats_of(game: str) -> Callable[[Callable[[Played], set[str]]], Callable[[Played], set[str]]]:
    def register(fn: Callable[[Played], set[str]]) -> Callable[[Played], set[str]]:
        PER_GAME[game] = fn
        return fn

    return register


@feats_of("thousand")
def _thousand(p: Played) -> set[str]:
    out: set[str] = set()
    rows = _sheet(p.final)
    if any(r.get("declarer") == p.seat and r.get("made") and (r.get("contract") or 0) >= 200 for r in rows):
        out.add("t_contract_200")
    if p.place == 1:
        for i, r in enumerate(rows):
            won = any(n.get("seat") == p.seat and n.get("type") == "barrel_win" for n in r.get("notes") or [])
            tried = i > 0 and any(
                n.get("seat") == p.seat and n.get("type") == "barrel_attempt" for n in rows[i - 1].get("notes") or []
            )
            if won and not tried:
                out.add("t_barrel_first")
        if any((r.get("totals") or [0] * (p.seat + 1))[p.seat] < 0 for r in rows):
            out.add("t_comeback")
    if any(e.type == "marriage" and e.seat == p.seat and (e.data or {}).get("suit") == "H" for e in p.events):
        out.add("t_hearts")
    return out


@feats_of("deberts")
def _deberts(p: Played) -> set[str]:
    out: set[str] = set()
    rows = _sheet(p.final)
    if p.place == 1:
        bella = any(e.type == "bella" and e.seat == p.seat for e in p.events)
        fifty = False
        for e in p.events:
            if e.type == "runs" and (e.data or {}).get("scorer") == p.seat:
                mine = ((e.data or {}).get("by_seat") or [])[p.seat : p.seat + 1]
                fifty = fifty or any(r.get("kind") == "berz" for runs in mine for r in runs)
        if bella and fifty:
            out.add("d_bella_fifty")
        declared = [r for r in rows if r.get("declarer") == p.seat]
        if declared and all(r.get("result") == "made" for r in declared):
            out.add("d_no_bait")
    for round_events in _rounds(p.events):
        tricks = [e for e in round_events if e.type == "trick_won"]
        if len(tricks) == 9 and all(e.seat == p.seat for e in tricks):
            out.add("d_sweep")
    return out


@feats_of("kozel")
def _kozel(p: Played) -> set[str]:
    out: set[str] = set()
    rows = _sheet(p.final)
    if rows and p.final.totals[p.seat] == 0 and p.final.loser != p.seat:
        out.add("k_zero")
    if sum(1 for r in rows if r.get("ending") == "out" and r.get("by") == p.seat) >= 5:
        out.add("k_out_five")
    if any(e.type == "fish" and e.seat == p.seat for e in p.events):
        out.add("k_fisherman")
    return out


def at_table(p: Played, counts: Counts) -> list[str]:
    """The achievements this seat's finished game gives, with his counts in the chat (this game included), in the
    order of ``ACHIEVEMENTS``."""
    got = set(PER_GAME[p.game](p))
    won = p.place == 1
    for n, code in ((1, "first_game"), (10, "games_10"), (100, "games_100"), (1000, "games_1000")):
        if counts.games >= n:
            got.add(code)
    for n, code in ((1, "first_win"), (10, "wins_10"), (100, "wins_100")):
        if won and counts.wins >= n:
            got.add(code)
    if len(counts.kinds) == len(games.NAMES):
        got.add("all_three")
    if won and "strong" in p.computers:
        got.add("beat_strong")
    return [a.code for a in ACHIEVEMENTS if a.code in got]


def streak(days: list[str]) -> int:
    """Consecutive days ending with the latest of ``days`` (``YYYY-MM-DD``)."""
    seen = sorted({date.fromisoformat(d) for d in days})
    if not seen:
        return 0
    n, day = 1, seen[-1]
    while day - timedelta(days=1) in seen:
        n, day = n + 1, day - timedelta(days=1)
    return n


def by_daily(days: list[str]) -> list[str]:
    """The daily-deal achievements of a player's attempt days in a chat (the latest one just played)."""
    run = streak(days)
    got = {"daily_first"} if days else set()
    if run >= 3:
        got.add("daily_3")
    if run >= 7:
        got.add("daily_7")
    return [a.code for a in ACHIEVEMENTS if a.code in got]
