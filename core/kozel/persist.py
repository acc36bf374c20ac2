"""Storing a Kozel game: its JSON, and loading it back only when it is exactly what its own record replays to.

Every deal and action of the game is in the state's log, so ``check_state`` replays that record and compares
the two states field by field (all but the seed); anything corrupt or hand-edited is ``BadState``. Sits on top
of the engine (``engine.py``) and uses the generic replay (``core.records``).
"""

from __future__ import annotations

import json
from typing import Any, TypeVar

from core.base import BadState, OptionsError
from core.kozel.engine import KozelEngine, copy_log_entry, copy_row
from core.kozel.options import KozelOptions
from core.records import RecordError, replay

STATE_VERSION = 1
E = TypeVar("E", bound=KozelEngine)


def dump_state(state: KozelEngine) -> dict[str, Any]:
    """The full state as JSON-able data (hidden tiles included: this is for storage)."""
    return {
        "game": "kozel",
        "version": STATE_VERSION,
        "players": state.players,
        "options": state.options.to_dict(),
        "seed": state.seed,
        "phase": state.phase,
        "turn": state.turn,
        "hands": [list(h) for h in state.hands],
        "bazaar": list(state.bazaar),
        "chain": [dict(e, pips=list(e["pips"])) for e in state.chain],
        "left": state.left,
        "right": state.right,
        "forced": state.forced,
        "leader": state.leader,
        "lead_seat": state.lead_seat,
        "totals": list(state._totals),
        "remembered": list(state.remembered),
        "opened": list(state.opened),
        "carry": state.carry,
        "sheet": [copy_row(r) for r in state.sheet],
        "log": [copy_log_entry(e) for e in state.log],
        "revealed": None if state.revealed is None else [list(h) for h in state.revealed],
        "rating": None if state.rating is None else list(state.rating),
        "loser": state._loser,
    }


def load_state(cls: type[E], data: Any) -> E:
    """A state of class ``cls`` from ``dump_state`` data; raises ``BadState`` on anything it cannot trust."""
    try:
        return _load(cls, data)
    except BadState:
        raise
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as err:
        raise BadState(f"not a kozel state: {err}", "bad_state") from None


def _load(cls: type[E], data: Any) -> E:
    if not isinstance(data, dict) or data.get("game") != "kozel":
        raise BadState("not a kozel state", "bad_state")
    if data.get("version") != STATE_VERSION:
        raise BadState(f"unknown kozel state version {data.get('version')!r}", "bad_state")
    players = data["players"]
    if type(players) is not int or not 2 <= players <= 4:
        raise BadState("kozel is played by 2 to 4 players", "bad_state")
    try:
        options = KozelOptions.from_dict(players, data["options"])
    except OptionsError as err:
        raise BadState(f"bad options: {err}", "bad_state") from None
    seed = data["seed"]
    if type(seed) not in (int, str):
        raise BadState("the seed must be an integer or a string", "bad_state")
    st = cls(players, options, seed)
    st.phase = data["phase"]
    st.turn = data["turn"]
    st.hands = [list(h) for h in data["hands"]]
    st.bazaar = list(data["bazaar"])
    st.chain = [dict(e, pips=list(e["pips"])) for e in data["chain"]]
    st.left = data["left"]
    st.right = data["right"]
    st.forced = data["forced"]
    st.leader = data["leader"]
    st.lead_seat = data["lead_seat"]
    st._totals = list(data["totals"])
    st.remembered = list(data["remembered"])
    st.opened = list(data["opened"])
    st.carry = data["carry"]
    st.sheet = [copy_row(r) for r in data["sheet"]]
    st.log = [copy_log_entry(e) for e in data["log"]]
    st.revealed = None if data["revealed"] is None else [list(h) for h in data["revealed"]]
    st.rating = None if data["rating"] is None else list(data["rating"])
    st._loser = data["loser"]
    check_state(st)
    return st


def check_state(state: KozelEngine) -> None:
    """Refuse a state that is not exactly what its own record replays to."""
    if state.phase not in ("play", "round_over", "game_over"):
        raise BadState(f"unknown phase {state.phase!r}", "bad_state")
    try:
        again = replay(state.record())
    except RecordError as err:
        raise BadState(f"the state's own record does not replay: {err}", "bad_state") from None
    mine = dump_state(state)
    theirs = dump_state(again)  # type: ignore[arg-type]
    mine.pop("seed")
    theirs.pop("seed")
    if json.dumps(mine, sort_keys=True) != json.dumps(theirs, sort_keys=True):
        bad = next((k for k in mine if json.dumps(mine[k]) != json.dumps(theirs.get(k))), "?")
        raise BadState(f"inconsistent kozel state (field '{bad}')", "bad_state", field=bad)
