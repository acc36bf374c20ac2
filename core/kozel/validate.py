"""Trusting a stored Kozel state: a loaded state must be exactly what its own record replays to.

Every deal and action of the game is in the state's log, so ``check_state`` replays that record and
compares the two states field by field (all but the seed); anything corrupt or hand-edited is ``BadState``.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from core.base import BadState

if TYPE_CHECKING:
    from core.kozel.state import KozelState


def check_state(state: KozelState) -> None:
    from core.records import RecordError, replay

    if state.phase not in ("play", "round_over", "game_over"):
        raise BadState(f"unknown phase {state.phase!r}", "bad_state")
    try:
        again = replay(state.record())
    except RecordError as err:
        raise BadState(f"the state's own record does not replay: {err}", "bad_state") from None
    mine = state.to_json()
    theirs = again.to_json()
    mine.pop("seed")
    theirs.pop("seed")
    if json.dumps(mine, sort_keys=True) != json.dumps(theirs, sort_keys=True):
        bad = next((k for k in mine if json.dumps(mine[k]) != json.dumps(theirs.get(k))), "?")
        raise BadState(f"inconsistent kozel state (field '{bad}')", "bad_state", field=bad)
