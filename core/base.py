"""The shared game interface: actions, events, errors, options and the state/rules base classes.

Every game package (``core.thousand``, ``core.deberts``, ``core.kozel``) implements ``GameRules`` and
``GameState``. A state is plain data: it serializes to JSON and back, takes its randomness only from the
seed (or from the deals of a record), and never needs asyncio, a database or a picture library.

The flow a chat application follows::

    rules = core.games.get("thousand")
    state = rules.new_game(players=3, options={"golden_round": True}, seed=42)
    acts = state.legal_actions(seat)            # what this seat may do now (buttons)
    state, events = state.apply(acts[0])        # a new state + what happened (messages)
    view = state.view(seat)                     # only what that seat may see (pictures, AI)
    if state.phase == "round_over": state, events = state.next_round()
"""

from __future__ import annotations

import copy
import dataclasses
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any, ClassVar, NamedTuple, Self

from core.rng import stream

# --------------------------------------------------------------------------------------------------
# Errors


class GameError(Exception):
    """Base of every error the rules core raises on purpose.

    ``code`` is a stable identifier a chat can translate; ``params`` fills its message template;
    ``str(err)`` is a plain English message.
    """

    code = "game_error"

    def __init__(self, message: str, code: str | None = None, **params: Any) -> None:
        super().__init__(message)
        if code is not None:
            self.code = code
        self.params = params

    @property
    def message(self) -> str:
        return str(self)


class IllegalAction(GameError):
    """The action is not allowed now (out of turn, a card not held, a bid too high, ...).

    Raised before anything changes: the state is exactly as it was.
    """

    code = "illegal_action"


class MalformedAction(IllegalAction):
    """The action cannot even be read (unknown type, missing or wrong-typed field)."""

    code = "malformed_action"


class OptionsError(GameError, ValueError):
    """An unknown option or a value outside its list."""

    code = "bad_option"


class BadDeal(GameError, ValueError):
    """A deal given from outside (a record) is not a valid deal for this game."""

    code = "bad_deal"


class BadState(GameError, ValueError):
    """A serialized state that cannot be loaded (corrupt or from another game)."""

    code = "bad_state"


# --------------------------------------------------------------------------------------------------
# Actions

# Field name -> (short key for button codes, python type)
_ACTION_FIELDS: dict[str, tuple[str, type]] = {
    "value": ("v", int),
    "card": ("c", str),
    "to": ("t", int),
    "index": ("i", int),
    "suit": ("s", str),
    "tile": ("l", str),
    "end": ("e", str),
}
_SHORT_TO_FIELD = {short: name for name, (short, _t) in _ACTION_FIELDS.items()}


class Action(NamedTuple):
    """One decision of one seat, e.g. ``Action(1, "bid", value=100)`` or ``Action(0, "play", card="AS")``.

    Its JSON form is exactly the record's action object (docs/records.md); ``code()`` is a short string for
    buttons (``bid,v=100``, ``give,c=QS,t=2``) that ``Action.parse(seat, code)`` reads back.
    It is an immutable named tuple: cheap to create, comparable, hashable.
    """

    seat: int
    type: str
    value: int | None = None
    card: str | None = None
    to: int | None = None
    index: int | None = None
    suit: str | None = None
    tile: str | None = None
    end: str | None = None

    def to_json(self) -> dict[str, Any]:
        # written out field by field: it runs for every action of every game (the record's log)
        seat, typ, value, card, to, index, suit, tile, end = self
        out: dict[str, Any] = {}
        if seat is not None:
            out["seat"] = seat
        if typ is not None:
            out["type"] = typ
        if value is not None:
            out["value"] = value
        if card is not None:
            out["card"] = card
        if to is not None:
            out["to"] = to
        if index is not None:
            out["index"] = index
        if suit is not None:
            out["suit"] = suit
        if tile is not None:
            out["tile"] = tile
        if end is not None:
            out["end"] = end
        return out

    @classmethod
    def from_json(cls, data: Any) -> Action:
        """Read a record's action object; raises ``MalformedAction`` with a clear message."""
        if not isinstance(data, dict):
            raise MalformedAction("an action must be a JSON object", "malformed_action")
        seat = data.get("seat")
        if type(seat) is not int:
            raise MalformedAction("an action needs an integer 'seat'", "malformed_action")
        typ = data.get("type")
        if not isinstance(typ, str) or not typ:
            raise MalformedAction("an action needs a string 'type'", "malformed_action")
        kwargs: dict[str, Any] = {}
        for key, value in data.items():
            if key in ("seat", "type"):
                continue
            spec = _ACTION_FIELDS.get(key)
            if spec is None:
                raise MalformedAction(f"unknown action field '{key}'", "malformed_action", field=key)
            want = spec[1]
            if want is int and type(value) is not int or want is str and not isinstance(value, str):
                raise MalformedAction(
                    f"action field '{key}' must be {'an integer' if want is int else 'a string'}",
                    "malformed_action",
                    field=key,
                )
            kwargs[key] = value
        return cls(seat, typ, **kwargs)

    def code(self) -> str:
        """A compact string without the seat, for button payloads."""
        parts = [self.type]
        for name, (short, _t) in _ACTION_FIELDS.items():
            v = getattr(self, name)
            if v is not None:
                parts.append(f"{short}={v}")
        return ",".join(parts)

    @classmethod
    def parse(cls, seat: int, code: str) -> Action:
        """Read ``code()`` back for a seat; raises ``MalformedAction`` on anything unreadable."""
        if not isinstance(code, str) or not code or len(code) > 64:
            raise MalformedAction("unreadable action", "malformed_action")
        typ, *rest = code.split(",")
        if not typ.replace("_", "").isalpha():
            raise MalformedAction("unreadable action", "malformed_action")
        kwargs: dict[str, Any] = {}
        for part in rest:
            short, sep, raw = part.partition("=")
            name = _SHORT_TO_FIELD.get(short)
            if not sep or name is None or name in kwargs:
                raise MalformedAction("unreadable action", "malformed_action")
            if _ACTION_FIELDS[name][1] is int:
                try:
                    kwargs[name] = int(raw)
                except ValueError:
                    raise MalformedAction("unreadable action", "malformed_action") from None
            else:
                kwargs[name] = raw
        return cls(seat, typ, **kwargs)

    def __str__(self) -> str:
        return f"{self.seat}:{self.code()}"


