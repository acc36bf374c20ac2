"""Thousand properties over 2,000+ seeded random complete games (guided random policy).

Every game ends; every round's trick points make 120 (the 2p unused talon aside); only the seat to act has
actions (a redeal call aside); JSON round-trips at a random point continue identically; views never show a
card their seat may not see; replaying a game's own record gives the same result.
"""

from __future__ import annotations

import json
import random

import pytest

from core.records import result_of
from core.rng import stream
from core.thousand import RULES
from core.thousand.cards import DECK, card_points
from core.thousand.playout import choose

GAMES = {2: 800, 3: 700, 4: 500}
CHUNK = 100
OPTION_SETS = [
    {},
    {"golden_round": True, "dump_truck": True, "ace_marriage": True},
    {"bolts_in_a_row": True, "bidding_on_barrel": False, "concede_penalty": False, "missed_barrels_reset": True},
    {"redeal": True, "show_talon_on_100": True, "second_talon_to_last_trick": True, "bidding_floor": -200},
]


def hidden_from(state, viewer):
    """Cards the viewer may not see right now."""
    hidden = set()
    for seat, hand in enumerate(state.hands):
        if seat != viewer:
            hidden.update(hand)
    if state.talon_taken is not None and state.talon_shown:
        hidden -= set(state.talons[state.talon_taken])
    if viewer is not None:
        hidden -= {g["card"] for g in state.gives if g["from"] == viewer}
        if state.declarer == viewer and state.talon_taken is not None:
            hidden -= set(state.talons[state.talon_taken])
    for i, talon in enumerate(state.talons):
        if i != state.talon_taken and state.phase not in ("round_over", "game_over"):
            hidden.update(talon)
    return hidden


def check_views(state):
    for viewer in [None, *range(state.players)]:
        text = json.dumps(state.view(viewer))
        leaked = [c for c in hidden_from(state, viewer) if f'"{c}"' in text]
        assert not leaked, (viewer, leaked)


def check_cards(state):
    if state.phase in ("round_over", "game_over"):
        return
    cards = [c for h in state.hands for c in h] + state.played
    for i, t in enumerate(state.talons):
        if i != state.talon_taken:
            cards += t
    assert len(cards) == 24 and set(cards) == set(DECK)


def play_checked(players: int, seed: int, replay_record: bool) -> None:
    options = OPTION_SETS[seed % len(OPTION_SETS)]
    rng = stream(seed, "policy")
    pick = random.Random(seed)
    state = RULES.new_game(players, options, seed=seed)
    snapshot_at = pick.randrange(300)
    twin = None  # a copy restored from JSON at a random step, fed the same actions to the end of that round
    steps = 0
    while not state.finished:
        assert len(state.history) < 2000, "the game does not end"
        if state.phase == "round_over":
            if twin is not None:
                assert twin.to_json() == state.to_json()
                twin = None
            state.next_round_in_place()
            continue
        seat = state.to_act
        actions = state.legal_actions(seat)
        assert actions, f"seat {seat} to act has no action in {state.phase}"
        if steps % 17 == 0:
            for other in range(players):
                if other != seat:
                    assert all(a.type == "redeal" for a in state.legal_actions(other))
            check_cards(state)
        if steps == snapshot_at:
            check_views(state)
            twin = RULES.from_json(json.loads(json.dumps(state.to_json())))
        before_round = len(state.history)
        action = choose(state, seat, actions, rng)
        state.apply_in_place(action)
        if twin is not None:
            twin.apply_in_place(action)
        steps += 1
        if len(state.history) > before_round:
            row = state.history[-1]
            if not row["redeal"] and not row["conceded"]:
                marriages = sum(m["points"] for m in state.marriages)
                unused = 0
                if players == 2:
                    unused = card_points(state.talons[1 - state.talon_taken])
                    if options.get("second_talon_to_last_trick"):
                        unused = 0
                assert sum(row["points"]) + unused == 120 + marriages
    if twin is not None:
        assert twin.to_json() == state.to_json() and twin.finished
    # a finished game stays finished when stored and loaded, or copied (``finished`` follows the phase)
    stored = RULES.from_json(json.loads(json.dumps(state.to_json())))
    assert stored.finished and state.copy().finished and stored.legal_actions(state.winner) == []
    for seat in range(players):
        assert state.legal_actions(seat) == []
    assert state.winner is not None and state.totals[state.winner] >= 1000
    if replay_record:  # the game's own record replays to the same result
        assert result_of(state.record()) == state.result()


@pytest.mark.parametrize(("players", "start"), [(p, start) for p, n in GAMES.items() for start in range(0, n, CHUNK)])
def test_random_complete_games(players, start):
    for seed in range(start, start + CHUNK):
        play_checked(players, seed, replay_record=seed % 4 == 0)


def test_uniform_random_play_keeps_every_invariant():
    """Uniformly random actions (bids up to the cap, concedes, ...) for many rounds: no invariant breaks."""
    for seed in range(30):
        players = 2 + seed % 3
        rng = stream(seed, "uniform")
        state = RULES.new_game(players, OPTION_SETS[seed % 4], seed=seed)
        for _ in range(600):
            if state.finished:
                break
            if state.phase == "round_over":
                state.next_round_in_place()
                continue
            actions = state.legal_actions(state.to_act)
            state.apply_in_place(actions[rng.randrange(len(actions))])
            check_cards(state)
        assert result_of(state.record()) == state.result()
