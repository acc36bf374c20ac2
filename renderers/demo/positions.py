"""Real game positions for the gallery, the picture tests and the benchmark, found by seeded random play.

``find(game, players)`` plays seeded games with the guided random policy (``core.randomplay``) and keeps a
copy of the first state that matches each named moment of that game: mid-bidding, mid-trick, end of round,
on the barrel, a long domino chain, the end of the game... Moments are recognised from the public view
only, so this does not depend on how an engine stores its state.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from core import games
from core.base import GameState
from core.randomplay import play_game

View = dict[str, Any]
Predicate = Callable[[View], bool]

SEATS = {"thousand": (2, 3, 4), "deberts": (2, 3), "kozel": (2, 3, 4)}

# A few table conventions switched on so that their marks show up in pictures.
OPTIONS: dict[str, dict[int, dict[str, Any]]] = {
    "thousand": {3: {"golden_round": True, "dump_truck": True}, 2: {"show_talon_on_100": True}},
    "deberts": {},
    "kozel": {4: {"fish": "one"}},
}


def _spoken(v: View) -> int:
    return sum(b is not None for b in v.get("bids") or ())


def _thousand() -> dict[str, Predicate]:
    return {
        "bidding": lambda v: v["phase"] == "bidding" and _spoken(v) >= 2,
        "talon": lambda v: v["phase"] == "talon",
        "give": lambda v: v["phase"] == "give" and any(t.get("cards") for t in v["talons"]),
        "play": lambda v: (
            v["phase"] == "play"
            and v["trump"] is not None
            and len(v["trick"]) == len(v["active"]) - 1
            and sum(v["tricks_taken"]) >= 2
            and bool(v["marriages"])
        ),
        "round_over": lambda v: v["phase"] == "round_over" and v["round"] >= 3,
        "barrel": lambda v: v["phase"] == "play" and any(v["barrel"]) and len(v["trick"]) >= 1,
        "plays_100": lambda v: v["phase"] == "play" and bool(v.get("on_hundred")) and len(v["trick"]) >= 1,
        "game_over": lambda v: v["finished"],
    }


def _last_result(v: View) -> str | None:
    rows = v.get("score_sheet") or []
    return rows[-1].get("result") if rows else None


def _deberts() -> dict[str, Predicate]:
    return {
        "bidding": lambda v: v["phase"] == "bidding" and _spoken(v) >= 1,
        "second_circle": lambda v: v["phase"] == "bidding" and v.get("circle") == 2,
        "play": lambda v: v["phase"] == "play" and len(v["trick"]) >= 1 and v.get("runs") is not None,
        "bella": lambda v: v["phase"] == "play" and v.get("bella") is not None and len(v["trick"]) >= 1,
        "round_over": lambda v: v["phase"] == "round_over" and v["round"] >= 2,
        "hanging": lambda v: v["phase"] == "play" and (v.get("hanging") or {}).get("points", 0) > 0,
        "hanging_bait": lambda v: v["phase"] == "round_over" and _last_result(v) == "hanging",
        "game_over": lambda v: v["finished"],
    }


def _kozel() -> dict[str, Predicate]:
    return {
        "start": lambda v: v["phase"] == "play" and 1 <= len(v["chain"]) <= 3,
        "play": lambda v: v["phase"] == "play" and 8 <= len(v["chain"]) <= 12,
        "long_chain": lambda v: v["phase"] == "play" and len(v["chain"]) >= 20,
        "round_over": lambda v: v["phase"] == "round_over" and v["round"] >= 2 and v.get("revealed") is not None,
        "game_over": lambda v: v["finished"],
    }


MOMENTS: dict[str, Callable[[], dict[str, Predicate]]] = {
    "thousand": _thousand,
    "deberts": _deberts,
    "kozel": _kozel,
}


def available() -> list[str]:
    """Games whose engine package can be imported here."""
    return [g for g in games.available() if g in MOMENTS]


def find(
    game: str, players: int, seed: int = 1, max_games: int = 60, only: tuple[str, ...] | None = None
) -> dict[str, GameState]:
    """Named moments of ``game`` for ``players`` seats (copies of real states), as many as were found.

    ``only`` limits the search to some moments (a test that needs no finished game stops early).
    """
    rules = games.get(game)
    wanted = MOMENTS[game]()
    if game == "thousand" and players != 2:
        wanted.pop("talon")
    if only is not None:
        wanted = {k: p for k, p in wanted.items() if k in only}
    found: dict[str, GameState] = {}
    options = OPTIONS.get(game, {}).get(players)

    def on_step(state: GameState) -> None:
        missing = [k for k in wanted if k not in found]
        if not missing:
            return
        v = state.view(None)
        for key in missing:
            try:
                hit = wanted[key](v)
            except (KeyError, TypeError):
                hit = False
            if hit:
                found[key] = state.copy()

    class _Done(Exception):
        pass

    def step(state: GameState) -> None:
        on_step(state)
        if "game_over" not in wanted and len(found) == len(wanted):
            raise _Done  # nothing left to look for: stop this game early

    for i in range(max_games):
        try:
            state = play_game(rules, players, seed + i, options=options, on_step=step)
        except _Done:
            break
        if "game_over" in wanted and "game_over" not in found and state.finished:
            found["game_over"] = state.copy()
        if len(found) == len(wanted):
            break
    return {k: found[k] for k in wanted if k in found}
