"""The computer player object: picks the game's policy for a level and seeds each decision reproducibly.

A decision's generator is made lazily (``LazyRandom``): the digest of the view that seeds it is computed only
when the policy draws a number, which the normal players rarely do; the numbers drawn are the same either way.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import random
from collections.abc import Callable, Sequence
from typing import Any

from core import games
from core.ai.search import DEFAULT, Budget
from core.base import Action, Event, GameState, OptionsError

LEVELS = ("random", "easy", "normal", "strong")

# Each game's package of computer players (``core.games``: ``ai_package``) holds the same roles:
# ``memory.read_round(history, players)`` (what the public events told), ``table.from_view(view, memory, legal)``
# (the seat's picture of the table), ``easy.decide(table, rng)``, ``normal.decide(table, rng)`` and
# ``strong.decide(view, memory, table, rng, budget)``.


def _role(game: str, role: str) -> Any:
    return importlib.import_module(f"{games.entry(game).ai_package}.{role}")


class ComputerPlayer:
    """A computer seat of one game at one level. It keeps no memory between decisions."""

    def __init__(self, game: str, level: str, seed: int | str = 0, budget: Budget = DEFAULT) -> None:
        if game not in games.NAMES:
            raise OptionsError(f"unknown game '{game}'", "unknown_game", game=game)
        if level not in LEVELS:
            raise OptionsError(f"unknown level '{level}'", "unknown_level", level=level)
        self.game = game
        self.level = level
        self.seed = seed
        self.budget = budget
        # decide_in_game: [(history list, its reader, last event read)], a box seats of one game may share
        self._reading: list[tuple | None] = [None]
        self._reads_state = (game, level) in _FROM_STATE
        if level != "random":
            self._memory = _role(game, "memory")
            self._table = _role(game, "table")
            self._policy = _role(game, level)

    def __getstate__(self) -> dict[str, Any]:
        """Pickled (to think in another process) without its looked-up modules and its reading cache."""
        return {"game": self.game, "level": self.level, "seed": self.seed, "budget": self.budget}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__(**state)  # type: ignore[misc]

    def decide(self, view: dict[str, Any], history: Sequence[Event]) -> Action:
        """The action this seat takes now, chosen from ``view["legal"]``.

        ``view`` is ``state.view(seat)`` of the seat whose turn it is; ``history`` the public events of the
        game so far (at least since the current round started). Raises ``ValueError`` when the seat has
        nothing to decide.
        """
        if view.get("game") != self.game:
            raise ValueError(f"a {self.game} player got a view of {view.get('game')!r}")
        seat = view.get("seat")
        if seat is None or view.get("to_act") != seat:
            raise ValueError("it is not this seat's turn")
        legal = [_action(a) for a in view["legal"]]
        if not legal:
            raise ValueError("the seat has no legal action")
        if len(legal) == 1:
            return legal[0]
        if self.level == "strong":  # the search always draws: seeded at once, without the lazy wrapper
            rng = decision_rng(self.seed, self.game, self.level, view, len(history))
        else:
            rng = LazyRandom(decision_key, self.seed, self.game, self.level, view, len(history))
        if self.level == "random":
            return legal[rng.randrange(len(legal))]
        memory = self._memory.read_round(history, view["players"])
        table = self._table.from_view(view, memory, legal)
        if self.level == "strong":
            action = self._policy.decide(view, memory, table, rng, self.budget)
        else:
            action = self._policy.decide(table, rng)
        if action not in legal:  # a policy bug must never reach the table
            raise AssertionError(f"{self.game}/{self.level} chose an illegal action {action}")
        return action

    @property
    def reads_state(self) -> bool:
        """Does ``decide_in_game`` decide without building the view (Thousand easy and normal)?"""
        return self._reads_state

    def decide_in_game(self, state: GameState, history: Sequence[Event]) -> Action:
        """Self-play: exactly ``decide(state.view(state.to_act), history)``, faster where a policy allows.

        The Thousand ``easy`` and ``normal`` policies read the seat's picture of the table straight from the
        state (``table.from_state``: the seat's own hand and the public facts, the same fields ``from_view``
        fills) and the legal actions from the engine, without building the view; the view is built only if
        the decision draws a random number (its digest seeds the draw). Other games and levels decide from
        the view. ``core.ai.match`` plays its games through here; a test checks both ways give the same games.
        """
        seat = state.to_act
        if not self._reads_state or seat is None:
            return self.decide(state.view(seat), history)
        legal = state.legal_actions(seat)
        if len(legal) <= 1:
            return self.decide(state.view(seat), history) if not legal else legal[0]
        rng = LazyRandom(self._state_key, state, seat, len(history))
        memory = self._read(history, state.players)
        action = self._policy.decide(self._table.from_state(state, seat, memory, legal), rng)
        if action not in legal:  # a policy bug must never reach the table
            raise AssertionError(f"{self.game}/{self.level} chose an illegal action {action}")
        return action

    def _state_key(self, state: GameState, seat: int, events: int) -> str:
        """``decision_key`` of the view of ``seat`` (built only now, when the decision draws a number)."""
        return decision_key(self.seed, self.game, self.level, state.view(seat), events)

    def _read(self, history: Sequence[Event], players: int) -> Any:
        """``memory.read_round(history, players)``, read on from where the last decision stopped.

        A cache that cannot change a decision: it goes on only while ``history`` is the same list as last
        time and has only grown (self-play appends each action's events; a new round gets a new list).
        """
        box = self._reading
        cached = box[0]
        if cached is not None and cached[0] is history:
            reader = cached[1]
            fed = reader.fed
            if len(history) >= fed and (fed == 0 or history[fed - 1] is cached[2]) and reader.mem.players == players:
                if len(history) > fed:
                    reader.feed(history, fed)
                    box[0] = (history, reader, history[-1])
                return reader.memory()
        reader = self._memory.RoundReader(players)
        start = 0
        for i in range(len(history) - 1, -1, -1):
            if history[i].type == "round_started":
                start = i
                break
        reader.feed(history, start)
        box[0] = (history, reader, history[-1] if history else None)
        return reader.memory()

    def share_reading(self, others: Sequence[Any]) -> None:
        """Let the other computer seats of this game (same game, reading from the state) use this seat's reader.

        The round's memory holds only public events, the same for every seat, so the seats of one self-play
        game read each event once instead of once per seat; each seat still gets exactly
        ``memory.read_round(history, players)`` (``_read`` goes on only while the history list only grew).
        """
        for other in others:
            if isinstance(other, ComputerPlayer) and other.game == self.game and other.reads_state:
                other._reading = self._reading


# (game, level) whose policy reads ``table.from_state`` exactly as ``table.from_view`` (``decide_in_game``)
_FROM_STATE = {("thousand", "easy"), ("thousand", "normal")}


def _action(data: dict[str, Any]) -> Action:
    """An action of ``view["legal"]`` (written by the engine: read directly, checked only when odd)."""
    try:
        return Action(**data)
    except TypeError:
        return Action.from_json(data)  # raises MalformedAction with a clear message


def decision_key(seed: int | str, game: str, level: str, view: dict[str, Any], events: int) -> str:
    """The seed string of a decision: the player's seed, the level, a digest of the view, the events seen."""
    digest = hashlib.blake2b(json.dumps(view, sort_keys=True).encode(), digest_size=12).hexdigest()
    return ":".join(str(p) for p in (seed, "ai", game, level, digest, events))


def decision_rng(seed: int | str, game: str, level: str, view: dict[str, Any], events: int) -> random.Random:
    """A generator that depends only on the seed, the level, the seat's view and how many events it saw."""
    return random.Random(decision_key(seed, game, level, view, events))


class LazyRandom:
    """``random.Random(key(*args))`` made on the first use of any of its methods: a decision that draws nothing
    allocates no generator and computes no digest; every method is the seeded generator's own, so the numbers
    are the same.
    """

    __slots__ = ("_key", "_args", "_rng")

    def __init__(self, key: Callable[..., str], *args: Any) -> None:
        self._key = key
        self._args = args
        self._rng: random.Random | None = None

    def __getattr__(self, name: str) -> Any:  # only for names not in the slots: Random's methods
        rng = self._rng
        if rng is None:
            rng = self._rng = random.Random(self._key(*self._args))
        return getattr(rng, name)


def player(game: str, level: str, seed: int | str = 0, budget: Budget = DEFAULT) -> ComputerPlayer:
    """A computer player for ``game`` at ``level`` (``random``, ``easy``, ``normal`` or ``strong``).

    ``budget`` bounds the strong player's search (``core.ai.search``); the other levels ignore it.
    """
    return ComputerPlayer(game, level, seed, budget)
