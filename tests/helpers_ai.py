"""Random positions of any game for the computer-player tests: live states with the seat to act and the
public events since the round began, reached by guided and uniformly random play under random options."""

from __future__ import annotations

import importlib
import random
from collections.abc import Iterator
from typing import Any

from core import games
from core.base import Event, GameState
from core.rng import stream


def random_options(game: str, players: int, rng: random.Random) -> dict[str, Any]:
    rules = games.get(game)
    return {o["name"]: rng.choice(o["choices"]) for o in rules.options_type.describe(players)}


def positions(game: str, players: int, count: int, seed: int) -> Iterator[tuple[GameState, int, list[Event]]]:
    """``count`` positions ``(state, seat, history)``; the consumer must not change the state."""
    rules = games.get(game)
    guided = importlib.import_module(f"core.{game}.playout").choose
    produced = 0
    index = 0
    while produced < count:
        rng = stream(seed, "positions", game, players, index)
        options = random_options(game, players, rng) if index % 2 else {}
        state = rules.new_game(players, options, seed=f"{seed}:{index}", start=False)
        history: list[Event] = []
        while not state.finished and produced < count:
            if state.phase == "round_over":
                history = list(state.next_round_in_place())
                continue
            seat = state.to_act
            assert seat is not None
            yield state, seat, history
            produced += 1
            actions = state.legal_actions(seat)
            action = guided(state, seat, actions, rng) if rng.random() < 0.8 else rng.choice(actions)
            history.extend(state.apply_in_place(action))
        index += 1
