"""The strong players' wall-time cap: an anytime search that stops at its deadline, still decides legally,
and is reproducible without a cap. No test here measures time: the clocks are fakes or the budgets huge."""

from __future__ import annotations

import importlib
import json
import random

import pytest

from core.ai import player
from core.ai.search import (
    DEFAULT,
    NEVER,
    PRUNE_AFTER,
    SEARCH_SHARE,
    TINY,
    Budget,
    Deadline,
    OutOfTime,
    best_of,
    in_worlds,
)
from core.base import Action
from core.selfplay import main as selfplay_main
from tests.helpers_ai import positions

GAMES = (("thousand", 3), ("deberts", 2), ("kozel", 4))
HUGE = Budget(steps=10**12, min_worlds=10**6, max_worlds=10**6, cap_ms=None)  # hours of search without a cap


class FakeClock:
    """A clock that moves only when told to (``tick`` seconds on every reading)."""

    def __init__(self, tick: float = 0.0) -> None:
        self.now = 0.0
        self.tick = tick
        self.readings = 0

    def __call__(self) -> float:
        self.readings += 1
        self.now += self.tick
        return self.now


def searched(game: str, players: int, count: int):  # noqa: ANN201
    """Play positions where the strong search runs: several legal actions and the round's events known."""
    memory = importlib.import_module(f"core.ai.{game}.memory")
    found = 0
    for state, seat, history in positions(game, players, 3000, seed=21):
        legal = state.legal_actions(seat)
        if state.phase != "play" or len(legal) < 3 or not memory.read_round(history, players).started:
            continue
        yield state, seat, history
        found += 1
        if found == count:
            return
    raise AssertionError(f"too few {game} positions")


def parts(game: str, state, seat: int, history):  # noqa: ANN001, ANN201
    """What ``ComputerPlayer.decide`` hands to ``strong.decide``: view, memory and the seat's table."""
    view = state.view(seat)
    memory = importlib.import_module(f"core.ai.{game}.memory").read_round(history, state.players)
    legal = [Action.from_json(a) for a in view["legal"]]
    table = importlib.import_module(f"core.ai.{game}.table").from_view(view, memory, legal)
    return view, memory, table


def normal_choice(game: str, table, rng: random.Random) -> Action:  # noqa: ANN001
    normal = importlib.import_module(f"core.ai.{game}.normal")
    return normal.choose(table) if game == "kozel" else normal.decide(table, rng)


def test_in_worlds_stops_at_the_deadline_and_drops_the_world_in_progress():
    clock = FakeClock()
    deadline = Deadline(1.0, clock)
    finished = []

    def one_world() -> int:
        for _ in range(3):  # three play-outs of 0.1 s each
            clock.now += 0.1
            deadline.check()
        finished.append(len(finished))
        return len(finished)

    assert in_worlds(100, deadline, one_world) == [1, 2, 3]  # the 4th world ran out of time at 1.2 s
    assert in_worlds(5, NEVER, lambda: 7) == [7] * 5
    assert in_worlds(5, Deadline(0.0, FakeClock()), lambda: 7) == []  # too late for any world


def test_deadline_leaves_part_of_the_cap_for_the_work_after_the_search():
    clock = FakeClock()
    clock.now = 10.0
    deadline = Deadline.for_cap(300, clock)
    assert deadline.at == pytest.approx(10.0 + SEARCH_SHARE * 0.3) and deadline.at < 10.3
    assert not deadline.over()
    clock.now = 10.3
    assert deadline.over()
    with pytest.raises(OutOfTime):
        deadline.check()
    assert Deadline.for_cap(None, clock).at is None and not NEVER.over()
    assert DEFAULT.cap_ms == 300 and TINY.cap_ms is None


@pytest.mark.parametrize(("game", "players"), GAMES)
def test_a_huge_search_under_a_tiny_cap_stops_with_a_legal_action(game, players):
    bot = player(game, "strong", seed=3, budget=Budget(HUGE.steps, HUGE.min_worlds, HUGE.max_worlds, cap_ms=2.0))
    for state, seat, history in searched(game, players, 4):
        assert bot.decide(state.view(seat), history) in state.legal_actions(seat)


