"""The Kozel rules engine: rounds, the chain, hands and bazaar, the score sheet; apply, copy, record, result.

``KozelEngine`` composes the role modules below it (tiles, deal, chain, play, scoring); the view and the
storage sit on top of it (``view.py``, ``persist.py``) and ``state.KozelState`` puts them together.

Phases: ``play`` (a seat with a fitting tile is to act), ``round_over`` (between rounds and before the first
deal) and ``game_over``. Forced draws and knocks happen inside ``apply_in_place`` (see ``play.advance``), so
after any action the seat to act holds a playable tile, or the round is over.
"""

from __future__ import annotations

from typing import Any, Self

from core.base import Action, Event, GameState, IllegalAction
from core.kozel.chain import is_fish, place
from core.kozel.deal import check_deal, random_deal, redeal_reason
from core.kozel.options import KozelOptions
from core.kozel.play import advance, check_play, first_lead, legal_plays, play_event
from core.kozel.scoring import kozel, rating, score_round
from core.kozel.tiles import TILE_ORDER

PHASES = ("play", "round_over", "game_over")


class KozelEngine(GameState):
    """The rules of one Kozel game (2 to 4 players); ``state.KozelState`` adds seeing and storing."""

    game = "kozel"

    def __init__(self, players: int, options: KozelOptions, seed: int | str = 0) -> None:
        self.players = players
        self.options = options
        self.seed = seed
        self.phase = "round_over"
        self.turn: int | None = None
        self.hands: list[list[str]] = [[] for _ in range(players)]
        self.bazaar: list[str] = []
        self.chain: list[dict[str, Any]] = []
        self.left: int | None = None
        self.right: int | None = None
        self.forced: str | None = None  # round 1: the tile that must lead (1-1, …)
        self.leader: int | None = None  # who leads the next round; None: the first-lead rule
        self.lead_seat: int | None = None  # who led the current / last round
        self._totals = [0] * players
        self.remembered = [0] * players
        self.opened = [False] * players
        self.carry = 0
        self.sheet: list[dict[str, Any]] = []
        self.log: list[dict[str, Any]] = []  # record rounds: {"deal", "actions"}
        self.revealed: list[list[str]] | None = None  # hands shown at the end of a played round
        self.rating: list[int] | None = None
        self._loser: int | None = None

    # ---- where the game is -----------------------------------------------------------------------
    @property
    def to_act(self) -> int | None:
        return self.turn if self.phase == "play" else None

    @property
    def totals(self) -> list[int]:
        return list(self._totals)

    @property
    def loser(self) -> int | None:
        return self._loser

    @property
    def fish_option(self) -> str:
        return self.options.fish

    # ---- moves -----------------------------------------------------------------------------------
    def legal_actions(self, seat: int) -> list[Action]:
        return legal_plays(self, seat)

    def apply_in_place(self, action: Action) -> list[Event]:
        tile, end = check_play(self, action)
        seat = action.seat
        hand = self.hands[seat]
        hand.remove(tile)
        self.left, self.right = place(self.chain, self.left, self.right, tile, end, seat)
        self.forced = None
        self.log[-1]["actions"].append({"seat": seat, "type": "play", "tile": tile, "end": end})
        events = [play_event(seat, tile, end, self.left, self.right)]
        if not hand:
            events += self._end_round("out", seat)
        elif is_fish(self.chain, self.left, self.right):
            events += self._end_round("fish", seat)
        else:
            events += advance(self, seat)
        return events

    def next_round_in_place(self, deal: dict[str, Any] | None = None) -> list[Event]:
        if self.phase != "round_over":
            raise IllegalAction("a new round is dealt only between rounds", "round_not_over", phase=self.phase)
        if deal is not None:
            return self._start_round(check_deal(deal, self.players))
        events: list[Event] = []
        while self.phase == "round_over":
            events += self._start_round(random_deal(self.seed, len(self.log), self.players))
        return events

    def _start_round(self, deal: dict[str, Any]) -> list[Event]:
        self.log.append(
            {"deal": {"hands": [list(h) for h in deal["hands"]], "bazaar": list(deal["bazaar"])}, "actions": []}
        )
        round_no = len(self.log)
        self.hands = [sorted(h, key=TILE_ORDER.__getitem__) for h in deal["hands"]]
        self.bazaar = list(deal["bazaar"])
        self.chain = []
        self.left = self.right = None
        self.revealed = None
        reasons = [redeal_reason(h) for h in self.hands]
        if any(reasons):
            seats = [s for s, r in enumerate(reasons) if r]
            self.turn = None
            self.forced = None
            self.sheet.append(self._redeal_row(round_no))
            return [Event("redeal", None, {"round": round_no, "seats": seats, "reasons": [reasons[s] for s in seats]})]
        if self.leader is None:
            self.turn, self.forced = first_lead(self.hands)
        else:
            self.turn, self.forced = self.leader, None
        self.lead_seat = self.turn
        self.phase = "play"
        data = {"round": round_no, "bazaar": len(self.bazaar), "first_rule": self.forced is not None}
        return [Event("round_started", self.turn, data)]

    def _redeal_row(self, round_no: int) -> dict[str, Any]:
        n = self.players
        return {
            "round": round_no,
            "scores": [0] * n,
            "totals": list(self._totals),
            "redeal": True,
            "ending": None,
            "by": None,
            "points": [0] * n,
            "gained": [0] * n,
            "remembered": list(self.remembered),
            "opened": list(self.opened),
            "carry_in": self.carry,
            "carry": self.carry,
            "carry_to": None,
            "fish_to": None,
        }

    def _end_round(self, ending: str, by: int) -> list[Event]:
        events: list[Event] = []
        if ending == "out":
            events.append(Event("went_out", by, {}))
        else:
            events.append(Event("fish", by, {"value": self.left}))
        sc = score_round(
            self._totals, self.remembered, self.opened, self.carry, self.hands, ending, by, self.fish_option
        )
        if sc.fish_to is not None:
            events.append(Event("fish_taken", sc.fish_to, {"amount": sc.fish_sum}))
        elif ending == "fish" and self.fish_option == "one":
            events.append(Event("fish_tie", None, {"amount": sc.fish_sum, "carry": sc.carry}))
        if sc.carry_to is not None:
            events.append(Event("carry_taken", sc.carry_to, {"amount": sc.carry_in}))
        elif sc.carry_in and sc.carry and sc.carry == sc.carry_in:
            events.append(Event("carry_kept", None, {"carry": sc.carry}))
        opened_before = self.opened
        self._totals, self.remembered, self.opened, self.carry = sc.totals, sc.remembered, sc.opened, sc.carry
        round_no = len(self.log)
        row = {
            "round": round_no,
            "scores": sc.scores,
            "totals": list(sc.totals),
            "redeal": False,
            "ending": ending,
            "by": by,
            "points": sc.points,
            "gained": sc.gained,
            "remembered": list(sc.remembered),
            "opened": list(sc.opened),
            "carry_in": sc.carry_in,
            "carry": sc.carry,
            "carry_to": sc.carry_to,
            "fish_to": sc.fish_to,
        }
        self.sheet.append(row)
        data = {k: v for k, v in row.items() if k != "redeal"}
        data["opened_now"] = [sc.opened[i] and not was for i, was in enumerate(opened_before)]
        events.append(Event("round_scores", None, data))
        self.leader = by
        self.turn = None
        self.revealed = [list(h) for h in self.hands]
        loser = kozel(self._totals)
        if loser is None:
            self.phase = "round_over"
        else:
            self.phase = "game_over"
            self._loser = loser
            self.rating = rating(self._totals, loser)
            events.append(Event("game_over", loser, {"totals": list(self._totals), "rating": list(self.rating)}))
        return events

    # ---- copies and records ----------------------------------------------------------------------
    def copy(self) -> Self:
        new = object.__new__(type(self))
        d = self.__dict__
        nd = new.__dict__
        nd.update(d)
        nd["hands"] = [list(h) for h in self.hands]
        nd["bazaar"] = list(self.bazaar)
        nd["chain"] = [dict(e, pips=list(e["pips"])) for e in self.chain]
        nd["_totals"] = list(self._totals)
        nd["remembered"] = list(self.remembered)
        nd["opened"] = list(self.opened)
        nd["sheet"] = [copy_row(r) for r in self.sheet]
        nd["log"] = [copy_log_entry(e) for e in self.log]
        nd["revealed"] = None if self.revealed is None else [list(h) for h in self.revealed]
        nd["rating"] = None if self.rating is None else list(self.rating)
        return new

    def record(self) -> dict[str, Any]:
        return {
            "game": "kozel",
            "players": self.players,
            "options": self.options.to_dict(),
            "first_dealer": None,
            "rounds": [copy_log_entry(e) for e in self.log],
        }

    def result(self) -> dict[str, Any]:
        return {
            "game": "kozel",
            "rounds": [
                {"scores": list(r["scores"]), "totals": list(r["totals"]), "redeal": r["redeal"]} for r in self.sheet
            ],
            "totals": list(self._totals),
            "finished": self.finished,
            "winner": None,
            "loser": self._loser,
            "phase": self.phase,
            "to_act": self.to_act,
            "extra": {
                "remembered": list(self.remembered),
                "opened": list(self.opened),
                "carry": self.carry,
                "rating": None if self.rating is None else list(self.rating),
            },
        }


def copy_row(row: dict[str, Any]) -> dict[str, Any]:
    return {k: list(v) if isinstance(v, list) else v for k, v in row.items()}


def copy_log_entry(entry: dict[str, Any]) -> dict[str, Any]:
    deal = entry["deal"]
    return {
        "deal": {"hands": [list(h) for h in deal["hands"]], "bazaar": list(deal["bazaar"])},
        "actions": [dict(a) for a in entry["actions"]],
    }
