"""Settling a Thousand round: round results, bolts, the barrel, climbing on, the dump truck (docs/rules-thousand.md).

``settle`` is a pure function of what happened in the round and the game's standing before it; it returns
the new standing plus the notes a score sheet shows. The order of adjustments is the one docs/rules-thousand.md gives:
round points (x2 in a golden round) -> bolts -> barrel (win, rule 2, attempts, missed barrels) ->
climbing on -> dump truck.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from operator import sub

from core.base import Event
from core.thousand.cards import MARRIAGE, card_points, half_up5, marriages_in, round_defender

BARREL = 880
WIN = 1000
PENALTY = 120


@dataclass
class RoundOutcome:
    """What happened in one played (not redealt) round."""

    players: int
    active: list[int]
    sitting_out: int | None
    declarer: int
    bid: int
    contract: int
    conceded: bool
    points: list[int]  # card points of tricks (+ the 2p second talon when it goes to the last trick) + marriages
    tricks: list[int]
    talon: list[str]  # the dealt talon (4p: the sitting-out dealer scores it)
    golden: bool


@dataclass
class Standing:
    """The game's standing between rounds."""

    totals: list[int]
    bolts: list[int]
    barrel: list[bool]
    barrel_attempts: list[int]
    missed_barrels: list[int]

    def copy(self) -> Standing:
        return Standing(
            list(self.totals),
            list(self.bolts),
            list(self.barrel),
            list(self.barrel_attempts),
            list(self.missed_barrels),
        )


@dataclass
class Settlement:
    standing: Standing
    results: list[int]  # round results per seat after golden doubling (before penalties)
    made: bool | None
    stand_still: bool
    notes: list[dict] = field(default_factory=list)
    winner: int | None = None


def settle(
    o: RoundOutcome,
    before: Standing,
    *,
    concede_penalty: bool,
    bolts_in_a_row: bool,
    missed_barrels_reset: bool,
    dump_truck: bool,
) -> Settlement:
    st = before.copy()
    n = o.players
    d = o.declarer
    on_barrel = list(before.barrel)
    notes: list[dict] = []

    def note(seat: int, kind: str, value: int = 0, **extra: object) -> None:
        notes.append({"seat": seat, "type": kind, "value": value, **extra})

    # 1. round results ------------------------------------------------------------------------------
    res = [0] * n
    made: bool | None
    stand_still = on_barrel[d] and o.contract == 121 and not o.conceded
    if o.conceded:
        made = None
        res[d] = -o.bid if concede_penalty else 0
        for s in o.active:
            if s != d:
                res[s] = half_up5(o.contract)
    else:
        made = o.points[d] >= o.contract
        res[d] = o.contract if made else -o.contract
        for s in o.active:
            if s != d:
                res[s] = round_defender(o.points[s])
    if o.sitting_out is not None:
        talon_value = round_defender(card_points(o.talon)) + sum(MARRIAGE[s] for s in marriages_in(o.talon))
        res[o.sitting_out] = talon_value
    anyone_on_barrel = True in on_barrel
    for s in range(n) if anyone_on_barrel else ():
        if on_barrel[s]:
            if s == d and not o.conceded:
                if not made and o.contract == 121:
                    res[s] = 0  # a failed attempt costs nothing by itself
            else:
                res[s] = 0  # on the barrel only a won contract counts
    if stand_still:
        for s in range(n):
            if s != d:
                res[s] = 0
    if o.golden:
        res = [2 * r for r in res]
    for s in range(n):
        if not on_barrel[s]:
            st.totals[s] += res[s]

    # 2. bolts --------------------------------------------------------------------------------------
    for s in o.active:
        if on_barrel[s] or (stand_still and s != d):
            continue  # cannot get a bolt: neither counts nor breaks a row
        if o.conceded:
            got = s == d and not concede_penalty
        else:
            got = o.tricks[s] == 0
        if got:
            st.bolts[s] += 1
            note(s, "bolt", st.bolts[s])
            if st.bolts[s] >= 3:
                st.bolts[s] = 0
                st.totals[s] -= PENALTY
                note(s, "bolt_penalty", -PENALTY)
        elif bolts_in_a_row:
            st.bolts[s] = 0

    # 3. the barrel -------------------------------------------------------------------------------------
    winner = None
    for s in range(n) if anyone_on_barrel else ():
        if not on_barrel[s] or s == o.sitting_out:
            continue  # a 4p round he deals is no attempt
        if s == d and not o.conceded and made:
            st.totals[s] += res[s]
            st.barrel[s] = False  # the winner is no longer on the barrel
            st.barrel_attempts[s] = 0
            note(s, "barrel_win", res[s])
            winner = s
            continue
        if s == d and not o.conceded and not made and o.contract > 121:
            st.totals[s] += res[s]
            st.barrel[s] = False
            st.barrel_attempts[s] = 0
            note(s, "barrel_fail", res[s], contract=o.contract)
            continue
        st.barrel_attempts[s] += 1
        note(s, "barrel_attempt", 0, attempt=st.barrel_attempts[s])
        if st.barrel_attempts[s] >= 3:
            st.totals[s] -= PENALTY
            st.barrel[s] = False
            st.barrel_attempts[s] = 0
            st.missed_barrels[s] += 1
            note(s, "barrel_fall", -PENALTY, reason="attempts", missed=st.missed_barrels[s])
            if missed_barrels_reset and st.missed_barrels[s] >= 3:
                note(s, "missed_barrels_reset", -st.totals[s])
                st.totals[s] = 0
                st.missed_barrels[s] = 0

    # 4. climbing on (in the game's last round too: a loser reaching 880 is set to 880) -------------------
    climbers = [s for s in range(n) if not on_barrel[s] and st.totals[s] >= BARREL]
    if climbers:
        for s in range(n):
            if st.barrel[s] and s not in climbers:  # the winner is off the barrel already: never pushed
                st.totals[s] -= PENALTY
                st.barrel[s] = False
                st.barrel_attempts[s] = 0
                note(s, "barrel_fall", -PENALTY, reason="pushed")
        for s in climbers:
            st.totals[s] = BARREL
            st.barrel_attempts[s] = 0
            if len(climbers) == 1:
                st.barrel[s] = True
                note(s, "barrel_on", 0)
            else:
                st.totals[s] -= PENALTY
                note(s, "barrel_fall", -PENALTY, reason="together")

    # 5. dump truck -------------------------------------------------------------------------------------
    if dump_truck:
        for s in range(n):
            if st.totals[s] in (555, -555):
                note(s, "dump_truck", -st.totals[s])
                st.totals[s] = 0

    if winner is not None and st.totals[winner] < WIN:  # pragma: no cover - 880 + contract >= 1001
        winner = None
    return Settlement(st, res, made, stand_still, notes, winner)


