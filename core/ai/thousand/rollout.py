"""Playing a Thousand round to its end with the normal policy for every seat (search play-outs).

The state is a sampled world owned by the search: each seat still decides only from its own hand and
what was played (kept in a play-out ``Memory``), never from the other sampled hands. Nobody concedes or
calls a redeal in a play-out.
"""

from __future__ import annotations

import random

from core.ai.search import NEVER, Deadline
from core.ai.thousand import normal
from core.ai.thousand.cardplay import choose_card
from core.ai.thousand.memory import Memory
from core.ai.thousand.table import from_state
from core.base import Action
from core.thousand.play import playable
from core.thousand.state import PLAY_PHASES, ThousandState


def clone(state: ThousandState) -> ThousandState:
    """A copy of a world that play-outs may change (the engine only appends to or replaces its lists)."""
    new = object.__new__(ThousandState)
    new.__dict__ = {k: list(v) if isinstance(v, list) else v for k, v in state.__dict__.items()}
    new.hands = [list(h) for h in state.hands]
    return new


def step(state: ThousandState, memory: Memory, action: Action) -> None:
    """Apply one action to the world and remember it as every seat sees it."""
    led = None
    if action.type == "play" and state.trick:
        led = state.trick[0][1][1]
    state.apply_in_place(action)
    if action.type == "play":
        memory.note_play(action.seat, action.card, led, state.trump)  # type: ignore[arg-type]


def normal_action(state: ThousandState, memory: Memory, rng: random.Random) -> Action:
    seat = state.to_act
    assert seat is not None
    if state.phase == "play":
        cards = playable(state.hands[seat], state.trick, state.trump)
        card = cards[0] if len(cards) == 1 else choose_card(from_state(state, seat, memory, []), cards)
        return Action(seat, "play", card=card)
    legal = [a for a in state.legal_actions(seat) if a.type not in ("redeal", "concede")]
    if len(legal) == 1:
        return legal[0]
    return normal.decide(from_state(state, seat, memory, legal), rng)


def play_round(state: ThousandState, memory: Memory, rng: random.Random, deadline: Deadline = NEVER) -> None:
    """Play the rest of the round (until ``round_over`` or ``game_over``); ``OutOfTime`` at the deadline."""
    while state.phase in PLAY_PHASES:
        deadline.check()
        step(state, memory, normal_action(state, memory, rng))
