"""Playing a Deberts round to its end with the normal policy for every seat (search play-outs).

The state is a sampled world owned by the search: each seat still decides only from its own hand and
what was played (a play-out ``Memory``), never from the other sampled hands.
"""

from __future__ import annotations

import random

from core.ai.deberts import normal
from core.ai.deberts.cardplay import choose_card
from core.ai.deberts.memory import Memory
from core.ai.deberts.table import from_state
from core.ai.search import NEVER, Deadline
from core.base import Action
from core.deberts.play import allowed_cards
from core.deberts.state import ACTIVE, DebertsState


def clone(state: DebertsState) -> DebertsState:
    """A copy of a world that play-outs may change."""
    new = object.__new__(DebertsState)
    new.__dict__ = {k: list(v) if isinstance(v, list) else v for k, v in state.__dict__.items()}
    new.hands = [list(h) for h in state.hands]
    new.won = [list(w) for w in state.won]
    if state.runs is not None:
        new.runs = dict(state.runs)
    new.log = [{"deal": state.log[-1]["deal"], "actions": []}] if state.log else [{"deal": None, "actions": []}]
    return new


def step(state: DebertsState, memory: Memory, action: Action) -> None:
    """Apply one action to the world and remember it as every seat sees it."""
    trick = list(state.trick) if action.type == "play" else None
    state.apply_in_place(action)
    if trick is not None:
        memory.note_play(action.seat, action.card, trick, state.trump)  # type: ignore[arg-type]
    elif action.type == "swap_seven":
        memory.swapped = True
        memory.holds[action.seat].add(state.open)  # type: ignore[arg-type]


def normal_action(state: DebertsState, memory: Memory, rng: random.Random) -> Action:
    seat = state.to_act
    assert seat is not None
    if state.phase == "play":
        assert state.trump is not None
        cards = allowed_cards(state.hands[seat], [c for _s, c in state.trick], state.trump)
        card = cards[0] if len(cards) == 1 else choose_card(from_state(state, seat, memory, []), cards)
        return Action(seat, "play", card=card)
    legal = state.legal_actions(seat)
    if len(legal) == 1:
        return legal[0]
    return normal.decide(from_state(state, seat, memory, legal), rng)


def play_round(state: DebertsState, memory: Memory, rng: random.Random, deadline: Deadline = NEVER) -> None:
    """Play the rest of the round (until ``round_over`` or ``game_over``); ``OutOfTime`` at the deadline."""
    while state.phase in ACTIVE:
        deadline.check()
        step(state, memory, normal_action(state, memory, rng))
