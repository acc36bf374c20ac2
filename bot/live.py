"""A playing table in memory: its core state and the public events a computer player and the caption need.

The database holds the truth (state, version, move log). This cache only saves replaying: a table at the cached
version is used as it is; a table a few moves ahead (another worker played them) is caught up from the log; a
table never seen (after a restart) is replayed from its log once.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.storage import MoveRec, TableRec
from core import games
from core.base import Action, Event, GameError, GameState

RECENT = 12  # events kept for the caption


@dataclass
class Live:
    table_id: int
    version: int
    state: GameState
    round_events: list[Event] = field(default_factory=list)  # public events since the current round began
    recent: list[Event] = field(default_factory=list)  # the latest public events

    def advance(self, events: list[Event], new_round: bool, round_start: list[Event]) -> None:
        if new_round:
            self.round_events = list(round_start)
        else:
            self.round_events.extend(events)
        self.recent = (self.recent + events + (round_start if new_round else []))[-RECENT:]

    def this_round(self) -> list[Event]:
        """The latest public events of the current round only (what the live table's caption tells)."""
        return list(self.recent[self._round_start() :]) if self.round_events else list(self.recent)

    def before_round(self) -> list[Event]:
        """The latest public events before the current round's (how the finished round ended)."""
        return list(self.recent[: self._round_start()])

    def _round_start(self) -> int:
        """Where the current round begins in ``recent`` (0: before the oldest event kept)."""
        return max(len(self.recent) - len(self.round_events), 0)


def step(state: GameState, action: Action) -> tuple[GameState, list[Event], bool, list[Event]]:
    """Apply one action and, when a round ends (not the game), deal the next one as the application always does.

    Returns ``(new_state, events_of_the_action, a_new_round_was_dealt, events_of_the_new_deal)``.
    Raises ``IllegalAction`` leaving ``state`` untouched.
    """
    new, events = state.apply(action)
    if new.phase == "round_over" and not new.finished:
        deal = new.next_round_in_place()
        return new, events, True, deal
    return new, events, False, []


def first_state(game: str, players: int, options: dict, seed: str) -> tuple[GameState, list[Event]]:
    """The game as it starts: the first deal from the seed (what ``Storage.record`` replays from)."""
    rules = games.get(game)
    state = rules.new_game(players, options, seed=seed, start=False)
    events = state.next_round_in_place()
    return state, events


def state_at(rec: TableRec, moves: list[MoveRec], core_options: dict, version: int) -> GameState:
    """The table's state at ``version`` (at most the record's), replayed from its first deal through its log."""
    state, _ = first_state(rec.game, rec.players, core_options, rec.seed)
    for mv in moves:
        if mv.seq > version:
            break
        state = step(state, Action.from_json(mv.action))[0]
    return state


def replay(rec: TableRec, moves: list[MoveRec], core_options: dict) -> Live:
    """Rebuild the events of a table from its log; the state itself is taken from the database row."""
    state, events = first_state(rec.game, rec.players, core_options, rec.seed)
    live = Live(rec.id, 0, state, list(events), list(events)[-RECENT:])
    try:
        return catch_up(live, rec, moves)
    except GameError:  # the stored state is authoritative; the storage layer reports a broken log
        return _adopt(live, rec)


def catch_up(live: Live, rec: TableRec, moves: list[MoveRec]) -> Live:
    """Bring a cached table forward through the moves another worker committed."""
    for mv in moves:
        if mv.seq <= live.version:
            continue
        new, evs, dealt, deal = step(live.state, Action.from_json(mv.action))
        live.state = new
        live.version = mv.seq
        live.advance(evs, dealt, deal)
    return _adopt(live, rec)


def _adopt(live: Live, rec: TableRec) -> Live:
    """Take the database row's state and version as the truth."""
    if rec.state is not None:
        live.state = games.get(rec.game).from_json(rec.state)
    live.version = rec.version
    return live
