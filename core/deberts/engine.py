"""The Deberts rules engine: one game as plain data — bidding, the seven swap, trick play and round scoring.

``DebertsEngine`` composes the role modules below it (cards, deal, bidding, combinations, play, scoring); the
view and the storage sit on top of it (``view.py``, ``persist.py``) and ``state.DebertsState`` puts them
together.

Phases: ``bidding`` (two circles), ``swap`` (the declarer may swap the trump 7 for the open card),
``play`` (nine tricks), ``round_over`` and ``game_over``. Actions: ``play_trump``, ``pass``,
``name_suit {suit}``, ``swap_seven``, ``play {card}``. Automatic steps (dealing the extra cards, showing
the bottom card, runs, bella, last trick, scoring) happen inside the actions that cause them.
"""

from __future__ import annotations

import json
from typing import Any, Self

from core.base import Action, BadDeal, Event, GameState, IllegalAction, MalformedAction
from core.deberts import combinations, scoring
from core.deberts.bidding import legal_bids
from core.deberts.cards import BELLA, DECK_SET, LAST_TRICK, is_suit, points
from core.deberts.deal import check_deal, has_second_deal, seeded_deal
from core.deberts.options import DebertsOptions
from core.deberts.play import allowed_cards, refusal, trick_winner

PHASES = ("bidding", "swap", "play", "round_over", "game_over")
ACTIVE = ("bidding", "swap", "play")

# action type -> the one field it carries (or None)
ACTION_FIELDS: dict[str, str | None] = {
    "play_trump": None,
    "pass": None,
    "name_suit": "suit",
    "swap_seven": None,
    "play": "card",
}

_FIELD_NAMES = ("value", "card", "to", "index", "suit", "tile", "end")  # in Action's order
_PLAYS: dict[tuple[int, str], Action] = {}  # shared immutable play actions, built once

# The attributes that make up the state, in their JSON order.
GAME_FIELDS = (
    "seed",
    "first_dealer",
    "dealer",
    "next_dealer",
    "round",
    "phase",
    "totals",
    "sheet",
    "pots",
    "log",
    "winner_seat",
)
ROUND_FIELDS = (
    "deal",
    "hands",
    "open",
    "shown",
    "swapped",
    "circle",
    "bids",
    "turn",
    "trump",
    "declarer",
    "bottom",
    "trick",
    "last",
    "won",
    "tricks",
    "card_points",
    "last_bonus",
    "runs",
    "bella",
)


_ATTRS = tuple("_totals" if name == "totals" else name for name in GAME_FIELDS + ROUND_FIELDS)


