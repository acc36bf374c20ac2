"""Complete games between computer players, with the figures ``python -m core.selfplay`` reports.

``play_one`` plays one game: every seat decides from its own view and the public events only. Game ``i``
of a series uses the seed ``seed * 1_000_003 + i`` and ``first_dealer = i % players``, so the deal and the
first dealer rotate fairly across the seats.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from core import games
from core.ai.player import player
from core.ai.search import DEFAULT, Budget
from core.base import Event, GameState

MAX_ROUNDS = 400  # a game still running after this many rounds is stopped (no winner)


@dataclass
class Tally:
    game: str
    players: int
    levels: list[str]
    games: int = 0
    rounds: int = 0
    unfinished: int = 0
    wins: list[int] = field(default_factory=list)
    kozel: list[int] = field(default_factory=list)
    totals: list[int] = field(default_factory=list)
    times: dict[str, list[float]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        n = self.players
        self.wins = self.wins or [0] * n
        self.kozel = self.kozel or [0] * n
        self.totals = self.totals or [0] * n
        for level in self.levels:
            self.times.setdefault(level, [])

    def add(self, state: GameState, rounds: int) -> None:
        self.games += 1
        self.rounds += rounds
        if not state.finished:
            self.unfinished += 1
        for s in range(self.players):
            self.totals[s] += state.totals[s]
            if self.game == "kozel":
                if state.finished and state.loser == s:
                    self.kozel[s] += 1
                elif state.finished:
                    self.wins[s] += 1
            elif state.finished and state.winner == s:
                self.wins[s] += 1

    def summary(self) -> dict[str, Any]:
        seats = []
        for s, level in enumerate(self.levels):
            row: dict[str, Any] = {
                "level": level,
                "wins": self.wins[s],
                "mean_total": round(self.totals[s] / self.games, 1) if self.games else 0.0,
            }
            if self.game == "kozel":
                row["kozel"] = self.kozel[s]
            seats.append(row)
        return {
            "game": self.game,
            "players": self.players,
            "games": self.games,
            "rounds": self.rounds,
            "seats": seats,
            "decision_ms": {lv: timing(ts) for lv, ts in self.times.items()},
        }


def timing(ms: list[float]) -> dict[str, float]:
    if not ms:
        return {"mean": 0.0, "p95": 0.0, "max": 0.0}
    ordered = sorted(ms)
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
    return {"mean": round(sum(ms) / len(ms), 3), "p95": round(p95, 3), "max": round(ordered[-1], 3)}


def play_one(
    game: str,
    levels: list[str],
    index: int,
    seed: int,
    options: dict[str, Any] | None = None,
    tally: Tally | None = None,
    max_rounds: int = MAX_ROUNDS,
    budget: Budget = DEFAULT,
) -> GameState:
    """Play game number ``index`` of a series to its end (or ``max_rounds``) and return the final state."""
    rules = games.get(game)
    n = len(levels)
    game_seed = seed * 1_000_003 + index
    seats = [player(game, lv, seed=f"{game_seed}:{s}", budget=budget) for s, lv in enumerate(levels)]
    state = rules.new_game(n, options, seed=game_seed, first_dealer=index % n, start=False)
    history: list[Event] = []
    rounds = 0
    while not state.finished:
        if state.phase == "round_over":
            if rounds >= max_rounds:
                break
            history = list(state.next_round_in_place())  # each seat needs the events since the round began
            rounds += 1
            continue
        seat = state.to_act
        assert seat is not None
        view = state.view(seat)
        start = time.perf_counter()
        action = seats[seat].decide(view, history)
        elapsed = (time.perf_counter() - start) * 1000
        if tally is not None:
            tally.times[levels[seat]].append(elapsed)
        history.extend(state.apply_in_place(action))
    if tally is not None:
        tally.add(state, rounds)
    return state
