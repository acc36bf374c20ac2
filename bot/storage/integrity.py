"""State digests and the full check that a table's stored state equals its move log replayed through the core.

The application stores the state it computed; the log is the truth. ``replay_log`` rebuilds the state from
``new_game(players, options, seed)`` and the logged actions, dealing the next round whenever a round is over
(the application does that before the next action), exactly as the application played it.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from typing import Any

from core import games
from core.base import Action, GameError, GameState


class LogMismatch(Exception):
    """The log cannot be replayed, or its replay differs from the stored state; ``str`` is the reason."""


def canonical(data: Any) -> str:
    """One JSON text per value: sorted keys, no spaces (the digest is taken over this text)."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def core_options(game: str, options: dict[str, Any]) -> dict[str, Any]:
    """The game's own conventions out of a table's options (which may also hold application keys)."""
    names = {f.name for f in dataclasses.fields(games.get(game).options_type)}
    return {k: v for k, v in options.items() if k in names}


def action_types(game: str) -> frozenset[str]:
    return ACTION_TYPES[game]


# Every action type of each game (docs/records.md), as the registry tells
ACTION_TYPES: dict[str, frozenset[str]] = {name: games.entry(name).action_types for name in games.NAMES}


def new_game(game: str, players: int, options: dict[str, Any], seed: str) -> GameState:
    return games.get(game).new_game(players, core_options(game, options), seed=seed)


def replay_log(
    game: str, players: int, options: dict[str, Any], seed: str, moves: list[tuple[int, int, Any]]
) -> GameState:
    """Replay ``(seq, seat, action_json)`` rows (seq 1, 2, …) from a new game; raises ``LogMismatch``."""
    try:
        state = new_game(game, players, options, seed)
    except GameError as err:
        raise LogMismatch(f"cannot start the game: {err}") from None
    for expected, (seq, seat, raw) in enumerate(moves, start=1):
        if seq != expected:
            raise LogMismatch(f"move {expected} is missing from the log")
        try:
            action = Action.from_json(raw)
            if action.seat != seat:
                raise LogMismatch(f"move {seq} is logged for seat {seat} but acts for seat {action.seat}")
            if state.phase == "round_over" and not state.finished:
                state.next_round_in_place()
            state.apply_in_place(action)
        except GameError as err:
            raise LogMismatch(f"move {seq} ({raw!r}) is refused by the rules: {err}") from None
    return state


def check_state(replayed: GameState, stored: dict[str, Any]) -> GameState:
    """The replayed state that equals the stored one: as replayed, or with the next round already dealt.

    Raises ``LogMismatch`` when neither matches."""
    if canonical(replayed.to_json()) == canonical(stored):
        return replayed
    if replayed.phase == "round_over" and not replayed.finished:
        dealt, _events = replayed.next_round()
        if canonical(dealt.to_json()) == canonical(stored):
            return dealt
    raise LogMismatch("the stored state differs from the replayed move log")
