"""Complete games between computer players, with the figures ``python -m core.selfplay`` reports.

``play_one`` plays one game: every seat decides from its own view and the public events only. Game ``i`` of a
series uses the seed ``seed * 1_000_003 + i`` and ``first_dealer = i % players``, so the deal and the first
dealer rotate fairly across the seats. The computer seats get seeds of their own, independent of the deal's
seed (``computer_seeds``: a keyed hash of the series' ``ai_seed``, the game number and the seat), so nothing
about a deal can be read from, or is correlated with, a computer's choices. A seat is a level
(``core.ai.LEVELS``) or the dotted name of a module whose ``player(game, seed=..., budget=...)`` returns an
object with ``decide(view, history)`` (the frozen baseline ``bench.baseline``): ``seat_player`` imports it
when the game starts, so ``core`` never imports ``bench`` by itself.
"""

from __future__ import annotations

import hashlib
import importlib
import time
from dataclasses import dataclass, field
from typing import Any

from core import games
from core.ai.player import LEVELS, ComputerPlayer, player
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
    deals: int = 0  # Thousand: rounds whose bidding ended (redeals not counted)
    no_bid: int = 0  # Thousand: of those, rounds where nobody bid and the first hand played 100

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

    def note_round(self, events: list[Event]) -> None:
        """Count a finished round's deal from its events (Thousand: who won the bidding, and how)."""
        if self.game == "thousand":
            for ev in events:
                if ev.type == "bidding_won":
                    self.deals += 1
                    self.no_bid += bool(ev.data.get("on_hundred"))

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
            **({"deals": self.deals, "no_bid": self.no_bid} if self.game == "thousand" else {}),
        }


def timing(ms: list[float]) -> dict[str, float]:
    if not ms:
        return {"mean": 0.0, "p95": 0.0, "max": 0.0}
    ordered = sorted(ms)
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
    return {"mean": round(sum(ms) / len(ms), 3), "p95": round(p95, 3), "max": round(ordered[-1], 3)}


def computer_seeds(ai_seed: int | str, index: int, players: int) -> list[str]:
    """The seeds of the computer seats of game ``index``: BLAKE2b keyed by the ``ai_seed`` under its own name.

    They depend on ``ai_seed``, the game number and the seat only, never on the deal's seed (the bot seeds
    its computer seats the same way from a key of its own, ``bot.play.ai_seed``).
    """
    key = hashlib.blake2b(f"computer-seats:{ai_seed}".encode(), digest_size=32).digest()
    return [
        hashlib.blake2b(f"game:{index}:seat:{s}".encode(), key=key, digest_size=8).hexdigest() for s in range(players)
    ]


def seat_player(game: str, spec: str, seed: int | str, budget: Budget = DEFAULT) -> Any:
    """The computer seat a seat spec names: a level, or a module (dotted name) with a ``player`` function."""
    if spec in LEVELS:
        return player(game, spec, seed=seed, budget=budget)
    return importlib.import_module(spec).player(game, seed=seed, budget=budget)


def play_one(
    game: str,
    levels: list[str],
    index: int,
    seed: int,
    options: dict[str, Any] | None = None,
    tally: Tally | None = None,
    max_rounds: int = MAX_ROUNDS,
    budget: Budget = DEFAULT,
    ai_seed: int | str = 0,
) -> GameState:
    """Play game number ``index`` of a series to its end (or ``max_rounds``) and return the final state.

    The deal comes from ``seed`` and ``index``; the computer seats' seeds from ``ai_seed`` and ``index``.
    """
    rules = games.get(game)
    n = len(levels)
    game_seed = seed * 1_000_003 + index
    seeds = computer_seeds(ai_seed, index, n)
    seats = [seat_player(game, lv, seeds[s], budget) for s, lv in enumerate(levels)]
    from_state = [isinstance(c, ComputerPlayer) and c.reads_state for c in seats]
    readers = [c for c, fs in zip(seats, from_state, strict=True) if fs]
    if readers:
        readers[0].share_reading(readers[1:])  # the public events are read once, not once per seat
    state = rules.new_game(n, options, seed=game_seed, first_dealer=index % n, start=False)
    history: list[Event] = []
    rounds = 0
    while not state.finished:
        if state.phase == "round_over":
            if tally is not None:
                tally.note_round(history)
            if rounds >= max_rounds:
                history = []
                break
            history = list(state.next_round_in_place())  # each seat needs the events since the round began
            rounds += 1
            continue
        seat = state.to_act
        assert seat is not None
        computer = seats[seat]
        view = None if from_state[seat] else state.view(seat)  # built outside the decision's time, as a bot does
        start = time.perf_counter() if tally is not None else 0.0
        if from_state[seat]:
            action = computer.decide_in_game(state, history)  # = decide(state.view(seat), history)
        else:
            action = computer.decide(view, history)
        if tally is not None:
            tally.times[levels[seat]].append((time.perf_counter() - start) * 1000)
        history.extend(state.apply_in_place(action))
    if tally is not None:
        tally.note_round(history)
        tally.add(state, rounds)
    return state