class DebertsEngine(GameState):
    """The rules of one Deberts game (2 or 3 players); ``state.DebertsState`` adds seeing and storing."""

    game = "deberts"

    def __init__(self, players: int, options: DebertsOptions, seed: int | str, first_dealer: int) -> None:
        self.players = players
        self.options = options
        self.seed = seed
        self.first_dealer = first_dealer
        self.dealer: int | None = None
        self.next_dealer = first_dealer
        self.round = 0  # deals made so far, redeals included
        self.phase = "round_over"
        self._totals: list[int] = [0] * players
        self.sheet: list[dict[str, Any]] = []
        self.pots: list[int] = []
        self.log: list[dict[str, Any]] = []  # the record's rounds
        self.winner_seat: int | None = None
        # How the last played round's points were made up (``tally``): derived data, kept while playing and
        # rebuilt from the round's record on loading (``persist.py``), never stored, so stored states and the
        # storage's replay check are the same as before it existed. None after a redeal.
        self.tally: dict[str, Any] | None = None
        self._reset_round()

    def _reset_round(self) -> None:
        n = self.players
        self.deal: dict[str, Any] | None = None
        self.hands: list[list[str]] = [[] for _ in range(n)]
        self.open: str | None = None  # the proposed trump card
        self.shown: str | None = None  # the card lying face up now (the trump 7 after a swap)
        self.swapped = False
        self.circle = 1
        self.bids: list[str | None] = [None] * n
        self.turn: int | None = None
        self.trump: str | None = None
        self.declarer: int | None = None
        self.bottom: str | None = None
        self.trick: list[list[Any]] = []  # [[seat, card], ...]
        self.last: dict[str, Any] | None = None
        self.won: list[list[str]] = [[] for _ in range(n)]
        self.tricks = [0] * n
        self.card_points = [0] * n
        self.last_bonus: int | None = None
        self.runs: dict[str, Any] | None = None
        self.bella: int | None = None

    # ---- where the game is -----------------------------------------------------------------------
    @property
    def to_act(self) -> int | None:
        return self.turn if self.phase in ACTIVE else None

    @property
    def totals(self) -> list[int]:
        return list(self._totals)

    @property
    def winner(self) -> int | None:
        return self.winner_seat

    def round_points(self) -> list[int]:
        """Each seat's points in the current round so far: cards, last trick, counted runs, bella."""
        out = list(self.card_points)
        if self.last_bonus is not None:
            out[self.last_bonus] += LAST_TRICK
        if self.runs is not None and self.runs["status"] == "scored":
            out[self.runs["scorer"]] += self.runs["points"]
        if self.bella is not None:
            out[self.bella] += BELLA
        return out

    def stock_count(self) -> int:
        """Cards in the stock, the open card and the shown bottom card included."""
        if self.deal is None:
            return 0
        return 32 - (9 if self.trump is not None else 6) * self.players

    def swap_refusal(self, seat: int) -> tuple[str, str] | None:
        """Why ``seat`` may not swap the trump 7 now (``(code, message)``), or None when it may."""
        if self.phase == "swap" and seat == self.turn:
            return None
        if self.phase == "bidding":
            return "wrong_phase", "trump is not named yet"
        if not self.options.seven_swap:
            return "seven_swap_off", "the seven swap is off at this table"
        if seat != self.declarer:
            return "not_declarer", "only the declarer may swap the trump 7"
        if self.trump != (self.open or " ")[1]:
            return "not_open_suit", "the seven swap needs trump to be the open card's suit"
        if self.phase == "play" and ("7" + self.trump) not in self.hands[seat] and not self.trick and not self.last:
            return "no_trump_seven", "you do not hold the trump 7"
        return "swap_too_late", "the seven may be swapped only before the first lead"

    # ---- moves -----------------------------------------------------------------------------------
    def legal_actions(self, seat: int) -> list[Action]:
        if seat != self.turn or self.phase not in ACTIVE:
            return []
        if self.phase == "play":
            table = [c for _, c in self.trick]
            assert self.trump is not None
            return [_play_action(seat, c) for c in allowed_cards(self.hands[seat], table, self.trump)]
        if self.phase == "bidding":
            assert self.open is not None and self.dealer is not None
            return legal_bids(seat, self.circle, self.open[1], self.dealer, self.options.obligatory_order)
        return [Action(seat, "swap_seven"), Action(seat, "pass")]

    def apply_in_place(self, action: Action) -> list[Event]:
        if not isinstance(action, Action):
            raise MalformedAction("not an action", "malformed_action")
        typ = action.type
        if typ not in ACTION_FIELDS:
            raise MalformedAction(f"unknown action '{typ}' in deberts", "unknown_action", action=typ)
        wanted = ACTION_FIELDS[typ]
        values = (action.value, action.card, action.to, action.index, action.suit, action.tile, action.end)
        for name, value in zip(_FIELD_NAMES, values):
            if (value is not None) != (name == wanted):
                if value is None:
                    raise MalformedAction(f"'{typ}' needs the field '{name}'", "malformed_action", field=name)
                raise MalformedAction(f"'{typ}' takes no field '{name}'", "malformed_action", field=name)
        if self.phase == "game_over":
            raise IllegalAction("the game is over", "game_over")
        if self.phase == "round_over":
            raise IllegalAction("the round is over: deal the next round", "round_over")
        seat = action.seat
        if not 0 <= seat < self.players:
            raise IllegalAction(f"no seat {seat} at this table", "bad_seat", seat=seat)
        if typ == "swap_seven":
            why = self.swap_refusal(seat)
            if why is not None:
                raise IllegalAction(why[1], why[0])
        if seat != self.turn:
            raise IllegalAction("it is not your turn", "not_your_turn", to_act=self.turn)
        if typ == "play":
            events = self._play(seat, action.card or "")
        elif typ == "pass":
            events = self._pass(seat)
        elif typ == "play_trump":
            events = self._play_trump(seat)
        elif typ == "name_suit":
            events = self._name_suit(seat, action.suit or "")
        else:
            events = self._swap_seven(seat)
        raw: dict[str, Any] = {"seat": seat, "type": typ}
        if wanted is not None:
            raw[wanted] = getattr(action, wanted)
        self.log[-1]["actions"].append(raw)
        return events

    # ---- bidding ---------------------------------------------------------------------------------
    def _play_trump(self, seat: int) -> list[Event]:
        if self.phase != "bidding":
            raise IllegalAction("the bidding is over", "wrong_phase")
        if self.circle != 1:
            raise IllegalAction("the open suit was refused by all: name another suit or pass", "wrong_circle")
        assert self.open is not None
        return self._name_trump(seat, self.open[1])

    def _name_suit(self, seat: int, suit: str) -> list[Event]:
        if self.phase != "bidding":
            raise IllegalAction("the bidding is over", "wrong_phase")
        if not is_suit(suit):
            raise IllegalAction(f"unknown suit {suit!r}: use S, C, D or H", "bad_suit", suit=suit)
        if self.circle == 1:
            raise IllegalAction("in the first circle you may only play the open suit or pass", "wrong_circle")
        assert self.open is not None
        if suit == self.open[1]:
            raise IllegalAction(
                "the open card's suit was refused: name another suit", "open_suit_in_second_circle", suit=suit
            )
        return self._name_trump(seat, suit)

    def _pass(self, seat: int) -> list[Event]:
        if self.phase == "swap":
            events = [Event("seven_kept", seat)]
            return events + self._start_play()
        if self.phase != "bidding":
            raise IllegalAction("you cannot pass now", "wrong_phase")
        if self.circle == 2 and self.options.obligatory_order and seat == self.dealer:
            raise IllegalAction("obligatory order: the dealer must name a suit", "must_name_suit")
        events = [Event("pass", seat, {"circle": self.circle})]
        self.bids[seat] = "pass"
        if seat != self.dealer:
            self.turn = (seat + 1) % self.players
            return events
        assert self.dealer is not None
        if self.circle == 1:
            self.circle = 2
            self.bids = [None] * self.players
            self.turn = (self.dealer + 1) % self.players
            return events
        return events + self._all_passed()

    def _all_passed(self) -> list[Event]:
        assert self.dealer is not None
        n = self.players
        self.next_dealer = (self.dealer + 1) % n
        hanging = sum(self.pots)
        self.sheet.append(
            {
                "round": self.round,
                "scores": [0] * n,
                "totals": list(self._totals),
                "redeal": True,
                "declarer": None,
                "trump": None,
                "result": None,
                "points": [0] * n,
                "hanging": hanging,
                "hanging_paid": 0,
                "hanging_to": [],
            }
        )
        self.phase = "round_over"
        self.turn = None
        self.tally = None
        return [Event("all_passed", None, {"next_dealer": self.next_dealer})]

    def _name_trump(self, seat: int, suit: str) -> list[Event]:
        deal = self.deal
        assert deal is not None and self.open is not None
        if not has_second_deal(deal):
            raise BadDeal("trump is named but the deal has no 'extra' cards or 'bottom' card", "bad_deal")
        circle = self.circle
        self.bids[seat] = "play" if circle == 1 else suit
        self.trump = suit
        self.declarer = seat
        for s in range(self.players):
            self.hands[s].extend(deal["extra"][s])
        self.bottom = deal["bottom"]
        events = [
            Event("trump_named", seat, {"suit": suit, "circle": circle}),
            Event("extra_dealt", None, {"bottom": self.bottom, "stock_count": self.stock_count()}),
        ]
        if self.options.seven_swap and suit == self.open[1] and "7" + suit in self.hands[seat]:
            self.phase = "swap"
            self.turn = seat
            return events
        return events + self._start_play()

    def _swap_seven(self, seat: int) -> list[Event]:
        assert self.trump is not None and self.open is not None
        seven = "7" + self.trump
        hand = self.hands[seat]
        hand.remove(seven)
        hand.append(self.open)
        self.shown = seven
        self.swapped = True
        return [Event("seven_swapped", seat, {"seven": seven, "open": self.open})] + self._start_play()

    def _start_play(self) -> list[Event]:
        assert self.dealer is not None and self.trump is not None
        self.phase = "play"
        self.turn = (self.dealer + 1) % self.players
        moscow = self.options.trump_in_combinations == "moscow"
        self.runs = combinations.decide(self.hands, self.trump, self.dealer, moscow)
        if self.runs is None:
            return []
        public = combinations.public_runs(self.runs)
        assert public is not None
        data = {"runs": public["by_seat"], "points": public["points"], "beaten": public["beaten"]}
        return [Event("runs", self.runs["scorer"], data)]

    # ---- play ------------------------------------------------------------------------------------
    def _play(self, seat: int, card: str) -> list[Event]:
        if self.phase != "play":
            raise IllegalAction("no cards are played now", "wrong_phase")
        hand = self.hands[seat]
        trump = self.trump
        assert trump is not None
        if card not in hand:
            if card not in DECK_SET:
                raise IllegalAction(f"{card!r} is not a card", "bad_card", card=card)
            raise IllegalAction(f"you do not hold {card}", "card_not_held", card=card)
        table = [c for _, c in self.trick]
        why = refusal(card, hand, table, trump)
        if why is not None:
            raise IllegalAction(why[1], why[0], card=card)
        hand.remove(card)
        self.trick.append([seat, card])
        events = [Event("card_played", seat, {"card": card})]
        if self.bella is None and card[1] == trump and card[0] in "KQ":
            partner = ("Q" if card[0] == "K" else "K") + trump
            if partner in hand:
                self.bella = seat
                events.append(Event("bella", seat, {"suit": trump, "points": BELLA}))
        n = self.players
        if len(self.trick) < n:
            self.turn = (seat + 1) % n
            return events
        cards = [c for _, c in self.trick]
        winner = self.trick[trick_winner(cards, trump)][0]
        gained = sum(points(c, trump) for c in cards)
        self.won[winner].extend(cards)
        self.tricks[winner] += 1
        self.card_points[winner] += gained
        self.last = {"cards": self.trick, "winner": winner}
        self.trick = []
        number = sum(self.tricks)
        events.append(Event("trick_won", winner, {"points": gained, "cards": cards, "trick": number}))
        runs = self.runs
        if runs is not None and runs["status"] == "pending" and runs["scorer"] == winner:
            runs["status"] = "scored"
            events.append(Event("runs_counted", winner, {"points": runs["points"]}))
        if hand or self.hands[winner]:
            self.turn = winner
            return events
        self.last_bonus = winner
        events.append(Event("last_trick", winner, {"points": LAST_TRICK}))
        return events + self._end_round()

    def _end_round(self) -> list[Event]:
        assert self.declarer is not None
        events: list[Event] = []
        runs = self.runs
        if runs is not None and runs["status"] == "pending":
            runs["status"] = "lost"
            events.append(Event("runs_lost", runs["scorer"], {"points": runs["points"], "reason": "no_trick"}))
        pts = self.round_points()
        self.tally = self._tally()
        out = scoring.settle(
            pts,
            self.declarer,
            self.pots,
            winner_takes_all=self.options.winner_takes_all,
            hanging_separately=self.options.hanging_separately,
        )
        for s in range(self.players):
            self._totals[s] += out["scores"][s]
        self.pots = out["pots"]
        self.next_dealer = out["next_dealer"]
        hanging = sum(self.pots)
        self.sheet.append(
            {
                "round": self.round,
                "scores": list(out["scores"]),
                "totals": list(self._totals),
                "redeal": False,
                "declarer": self.declarer,
                "trump": self.trump,
                "result": out["result"],
                "points": pts,
                "hanging": hanging,
                "hanging_paid": out["paid"],
                "hanging_to": list(out["paid_to"]),
            }
        )
        events.append(
            Event(
                "round_result",
                self.declarer,
                {
                    "result": out["result"],
                    "points": pts,
                    "scores": list(out["scores"]),
                    "totals": list(self._totals),
                    "winner_takes_all": self.options.winner_takes_all and out["result"] == "made",
                    "hanging_added": out["added"],
                    "hanging_paid": out["paid"],
                    "hanging_to": list(out["paid_to"]),
                    "hanging": hanging,
                },
            )
        )
        self.turn = None
        winner = scoring.game_winner(self._totals, self.options.target)
        if winner is not None:
            self.phase = "game_over"
            self.winner_seat = winner
            events.append(Event("game_won", winner, {"total": self._totals[winner], "target": self.options.target}))
        else:
            self.phase = "round_over"
            top = max(self._totals)
            if top >= self.options.target:
                tied = [s for s, t in enumerate(self._totals) if t == top]
                events.append(Event("play_on", None, {"seats": tied, "total": top, "target": self.options.target}))
        return events

    def _tally(self) -> dict[str, Any]:
        """What the round's points are made of, per seat: the card points of its tricks, the last trick,
        the runs of the one seat that had the best (counted or lost) and bella."""
        runs = None
        if self.runs is not None:
            scorer = self.runs["scorer"]
            runs = {
                "seat": scorer,
                "points": self.runs["points"],
                "runs": [{k: r[k] for k in ("kind", "suit", "top", "points")} for r in self.runs["by_seat"][scorer]],
                "counted": self.runs["status"] == "scored",
            }
        return {
            "round": self.round,
            "cards": list(self.card_points),
            "tricks": list(self.tricks),
            "last_trick": self.last_bonus,
            "runs": runs,
            "bella": self.bella,
        }

    # ---- rounds ----------------------------------------------------------------------------------
    def next_round_in_place(self, deal: dict[str, Any] | None = None) -> list[Event]:
        if self.phase == "game_over":
            raise IllegalAction("the game is over", "game_over")
        if self.phase != "round_over":
            raise IllegalAction("the round is not over", "round_not_over")
        dealer = self.next_dealer
        if deal is None:
            fresh = seeded_deal(self.seed, self.round, self.players, dealer)
        else:
            fresh = check_deal(deal, self.players)
        self._reset_round()
        self.dealer = dealer
        self.round += 1
        self.deal = fresh
        self.hands = [list(h) for h in fresh["hands"]]
        self.open = self.shown = fresh["open"]
        self.phase = "bidding"
        self.turn = (dealer + 1) % self.players
        self.log.append({"deal": _copy_deal(fresh), "actions": []})
        return [Event("deal", dealer, {"round": self.round, "open": self.open})]

    # ---- records and copies ----------------------------------------------------------------------
    def record(self) -> dict[str, Any]:
        return {
            "game": "deberts",
            "players": self.players,
            "options": self.options.to_dict(),
            "first_dealer": self.first_dealer,
            "rounds": json.loads(json.dumps(self.log)),
        }

    def result(self) -> dict[str, Any]:
        return {
            "game": "deberts",
            "rounds": [
                {"scores": list(r["scores"]), "totals": list(r["totals"]), "redeal": r["redeal"]} for r in self.sheet
            ],
            "totals": list(self._totals),
            "finished": self.finished,
            "winner": self.winner_seat,
            "loser": None,
            "phase": self.phase,
            "to_act": self.to_act,
            "extra": {"hanging": sum(self.pots)},
        }

    def copy(self) -> Self:
        new = object.__new__(type(self))
        new.players = self.players
        new.options = self.options  # frozen
        attrs = {name: getattr(self, name) for name in _ATTRS}
        attrs["tally"] = self.tally
        new.__dict__.update(json.loads(json.dumps(attrs)))
        return new


def _play_action(seat: int, card: str) -> Action:
    action = _PLAYS.get((seat, card))
    if action is None:
        action = _PLAYS[(seat, card)] = Action(seat, "play", card=card)
    return action


def _copy_deal(deal: dict[str, Any]) -> dict[str, Any]:
    out = dict(deal)
    out["hands"] = [list(h) for h in deal["hands"]]
    if "extra" in deal:
        out["extra"] = [list(e) for e in deal["extra"]]
    return out
