"""What one seat may see of a Kozel game (``view(None)``: the public table) as plain JSON data.

Common keys (docs/core.md): ``game`` ("kozel"), ``players``, ``seat`` (the viewer or null), ``phase``
("play" | "round_over" | "game_over"), ``to_act`` (seat or null), ``dealer`` (always null: Kozel has no
dealer), ``round`` (rounds dealt so far, redeals included; the current round while playing), ``totals``,
``hand`` (the viewer's tiles, sorted; null in the public view), ``hand_counts``, ``legal`` (the viewer's
legal actions as action JSON), ``score_sheet``, ``options`` ({"fish": "all"|"one"}), ``finished``,
``winner`` (always null), ``loser`` (the kozel seat or null).

Kozel keys:

``chain``
    the tiles on the table in play order, each ``{"tile": "3-5", "end": "left"|"right", "seat": int,
    "double": bool, "pips": [x, y]}``: ``end`` = the end it was added to (the first tile starts the line),
    ``pips`` = its halves as they lie from left to right (the first tile ``a-b`` lies ``[a, b]``).
``line``
    indices into ``chain`` from the left end to the right end (how the line lies on the table).
``ends``
    ``{"left": int|null, "right": int|null}``: the open values (null before the first tile).
``bazaar_count``
    tiles left in the bazaar (always 0 with 4 players).
``playable``
    the viewer's tiles that may be played now with the ends each fits, ``{"3-5": ["left"], ...}``; also
    shown when it is not his turn (what would fit); ``{}`` in the public view and between rounds. With an
    empty chain it is every tile (or only the tile that must lead in round 1) with both ends.
``lead_seat``
    who led (or leads) the current or last round.
``next_leader``
    between rounds: who leads the next round (the player who went out or made the fish); null while
    playing and before the first round is played (then the 1-1 … rule decides).
``first_rule``
    true while the round's first tile is still to be played under the round-1 rule (1-1, 2-2, …, 6-6,
    0-0, then the highest tile).
``remembered``
    [int] remembered points per seat (shown as "+N"; they count neither toward 101 nor in the rating).
``opened``
    [bool] whether each seat's account is open (a round amount above 12 opens it).
``carry``
    points of tied fishes (fish for one) waiting for the next round's highest scorer; 0 when none.
``revealed``
    between rounds after a played round: every seat's remaining tiles (the hands are opened to count
    them); null while playing, before the first round and after a redeal.
``rating``
    [int] rating points per seat once the game is over (the kozel gets 0), else null.
``score_sheet``
    one row per dealt round: ``{"round", "scores", "totals", "redeal", "ending": "out"|"fish"|null, "by":
    seat|null, "points": [hand values], "gained": [amount written this round before the > 12 rule: hand
    value, or the fish sum / carry taken], "remembered": [after the round], "opened": [after the round],
    "carry_in": carry waiting at its start, "carry": carry after it, "carry_to": seat that took the carry
    or null, "fish_to": seat that took a fish for one or null}``. A redeal row has ``redeal`` true,
    ``ending``/``by`` null and zeros.
"""

from __future__ import annotations

from typing import Any

from core.kozel.chain import line
from core.kozel.engine import KozelEngine
from core.kozel.play import legal_plays, playable
from core.viewparts import options_dict, sheet_rows


def build_view(state: KozelEngine, seat: int | None) -> dict[str, Any]:
    own = seat is not None and 0 <= seat < state.players
    playing = state.phase == "play"
    fits = playable(state.hands[seat], state.left, state.right, state.forced) if own and playing else {}
    return {
        "game": "kozel",
        "players": state.players,
        "seat": seat if own else None,
        "phase": state.phase,
        "to_act": state.to_act,
        "dealer": None,
        "round": len(state.log),
        "totals": state.totals,
        "hand": list(state.hands[seat]) if own else None,
        "hand_counts": [len(h) for h in state.hands],
        "legal": [a.to_json() for a in legal_plays(state, seat)] if own else [],
        "score_sheet": sheet_rows(state, state.sheet, _row),  # shared finished rows: read-only (core/viewparts.py)
        "options": options_dict(state.options),
        "finished": state.finished,
        "winner": None,
        "loser": state.loser,
        "chain": [dict(e, pips=list(e["pips"])) for e in state.chain],
        "line": line(state.chain),
        "ends": {"left": state.left, "right": state.right},
        "bazaar_count": len(state.bazaar),
        "playable": fits,
        "lead_seat": state.lead_seat,
        "next_leader": None if playing else state.leader,
        "first_rule": playing and state.forced is not None,
        "remembered": list(state.remembered),
        "opened": list(state.opened),
        "carry": state.carry,
        "revealed": None if state.revealed is None else [list(h) for h in state.revealed],
        "rating": None if state.rating is None else list(state.rating),
    }


def _row(r: dict[str, Any]) -> dict[str, Any]:
    return {k: list(v) if isinstance(v, list) else v for k, v in r.items()}