@pytest.mark.parametrize(("game", "players"), GAMES)
def test_a_search_out_of_time_at_once_plays_the_normal_choice(game, players):
    strong = importlib.import_module(f"core.ai.{game}.strong")
    for state, seat, history in searched(game, players, 4):
        view, memory, table = parts(game, state, seat, history)
        late = Deadline(0.0, FakeClock(tick=1.0))
        action = strong.decide(view, memory, table, random.Random(5), HUGE, late)
        assert action == normal_choice(game, table, random.Random(5))


@pytest.mark.parametrize(("game", "players"), GAMES)
def test_a_clock_that_never_reaches_the_deadline_changes_nothing(game, players):
    strong = importlib.import_module(f"core.ai.{game}.strong")
    budget = Budget(steps=300, min_worlds=3, max_worlds=3, cap_ms=None)
    for state, seat, history in searched(game, players, 3):
        view, memory, table = parts(game, state, seat, history)
        clock = FakeClock()
        timed = strong.decide(view, memory, table, random.Random(8), budget, Deadline(1.0, clock))
        free = strong.decide(view, memory, table, random.Random(8), budget, NEVER)
        assert timed == free and clock.readings > 3  # the clock was read between the play-outs
        again = player(game, "strong", seed=4, budget=budget)
        assert again.decide(view, history) == player(game, "strong", seed=4, budget=budget).decide(view, history)


def test_a_search_stopped_after_some_worlds_decides_on_those_worlds():
    # the clock passes the deadline after a few readings: a legal action, not the first candidate by default
    strong = importlib.import_module("core.ai.deberts.strong")
    differs = 0
    for state, seat, history in searched("deberts", 2, 6):
        view, memory, table = parts("deberts", state, seat, history)
        clock = FakeClock(tick=0.01)
        action = strong.decide(view, memory, table, random.Random(2), HUGE, Deadline(1.0, clock))
        assert action in state.legal_actions(seat) and clock.now >= 1.0
        differs += action != normal_choice("deberts", table, random.Random(2))
    assert differs >= 1  # the finished worlds decided, not the fallback


def test_selfplay_takes_a_cap_and_reports_the_slowest_decision(capsys):
    selfplay_main(["--game", "kozel", "--players", "2", "--seats", "strong,normal", "--games", "1", "--cap-ms", "20"])
    summary = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    times = summary["decision_ms"]["strong"]
    assert list(times) == ["mean", "p95", "max"] and times["max"] >= times["p95"] >= 0
    assert summary["games"] == 1


def test_best_of_drops_a_clearly_worse_candidate_and_gives_its_play_outs_to_the_others():
    rng = random.Random(1)
    played = [0, 0, 0]

    def play(noise: float, i: int) -> float:
        played[i] += 1
        return (10.0, -20.0, 5.0)[i] + noise * (3 if i == 2 else 1)

    budget = Budget(steps=60, min_worlds=2, max_worlds=40, cap_ms=None)  # 20 worlds of 3 play-outs of length 1
    best = best_of(3, budget, 1, NEVER, lambda: rng.gauss(0, 5), play)
    assert best == 0
    assert played[1] == PRUNE_AFTER  # behind by 30 in every world: out after the first worlds
    assert played[0] > 20 and sum(played) <= 60  # more worlds for the two close ones, the same budget


def test_best_of_without_pruning_plays_every_candidate_in_the_budgets_worlds():
    played = []
    budget = Budget(steps=100, min_worlds=2, max_worlds=40, cap_ms=None)
    best = best_of(4, budget, 5, NEVER, lambda: len(played), lambda w, i: played.append((w, i)) or -i, prune=False)
    assert best == 0 and len(played) == 4 * 5  # 100 // (4 candidates * 5 actions) = 5 worlds
    assert best_of(2, budget, 5, Deadline(0.0, FakeClock()), lambda: 0, lambda w, i: 0.0) is None