# --------------------------------------------------------------------------------------------------
# Events


@dataclass(slots=True)
class Event:
    """Something that happened, for a chat to tell: ``Event("bid", seat=1, data={"value": 110})``.

    Events are public: they never hold a card or tile that some seat may not see (a given card's face,
    a hidden talon). ``core.i18n.describe(game, event, lang, names)`` turns one into a sentence.
    Treat an event as read-only: an engine may hand out one shared object for a frequent event (Thousand's
    ``card_played``), as it does for actions.
    """

    type: str
    seat: int | None = None
    data: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type}
        if self.seat is not None:
            out["seat"] = self.seat
        if self.data:
            out["data"] = self.data
        return out


# --------------------------------------------------------------------------------------------------
# Options


def option(default: Any, choices: tuple[Any, ...], doc: str = "") -> Any:
    """Declare one table convention: its default and the values it may take."""
    return field(default=default, metadata={"choices": choices, "doc": doc})


@dataclass(frozen=True)
class Options:
    """Table conventions of one game as typed data; every field is declared with ``option()``."""

    @classmethod
    def defaults_for(cls, players: int) -> dict[str, Any]:
        """Defaults that depend on the number of players (Deberts' target); override when needed."""
        return {}

    @classmethod
    def choices_for(cls, name: str, players: int) -> tuple[Any, ...]:
        for f in dataclasses.fields(cls):
            if f.name == name:
                return tuple(f.metadata["choices"])
        raise OptionsError(f"unknown option '{name}'", "unknown_option", option=name)

    @classmethod
    def from_dict(cls, players: int, data: dict[str, Any] | None = None) -> Self:
        """Validate a dict of options (missing keys take defaults); raises ``OptionsError``."""
        if data is None:
            data = {}
        if not isinstance(data, dict):
            raise OptionsError("options must be a JSON object", "bad_option")
        names = {f.name for f in dataclasses.fields(cls)}
        values = dict(cls.defaults_for(players))
        for key, value in data.items():
            if key not in names:
                raise OptionsError(f"unknown option '{key}'", "unknown_option", option=key)
            choices = cls.choices_for(key, players)
            # bool is an int subclass: compare types too so that 1 is not accepted for true
            if not any(value == c and type(value) is type(c) for c in choices):
                shown = ", ".join(_json_literal(c) for c in choices)
                raise OptionsError(
                    f"option '{key}' must be one of {shown}",
                    "bad_option_value",
                    option=key,
                    choices=list(choices),
                )
            values[key] = value
        return cls(**values)

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def describe(cls, players: int) -> list[dict[str, Any]]:
        """Every option with its choices and default, for a settings menu."""
        defaults = cls.from_dict(players, {})
        return [
            {
                "name": f.name,
                "choices": list(cls.choices_for(f.name, players)),
                "default": getattr(defaults, f.name),
                "doc": f.metadata.get("doc", ""),
            }
            for f in dataclasses.fields(cls)
        ]


def _json_literal(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, str):
        return f'"{v}"'
    return str(v)


# --------------------------------------------------------------------------------------------------
# State and rules


