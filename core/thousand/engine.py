"""The Thousand rules engine: phases, legal actions and applying them (RULES.md §1).

``ThousandEngine`` composes the role modules below it (cards, deal, bidding, play, scoring); the view and
the storage sit on top of it (``view.py``, ``persist.py``) and ``state.ThousandState`` puts them together.

Phases of a round: ``bidding`` -> ``talon`` (2 players: choose one of two talons) -> ``give`` (one card to
each other active player) -> ``contract`` -> ``play`` -> ``round_over`` (or ``game_over``). The 3p/4p talon
is taken automatically, as are floor passes and the barrel player's talon at 121 when others may not bid.
"""

from __future__ import annotations

from itertools import chain
from operator import sub
from typing import Any, Self

from core.base import Action, Event, GameState, IllegalAction, MalformedAction
from core.rng import stream
from core.thousand import deal as dealing
from core.thousand.bidding import bid_values, contract_values, first_bid_above
from core.thousand.cards import DECK, PARTNER, POINTS, STRENGTH, bid_cap, card_points, marriage_value
from core.thousand.options import ThousandOptions
from core.thousand.play import declared_marriage, playable
from core.thousand.scoring import RoundOutcome, Standing, settle

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


# Actions are immutable named tuples: the engine hands out one shared object per decision instead of building
# a new one each time (legal actions are asked for at every step of every random game and search rollout).
_PLAY = [{c: Action(s, "play", card=c) for c in DECK} for s in range(4)]
_GIVE = [{c: [Action(s, "give", card=c, to=to) for to in range(4)] for c in DECK} for s in range(4)]
# bids and contracts that are multiples of 5, by value // 5 (so a run of them is one list slice)
_GIVE_TABLES: dict[tuple[int, tuple[int, ...]], dict[str, tuple[Action, ...]]] = {}


def _give_table(seat: int, receivers: list[int]) -> dict[str, tuple[Action, ...]]:
    """card -> (the give of that card to each receiver, in order), for one seat; built once per receiver list."""
    key = (seat, tuple(receivers))
    table = _GIVE_TABLES.get(key)
    if table is None:
        table = _GIVE_TABLES[key] = {c: tuple(_GIVE[seat][c][r] for r in receivers) for c in DECK}
    return table


_BID_STEP = [[Action(s, "bid", value=5 * k) for k in range(201)] for s in range(4)]
_CONTRACT_STEP = [[Action(s, "contract", value=5 * k) for k in range(201)] for s in range(4)]
# the actions without a card or value, and the talon choices, by seat
_SIMPLE = {t: [Action(s, t) for s in range(4)] for t in ("pass", "concede", "redeal")}
_TAKE_TALON = [[Action(s, "take_talon", index=i) for i in range(2)] for s in range(4)]
# The record logs each action as its JSON object: for the shared actions above it is built once, found by the
# ``id`` of the action (the tables live as long as the module, so no other object ever has one of those ids).
# Logged objects are never changed in place: ``copy`` shares them between states already, and ``record`` and
# ``to_json`` hand out deep copies.
_LOG_JSON: dict[int, dict[str, Any]] = {
    id(a): a.to_json()
    for a in chain(
        *(table.values() for table in _PLAY),
        *(acts for table in _GIVE for acts in table.values()),
        *_BID_STEP,
        *_CONTRACT_STEP,
        *_SIMPLE.values(),
        *_TAKE_TALON,
    )
}
_PLAY_LOG = [{c: _LOG_JSON[id(a)] for c, a in table.items()} for table in _PLAY]
# A played card is the most frequent event: one shared, read-only ``card_played`` event per seat and card.
_CARD_PLAYED = [{c: Event("card_played", s, {"card": c}) for c in DECK} for s in range(4)]
_EXPECTED = {
    "bidding": ("bid", "pass"),
    "talon": ("take_talon",),
    "give": ("give", "concede"),
    "contract": ("contract", "concede"),
    "play": ("play", "concede"),
}


