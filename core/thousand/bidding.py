"""Thousand bidding (docs/rules-thousand.md): the bids a seat may make and the contracts a declarer may name, and
``Bidding``, the part of a round before the first card (the auction, the talon, the gives and the contract).

The functions are pure functions of the hand and the bidding so far; ``Bidding`` holds those methods of
``engine.ThousandEngine``. Bids and contracts are multiples of 5 up to the cap (120 + marriages in hand); on
the barrel the minimum is 121 and others outbid him from 125.
"""

from __future__ import annotations

from typing import Any

from core.base import Action, Event, IllegalAction, MalformedAction
from core.thousand.actions import BID_STEP, CONTRACT_STEP
from core.thousand.cards import bid_cap


def first_bid_above(bid: int | None, on_barrel: bool) -> int:
    """The lowest multiple-of-5 bid above ``bid`` (the opening 100; 125 for a seat on the barrel)."""
    if on_barrel:
        return max(125, (bid // 5 + 1) * 5 if bid is not None else 125)
    return 100 if bid is None else (bid // 5 + 1) * 5


def bid_values(
    hand: list[str], bid: int | None, on_barrel: bool, ace_marriage: bool, cap: int | None = None
) -> list[int]:
    """Every bid the hand may make now, in rising order (121 first on the barrel while nobody bid 121+)."""
    if cap is None:
        cap = bid_cap(hand, ace_marriage, on_barrel)
    values = [121] if on_barrel and (bid is None or bid < 121) else []
    values += range(first_bid_above(bid, on_barrel), cap + 1, 5)
    return values


def contract_values(hand: list[str], bid: int, on_barrel: bool, ace_marriage: bool) -> list[int]:
    """Every contract the declarer may name: the bid itself, then the multiples of 5 above it up to the cap."""
    cap = bid_cap(hand, ace_marriage, on_barrel)
    values = [bid]
    values += range((bid // 5 + 1) * 5, cap + 1, 5)
    return values


class Bidding:
    """The auction, the talon, the gives and the contract: methods of ``engine.ThousandEngine`` (its state is
    ``self``: hands, bids, bid, declarer, turn, talons, gives, ...), kept here by themselves."""

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
        return out + BID_STEP[seat][low // 5 : cap // 5 + 1]  # = range(low, cap + 1, 5), low a multiple of 5

    def _contract_actions(self, seat: int) -> list[Action]:
        """``Action(seat, "contract", value=v)`` for every v of ``_contract_values()``."""
        d = self.declarer
        assert d is not None and self.bid is not None
        if type(seat) is not int:
            return [Action(seat, "contract", value=v) for v in self._contract_values()]
        cap = bid_cap(self.hands[d], self.options.ace_marriage, self.barrel[d])
        start = (self.bid // 5 + 1) * 5
        return [Action(seat, "contract", value=self.bid)] + CONTRACT_STEP[seat][start // 5 : cap // 5 + 1]

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