class GameState(ABC):
    """The complete state of one game of one kind. Subclasses keep only plain data in attributes.

    Mutating methods (``apply_in_place``, ``next_round_in_place``) are for drivers that own the state
    (the random-game driver, the replay); everyone else uses ``apply`` / ``next_round``, which leave
    ``self`` untouched and return a new state.
    """

    game: ClassVar[str]
    players: int
    phase: str

    # ---- what the state is -----------------------------------------------------------------------
    @property
    @abstractmethod
    def to_act(self) -> int | None:
        """The seat whose turn it is, or None between rounds / after the game."""

    @property
    def finished(self) -> bool:
        return self.phase == "game_over"

    @property
    def winner(self) -> int | None:
        return None

    @property
    def loser(self) -> int | None:
        return None

    totals: list[int]  # current game totals per seat

    # ---- moves -----------------------------------------------------------------------------------
    @abstractmethod
    def legal_actions(self, seat: int) -> list[Action]:
        """Every action the seat may take now (empty when it may do nothing)."""

    @abstractmethod
    def apply_in_place(self, action: Action) -> list[Event]:
        """Check and perform an action; raise ``IllegalAction`` leaving the state unchanged."""

    @abstractmethod
    def next_round_in_place(self, deal: dict[str, Any] | None = None) -> list[Event]:
        """Deal the next round (from the seed, or the given record deal) when the phase is round_over."""

    def apply(self, action: Action) -> tuple[Self, list[Event]]:
        new = self.copy()
        events = new.apply_in_place(action)
        return new, events

    def next_round(self, deal: dict[str, Any] | None = None) -> tuple[Self, list[Event]]:
        new = self.copy()
        events = new.next_round_in_place(deal)
        return new, events

    def is_legal(self, action: Action) -> bool:
        return action in self.legal_actions(action.seat)

    # ---- seeing ----------------------------------------------------------------------------------
    @abstractmethod
    def view(self, seat: int | None) -> dict[str, Any]:
        """What one seat may see (``None``: the public table). Plain JSON data."""

    # ---- persistence -----------------------------------------------------------------------------
    @abstractmethod
    def to_json(self) -> dict[str, Any]:
        """The full state as JSON-able data (hidden cards included: this is for storage)."""

    @classmethod
    @abstractmethod
    def from_json(cls, data: dict[str, Any]) -> Self:
        """Load a state written by ``to_json``; raises ``BadState`` on anything it cannot trust."""

    def copy(self) -> Self:
        return copy.deepcopy(self)

    @abstractmethod
    def record(self) -> dict[str, Any]:
        """The game record (docs/records.md) of everything so far: replays to this very state."""

    @abstractmethod
    def result(self) -> dict[str, Any]:
        """The replay result object of docs/records.md for this state."""


class GameRules(ABC):
    """One game kind: its name, seat counts, options, and how to start or load a game."""

    name: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    options_type: ClassVar[type[Options]]
    state_type: ClassVar[type[GameState]]
    action_types: ClassVar[frozenset[str]]  # every action type of the game (docs/records.md)

    uses_dealer: ClassVar[bool] = True  # Kozel has no dealer: ``first_dealer`` is ignored

    def options(self, players: int, data: dict[str, Any] | Options | None = None) -> Options:
        self.check_players(players)
        if isinstance(data, Options):
            if not isinstance(data, self.options_type):
                raise OptionsError(f"these are not {self.name} options", "bad_option")
            return data
        return self.options_type.from_dict(players, data)

    def check_players(self, players: int) -> None:
        if type(players) is not int or not self.min_players <= players <= self.max_players:
            raise OptionsError(
                f"{self.name} is played by {self.min_players} to {self.max_players} players",
                "bad_players",
                game=self.name,
                min=self.min_players,
                max=self.max_players,
            )

    def new_game(
        self,
        players: int,
        options: dict[str, Any] | Options | None = None,
        seed: int | str = 0,
        *,
        first_dealer: int | None = None,
        start: bool = True,
    ) -> GameState:
        """A new game. The first dealer is drawn from the seed unless given; ``start=False`` leaves the game
        in ``round_over`` before the first deal (the replay then deals from the record)."""
        opts = self.options(players, options)
        if not self.uses_dealer:
            first_dealer = None
        elif first_dealer is None:
            first_dealer = stream(seed, "first_dealer").randrange(players)
        elif type(first_dealer) is not int or not 0 <= first_dealer < players:
            raise OptionsError(f"first_dealer must be a seat 0..{players - 1}", "bad_first_dealer")
        state = self.create_state(players, opts, seed, first_dealer)
        if start:
            state.next_round_in_place()
        return state

    @abstractmethod
    def create_state(self, players: int, options: Any, seed: int | str, first_dealer: int | None) -> GameState:
        """A game of this kind before its first deal."""

    def from_json(self, data: dict[str, Any]) -> GameState:
        return self.state_type.from_json(data)
