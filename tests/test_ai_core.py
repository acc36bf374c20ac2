"""The shared computer-player parts: the hidden-card sampler, the player API, the budget and core.selfplay."""

from __future__ import annotations

import json
import pickle
import random
import subprocess
import sys

import pytest

from core.ai import LEVELS, player
from core.ai.match import computer_seeds, play_one
from core.ai.sampling import deal_hidden
from core.ai.search import Budget
from core.base import OptionsError
from core.selfplay import main as selfplay_main
from core.thousand import RULES as THOUSAND


def test_deal_hidden_fills_every_holder_and_keeps_cards_where_they_may_be():
    cards = [f"c{i}" for i in range(12)]
    capacity = {"a": 5, "b": 4, "t": 3}
    allowed = {"c0": ["a"], "c1": ["b", "t"], "c2": ["t"], "c3": ["a", "b"], "c4": ["b"]}
    for seed in range(200):
        deal = deal_hidden(cards, capacity, allowed, random.Random(seed))
        assert deal is not None
        assert {h: len(v) for h, v in deal.items()} == capacity
        assert sorted(c for v in deal.values() for c in v) == sorted(cards)
        for holder, got in deal.items():
            for c in got:
                assert holder in allowed.get(c, capacity)


def test_deal_hidden_spreads_free_cards_over_the_holders():
    cards = [f"c{i}" for i in range(6)]
    seen = {h: 0 for h in ("a", "b")}
    for seed in range(600):
        deal = deal_hidden(cards, {"a": 3, "b": 3}, {}, random.Random(seed))
        assert deal is not None
        seen["a"] += "c0" in deal["a"]
        seen["b"] += "c0" in deal["b"]
    assert 240 < seen["a"] < 360  # about half the time with each holder


def test_deal_hidden_finds_the_only_deal_a_greedy_fill_can_miss():
    # c0..c2 may go to a or b; c3, c4 only to a; a has room for 2 -> c0..c2 must all go to b
    cards = ["c0", "c1", "c2", "c3", "c4"]
    allowed = {"c3": ["a"], "c4": ["a"], "c0": ["a", "b"], "c1": ["a", "b"], "c2": ["a", "b"]}
    for seed in range(50):
        deal = deal_hidden(cards, {"a": 2, "b": 3}, allowed, random.Random(seed))
        assert deal is not None
        assert sorted(deal["a"]) == ["c3", "c4"] and sorted(deal["b"]) == ["c0", "c1", "c2"]


def test_deal_hidden_says_when_no_deal_exists():
    cards = ["c0", "c1", "c2", "c3"]
    assert deal_hidden(cards, {"a": 2, "b": 2}, {"c0": ["a"], "c1": ["a"], "c2": ["a"]}, random.Random(1)) is None
    assert deal_hidden(cards, {"a": 2, "b": 1}, {}, random.Random(1)) is None  # counts do not add up
    assert deal_hidden(cards, {"a": 2, "b": 2}, {"c0": []}, random.Random(1)) is None


def test_budget_keeps_the_number_of_worlds_between_its_bounds():
    b = Budget(steps=1000, min_worlds=4, max_worlds=20)
    assert b.worlds(5, 10) == 20
    assert b.worlds(10, 30) == 4
    assert b.worlds(5, 40) == 5


def test_player_refuses_unknown_games_levels_and_other_seats_turns():
    with pytest.raises(OptionsError):
        player("chess", "normal")
    with pytest.raises(OptionsError):
        player("thousand", "expert")
    state = THOUSAND.new_game(3, {}, seed=4)
    seat = state.to_act
    other = (seat + 1) % 3
    with pytest.raises(ValueError):
        player("thousand", "normal").decide(state.view(other), [])
    with pytest.raises(ValueError):
        player("deberts", "normal").decide(state.view(seat), [])
    for level in LEVELS:
        action = player("thousand", level, seed=2).decide(state.view(seat), [])
        assert action in state.legal_actions(seat)


def test_random_level_spreads_over_the_legal_actions():
    state = THOUSAND.new_game(3, {}, seed=4)
    seat = state.to_act
    view = state.view(seat)
    chosen = {player("thousand", "random", seed=s).decide(view, []) for s in range(60)}
    assert len(chosen) > 3 and chosen <= set(state.legal_actions(seat))


