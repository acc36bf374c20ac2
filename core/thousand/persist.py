"""Storing a Thousand game: its JSON, and loading it back with every field checked, so corrupt storage is
refused, never half-loaded. Sits on top of the engine (``engine.py``)."""

from __future__ import annotations

from collections import Counter
from typing import Any, TypeVar

from core.base import BadState, OptionsError
from core.thousand.cards import DECK
from core.thousand.engine import GAME_FIELDS, ROUND_FIELDS, ThousandEngine, plain_copy
from core.thousand.options import ThousandOptions

E = TypeVar("E", bound=ThousandEngine)

_INT_LISTS = ("totals", "bolts", "barrel_attempts", "missed_barrels", "tricks_taken", "card_pts")
_PHASES = ("bidding", "talon", "give", "contract", "play", "round_over", "game_over")


def dump_state(state: ThousandEngine) -> dict[str, Any]:
    """The full state as JSON-able data (hidden cards included: this is for storage)."""
    data: dict[str, Any] = {"game": "thousand", "version": 1, "options": state.options.to_dict()}
    for name in GAME_FIELDS + ROUND_FIELDS:
        data[name] = plain_copy(getattr(state, name))
    return data


def load_state(cls: type[E], data: Any) -> E:
    """A state of class ``cls`` from ``dump_state`` data; raises ``BadState`` on anything it cannot trust."""
    if not isinstance(data, dict) or data.get("game") != "thousand":
        raise BadState("not a stored Thousand game")
    if data.get("version") != 1:
        raise BadState(f"unknown stored version {data.get('version')!r}")
    missing = [f for f in ("options", *GAME_FIELDS, *ROUND_FIELDS) if f not in data]
    if missing:
        raise BadState(f"stored game lacks '{missing[0]}'")
    players = data["players"]
    if type(players) is not int or not 2 <= players <= 4:
        raise BadState("stored game has a wrong number of players")
    try:
        options = ThousandOptions.from_dict(players, data["options"])
    except OptionsError as err:
        raise BadState(f"stored options are wrong: {err}") from None
    if data["phase"] not in _PHASES:
        raise BadState(f"unknown phase {data['phase']!r}")
    for name in _INT_LISTS:
        v = data[name]
        if not isinstance(v, list) or len(v) != players or any(type(x) is not int for x in v):
            raise BadState(f"stored field '{name}' is damaged")
    if not isinstance(data["barrel"], list) or len(data["barrel"]) != players:
        raise BadState("stored field 'barrel' is damaged")
    for name in ("hands", "bids"):
        if not isinstance(data[name], list) or len(data[name]) != players:
            raise BadState(f"stored field '{name}' is damaged")
    for name in ("history", "log", "talons", "gives", "trick", "marriages", "played", "active"):
        if not isinstance(data[name], list):
            raise BadState(f"stored field '{name}' is damaged")

    state = object.__new__(cls)
    state.options = options
    for name in GAME_FIELDS + ROUND_FIELDS:
        setattr(state, name, plain_copy(data[name]))
    state.finished = state.phase == "game_over"
    _check_cards(state)
    return state


def _check_cards(state: ThousandEngine) -> None:
    if state.phase not in ("bidding", "talon", "give", "contract", "play"):
        return
    try:
        cards = [c for h in state.hands for c in h] + list(state.played)
        for i, t in enumerate(state.talons):
            if i != state.talon_taken:
                cards += t
        counts = Counter(cards)
    except TypeError:
        raise BadState("stored cards are damaged") from None
    if counts != Counter(DECK):
        raise BadState("the stored cards do not make one deck")
    if state.to_act is None:
        raise BadState("stored game has nobody to act")
