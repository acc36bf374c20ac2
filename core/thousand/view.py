"""What one seat of a Thousand game may see (``view(seat)``); ``view(None)`` is the public table.

Keys beyond the common ones (docs/core.md):

- ``sitting_out`` seat or null (the 4p dealer), ``active`` the seats playing this round, ``first_hand``
- ``bids`` per seat: an int bid, ``"pass"`` or null (not spoken yet); ``bid`` the highest bid;
  ``declarer``; ``contract``; ``on_hundred`` (the declarer sits on a hundred)
- ``talons``: one entry per talon (two in 2p): ``{"count", "cards"}``; ``cards`` is null while face down
  (and for a talon shown to nobody); once taken, ``count`` is 0 and ``cards`` are the cards that were shown
- ``trump`` suit letter or null; ``marriages`` ``[{"seat","suit","points","ace"}]`` declared this round
- ``trick`` ``[{"seat","card"}]`` in play order; ``leader``; ``last_trick`` ``{"cards","winner"}`` or null
- ``tricks_taken``, ``round_points`` (card points of tricks + declared marriages so far) per seat
- ``bolts``, ``barrel``, ``barrel_attempts``, ``missed_barrels`` per seat; ``golden`` (this round counts double)
- ``given``: for the viewer only, ``[{"card","from","to"}]`` cards the viewer gave or received this round
- ``score_sheet`` rows: ``{"round","scores","totals","redeal","declarer","contract","made","conceded","golden",
  "notes"}`` with notes ``{"seat","type","value"}`` of type ``bolt``, ``bolt_penalty``, ``barrel_on``,
  ``barrel_attempt``, ``barrel_fall``, ``barrel_fail``, ``barrel_win``, ``missed_barrels_reset``, ``dump_truck``
"""

from __future__ import annotations

from typing import Any

from core.thousand.engine import ThousandEngine
from core.viewparts import options_dict, sheet_rows


def view_of(st: ThousandEngine, seat: int | None) -> dict[str, Any]:
    n = st.players
    in_round = st.phase in ("bidding", "talon", "give", "contract", "play")
    talons = []
    for i, t in enumerate(st.talons):
        if st.talon_taken == i:
            talons.append({"count": 0, "cards": list(t) if st.talon_shown else None})
        else:
            talons.append({"count": len(t) if in_round else 0, "cards": None})
    hand = None
    legal: list[dict[str, Any]] = []
    given: list[dict[str, Any]] = []
    if seat is not None:
        hand = list(st.hands[seat]) if in_round else []
        legal = [a.to_json() for a in st.legal_actions(seat)]
        given = [dict(g) for g in st.gives if seat in (g["from"], g["to"])]
        if (
            st.declarer == seat and st.talon_taken is not None and not st.talon_shown and in_round
        ):  # the declarer sees the talon he took even when it is hidden from the others
            talons[st.talon_taken]["cards"] = list(st.talons[st.talon_taken])
    mp = st.marriage_points
    return {
        "game": "thousand",
        "players": n,
        "seat": seat,
        "phase": st.phase,
        "to_act": st.to_act,
        "dealer": st.dealer,
        "round": len(st.history) + (1 if in_round else 0),
        "totals": list(st.totals),
        "hand": hand,
        "hand_counts": [len(h) for h in st.hands] if in_round else [0] * n,
        "legal": legal,
        "score_sheet": sheet_rows(st, st.history, _row),  # shared finished rows: read-only (core/viewparts.py)
        "options": options_dict(st.options),
        "finished": st.finished,
        "winner": st.winner,
        "loser": None,
        "sitting_out": st.sitting_out,
        "active": list(st.active),
        "first_hand": st.first_hand,
        "bids": list(st.bids),
        "bid": st.bid,
        "declarer": st.declarer,
        "contract": st.contract,
        "on_hundred": st.declarer is not None and st.on_hundred,
        "talons": talons,
        "trump": st.trump,
        "marriages": [dict(m) for m in st.marriages],
        "trick": [{"seat": s, "card": c} for s, c in st.trick],
        "leader": st.leader,
        "last_trick": None
        if st.last_trick is None
        else {"cards": [dict(x) for x in st.last_trick["cards"]], "winner": st.last_trick["winner"]},
        "tricks_taken": list(st.tricks_taken),
        "round_points": [st.card_pts[s] + mp[s] for s in range(n)],
        "bolts": list(st.bolts),
        "barrel": list(st.barrel),
        "barrel_attempts": list(st.barrel_attempts),
        "missed_barrels": list(st.missed_barrels),
        "golden": st.golden,
        "given": given,
    }


def _row(r: dict[str, Any]) -> dict[str, Any]:
    keys = ("round", "scores", "totals", "redeal", "declarer", "contract", "made", "conceded", "golden")
    out = {k: r.get(k) for k in keys}
    out["scores"] = list(r["scores"])
    out["totals"] = list(r["totals"])
    out["notes"] = [dict(x) for x in r.get("notes", [])]
    return out