def test_selfplay_command_prints_the_summary_json_on_its_last_line():
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "core.selfplay",
            "--game",
            "kozel",
            "--players",
            "2",
            "--seats",
            "normal,random",
            "--games",
            "3",
            "--seed",
            "1",
        ],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    lines = out.stdout.strip().splitlines()
    assert len(lines) > 3  # a readable table comes first
    summary = json.loads(lines[-1])
    assert list(summary) == ["game", "players", "games", "rounds", "seats", "decision_ms", "seed", "ai_seed"]
    assert summary["seed"] == 1 and isinstance(summary["ai_seed"], int)
    assert summary["game"] == "kozel" and summary["players"] == 2 and summary["games"] == 3
    assert summary["rounds"] >= 3
    assert [list(s) for s in summary["seats"]] == [["level", "wins", "mean_total", "kozel"]] * 2
    assert [s["level"] for s in summary["seats"]] == ["normal", "random"]
    for s in summary["seats"]:
        assert s["wins"] + s["kozel"] == 3
    assert sum(s["kozel"] for s in summary["seats"]) == 3
    assert set(summary["decision_ms"]) == {"normal", "random"}
    assert all(list(t) == ["mean", "p95", "max"] for t in summary["decision_ms"].values())


def test_selfplay_in_process_for_thousand_and_bad_arguments(capsys):
    selfplay_main(["--game", "thousand", "--players", "3", "--seats", "normal,random,easy", "--games", "1"])
    summary = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert [list(s) for s in summary["seats"]] == [["level", "wins", "mean_total"]] * 3
    assert sum(s["wins"] for s in summary["seats"]) == 1
    assert set(summary["decision_ms"]) == {"normal", "random", "easy"}
    with pytest.raises(SystemExit):
        selfplay_main(["--game", "thousand", "--players", "3", "--seats", "normal,random"])
    with pytest.raises(SystemExit):
        selfplay_main(["--game", "deberts", "--players", "2", "--seats", "normal,genius"])


def test_selfplay_seats_the_frozen_baseline_and_counts_the_deals_nobody_bid_on(capsys):
    selfplay_main(
        [
            "--game",
            "thousand",
            "--players",
            "3",
            "--seats",
            "normal,bench.baseline,bench.baseline",
            "--games",
            "2",
            "--seed",
            "3",
        ]
    )
    summary = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert [s["level"] for s in summary["seats"]] == ["normal", "bench.baseline", "bench.baseline"]
    assert sum(s["wins"] for s in summary["seats"]) == 2
    assert set(summary["decision_ms"]) == {"normal", "bench.baseline"}
    assert summary["deals"] == summary["rounds"]  # no redeals at a default table: every round has a declarer
    assert 0 < summary["no_bid"] < summary["deals"]


def test_computer_seeds_come_from_their_own_seed_never_from_the_deal():
    seeds = computer_seeds(7, 3, 4)
    assert len(set(seeds)) == 4
    assert computer_seeds(7, 3, 4) == seeds  # reproducible
    assert computer_seeds(8, 3, 4) != seeds and computer_seeds(7, 4, 4) != seeds
    for deal_seed in (7, 3, 7 * 1_000_003 + 3):  # the deal's seed and the deck's string family
        assert not {str(deal_seed), *(f"{deal_seed}:{s}" for s in range(4))} & set(seeds)


def test_the_same_deal_with_other_computer_seeds_gets_other_choices():
    first = play_one("thousand", ["easy"] * 3, 0, seed=5, ai_seed=1).record()["rounds"]
    again = play_one("thousand", ["easy"] * 3, 0, seed=5, ai_seed=1).record()["rounds"]
    other = play_one("thousand", ["easy"] * 3, 0, seed=5, ai_seed=2).record()["rounds"]
    assert again == first
    assert other[0]["deal"] == first[0]["deal"]  # the deal depends on the deal's seed only
    assert [r["actions"] for r in other] != [r["actions"] for r in first]


def test_close_choices_follow_the_computer_seed():
    state = THOUSAND.new_game(2, {}, seed=11)
    while state.phase == "bidding":  # the first hand plays 100; the blind choice of a talon is a coin toss
        seat = state.to_act
        legal = state.legal_actions(seat)
        state.apply_in_place(next((a for a in legal if a.type == "pass"), legal[0]))
    assert state.phase == "talon"
    seat = state.to_act
    picks = {
        player("thousand", "normal", seed=computer_seeds(ai, 0, 2)[seat]).decide(state.view(seat), [])
        for ai in range(12)
    }
    assert {a.index for a in picks} == {0, 1}


def test_a_computer_player_can_think_in_another_process():
    state = THOUSAND.new_game(3, {}, seed=4)
    seat = state.to_act
    for level in LEVELS:
        bot = player("thousand", level, seed=3, budget=Budget(steps=1, min_worlds=1, max_worlds=1))
        copy = pickle.loads(pickle.dumps(bot))  # the bot sends a strong player's decide to a process pool
        assert copy.decide(state.view(seat), []) == bot.decide(state.view(seat), [])
