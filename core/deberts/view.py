"""What one seat sees of a Deberts game (``state.view(seat)``); ``seat=None`` is the public table.

Common keys (docs/core.md): ``game``, ``players``, ``seat``, ``phase``, ``to_act``, ``dealer``, ``round``
(from 1), ``totals``, ``hand`` (the viewer's cards, null in the public view), ``hand_counts``, ``legal``
(the viewer's legal actions as action JSON), ``score_sheet``, ``options``, ``finished``, ``winner``,
``loser`` (always null).

Deberts keys (stable; renderers rely on them):

- ``open_card``: ``{"card", "shown", "swapped"}`` — the proposed trump card, the card lying face up now
  (the trump 7 after a seven swap) and whether the swap took place; null before the first deal.
- ``trump``: the trump suit (``S C D H``), null while bidding. ``declarer``: the seat that named it, or null.
- ``circle``: the bidding circle, 1 or 2 (after the bidding: the circle in which trump was named).
- ``bids``: per seat what it said in the current circle: null (not yet), ``"pass"``, ``"play"`` (circle 1,
  the open suit) or a suit letter (circle 2).
- ``bottom_card``: the bottom card of the stock, shown once the extra cards are dealt; null before.
- ``stock_count``: cards in the stock, open card and bottom card included (32 − 6·players, then 32 − 9·players).
- ``trick``: the cards on the table, ``[{"seat", "card"}]`` in playing order; ``trick_number``: tricks
  completed this round (0..9).
- ``last_trick``: ``{"cards": [{"seat", "card"}], "winner"}`` of the last completed trick, or null.
- ``runs``: null until play starts or when nobody holds a run; else ``{"by_seat": [[run, ...] per seat],
  "scorer": seat, "points": int, "beaten": [{"seat", "reason"}], "status"}`` with a run
  ``{"kind": "terz"|"berz", "suit", "top", "cards", "points"}``. The scorer's runs (and the viewer's own)
  are shown with their cards; a beaten seat's entry is only ``[{"kind", "top", "points"}]`` of its best run,
  what players say aloud to compare.
  ``reason``: ``berz_beats_terz``, ``higher_top``, ``trump_run`` or ``deal_order``. ``status``:
  ``pending`` until the scorer takes a trick, then ``scored``; ``lost`` when he took none.
- ``bella``: the seat that announced bella (trump K+Q) this round, or null.
- ``round_points``: per seat the points so far this round (tricks' card points, last trick, counted runs, bella).
- ``tricks_taken``: per seat the tricks taken this round.
- ``hanging``: ``{"points": int, "pots": [int]}`` — the points hanging now and the pots (at most one pot
  unless ``hanging_separately``).
- ``target``: the total that wins the game.

``score_sheet`` rows: ``{"round", "scores", "totals", "redeal", "declarer", "trump", "result", "points",
"hanging", "hanging_paid", "hanging_to"}`` — ``result`` is ``"made"``, ``"bait"`` or ``"hanging"`` (null on
a redeal); ``points`` the raw round points per seat; ``scores`` what each seat wrote; ``hanging`` the points
hanging after the round; ``hanging_paid`` the hanging points paid out in this round to the seats
``hanging_to``.

- ``round_breakdown``: how the last row of the score sheet was scored, or null (no round played yet, or
  the last row is a redeal); it stays through the next round's deal, so the sheet posted at a round's end
  explains it. ``{"round", "declarer", "result", "winner_takes_all", "cards", "tricks", "last_trick",
  "runs", "bella", "points", "moved", "hanging_added", "paid", "scores"}``: per seat ``cards`` the card
  points of its tricks and ``tricks`` how many it took; ``last_trick`` the seat that got the last trick's
  10; ``runs`` null or ``{"seat", "points", "runs": [{"kind", "suit", "top", "points"}], "counted"}`` (the
  best runs, of one seat; ``counted`` false when it took no trick); ``bella`` a seat or null; ``points``
  the round points (cards + last trick + counted runs + bella); then what the rules did: ``moved`` per
  seat (a bait: the declarer's points split among the defenders; winner takes all: the defenders' points
  to the declarer), ``hanging_added`` (the declarer's points left hanging by a hanging bait), ``paid`` per
  seat (its share of a hanging pot paid out); ``scores`` what each seat wrote:
  ``points + moved + paid``, minus ``hanging_added`` for the declarer.
"""

from __future__ import annotations

import json
from typing import Any

from core.deberts.cards import sort_hand
from core.deberts.combinations import public_runs
from core.deberts.engine import DebertsEngine
from core.deberts.scoring import transfers
from core.viewparts import sheet_rows


def build_view(state: DebertsEngine, seat: int | None) -> dict[str, Any]:
    n = state.players
    if seat is not None and (type(seat) is not int or not 0 <= seat < n):
        raise ValueError(f"no seat {seat!r} at this table")
    open_card = None
    if state.open is not None:
        open_card = {"card": state.open, "shown": state.shown, "swapped": state.swapped}
    return {
        "game": "deberts",
        "players": n,
        "seat": seat,
        "phase": state.phase,
        "to_act": state.to_act,
        "dealer": state.dealer,
        "round": state.round,
        "totals": list(state._totals),
        "hand": None if seat is None else sort_hand(state.hands[seat], state.trump),
        "hand_counts": [len(h) for h in state.hands],
        "legal": [] if seat is None else [a.to_json() for a in state.legal_actions(seat)],
        "score_sheet": sheet_rows(state, state.sheet, _row),  # shared finished rows: read-only (core/viewparts.py)
        "options": dict(vars(state.options)),
        "finished": state.finished,
        "winner": state.winner_seat,
        "loser": None,
        "open_card": open_card,
        "trump": state.trump,
        "declarer": state.declarer,
        "circle": state.circle,
        "bids": list(state.bids),
        "bottom_card": state.bottom,
        "stock_count": state.stock_count(),
        "trick": [{"seat": s, "card": c} for s, c in state.trick],
        "trick_number": sum(state.tricks),
        "last_trick": None
        if state.last is None
        else {"cards": [{"seat": s, "card": c} for s, c in state.last["cards"]], "winner": state.last["winner"]},
        "runs": public_runs(state.runs, seat),
        "bella": state.bella,
        "round_points": state.round_points(),
        "tricks_taken": list(state.tricks),
        "hanging": {"points": sum(state.pots), "pots": list(state.pots)},
        "target": state.options.target,
        "round_breakdown": round_breakdown(state),
    }


def round_breakdown(state: DebertsEngine) -> dict[str, Any] | None:
    """How the last score-sheet row was scored (the view's ``round_breakdown``), or None."""
    tally = state.tally
    if tally is None or not state.sheet:
        return None
    row = state.sheet[-1]
    if row["redeal"] or row["round"] != tally["round"]:
        return None
    wta = state.options.winner_takes_all and row["result"] == "made"
    runs = tally["runs"]
    return {
        "round": row["round"],
        "declarer": row["declarer"],
        "result": row["result"],
        "winner_takes_all": wta,
        "cards": list(tally["cards"]),
        "tricks": list(tally["tricks"]),
        "last_trick": tally["last_trick"],
        "runs": None if runs is None else {**runs, "runs": [dict(r) for r in runs["runs"]]},
        "bella": tally["bella"],
        "points": list(row["points"]),
        **transfers(row, wta),
        "scores": list(row["scores"]),
    }


def _row(r: dict[str, Any]) -> dict[str, Any]:
    return json.loads(json.dumps(r))
