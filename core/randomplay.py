"""The seeded random-game driver: play complete games with random legal actions (tests, benchmarks).

``play_game(rules, players, seed)`` plays one game to its end and returns the final state. The policy
is ``"uniform"`` (every legal action equally likely) or ``"guided"`` (still random and legal, but each
game's ``playout`` module weights the choices the way a casual player would, so that games reach their
end in a sensible number of rounds: a uniformly random Thousand player almost never makes the barrel).
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable
from typing import Any

from core.base import Action, GameRules, GameState
from core.rng import stream

Policy = Callable[[GameState, int, list[Action], random.Random], Action]


def uniform(state: GameState, seat: int, actions: list[Action], rng: random.Random) -> Action:
    return actions[rng.randrange(len(actions))]


def policy_for(rules: GameRules, name: str) -> Policy:
    if name == "uniform":
        return uniform
    if name == "guided":
        return importlib.import_module(f"core.{rules.name}.playout").choose
    raise ValueError(f"unknown policy {name!r}")


def play_game(
    rules: GameRules,
    players: int,
    seed: int,
    options: dict[str, Any] | None = None,
    policy: str | Policy = "guided",
    max_rounds: int | None = None,
    on_step: Callable[[GameState], None] | None = None,
) -> GameState:
    """Play one game from ``seed`` to its end (or ``max_rounds`` rounds) and return the state."""
    choose = policy_for(rules, policy) if isinstance(policy, str) else policy
    rng = stream(seed, "policy")
    state = rules.new_game(players, options, seed=seed)
    rounds = 1
    legal_actions, apply_in_place = state.legal_actions, state.apply_in_place  # one state, changed in place
    while not state.finished:
        if on_step is not None:
            on_step(state)
        if state.phase == "round_over":
            if max_rounds is not None and rounds >= max_rounds:
                break
            state.next_round_in_place()
            rounds += 1
            continue
        seat = state.to_act
        assert seat is not None, f"phase {state.phase} with nobody to act"
        apply_in_place(choose(state, seat, legal_actions(seat), rng))
    if on_step is not None:
        on_step(state)
    return state


def play_games(rules: GameRules, players: int, n: int, seed: int = 0, **kwargs: Any) -> list[GameState]:
    return [play_game(rules, players, seed * 1_000_003 + i, **kwargs) for i in range(n)]
