"""The Thousand engine's hot path: ``ThousandFastEngine`` is ``engine.ThousandEngine`` with the common moves
written out by hand.

Random games and search play-outs ask for legal actions and apply one at every step: here the cards played,
the bids and passes, the gives and the contract of the seat to act are answered from the shared actions
(``actions.py``) without the general checks, accepting exactly what those accept and raising the same errors;
everything else goes to the plain rules (``super()``). ``bench.engine`` measures the difference.
"""

from __future__ import annotations

from itertools import chain

from core.base import Action, Event
from core.thousand.actions import BID_STEP, CARD_PLAYED, LOG_JSON, PLAY, PLAY_LOG, SIMPLE, give_table
from core.thousand.cards import PARTNER, marriage_value
from core.thousand.engine import ThousandEngine


class ThousandFastEngine(ThousandEngine):
    """The rules of ``ThousandEngine``, the common moves written out; ``state.ThousandState`` builds on it."""

    def legal_actions(self, seat: int) -> list[Action]:
        if self.phase == "play" and seat == self.turn and type(seat) is int:
            # the hot path of every random game (``_playable`` written out; no redeal is possible while playing)
            actions = PLAY[seat]
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
                out.append(SIMPLE["concede"][seat])
            return out
        if self.phase == "bidding" and seat == self.turn and type(seat) is int and not self.options.redeal:
            # the bidding without redeals (the default table): [pass] and the bids
            bid = self.bid
            if self.barrel[seat]:
                bids = self._bid_actions(seat)
            else:  # ``_bid_actions`` written out: 100 (or the next multiple of 5) up to 120 + marriages
                cap = 120 + marriage_value(self.hands[seat], self.options.ace_marriage)
                bids = BID_STEP[seat][20 if bid is None else bid // 5 + 1 : cap // 5 + 1]
            if bid is None and self.bids[seat] is None and seat == (self.dealer + 1) % self.players:
                return bids  # the first hand opens with at least 100: no pass (``_may_pass``)
            return [SIMPLE["pass"][seat], *bids]
        if self.phase == "give" and seat == self.declarer and type(seat) is int and not self.options.redeal:
            # the gives without redeals (the default table): card by card, one give per receiver left
            table = give_table(seat, self._receivers_left())
            out = list(chain.from_iterable(map(table.__getitem__, self.hands[seat])))
            if self._may_concede(seat):
                out.append(SIMPLE["concede"][seat])
            return out
        if self.phase == "contract" and seat == self.declarer and type(seat) is int:
            # the contract (no redeal is possible any more): the values, then conceding when allowed
            out = self._contract_actions(seat)
            if self._may_concede(seat):
                out.append(SIMPLE["concede"][seat])
            return out
        return super().legal_actions(seat)

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
                        events = [CARD_PLAYED[seat][card]]
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
                            log[-1]["actions"].append(PLAY_LOG[seat][card])
                        self.round_actions += 1
                        return events
        if type(action) is Action and type(action[0]) is int:
            events = self._quick(action)
            if events is not None:
                log = self.log
                if log:
                    logged = LOG_JSON.get(id(action))
                    log[-1]["actions"].append(action.to_json() if logged is None else logged)
                self.round_actions += 1
                return events
        return super().apply_in_place(action)

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
