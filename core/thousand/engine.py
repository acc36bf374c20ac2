"""The Thousand rules engine: phases, legal actions and applying them (docs/rules-thousand.md).

``ThousandEngine`` composes the role modules below it (cards, actions, deal, bidding, play, scoring: the
bidding's and the round end's methods are its ``Bidding`` and ``RoundEnd`` parts); the plain rules are here,
the common moves written out by hand are ``fastpath.ThousandFastEngine``; the view and the storage sit on top
(``view.py``, ``persist.py``) and ``state.ThousandState`` puts them together.

Phases of a round: ``bidding`` -> ``talon`` (2 players: choose one of two talons) -> ``give`` (one card to
each other active player) -> ``contract`` -> ``play`` -> ``round_over`` (or ``game_over``). The 3p/4p talon
is taken automatically, as are floor passes and the barrel player's talon at 121 when others may not bid.
"""

from __future__ import annotations

from itertools import chain
from typing import Any, Self

from core.base import Action, Event, GameState, IllegalAction, MalformedAction
from core.rng import stream
from core.thousand import deal as dealing
from core.thousand.actions import CARD_PLAYED, LOG_JSON, TAKE_TALON, give_table, simple_action
from core.thousand.bidding import Bidding
from core.thousand.cards import POINTS, STRENGTH, card_points
from core.thousand.options import ThousandOptions
from core.thousand.play import declared_marriage, playable
from core.thousand.scoring import RoundEnd

PLAY_PHASES = ("bidding", "talon", "give", "contract", "play")
ACTION_TYPES = ("bid", "pass", "take_talon", "give", "contract", "concede", "redeal", "play")

# Every attribute that makes up the state, in to_json order.
GAME_FIELDS = (
    "players",
    "seed",
    "first_dealer",
    "phase",
    "dealer",
    "next_dealer",
    "round_index",
    "rounds_scored",
    "totals",
    "bolts",
    "barrel",
    "barrel_attempts",
    "missed_barrels",
    "winner_seat",
    "history",
    "log",
)
ROUND_FIELDS = (
    "hands",
    "talons",
    "active",
    "sitting_out",
    "bids",
    "bid",
    "declarer",
    "turn",
    "talon_taken",
    "talon_shown",
    "gives",
    "contract",
    "trump",
    "trick",
    "leader",
    "tricks_done",
    "tricks_taken",
    "card_pts",
    "marriages",
    "last_trick",
    "played",
    "golden",
    "round_actions",
)


def _next(seat: int, n: int) -> int:
    return (seat + 1) % n


_EXPECTED = {
    "bidding": ("bid", "pass"),
    "talon": ("take_talon",),
    "give": ("give", "concede"),
    "contract": ("contract", "concede"),
    "play": ("play", "concede"),
}


