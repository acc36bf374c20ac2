"""The turn mechanics of a Kozel round: who leads, what fits, checking a play, and the forced steps.

After every play the next seats are visited clockwise: a seat with a fitting tile is to act; a seat without
one draws from the bazaar one tile at a time until a tile fits (then it is to act and must play), and with
the bazaar empty it knocks (passes). Drawing and knocking are automatic: they are events, not actions.
Drawn tiles stay private: the events only tell how many were drawn.
"""

from __future__ import annotations

from typing import Protocol

from core.base import Action, Event, IllegalAction, MalformedAction
from core.kozel.chain import ENDS
from core.kozel.tiles import FIRST_LEAD_ORDER, PIPS, TILE_ORDER, TILES, normalize


class Table(Protocol):
    """What the turn mechanics read and change of a round (the engine is one; this module needs no more)."""

    players: int
    phase: str
    turn: int | None
    hands: list[list[str]]
    bazaar: list[str]
    left: int | None
    right: int | None
    forced: str | None


def first_lead(hands: list[list[str]]) -> tuple[int, str]:
    """Round 1: the seat holding the first tile of 1-1 … 6-6, 0-0, 5-6, 4-6, … and that tile."""
    holder = {t: seat for seat, hand in enumerate(hands) for t in hand}
    for tile in FIRST_LEAD_ORDER:
        if tile in holder:
            return holder[tile], tile
    raise AssertionError("no tile in any hand")  # pragma: no cover - every hand holds 7 tiles


def playable(hand: list[str], left: int | None, right: int | None, forced: str | None) -> dict[str, list[str]]:
    """The tiles of a hand that may be played now, each with the ends it fits."""
    if left is None:
        tiles = [forced] if forced is not None else hand
        return {t: ["left", "right"] for t in tiles if t in hand}
    out: dict[str, list[str]] = {}
    for t in hand:
        a, b = PIPS[t]
        ends = []
        if a == left or b == left:
            ends.append("left")
        if a == right or b == right:
            ends.append("right")
        if ends:
            out[t] = ends
    return out


def has_fit(hand: list[str], left: int, right: int) -> bool:
    for t in hand:
        a, b = PIPS[t]
        if a in (left, right) or b in (left, right):
            return True
    return False


# Actions are immutable: one shared object per (seat, tile, end) keeps listing legal plays cheap.
_PLAYS: dict[tuple[int, str, str], Action] = {
    (seat, t, e): Action(seat, "play", tile=t, end=e) for seat in range(4) for t in TILES for e in ENDS
}


def legal_plays(state: Table, seat: int) -> list[Action]:
    if state.phase != "play" or seat != state.turn:
        return []
    left, right = state.left, state.right
    if left is None:
        tiles = [state.forced] if state.forced is not None else state.hands[seat]
        return [_PLAYS[seat, t, e] for t in tiles for e in ENDS]
    out = []
    for t in state.hands[seat]:
        a, b = PIPS[t]
        if a == left or b == left:
            out.append(_PLAYS[seat, t, "left"])
        if a == right or b == right:
            out.append(_PLAYS[seat, t, "right"])
    return out


def check_play(state: Table, action: Action) -> tuple[str, str]:
    """Validate a play without changing anything; returns the canonical ``(tile, end)``."""
    if state.phase != "play":
        raise IllegalAction("the round is over: no tile can be played now", "round_over")
    if action.type != "play":
        raise MalformedAction(
            f"unknown action '{action.type}': kozel has only 'play'", "unknown_action", type=action.type
        )
    if action.value is not None or action.card is not None or action.to is not None or action.index is not None:
        _no_extra_fields(action)
    if action.suit is not None:
        _no_extra_fields(action)
    if action.tile is None:
        raise MalformedAction("a play needs a 'tile' like 3-5", "malformed_action", field="tile")
    tile = normalize(action.tile)
    if tile is None:
        raise MalformedAction(f"'{action.tile}' is not a domino tile", "bad_tile", tile=action.tile)
    if action.end not in ENDS:
        raise MalformedAction('a play needs \'end\': "left" or "right"', "bad_end", end=action.end)
    if not 0 <= action.seat < state.players:
        raise IllegalAction(f"there is no seat {action.seat}", "bad_seat", seat=action.seat)
    if action.seat != state.turn:
        raise IllegalAction("it is not your turn", "not_your_turn", seat=action.seat, to_act=state.turn)
    hand = state.hands[action.seat]
    if tile not in hand:
        raise IllegalAction(f"you do not hold {tile}", "tile_not_held", tile=tile)
    if state.left is None and state.forced is not None and tile != state.forced:
        raise IllegalAction(f"the first tile of the game must be {state.forced}", "must_lead", tile=state.forced)
    value = state.left if action.end == "left" else state.right
    if value is not None and value not in PIPS[tile]:
        raise IllegalAction(
            f"{tile} does not fit the {action.end} end ({value})", "no_match", tile=tile, end=action.end, value=value
        )
    return tile, action.end


def _no_extra_fields(action: Action) -> None:
    for name in ("value", "card", "to", "index", "suit"):
        if getattr(action, name) is not None:
            raise MalformedAction(f"a play has no field '{name}'", "malformed_action", field=name)


def advance(state: Table, seat: int) -> list[Event]:
    """Pass the turn clockwise from ``seat``: forced draws and knocks until a seat can play.

    Sets ``state.turn``. Without a fish some seat always holds a fitting tile (every tile of an open
    value that is not on the table is in a hand or the bazaar), so this ends within one circle plus draws.
    """
    events: list[Event] = []
    left, right = state.left, state.right
    assert left is not None and right is not None
    n = state.players
    for step in range(1, n + 1):
        s = (seat + step) % n
        hand = state.hands[s]
        if has_fit(hand, left, right):
            state.turn = s
            return events
        drawn = 0
        bazaar = state.bazaar
        while bazaar:
            tile = bazaar.pop(0)
            hand.append(tile)
            drawn += 1
            a, b = PIPS[tile]
            if a in (left, right) or b in (left, right):
                break
        if drawn:
            hand.sort(key=TILE_ORDER.__getitem__)
            events.append(Event("drew", s, {"count": drawn, "bazaar": len(bazaar)}))
            if has_fit(hand, left, right):
                state.turn = s
                return events
        events.append(Event("knocked", s, {}))
    raise AssertionError("every seat knocked without a fish")  # pragma: no cover - impossible by the rules


def play_event(seat: int, tile: str, end: str, left: int, right: int) -> Event:
    return Event("tile_played", seat, {"tile": tile, "end": end, "left": left, "right": right})
