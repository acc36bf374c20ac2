"""Playing a Kozel round to its end with the normal policy for every seat (search play-outs).

The state is a sampled world owned by the search: each seat decides only from its own tiles and the
public table (a play-out ``Memory``), never from the other sampled hands or the bazaar order.
"""

from __future__ import annotations

from core.ai.kozel import normal
from core.ai.kozel.memory import Memory
from core.ai.kozel.table import from_state
from core.ai.search import NEVER, Deadline
from core.base import Action
from core.kozel.play import legal_plays
from core.kozel.state import KozelState


def clone(state: KozelState) -> KozelState:
    new = object.__new__(KozelState)
    new.__dict__ = {k: list(v) if isinstance(v, list) else v for k, v in state.__dict__.items()}
    new.hands = [list(h) for h in state.hands]
    new.log = [{"deal": state.log[-1]["deal"], "actions": []}]
    return new


def step(state: KozelState, memory: Memory, action: Action) -> None:
    """Apply one play to the world and remember it (and the draws and knocks it causes) as seats see them."""
    events = state.apply_in_place(action)
    for ev in events:
        if ev.type == "tile_played":
            memory.note_play(ev.seat, ev.data["tile"], ev.data["left"], ev.data["right"])  # type: ignore[arg-type]
        elif ev.type == "drew":
            memory.note_draw(ev.seat)  # type: ignore[arg-type]
        elif ev.type == "knocked":
            memory.note_knock(ev.seat)  # type: ignore[arg-type]


def play_round(state: KozelState, memory: Memory, deadline: Deadline = NEVER) -> None:
    """Play the rest of the round; raises ``OutOfTime`` when the search's deadline comes first."""
    while state.phase == "play":
        deadline.check()
        seat = state.turn
        assert seat is not None
        legal = legal_plays(state, seat)
        action = legal[0] if len(legal) == 1 else normal.choose(from_state(state, seat, memory, legal))
        step(state, memory, action)
