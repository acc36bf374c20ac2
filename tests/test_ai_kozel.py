"""Kozel computer players: always legal, reproducible, blind to hidden tiles, and able to finish games."""

from __future__ import annotations

import random

from core.ai import player
from core.ai.kozel.determinize import sample_world
from core.ai.kozel.memory import read_round
from core.ai.match import play_one
from core.ai.search import TINY
from core.base import Action, Event
from core.kozel import RULES
from core.kozel.tiles import PIPS, TILES
from tests.helpers_ai import positions

LEVELS = ("random", "easy", "normal", "strong")


def test_every_level_plays_only_legal_actions_over_1200_positions():
    bots = {lv: player("kozel", lv, seed=5, budget=TINY) for lv in LEVELS}
    seen = 0
    for players, count in ((2, 400), (3, 400), (4, 400)):
        for state, seat, history in positions("kozel", players, count, seed=13):
            view = state.view(seat)
            legal = state.legal_actions(seat)
            for lv, bot in bots.items():
                action = bot.decide(view, history)
                assert action in legal, (lv, action)
            seen += 1
    assert seen == 1200


def test_decisions_are_reproducible_for_a_seed():
    for state, seat, history in positions("kozel", 3, 80, seed=4):
        view = state.view(seat)
        for lv in LEVELS:
            a = player("kozel", lv, seed=9, budget=TINY).decide(view, history)
            b = player("kozel", lv, seed=9, budget=TINY).decide(view, history)
            assert a == b


def _other_hidden(state, seat: int, rng: random.Random):  # noqa: ANN001, ANN202
    """A copy where the tiles ``seat`` cannot see (other hands and bazaar) are dealt differently, or None."""
    others = [s for s in range(state.players) if s != seat]
    pool = [t for s in others for t in state.hands[s]] + list(state.bazaar)
    for _ in range(20):
        rng.shuffle(pool)
        other = state.copy()
        pos = 0
        for s in others:
            k = len(state.hands[s])
            other.hands[s] = sorted(pool[pos : pos + k])
            pos += k
        other.bazaar = pool[pos:]
        if any(sorted(other.hands[s]) != sorted(state.hands[s]) for s in others):
            return other
    return None


def test_no_peeking_same_view_other_hidden_tiles_same_decision():
    rng = random.Random(3)
    checked = 0
    for players in (2, 4):
        for state, seat, history in positions("kozel", players, 300, seed=21):
            if len(state.legal_actions(seat)) < 2 or rng.random() < 0.5:
                continue
            other = _other_hidden(state, seat, rng)
            if other is None:
                continue
            view = state.view(seat)
            assert other.view(seat) == view
            for lv in ("easy", "normal", "strong"):
                bot = player("kozel", lv, seed=1, budget=TINY)
                assert bot.decide(view, history) == bot.decide(other.view(seat), history)
            checked += 1
    assert checked >= 30


def test_sampled_worlds_agree_with_the_view_and_the_shown_voids():
    checked = 0
    for players in (2, 3, 4):
        for state, seat, history in positions("kozel", players, 150, seed=8):
            view = state.view(seat)
            memory = read_round(history, players)
            world = sample_world(view, memory, random.Random(checked))
            assert world is not None
            assert world.hands[seat] == state.hands[seat]
            assert [len(h) for h in world.hands] == [len(h) for h in state.hands]
            assert len(world.bazaar) == len(state.bazaar)
            assert world.legal_actions(seat) == state.legal_actions(seat)
            for s in range(players):
                # what the memory says a seat cannot hold is true of the real hands too
                assert not any(set(PIPS[t]) & memory.voids[s] for t in state.hands[s])
                if s != seat:
                    assert not any(set(PIPS[t]) & memory.voids[s] for t in world.hands[s])
            tiles = [t for h in world.hands for t in h] + world.bazaar + sorted(memory.played)
            assert sorted(tiles) == sorted(TILES)
            checked += 1
    assert checked == 450


def test_memory_reads_draws_knocks_and_the_first_lead():
    deal = {
        "hands": [
            ["2-2", "0-1", "0-2", "0-3", "0-4", "0-5", "3-4"],
            ["3-3", "4-4", "5-5", "6-6", "1-2", "1-3", "1-4"],
        ],
        "bazaar": ["1-1", "2-3", "0-6", "1-5", "1-6", "2-4", "2-5", "2-6", "3-5", "3-6", "4-5", "4-6", "5-6", "0-0"],
    }
    state = RULES.new_game(2, {}, seed=0, start=False)
    history: list[Event] = state.next_round_in_place(deal)
    history += state.apply_in_place(Action(0, "play", tile="2-2", end="left"))  # 1-1 is in the bazaar
    memory = read_round(history, 2)
    assert "1-1" in memory.lacks[0] and "1-1" in memory.lacks[1]
    # seat 1 holds 1-2 for the 2 ends: it plays it; the ends become 1 and 2
    history += state.apply_in_place(Action(1, "play", tile="1-2", end="left"))
    history += state.apply_in_place(Action(0, "play", tile="0-1", end="left"))  # ends 0 and 2
    # seat 1 holds no 0 and no 2: it draws (1-1 does not fit, 2-3 does) and must play 2-3
    drew = [e for e in history if e.type == "drew"]
    assert drew and drew[-1].seat == 1
    memory = read_round(history, 2)
    assert memory.voids[1] == set()  # it holds the fitting tile it drew until it plays it
    assert memory.lacks[1] == set()
    history += state.apply_in_place(Action(1, "play", tile="2-3", end="right"))
    memory = read_round(history, 2)
    assert memory.voids[1] == {0, 2}


def test_complete_games_between_computer_players_finish():
    state = play_one("kozel", ["strong", "normal", "easy", "random"], 0, 3, budget=TINY)
    assert state.finished and state.loser is not None
    state = play_one("kozel", ["normal", "random"], 1, 3)
    assert state.finished
