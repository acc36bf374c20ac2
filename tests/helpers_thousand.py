"""Building Thousand positions for tests: partial deals filled up from the deck, and short-hand actions."""

from __future__ import annotations

from typing import Any

from core.base import Action, Event
from core.thousand import RULES, ThousandState
from core.thousand.cards import DECK


def make_deal(
    players: int,
    dealer: int,
    fixed: dict[int, list[str]],
    talon: list[str] | None = None,
    talons: list[list[str]] | None = None,
) -> dict[str, Any]:
    """A complete deal where the given seats hold (at least) the given cards; the rest is filled in deck order."""
    size = 10 if players == 2 else 7
    used = {c for cards in fixed.values() for c in cards}
    tl = talons if talons is not None else ([talon] if talon is not None else None)
    if tl is not None:
        used |= {c for t in tl for c in t}
    # fill with low cards first (9s, jacks, ...), kings last, so that fillers rarely make a marriage
    rest = sorted((c for c in DECK if c not in used), key=lambda c: "9JTAQK".index(c[0]))
    hands = []
    for seat in range(players):
        if players == 4 and seat == dealer:
            hands.append([])
            continue
        hand = list(fixed.get(seat, []))
        while len(hand) < size:
            hand.append(rest.pop(0))
        hands.append(hand)
    if tl is None:
        sizes = [2, 2] if players == 2 else [3]
        tl = []
        for n in sizes:
            tl.append(rest[:n])
            rest = rest[n:]
    assert not rest, rest
    return {"hands": hands, "talon": tl}


def new_state(
    players: int, deal: dict[str, Any], dealer: int = 0, options: dict | None = None, **standing: list
) -> ThousandState:
    """A game whose next round is ``deal``, dealt by ``dealer``, after setting totals/bolts/barrel/... first."""
    state = RULES.new_game(players, options or {}, seed=0, first_dealer=dealer, start=False)
    for key, value in standing.items():
        setattr(state, key, list(value))
    state.next_round_in_place(deal)
    return state


def act(state: ThousandState, seat: int, type: str, **fields: Any) -> list[Event]:
    return state.apply_in_place(Action(seat, type, **fields))


def play_out(state: ThousandState) -> list[Event]:
    """Play the rest of the round: each seat plays its first legal card."""
    events: list[Event] = []
    while state.phase == "play":
        seat = state.to_act
        card = next(a for a in state.legal_actions(seat) if a.type == "play")
        events += state.apply_in_place(card)
    return events


def to_play(state: ThousandState, contract: int | None = None) -> None:
    """From the give phase: give the declarer's first cards to each receiver, then name the contract."""
    d = state.declarer
    while state.phase == "give":
        give = next(a for a in state.legal_actions(d) if a.type == "give")
        state.apply_in_place(give)
    act(state, d, "contract", value=contract if contract is not None else state.bid)


def types(events: list[Event]) -> list[str]:
    return [e.type for e in events]
