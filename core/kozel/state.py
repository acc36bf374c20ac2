"""The state of a Kozel game: rounds, the chain, hands and bazaar, the score sheet; apply, JSON, record, result.

Phases: ``play`` (a seat with a fitting tile is to act), ``round_over`` (between rounds and before the first
deal) and ``game_over``. Forced draws and knocks happen inside ``apply_in_place`` (see ``play.advance``), so
after any action the seat to act holds a playable tile, or the round is over.
"""

from __future__ import annotations

from typing import Any, Self

from core.base import Action, BadState, Event, GameState, IllegalAction, OptionsError
from core.kozel.chain import is_fish, place
from core.kozel.deal import check_deal, random_deal, redeal_reason
from core.kozel.options import KozelOptions
from core.kozel.play import advance, check_play, first_lead, legal_plays, play_event
from core.kozel.scoring import kozel, rating, score_round
from core.kozel.tiles import TILE_ORDER

PHASES = ("play", "round_over", "game_over")
STATE_VERSION = 1


class KozelState(GameState):
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

    # ---- seeing ----------------------------------------------------------------------------------
    def view(self, seat: int | None) -> dict[str, Any]:
        from core.kozel.view import build_view

        return build_view(self, seat)

    # ---- persistence -----------------------------------------------------------------------------
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
        nd["sheet"] = [_copy_row(r) for r in self.sheet]
        nd["log"] = [_copy_log_entry(e) for e in self.log]
        nd["revealed"] = None if self.revealed is None else [list(h) for h in self.revealed]
        nd["rating"] = None if self.rating is None else list(self.rating)
        return new

    def to_json(self) -> dict[str, Any]:
        return {
            "game": "kozel",
            "version": STATE_VERSION,
            "players": self.players,
            "options": self.options.to_dict(),
            "seed": self.seed,
            "phase": self.phase,
            "turn": self.turn,
            "hands": [list(h) for h in self.hands],
            "bazaar": list(self.bazaar),
            "chain": [dict(e, pips=list(e["pips"])) for e in self.chain],
            "left": self.left,
            "right": self.right,
            "forced": self.forced,
            "leader": self.leader,
            "lead_seat": self.lead_seat,
            "totals": list(self._totals),
            "remembered": list(self.remembered),
            "opened": list(self.opened),
            "carry": self.carry,
            "sheet": [_copy_row(r) for r in self.sheet],
            "log": [_copy_log_entry(e) for e in self.log],
            "revealed": None if self.revealed is None else [list(h) for h in self.revealed],
            "rating": None if self.rating is None else list(self.rating),
            "loser": self._loser,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Self:
        try:
            return cls._load(data)
        except BadState:
            raise
        except (KeyError, TypeError, ValueError, AttributeError, IndexError) as err:
            raise BadState(f"not a kozel state: {err}", "bad_state") from None

    @classmethod
    def _load(cls, data: dict[str, Any]) -> Self:
        from core.kozel.validate import check_state

        if not isinstance(data, dict) or data.get("game") != "kozel":
            raise BadState("not a kozel state", "bad_state")
        if data.get("version") != STATE_VERSION:
            raise BadState(f"unknown kozel state version {data.get('version')!r}", "bad_state")
        players = data["players"]
        if type(players) is not int or not 2 <= players <= 4:
            raise BadState("kozel is played by 2 to 4 players", "bad_state")
        try:
            options = KozelOptions.from_dict(players, data["options"])
        except OptionsError as err:
            raise BadState(f"bad options: {err}", "bad_state") from None
        seed = data["seed"]
        if type(seed) not in (int, str):
            raise BadState("the seed must be an integer or a string", "bad_state")
        st = cls(players, options, seed)
        st.phase = data["phase"]
        st.turn = data["turn"]
        st.hands = [list(h) for h in data["hands"]]
        st.bazaar = list(data["bazaar"])
        st.chain = [dict(e, pips=list(e["pips"])) for e in data["chain"]]
        st.left = data["left"]
        st.right = data["right"]
        st.forced = data["forced"]
        st.leader = data["leader"]
        st.lead_seat = data["lead_seat"]
        st._totals = list(data["totals"])
        st.remembered = list(data["remembered"])
        st.opened = list(data["opened"])
        st.carry = data["carry"]
        st.sheet = [_copy_row(r) for r in data["sheet"]]
        st.log = [_copy_log_entry(e) for e in data["log"]]
        st.revealed = None if data["revealed"] is None else [list(h) for h in data["revealed"]]
        st.rating = None if data["rating"] is None else list(data["rating"])
        st._loser = data["loser"]
        check_state(st)
        return st

    def record(self) -> dict[str, Any]:
        return {
            "game": "kozel",
            "players": self.players,
            "options": self.options.to_dict(),
            "first_dealer": None,
            "rounds": [_copy_log_entry(e) for e in self.log],
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


def _copy_row(row: dict[str, Any]) -> dict[str, Any]:
    return {k: list(v) if isinstance(v, list) else v for k, v in row.items()}


def _copy_log_entry(entry: dict[str, Any]) -> dict[str, Any]:
    deal = entry["deal"]
    return {
        "deal": {"hands": [list(h) for h in deal["hands"]], "bazaar": list(deal["bazaar"])},
        "actions": [dict(a) for a in entry["actions"]],
    }