def _simple(seat: int, typ: str) -> Action:
    """``Action(seat, typ)``: the shared one for a seat number."""
    return _SIMPLE[typ][seat] if type(seat) is int and 0 <= seat < 4 else Action(seat, typ)


class ThousandEngine(GameState):
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
            # every seat is below the floor: the first hand plays as if he alone were not (RULES.md), so he does
            # not pass: the others do, and he plays a hundred without bidding
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
        if self.phase == "play" and seat == self.turn and type(seat) is int:
            # the hot path of every random game (``_playable`` written out; no redeal is possible while playing)
            actions = _PLAY[seat]
            hand = self.hands[seat]
            trick = self.trick
            if trick:  # (loops rather than comprehensions: cheaper for a handful of cards)
                led = trick[0][1][1]
                out = []
                for c in hand:
                    if c[1] == led:
                        out.append(actions[c])
                if not out:
                    trump = self.trump
                    if trump is not None:
                        for c in hand:
                            if c[1] == trump:
                                out.append(actions[c])
                    if not out:
                        out = list(map(actions.__getitem__, hand))
                return out  # conceding is only possible before the first lead
            out = list(map(actions.__getitem__, hand))
            if self.tricks_done == 0 and self._may_concede(seat):
                out.append(_SIMPLE["concede"][seat])
            return out
        if self.phase == "bidding" and seat == self.turn and type(seat) is int and not self.options.redeal:
            # the bidding without redeals (the default table): [pass] and the bids
            bid = self.bid
            if self.barrel[seat]:
                bids = self._bid_actions(seat)
            else:  # ``_bid_actions`` written out: 100 (or the next multiple of 5) up to 120 + marriages
                cap = 120 + marriage_value(self.hands[seat], self.options.ace_marriage)
                bids = _BID_STEP[seat][20 if bid is None else bid // 5 + 1 : cap // 5 + 1]
            if bid is None and self.bids[seat] is None and seat == (self.dealer + 1) % self.players:
                return bids  # the first hand opens with at least 100: no pass (``_may_pass``)
            return [_SIMPLE["pass"][seat], *bids]
        if self.phase == "give" and seat == self.declarer and type(seat) is int and not self.options.redeal:
            # the gives without redeals (the default table): card by card, one give per receiver left
            table = _give_table(seat, self._receivers_left())
            out = list(chain.from_iterable(map(table.__getitem__, self.hands[seat])))
            if self._may_concede(seat):
                out.append(_SIMPLE["concede"][seat])
            return out
        if self.phase == "contract" and seat == self.declarer and type(seat) is int:
            # the contract (no redeal is possible any more): the values, then conceding when allowed
            out = self._contract_actions(seat)
            if self._may_concede(seat):
                out.append(_SIMPLE["concede"][seat])
            return out
        out = []
        if self.phase not in PLAY_PHASES or not isinstance(seat, int):
            return out
        if self._may_redeal(seat):
            out.append(_simple(seat, "redeal"))
        if seat != self.to_act:
            return out
        phase = self.phase
        if phase == "bidding":
            if self._may_pass(seat):
                out.append(_simple(seat, "pass"))
            out += self._bid_actions(seat)
        elif phase == "talon":
            if type(seat) is int and len(self.talons) == 2:
                out += _TAKE_TALON[seat]
            else:
                out += [Action(seat, "take_talon", index=i) for i in range(len(self.talons))]
        elif phase == "give":
            receivers = self._receivers_left()
            if type(seat) is int:
                # card by card, one give per receiver: the shared actions of this seat and these receivers
                table = _give_table(seat, receivers)
                out += chain.from_iterable(map(table.__getitem__, self.hands[seat]))
            else:
                out += [Action(seat, "give", card=c, to=r) for c in self.hands[seat] for r in receivers]
            if self._may_concede(seat):
                out.append(_simple(seat, "concede"))
        elif phase == "contract":
            out += self._contract_actions(seat)
            if self._may_concede(seat):
                out.append(_simple(seat, "concede"))
        elif phase == "play":
            out += [Action(seat, "play", card=c) for c in self._playable(seat)]
            if self._may_concede(seat):
                out.append(_simple(seat, "concede"))
        return out

    def _next_bidder(self, seat: int) -> int:
        n = self.players
        active, bids = self.active, self.bids
        s = seat
        for _ in range(n):
            s = (s + 1) % n
            if bids[s] != "pass" and s in active:
                return s
        return seat

    def _may_pass(self, seat: int) -> bool:
        # the first hand opens with at least 100 and may not pass on the opening call
        return not (self.bid is None and seat == self.first_hand and self.bids[seat] is None)

    def _bid_values(self, seat: int, cap: int | None = None) -> list[int]:
        return bid_values(self.hands[seat], self.bid, self.barrel[seat], self.options.ace_marriage, cap)

    def _bid_actions(self, seat: int) -> list[Action]:
        """``Action(seat, "bid", value=v)`` for every v of ``_bid_values(seat)``, from the shared actions."""
        if type(seat) is not int:
            return [Action(seat, "bid", value=v) for v in self._bid_values(seat)]
        on_barrel = self.barrel[seat]
        cap = bid_cap(self.hands[seat], self.options.ace_marriage, on_barrel)
        out = [Action(seat, "bid", value=121)] if on_barrel and (self.bid is None or self.bid < 121) else []
        low = first_bid_above(self.bid, on_barrel)
        return out + _BID_STEP[seat][low // 5 : cap // 5 + 1]  # = range(low, cap + 1, 5), low a multiple of 5

    def _contract_actions(self, seat: int) -> list[Action]:
        """``Action(seat, "contract", value=v)`` for every v of ``_contract_values()``."""
        d = self.declarer
        assert d is not None and self.bid is not None
        if type(seat) is not int:
            return [Action(seat, "contract", value=v) for v in self._contract_values()]
        cap = bid_cap(self.hands[d], self.options.ace_marriage, self.barrel[d])
        start = (self.bid // 5 + 1) * 5
        return [Action(seat, "contract", value=self.bid)] + _CONTRACT_STEP[seat][start // 5 : cap // 5 + 1]

    def _receivers_left(self) -> list[int]:
        d = self.declarer
        if not self.gives:
            return [s for s in self.active if s != d]
        done = {g["to"] for g in self.gives}
        return [s for s in self.active if s != d and s not in done]

    def _contract_values(self) -> list[int]:
        d = self.declarer
        assert d is not None and self.bid is not None
        return contract_values(self.hands[d], self.bid, self.barrel[d], self.options.ace_marriage)

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
        if self.phase == "play" and type(action) is Action and action[1] == "play":
            # the hot path of every random game: a legal card is played here (``_play`` written out); it accepts
            # exactly what every check of ``_check`` accepts and falls back to the full path otherwise
            seat, card = action[0], action[3]
            if seat == self.turn and type(seat) is int:
                hand = self.hands[seat]
                if card in hand:
                    trick = self.trick
                    if trick:  # follow suit, else trump when you can (``_playable`` as a test)
                        led = trick[0][1][1]
                        suit = card[1]  # type: ignore[index]
                        if suit != led:
                            trump = self.trump
                            for c in hand:
                                if c[1] == led or (c[1] == trump and suit != trump):
                                    break
                            else:
                                led = None
                        else:
                            led = None
                        legal = led is None
                    else:
                        legal = True
                    if legal:
                        events = [_CARD_PLAYED[seat][card]]
                        if not trick and self.tricks_done > 0:  # a lead may declare (what ``_declare`` checks)
                            other = PARTNER.get(card)  # type: ignore[arg-type]
                            if (other is not None and other in hand) or (
                                card[0] == "A" and self.options.ace_marriage  # type: ignore[index]
                            ):
                                events += self._declare(seat, card)  # type: ignore[arg-type]
                        hand.remove(card)
                        trick.append([seat, card])
                        self.played.append(card)  # type: ignore[arg-type]
                        if len(trick) < len(self.active):
                            nxt = (seat + 1) % self.players
                            if nxt == self.sitting_out:
                                nxt = (nxt + 1) % self.players
                            self.turn = nxt
                        else:
                            events += self._close_trick()
                        log = self.log
                        if log:
                            log[-1]["actions"].append(_PLAY_LOG[seat][card])
                        self.round_actions += 1
                        return events
        events = self._quick(action) if type(action) is Action and type(action[0]) is int else None
        if events is None:
            self._check(action)
            events = self._perform(action)
        log = self.log
        if log:
            logged = _LOG_JSON.get(id(action))
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

    def _check_bid(self, seat: int, value: int | None) -> None:
        if value is None:
            raise MalformedAction("bid needs 'value'", "malformed_action")
        on_barrel = self.barrel[seat]
        if type(value) is int and value <= 120 and value % 5 == 0 and not on_barrel:
            # every hand may bid up to 120: no need to count its marriages
            bid = self.bid
            if value >= (100 if bid is None else (bid // 5 + 1) * 5):  # first_bid_above(bid, False)
                return
        cap = bid_cap(self.hands[seat], self.options.ace_marriage, on_barrel)
        if type(value) is int:  # a possible bid passes at once (exactly the values of _bid_values)
            if value % 5 == 0:
                if first_bid_above(self.bid, on_barrel) <= value <= cap:
                    return
            elif value == 121 and on_barrel and (self.bid is None or self.bid < 121):
                return
        if value % 5 != 0 and not (on_barrel and value == 121):
            raise IllegalAction("bids are multiples of 5", "bid_not_multiple_of_5", value=value)
        lowest = self._bid_values(seat, cap)
        if not lowest or value < lowest[0]:
            minimum = lowest[0] if lowest else (self.bid or 100) + 5
            raise IllegalAction(f"the bid must be at least {minimum}", "bid_too_low", value=value, minimum=minimum)
        if value > cap:
            raise IllegalAction(
                f"your hand allows at most {cap} (120 + marriages)", "bid_too_high", value=value, maximum=cap
            )
        if value not in lowest:  # pragma: no cover - every other value is caught above
            raise IllegalAction(f"{value} is not a possible bid", "bad_bid", value=value)

    def _check_contract(self, value: int | None) -> None:
        if value is None:
            raise MalformedAction("contract needs 'value'", "malformed_action")
        d, bid = self.declarer, self.bid
        assert d is not None and bid is not None
        if type(value) is int and (  # a possible contract passes at once (exactly _contract_values)
            value == bid
            or value % 5 == 0
            and bid < value <= bid_cap(self.hands[d], self.options.ace_marriage, self.barrel[d])
        ):
            return
        values = self._contract_values()
        assert self.bid is not None
        if value < self.bid:
            raise IllegalAction(
                f"the contract cannot be below the bid {self.bid}", "contract_below_bid", value=value, bid=self.bid
            )
        if value not in values:
            if value % 5 != 0:
                raise IllegalAction("contracts are multiples of 5", "contract_not_multiple_of_5", value=value)
            raise IllegalAction(
                f"your hand allows at most {values[-1]}", "contract_too_high", value=value, maximum=values[-1]
            )

    def _quick(self, a: Action) -> list[Event] | None:
        """Perform a bid, pass, talon choice, give or contract of the seat to act when it passes every check
        of ``_check`` (checked here in the same order, raising the same errors); None: the full way."""
        seat, typ = a[0], a[1]
        phase = self.phase
        if phase == "bidding":
            if seat != self.turn:
                return None
            if typ == "bid":
                if a[2] is None:
                    return None
                self._check_bid(seat, a[2])
                return self._do_bid(seat, a[2])
            if typ == "pass" and self._may_pass(seat):
                return self._do_pass(seat)
            return None
        if seat != self.declarer:
            return None
        if phase == "give":
            if typ != "give":
                return None
            card, to = a[3], a[4]
            # ``to`` is one of ``_receivers_left()``: active, not the declarer, no card given to him yet
            if card is None or to is None or to == seat or to not in self.active:
                return None
            for g in self.gives:
                if g["to"] == to:
                    return None
            if card not in self.hands[seat]:
                return None
            return self._do_give(seat, card, to)
        if phase == "talon":
            if typ == "take_talon" and a[5] in range(len(self.talons)):
                return self._take_talon(a[5])  # type: ignore[arg-type]
            return None
        if phase == "contract" and typ == "contract" and a[2] is not None:
            self._check_contract(a[2])
            return self._do_contract(seat, a[2])
        return None

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

    def _do_pass(self, seat: int) -> list[Event]:
        self.bids[seat] = "pass"
        events = [Event("pass", seat)]
        self.turn = self._next_bidder(seat)
        return events + self._check_bidding_end()

    def _do_bid(self, seat: int, value: int) -> list[Event]:
        self.bid = value
        self.bids[seat] = value
        events = [Event("bid", seat, {"value": value})]
        self.turn = self._next_bidder(seat)
        return events + self._check_bidding_end()

    def _do_give(self, seat: int, card: str, to: int) -> list[Event]:
        self.hands[seat].remove(card)
        self.hands[to].append(card)
        self.gives.append({"card": card, "from": seat, "to": to})
        events = [Event("card_given", seat, {"to": to})]
        # every receiver has his card (at least as many gives as receivers, and none left)
        if len(self.gives) >= len(self.active) - 1 and not self._receivers_left():
            self.phase = "contract"
            events.append(Event("contract_asked", seat, {"bid": self.bid}))
        return events

    def _do_contract(self, seat: int, value: int) -> list[Event]:
        self.contract = value
        self.phase = "play"
        self.turn = self.declarer
        self.leader = self.declarer
        return [Event("contract", seat, {"value": value, "bid": self.bid})]

    # ---- bidding ------------------------------------------------------------------------------------
    def _check_bidding_end(self) -> list[Event]:
        bids = self.bids
        winner = None  # the one seat that has not passed, when only one is left
        for s in self.active:
            if bids[s] != "pass":
                if winner is not None:
                    return []  # two or more are still bidding
                winner = s
        if winner is None:
            winner = self.first_hand
        events: list[Event] = []
        if self.bid is None or self.bids[winner] is None:
            self.bid = 121 if self.barrel[winner] else 100
            self.bids[winner] = self.bid
            events.append(Event("plays_by_default", winner, {"value": self.bid}))
        return events + self._win_bidding(winner)

    def _win_bidding(self, seat: int) -> list[Event]:
        self.declarer = seat
        self.turn = None
        events = [Event("bidding_won", seat, {"value": self.bid, "on_hundred": self.on_hundred})]
        if self.players == 2:
            self.phase = "talon"
            return events
        return events + self._take_talon(0)

    def _take_talon(self, index: int) -> list[Event]:
        d = self.declarer
        assert d is not None
        talon = self.talons[index]
        self.talon_taken = index
        self.hands[d].extend(talon)
        self.talon_shown = not self.on_hundred or self.options.show_talon_on_100
        self.phase = "give"
        data: dict[str, Any] = {"index": index} if self.players == 2 else {}
        if self.talon_shown:
            return [Event("talon_shown", d, {**data, "cards": list(talon)})]
        return [Event("talon_hidden", d, data)]

    # ---- play ---------------------------------------------------------------------------------------
    def _play(self, seat: int, card: str) -> list[Event]:
        trick = self.trick
        events = [_CARD_PLAYED[seat][card] if type(seat) is int else Event("card_played", seat, {"card": card})]
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
