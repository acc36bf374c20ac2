"""Deberts computer players: always legal, reproducible, blind to hidden cards, and able to finish games."""

from __future__ import annotations

import random

from core.ai import player
from core.ai.deberts.determinize import sample_world
from core.ai.deberts.memory import read_round
from core.ai.match import play_one
from core.ai.search import TINY
from core.base import Action, Event
from core.deberts import RULES
from core.deberts.cards import DECK
from tests.helpers_ai import positions

LEVELS = ("random", "easy", "normal", "strong")


def test_every_level_plays_only_legal_actions_over_1100_positions():
    bots = {lv: player("deberts", lv, seed=5, budget=TINY) for lv in LEVELS}
    seen = 0
    phases = set()
    for players, count in ((2, 600), (3, 500)):
        for state, seat, history in positions("deberts", players, count, seed=12):
            view = state.view(seat)
            legal = state.legal_actions(seat)
            for lv, bot in bots.items():
                action = bot.decide(view, history)
                assert action in legal, (lv, state.phase, action)
            phases.add(state.phase)
            seen += 1
    assert seen == 1100
    assert phases == {"bidding", "swap", "play"}


def test_decisions_are_reproducible_for_a_seed():
    for state, seat, history in positions("deberts", 2, 80, seed=4):
        view = state.view(seat)
        for lv in LEVELS:
            a = player("deberts", lv, seed=9, budget=TINY).decide(view, history)
            b = player("deberts", lv, seed=9, budget=TINY).decide(view, history)
            assert a == b


def _other_hidden(state, seat: int, rng: random.Random):  # noqa: ANN001, ANN202
    """A copy in which the cards ``seat`` cannot see are dealt differently (hands and stock)."""
    other = state.copy()
    seen = set(state.hands[seat]) | {c for _s, c in state.trick} | {state.shown, state.bottom}
    seen |= {c for w in state.won for c in w}
    others = [s for s in range(state.players) if s != seat]
    pool = [c for c in DECK if c not in seen]  # other hands + unseen stock
    in_hands = [c for s in others for c in state.hands[s]]
    rng.shuffle(pool)
    if sorted(pool[: len(in_hands)]) == sorted(in_hands):
        pool.reverse()
    pos = 0
    for s in others:
        k = len(state.hands[s])
        other.hands[s] = pool[pos : pos + k]
        pos += k
    return other


def test_no_peeking_same_view_other_hidden_cards_same_decision():
    rng = random.Random(3)
    checked = 0
    for players in (2, 3):
        for state, seat, history in positions("deberts", players, 300, seed=21):
            if state.phase != "play" or len(state.legal_actions(seat)) < 2 or rng.random() < 0.5:
                continue
            other = _other_hidden(state, seat, rng)
            assert other.hands != state.hands
            view = state.view(seat)
            assert other.view(seat) == view
            for lv in ("easy", "normal", "strong"):
                bot = player("deberts", lv, seed=1, budget=TINY)
                assert bot.decide(view, history) == bot.decide(other.view(seat), history)
            checked += 1
    assert checked >= 30


def test_sampled_worlds_agree_with_the_view_and_what_was_shown():
    checked = 0
    for players in (2, 3):
        for state, seat, history in positions("deberts", players, 300, seed=8):
            view = state.view(seat)
            memory = read_round(history, players)
            world = sample_world(view, memory, random.Random(checked))
            assert world is not None
            assert sorted(world.hands[seat]) == sorted(state.hands[seat])
            assert [len(h) for h in world.hands] == [len(h) for h in state.hands]
            assert sorted(map(str, world.legal_actions(seat))) == sorted(map(str, state.legal_actions(seat)))
            assert world.round_points() == state.round_points()
            for s in range(players):
                if s != seat:
                    assert not any(c[1] in memory.voids[s] or c in memory.lacks[s] for c in world.hands[s])
                    assert memory.holds[s] <= set(world.hands[s])
            cards = [c for h in world.hands for c in h] + sorted(memory.played)
            assert len(cards) == len(set(cards))
            checked += 1
    assert checked == 600


def test_memory_reads_voids_shown_runs_and_the_trumps_a_seat_could_not_hold():
    deal = {
        "hands": [["JH", "9H", "AS", "TS", "KS", "7C"], ["8H", "QH", "AC", "TC", "KC", "7D"]],
        "open": "AH",
        "extra": [["AD", "TD", "KD"], ["QC", "JC", "9C"]],
        "bottom": "7S",
    }
    state = RULES.new_game(2, {}, seed=0, first_dealer=1, start=False)
    history: list[Event] = state.next_round_in_place(deal)
    history += state.apply_in_place(Action(0, "play_trump"))
    memory = read_round(history, 2)
    assert memory.holds[1] == {"AC", "KC", "QC", "JC", "TC", "9C"}  # seat 1's berz is shown
    assert memory.bottom == "7S" and memory.open == "AH"
    history += state.apply_in_place(Action(0, "play", card="9H"))
    history += state.apply_in_place(Action(1, "play", card="8H"))  # had to beat the 9 if it could
    memory = read_round(history, 2)
    assert memory.lacks[1] == {"JH"}
    history += state.apply_in_place(Action(0, "play", card="AS"))
    history += state.apply_in_place(Action(1, "play", card="QH"))  # no spade: trumps
    memory = read_round(history, 2)
    assert memory.voids == [set(), {"S"}]
    assert memory.played == {"9H", "8H", "AS", "QH"}
    memory.note_play(0, "7D", [(1, "AC")], "H")  # neither follows nor trumps: void in both
    assert memory.voids[0] == {"C", "H"}


def test_complete_games_between_computer_players_finish():
    state = play_one("deberts", ["strong", "normal"], 0, 3, budget=TINY)
    assert state.finished and state.winner is not None
    state = play_one("deberts", ["easy", "normal", "random"], 1, 3)
    assert state.finished
