"""Storing a Deberts game: its JSON, and loading it back with every field checked (types, seats, cards), so
corrupt storage is refused, never half-loaded. Sits on top of the engine (``engine.py``).

The last round's tally (what its points were made of, ``engine.tally``) is not stored: loading rebuilds it
by replaying that round from the state's own record, so states stored before it existed load the same.
"""

from __future__ import annotations

import json
from typing import Any, TypeVar

from core.base import Action, BadState, GameError, OptionsError
from core.cards import SUITS
from core.deberts.cards import DECK_SET
from core.deberts.deal import check_deal
from core.deberts.engine import ACTIVE, GAME_FIELDS, PHASES, ROUND_FIELDS, DebertsEngine
from core.deberts.options import DebertsOptions

E = TypeVar("E", bound=DebertsEngine)


def dump_state(state: DebertsEngine) -> dict[str, Any]:
    """The full state as JSON-able data (hidden cards included: this is for storage)."""
    out: dict[str, Any] = {"game": "deberts", "players": state.players, "options": dict(vars(state.options))}
    for name in GAME_FIELDS:
        out[name] = getattr(state, "_totals" if name == "totals" else name)
    for name in ROUND_FIELDS:
        out[name] = getattr(state, name)
    return json.loads(json.dumps(out))  # a deep copy of plain data, much faster than copy.deepcopy


def load_state(cls: type[E], data: Any) -> E:
    """A state of class ``cls`` from ``dump_state`` data; raises ``BadState`` on anything it cannot trust."""
    if not isinstance(data, dict) or data.get("game") != "deberts":
        raise BadState("not a deberts state", "bad_state")
    try:
        players = data["players"]
        if players not in (2, 3) or type(players) is not int:
            raise ValueError("players")
        options = DebertsOptions.from_dict(players, data["options"])
        state = cls(players, options, data["seed"], data["first_dealer"])
        fields = json.loads(json.dumps({name: data[name] for name in GAME_FIELDS + ROUND_FIELDS}))
        for name, value in fields.items():
            setattr(state, "_totals" if name == "totals" else name, value)
        _check(state)
        state.tally = replayed_tally(state)
    except BadState:
        raise
    except (KeyError, TypeError, ValueError, AttributeError, IndexError, OptionsError, GameError) as err:
        raise BadState(f"corrupt deberts state: {err}", "bad_state") from None
    return state


def replayed_tally(state: DebertsEngine) -> dict[str, Any] | None:
    """The tally of the last score-sheet row, replayed from that round's record entry (None after a redeal).

    The round's dealer is the seat before the first bidder; only the round's own cards and actions matter."""
    if not state.sheet or state.sheet[-1]["redeal"]:
        return None
    number = state.sheet[-1]["round"]
    entry = state.log[number - 1]
    actions = entry["actions"]
    replay = type(state)(state.players, state.options, state.seed, state.first_dealer)
    replay.next_dealer = (actions[0]["seat"] - 1) % state.players
    replay.next_round_in_place(entry["deal"])
    for raw in actions:
        replay.apply_in_place(Action.from_json(raw))
    tally = replay.tally
    if tally is None or replay.sheet[-1]["points"] != state.sheet[-1]["points"]:
        raise ValueError(f"round {number} of the record does not give its score-sheet row")
    return {**tally, "round": number}


def _seat_or_none(value: Any, players: int, none_ok: bool = True) -> None:
    if value is None and none_ok:
        return
    if type(value) is not int or not 0 <= value < players:
        raise ValueError(f"bad seat {value!r}")


def _int_list(value: Any, players: int) -> None:
    if not isinstance(value, list) or len(value) != players or any(type(v) is not int for v in value):
        raise ValueError("bad list of numbers")


def _check(s: DebertsEngine) -> None:
    """Refuse a loaded state whose data cannot be right (types, seats, cards)."""
    n = s.players
    if s.phase not in PHASES:
        raise ValueError(f"bad phase {s.phase!r}")
    if not isinstance(s.seed, int | str):
        raise ValueError("bad seed")
    for name in ("first_dealer", "next_dealer"):
        _seat_or_none(getattr(s, name), n, none_ok=False)
    for name in ("dealer", "turn", "declarer", "last_bonus", "bella", "winner_seat"):
        _seat_or_none(getattr(s, name), n)
    for name in ("_totals", "tricks", "card_points"):
        _int_list(getattr(s, name), n)
    if type(s.round) is not int or s.round < 0 or s.circle not in (1, 2) or type(s.swapped) is not bool:
        raise ValueError("bad round counters")
    if not isinstance(s.pots, list) or any(type(p) is not int for p in s.pots):
        raise ValueError("bad hanging pots")
    if not isinstance(s.sheet, list) or not isinstance(s.log, list) or len(s.log) != s.round:
        raise ValueError("bad score sheet or record")
    for row in s.sheet:
        _int_list(row["scores"], n)
        _int_list(row["totals"], n)
        if type(row["redeal"]) is not bool:
            raise ValueError("bad score sheet row")
    for entry in s.log:
        if not isinstance(entry["deal"], dict) or not isinstance(entry["actions"], list):
            raise ValueError("bad record round")
    for name in ("trump",):
        if getattr(s, name) is not None and getattr(s, name) not in SUITS:
            raise ValueError("bad trump")
    for name in ("open", "shown", "bottom"):
        value = getattr(s, name)
        if value is not None and value not in DECK_SET:
            raise ValueError(f"bad card in {name}")
    if not isinstance(s.hands, list) or len(s.hands) != n or not isinstance(s.won, list) or len(s.won) != n:
        raise ValueError("bad hands")
    held = [c for h in s.hands for c in h] + [c for w in s.won for c in w]
    for entry in s.trick:
        _seat_or_none(entry[0], n, none_ok=False)
        held.append(entry[1])
    if any(c not in DECK_SET for c in held) or len(set(held)) != len(held):
        raise ValueError("bad or repeated cards")
    if s.phase in ACTIVE:
        _seat_or_none(s.turn, n, none_ok=False)
        if s.deal is None or s.dealer is None:
            raise ValueError("an active round without a deal")
        check_deal(s.deal, n)
    if not isinstance(s.bids, list) or len(s.bids) != n:
        raise ValueError("bad bids")
    if s.runs is not None and s.runs["status"] not in ("pending", "scored", "lost"):
        raise ValueError("bad runs")