class RoundEnd:
    """A round's end as a part of ``engine.ThousandEngine`` (its state is ``self``): a redeal, or the score of
    the round settled and written to the score sheet."""

    # ---- round end ----------------------------------------------------------------------------------
    def _redeal(self, seat: int) -> list[Event]:
        reason = "talon_nines" if seat == self.declarer and self.talon_taken is not None else "hand"
        if reason == "hand":
            hand = self.hands[seat]
            reason = "four_nines" if sum(1 for c in hand if c[0] == "9") == 4 else "under_14"
        row = {
            "round": len(self.history) + 1,
            "scores": [0] * self.players,
            "totals": list(self.totals),
            "redeal": True,
            "declarer": None,
            "contract": None,
            "made": None,
            "conceded": False,
            "golden": False,
            "notes": [],
        }
        self.history.append(row)
        self.next_dealer = self.dealer
        self.phase = "round_over"
        self.turn = None
        return [Event("redeal", seat, {"reason": reason, "dealer": self.dealer})]

    def _end_round(self, conceded: bool) -> list[Event]:
        n = self.players
        d, bid, contract, golden = self.declarer, self.bid, self.contract, self.golden
        assert d is not None and bid is not None and contract is not None
        points = list(self.card_pts)
        if n == 2 and self.options.second_talon_to_last_trick and not conceded and self.last_trick:
            unused = self.talons[1 - (self.talon_taken or 0)]
            points[self.last_trick["winner"]] += card_points(unused)
        for m in self.marriages:  # + marriage_points
            points[m["seat"]] += m["points"]
        # (settle reads the outcome and copies the standing: the round's own lists can be handed over as they are)
        outcome = RoundOutcome(
            n,
            self.active,
            self.sitting_out,
            d,
            bid,
            contract,
            conceded,
            points,
            self.tricks_taken,
            list(self.talons[0]) if self.sitting_out is not None else [],
            golden,
        )
        old = self.totals
        options = self.options
        s = settle(
            outcome,
            Standing(old, self.bolts, self.barrel, self.barrel_attempts, self.missed_barrels),
            concede_penalty=options.concede_penalty,
            bolts_in_a_row=options.bolts_in_a_row,
            missed_barrels_reset=options.missed_barrels_reset,
            dump_truck=options.dump_truck,
        )
        st = s.standing
        totals = self.totals = st.totals
        self.bolts, self.barrel = st.bolts, st.barrel
        self.barrel_attempts, self.missed_barrels = st.barrel_attempts, st.missed_barrels
        scores = list(map(sub, totals, old))
        number = len(self.history) + 1
        row_totals = list(totals)
        made, stand_still, notes = s.made, s.stand_still, s.notes
        self.history.append(
            {
                "round": number,
                "scores": scores,
                "totals": row_totals,
                "redeal": False,
                "declarer": d,
                "bid": bid,
                "contract": contract,
                "made": made,
                "conceded": conceded,
                "golden": golden,
                "points": points,
                "results": s.results,
                "stand_still": stand_still,
                "notes": notes,
            }
        )
        self.rounds_scored += 1
        self.next_dealer = (self.dealer + 1) % n
        self.turn = None
        events = [
            Event(
                "round_scored",
                d,
                {
                    "round": number,
                    "scores": scores,
                    "totals": row_totals,
                    "contract": contract,
                    "made": made,
                    "conceded": conceded,
                    "golden": golden,
                    "points": points,
                    "stand_still": stand_still,
                },
            )
        ]
        if notes:
            events += [
                Event(nt["type"], nt["seat"], {k: v for k, v in nt.items() if k not in ("type", "seat")})
                for nt in notes
            ]
        if s.winner is not None:
            self.winner_seat = s.winner
            self.phase = "game_over"
            self.finished = True
            events.append(Event("game_won", s.winner, {"total": totals[s.winner]}))
        else:
            self.phase = "round_over"
        return events