class ThousandEngine(Bidding, RoundEnd, GameState):
    """The rules of one Thousand game as plain data; ``state.ThousandState`` adds seeing and storing."""

    game = "thousand"
    # ``finished`` (the phase is game_over) is a plain attribute here rather than the base class's property,
    # because random games and search play-outs ask for it at every step: the engine sets it where the phase
    # becomes game_over, ``copy`` and ``persist.load_state`` from the phase they copy.
    finished = False

    def __init__(self, players: int, options: ThousandOptions, seed: int | str, first_dealer: int) -> None:
        self.players = players
        self.options = options
        self.seed = seed
        self.first_dealer = first_dealer
        self.phase = "round_over"
        self.dealer = first_dealer
        self.next_dealer = first_dealer
        self.round_index = 0  # round entries dealt so far (redeals included)
        self.rounds_scored = 0  # rounds played to a score (for the golden rounds)
        self.totals = [0] * players
        self.bolts = [0] * players
        self.barrel = [False] * players
        self.barrel_attempts = [0] * players
        self.missed_barrels = [0] * players
        self.winner_seat: int | None = None
        self.history: list[dict[str, Any]] = []  # score-sheet rows
        self.log: list[dict[str, Any]] = []  # record rounds: {"deal", "actions"}
        self._clear_round()

    def _clear_round(self) -> None:
        n = self.players
        self.hands: list[list[str]] = [[] for _ in range(n)]
        self.talons: list[list[str]] = []
        self.active: list[int] = []
        self.sitting_out: int | None = None
        self.bids: list[int | str | None] = [None] * n
        self.bid: int | None = None
        self.declarer: int | None = None
        self.turn: int | None = None
        self.talon_taken: int | None = None
        self.talon_shown = False
        self.gives: list[dict[str, Any]] = []
        self.contract: int | None = None
        self.trump: str | None = None
        self.trick: list[list[Any]] = []  # [seat, card] in play order
        self.leader: int | None = None
        self.tricks_done = 0
        self.tricks_taken = [0] * n
        self.card_pts = [0] * n
        self.marriages: list[dict[str, Any]] = []
        self._last_trick: dict[str, Any] | tuple[list[list[Any]], int] | None = None
        self.played: list[str] = []  # every card played this round, in order
        self.golden = False
        self.round_actions = 0

    # ------------------------------------------------------------------------------------------------
    # what the state is

    @property
    def to_act(self) -> int | None:
        if self.phase in ("bidding", "play"):
            return self.turn
        if self.phase in ("talon", "give", "contract"):
            return self.declarer
        return None

    @property
    def winner(self) -> int | None:
        return self.winner_seat

    @property
    def first_hand(self) -> int:
        return _next(self.dealer, self.players)

    @property
    def tricks_per_round(self) -> int:
        return 11 if self.players == 2 else 8

    @property
    def on_hundred(self) -> bool:
        return self.bid == 100

    @property
    def last_trick(self) -> dict[str, Any] | None:
        """The trick taken last this round: ``{"cards": [{"seat", "card"}...], "winner"}`` or None."""
        last = self._last_trick
        if type(last) is tuple:  # kept as (trick, winner) when the trick closed: built on first use
            trick, winner = last
            last = self._last_trick = {"cards": [{"seat": s, "card": c} for s, c in trick], "winner": winner}
        return last

    @last_trick.setter
    def last_trick(self, value: dict[str, Any] | None) -> None:
        self._last_trick = value

    @property
    def marriage_points(self) -> list[int]:
        out = [0] * self.players
        for m in self.marriages:
            out[m["seat"]] += m["points"]
        return out

    # ------------------------------------------------------------------------------------------------
    # dealing

    def next_round_in_place(self, deal: dict[str, Any] | None = None) -> list[Event]:
        if self.phase != "round_over":
            raise IllegalAction("the round is still being played", "round_not_over")
        dealer = self.next_dealer
        n = self.players
        if deal is None:  # a deal of our own making is valid by construction: no need to check it
            hands, talons = dealing.deal_cards(n, dealer, stream(self.seed, "deal", self.round_index))
        else:
            hands, talons = dealing.check_deal(deal, n, dealer)
        self._clear_round()
        self.dealer = dealer
        self.round_index += 1
        self.log.append({"deal": {"hands": list(map(list, hands)), "talon": list(map(list, talons))}, "actions": []})
        self.hands = hands
        self.talons = talons
        if n == 4:
            sitting_out = self.sitting_out = dealer
            self.active = [s for s in range(4) if s != dealer]
        else:
            sitting_out = None  # (as _clear_round left it)
            self.active = list(range(n))
        golden = self.golden = self.options.golden_round and self.rounds_scored < 3
        events = [
            Event(
                "round_started",
                None,
                {"round": len(self.history) + 1, "dealer": dealer, "sitting_out": sitting_out, "golden": golden},
            )
        ]
        self.phase = "bidding"
        barrel_seat = None
        if not self.options.bidding_on_barrel:
            for s in self.active:
                if self.barrel[s]:
                    barrel_seat = s
                    break
        if barrel_seat is not None:
            events.append(Event("barrel_takes_talon", barrel_seat, {"value": 121}))
            self.bid = 121
            self.bids[barrel_seat] = 121
            events += self._win_bidding(barrel_seat)
            return events
        floor = self.options.bidding_floor
        totals, barrel = self.totals, self.barrel
        first = (dealer + 1) % n  # the first hand
        below = [s for s in self.active if totals[s] < floor and not barrel[s]]
        if len(below) == len(self.active):
            # every seat is below the floor: the first hand plays as if he alone were not (docs/rules-thousand.md),
            # so he does not pass: the others do, and he plays a hundred without bidding
            below.remove(first)
        for s in below:
            self.bids[s] = "pass"
            events.append(Event("auto_pass", s, {"floor": floor, "total": totals[s]}))
        self.turn = first
        if self.bids[first] == "pass":
            self.turn = self._next_bidder(self.turn)
        events += self._check_bidding_end()
        return events

    # ------------------------------------------------------------------------------------------------
    # legal actions

    def legal_actions(self, seat: int) -> list[Action]:
        out = []
        if self.phase not in PLAY_PHASES or not isinstance(seat, int):
            return out
        if self._may_redeal(seat):
            out.append(simple_action(seat, "redeal"))
        if seat != self.to_act:
            return out
        phase = self.phase
        if phase == "bidding":
            if self._may_pass(seat):
                out.append(simple_action(seat, "pass"))
            out += self._bid_actions(seat)
        elif phase == "talon":
            if type(seat) is int and len(self.talons) == 2:
                out += TAKE_TALON[seat]
            else:
                out += [Action(seat, "take_talon", index=i) for i in range(len(self.talons))]
        elif phase == "give":
            receivers = self._receivers_left()
            if type(seat) is int:
                # card by card, one give per receiver: the shared actions of this seat and these receivers
                table = give_table(seat, receivers)
                out += chain.from_iterable(map(table.__getitem__, self.hands[seat]))
            else:
                out += [Action(seat, "give", card=c, to=r) for c in self.hands[seat] for r in receivers]
            if self._may_concede(seat):
                out.append(simple_action(seat, "concede"))
        elif phase == "contract":
            out += self._contract_actions(seat)
            if self._may_concede(seat):
                out.append(simple_action(seat, "concede"))
        elif phase == "play":
            out += [Action(seat, "play", card=c) for c in self._playable(seat)]
            if self._may_concede(seat):
                out.append(simple_action(seat, "concede"))
        return out

    def _may_concede(self, seat: int) -> bool:
        if not self.options.may_concede or seat != self.declarer or self.barrel[seat]:
            return False
        if self.phase in ("give", "contract"):
            return True
        return self.phase == "play" and self.tricks_done == 0 and not self.trick

    def _may_redeal(self, seat: int) -> bool:
        if not self.options.redeal or seat not in self.active:
            return False
        # before the first action of the round: in bidding, or in talon/give when the bidding closed by itself
        if self.round_actions == 0 and self.phase in ("bidding", "talon", "give") and not self.gives:
            hand = self.hands[seat]
            if self.declarer == seat and self.talon_taken is not None:
                hand = [c for c in hand if c not in self.talons[self.talon_taken]]
            if sum(1 for c in hand if c[0] == "9") == 4 or card_points(hand) < 14:
                return True
        if seat == self.declarer and self.phase == "give" and not self.gives and self.talon_taken is not None:
            return all(c[0] == "9" for c in self.talons[self.talon_taken])
        return False

    def _playable(self, seat: int) -> list[str]:
        return playable(self.hands[seat], self.trick, self.trump)

    # ------------------------------------------------------------------------------------------------
    # applying

    def apply_in_place(self, action: Action) -> list[Event]:
        self._check(action)
        events = self._perform(action)
        log = self.log
        if log:
            logged = LOG_JSON.get(id(action))
            log[-1]["actions"].append(action.to_json() if logged is None else logged)
        self.round_actions += 1
        return events

    def _check(self, action: Action) -> None:
        """Raise IllegalAction with a precise reason when the action is not legal now."""
        if not isinstance(action, Action):
            raise MalformedAction("not an action", "malformed_action")
        seat, typ = action.seat, action.type
        if typ not in ACTION_TYPES:
            raise MalformedAction(f"unknown action '{typ}'", "unknown_action", type=typ)
        if not 0 <= seat < self.players:
            raise IllegalAction(f"there is no seat {seat}", "no_such_seat", seat=seat)
        if self.phase == "game_over":
            raise IllegalAction("the game is over", "game_over")
        if self.phase == "round_over":
            raise IllegalAction("the round is over", "round_over")
        if typ == "redeal":
            if not self._may_redeal(seat):
                raise IllegalAction("a redeal cannot be called now", "no_redeal", seat=seat)
            return
        if seat != self.to_act:
            raise IllegalAction("it is not your turn", "not_your_turn", seat=seat, to_act=self.to_act)
        phase = self.phase
        expected = _EXPECTED[phase]
        if typ not in expected:
            raise IllegalAction(f"'{typ}' is not possible while {phase}", "wrong_phase", type=typ, phase=phase)
        if typ == "pass":
            if not self._may_pass(seat):
                raise IllegalAction("the first hand must open the bidding with at least 100", "must_open")
        elif typ == "bid":
            self._check_bid(seat, action.value)
        elif typ == "take_talon":
            if action.index not in range(len(self.talons)):
                raise IllegalAction("choose talon 0 or 1", "no_such_talon", index=action.index)
        elif typ == "give":
            card, to = action.card, action.to
            if card is None or to is None:
                raise MalformedAction("give needs 'card' and 'to'", "malformed_action")
            if to == seat:
                raise IllegalAction("you cannot give a card to yourself", "give_to_self")
            if to not in self.active:
                raise IllegalAction(f"seat {to} does not play this round", "not_active", to=to)
            if to not in self._receivers_left():
                raise IllegalAction(f"seat {to} already got a card", "already_given", to=to)
            if card not in self.hands[seat]:
                raise IllegalAction(f"you do not hold {card}", "card_not_held", card=card)
        elif typ == "contract":
            self._check_contract(action.value)
        elif typ == "concede":
            if not self._may_concede(seat):
                if self.barrel[seat]:
                    raise IllegalAction("no conceding on the barrel", "no_concede_on_barrel")
                if not self.options.may_concede:
                    raise IllegalAction("this table does not allow conceding", "no_concede")
                raise IllegalAction("conceding is only possible before the first lead", "too_late_to_concede")
        elif typ == "play":
            card = action.card
            if card is None:
                raise MalformedAction("play needs 'card'", "malformed_action")
            if card not in self.hands[seat]:
                raise IllegalAction(f"you do not hold {card}", "card_not_held", card=card)
            if card not in self._playable(seat):
                led = self.trick[0][1][1]
                if any(c[1] == led for c in self.hands[seat]):
                    raise IllegalAction("you must follow suit", "must_follow_suit", suit=led)
                raise IllegalAction("you must play a trump", "must_trump", suit=self.trump)

    def _perform(self, a: Action) -> list[Event]:
        seat, typ = a.seat, a.type
        if typ == "play":
            return self._play(seat, a.card)  # type: ignore[arg-type]
        if typ == "redeal":
            return self._redeal(seat)
        if typ == "pass":
            return self._do_pass(seat)
        if typ == "bid":
            assert a.value is not None
            return self._do_bid(seat, a.value)
        if typ == "take_talon":
            assert a.index is not None
            return self._take_talon(a.index)
        if typ == "give":
            assert a.card is not None and a.to is not None
            return self._do_give(seat, a.card, a.to)
        if typ == "contract":
            assert a.value is not None
            return self._do_contract(seat, a.value)
        if typ == "concede":
            if self.contract is None:
                self.contract = self.bid
            return [Event("conceded", seat, {"bid": self.bid, "contract": self.contract})] + self._end_round(
                conceded=True
            )
        return self._play(seat, a.card)  # type: ignore[arg-type]

    # ---- play ---------------------------------------------------------------------------------------
    def _play(self, seat: int, card: str) -> list[Event]:
        trick = self.trick
        events = [CARD_PLAYED[seat][card] if type(seat) is int else Event("card_played", seat, {"card": card})]
        if not trick and self.tricks_done > 0 and card[0] in "KQA":
            events += self._declare(seat, card)
        self.hands[seat].remove(card)
        trick.append([seat, card])
        self.played.append(card)
        if len(trick) < len(self.active):
            nxt = (seat + 1) % self.players
            if nxt == self.sitting_out:
                nxt = (nxt + 1) % self.players
            self.turn = nxt
            return events
        return events + self._close_trick()

    def _close_trick(self) -> list[Event]:
        """The trick is complete: its winner takes it (and leads next); the last trick ends the round."""
        trick = self.trick
        trump = self.trump
        strength = STRENGTH
        points = POINTS
        # ``trick_winner`` written out, in the one pass that also sums the points and lists the cards
        winner, best = trick[0]
        pts = points[best]
        cards = [best]
        for seat, c in trick[1:]:
            pts += points[c]
            cards.append(c)
            if c[1] == best[1]:
                if strength[c] > strength[best]:
                    winner, best = seat, c
            elif c[1] == trump:
                winner, best = seat, c
        self.card_pts[winner] += pts
        self.tricks_taken[winner] += 1
        done = self.tricks_done = self.tricks_done + 1
        self._last_trick = (trick, winner)  # the ``last_trick`` dict is built when asked for
        self.trick = []
        self.turn = self.leader = winner
        events = [Event("trick_won", winner, {"points": pts, "cards": cards, "trick": done})]
        if done == (11 if self.players == 2 else 8):  # tricks_per_round
            events += self._end_round(conceded=False)
        return events

    def _declare(self, seat: int, card: str) -> list[Event]:
        """A lead of a K or Q whose partner is held (or an ace holding all four aces) declares a marriage."""
        declared = declared_marriage(self.hands[seat], card, self.options.ace_marriage)
        if declared is None:
            return []
        points, ace = declared
        suit = card[1]
        self.trump = suit
        self.marriages.append({"seat": seat, "suit": suit, "points": points, "ace": ace})
        return [Event("marriage", seat, {"suit": suit, "points": points, "trump": suit, "ace": ace})]

    # ------------------------------------------------------------------------------------------------
    # copies, records, results

    def copy(self) -> Self:
        new = object.__new__(type(self))
        new.options = self.options
        for name in GAME_FIELDS + ROUND_FIELDS:
            if name not in ("log", "history"):
                setattr(new, name, plain_copy(getattr(self, name)))
        # finished rounds and score-sheet rows are never changed once written: share them
        new.finished = new.phase == "game_over"
        new.history = list(self.history)
        new.log = list(self.log)
        if new.log:
            last = new.log[-1]
            new.log[-1] = {"deal": last["deal"], "actions": list(last["actions"])}
        return new

    def record(self) -> dict[str, Any]:
        return {
            "game": "thousand",
            "players": self.players,
            "options": self.options.to_dict(),
            "first_dealer": self.first_dealer,
            "rounds": plain_copy(self.log),
        }

    def result(self) -> dict[str, Any]:
        return {
            "game": "thousand",
            "rounds": [
                {"scores": list(r["scores"]), "totals": list(r["totals"]), "redeal": r["redeal"]} for r in self.history
            ],
            "totals": list(self.totals),
            "finished": self.finished,
            "winner": self.winner_seat,
            "loser": None,
            "phase": self.phase,
            "to_act": self.to_act,
            "extra": {
                "barrel": list(self.barrel),
                "bolts": list(self.bolts),
                "missed_barrels": list(self.missed_barrels),
            },
        }


def plain_copy(value: Any) -> Any:
    """A deep copy of plain JSON-like data (lists, dicts, scalars), much faster than copy.deepcopy."""
    if isinstance(value, list):
        return [plain_copy(v) for v in value]
    if isinstance(value, dict):
        return {k: plain_copy(v) for k, v in value.items()}
    return value
