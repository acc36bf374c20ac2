"""Random-game properties of Kozel over 2,100 complete seeded games (guided random policy).

At every step: all 28 tiles are in the hands, the bazaar or the chain, each exactly once; the seat to act
has legal actions and holds a tile that fits. At every round's end and every 41st step: nobody else has a
legal action, the laid-out line joins up and matches the open ends; in every 5th game, views hide other
hands and the bazaar, and the public view hides all of them. Every round ends by going out or a fish (or is a redeal).
Every game: the result is JSON; every 25th game: the record replays to the same state and the JSON form
of the state round-trips.
"""

from __future__ import annotations

import json

import pytest

from core.base import Action
from core.kozel import RULES, KozelState
from core.kozel.chain import fitting_ends, is_fish, line
from core.kozel.play import has_fit
from core.kozel.tiles import TILE_SET, TILES
from core.records import replay
from core.rng import stream

GAMES_PER_CASE = 350
CASES = [(p, f) for p in (2, 3, 4) for f in ("all", "one")]
DEEP_EVERY = 41  # the line etc. are checked every 41st step and at every round's end
VIEWS_EVERY_GAMES = 5  # views (the slow part) in every 5th game, at those same steps


def _check_step(state: KozelState, step: int, views: bool) -> None:
    every = [t for h in state.hands for t in h]
    every += state.bazaar
    every += [e["tile"] for e in state.chain]
    assert len(every) == 28 and set(every) == TILE_SET
    seat = state.to_act
    if state.phase == "play":
        assert seat is not None and state.legal_actions(seat)
        if state.left is not None:
            assert has_fit(state.hands[seat], state.left, state.right)
    else:
        assert seat is None
    if step % DEEP_EVERY == 0 or state.phase != "play":
        _check_deep(state, views)


def _check_deep(state: KozelState, views: bool) -> None:
    """The slower checks: nobody else may act, the laid-out line, the views."""
    n = state.players
    if n == 4:
        assert state.bazaar == []
    for other in range(n):
        if other != state.to_act:
            assert state.legal_actions(other) == []
    if state.chain:
        order = line(state.chain)
        assert sorted(order) == list(range(len(state.chain)))
        assert state.chain[order[0]]["pips"][0] == state.left
        assert state.chain[order[-1]]["pips"][1] == state.right
        for a, b in zip(order, order[1:]):
            assert state.chain[a]["pips"][1] == state.chain[b]["pips"][0]
        assert (
            is_fish(state.chain, state.left, state.right)
            == (state.phase != "play" and state.sheet[-1]["ending"] == "fish")
            or state.sheet[-1]["ending"] == "out"
        )
    if views:
        _check_views(state)


def _check_views(state: KozelState) -> None:
    hidden_everywhere = set(state.bazaar)
    public = state.view(None)
    assert public["hand"] is None and public["legal"] == [] and public["playable"] == {}
    assert public["bazaar_count"] == len(state.bazaar)
    assert public["hand_counts"] == [len(h) for h in state.hands]
    public.pop("score_sheet")  # numbers only
    text_public = json.dumps(public)
    if state.phase == "play":
        hidden_everywhere |= {t for h in state.hands for t in h}
    for tile in hidden_everywhere:
        assert f'"{tile}"' not in text_public
    for seat in range(state.players):
        view = state.view(seat)
        assert view["hand"] == state.hands[seat]
        view.pop("score_sheet")
        text = json.dumps(view)
        secret = set(state.bazaar)
        if state.phase == "play":
            secret |= {t for s, h in enumerate(state.hands) if s != seat for t in h}
        for tile in secret:
            assert f'"{tile}"' not in text
        if state.phase == "play" and seat == state.to_act:
            fits = view["playable"]
            assert sorted((a["tile"], a["end"]) for a in view["legal"]) == sorted(
                (t, e) for t, ends in fits.items() for e in ends
            )


def _play_one(players: int, fish: str, seed: int, views: bool) -> KozelState:
    rng = stream(seed, "policy")
    from core.kozel.playout import choose

    state = RULES.new_game(players, {"fish": fish}, seed=seed)
    step = 0
    while True:
        _check_step(state, step, views)
        step += 1
        if state.finished:
            break
        if state.phase == "round_over":
            row = state.sheet[-1]
            assert row["redeal"] or row["ending"] in ("out", "fish")
            if row["ending"] == "out":
                assert state.hands[row["by"]] == []
            elif row["ending"] == "fish":
                assert is_fish(state.chain, state.left, state.right)
                assert all(state.hands)
            state.next_round_in_place()
            continue
        seat = state.to_act
        actions = state.legal_actions(seat)
        action = choose(state, seat, actions, rng)
        events = state.apply_in_place(action)
        assert events[0].type == "tile_played" and events[0].seat == seat
        for ev in events:
            if ev.type == "drew":
                assert set(ev.data) == {"count", "bazaar"}
    return state


def _check_game(state: KozelState, deep: bool) -> None:
    assert state.finished and state.loser is not None
    assert state.totals[state.loser] == max(state.totals) >= 101
    assert state.rating is not None and state.rating[state.loser] == 0
    assert all(r >= 1 for s, r in enumerate(state.rating) if s != state.loser)
    assert sum(1 for r in state.sheet if not r["redeal"]) >= 1
    for row in state.sheet:
        assert row["redeal"] or row["ending"] in ("out", "fish")
    result = state.result()
    assert json.loads(json.dumps(result)) == result
    if deep:
        again = replay(json.loads(json.dumps(state.record())))
        mine, theirs = state.to_json(), again.to_json()
        mine.pop("seed")
        theirs.pop("seed")
        assert mine == theirs
        assert again.result() == result
        loaded = RULES.from_json(json.loads(json.dumps(state.to_json())))
        assert loaded.to_json() == state.to_json()


@pytest.mark.parametrize(("players", "fish"), CASES)
def test_random_games_keep_every_invariant(players, fish):
    for i in range(GAMES_PER_CASE):
        state = _play_one(players, fish, seed=10_000 * players + i, views=i % VIEWS_EVERY_GAMES == 0)
        _check_game(state, deep=i % 25 == 0)


def test_mid_game_json_round_trip_and_apply_equivalence():
    """A state loaded from JSON mid-round behaves exactly like the original."""
    from core.randomplay import play_game

    for seed in range(30):
        state = play_game(RULES, 3, seed, max_rounds=2)
        if state.phase != "round_over":
            continue
        state.next_round_in_place()
        loaded = RULES.from_json(json.loads(json.dumps(state.to_json())))
        assert loaded.to_json() == state.to_json()
        seat = state.to_act
        for action in state.legal_actions(seat)[:3]:
            a, ev_a = state.apply(action)
            b, ev_b = loaded.apply(action)
            assert a.to_json() == b.to_json()
            assert [e.to_json() for e in ev_a] == [e.to_json() for e in ev_b]


def test_every_tile_and_end_combination_is_legal_iff_apply_accepts():
    from core.base import IllegalAction
    from core.randomplay import play_game

    for seed in range(12):
        state = play_game(RULES, 2, seed, max_rounds=1)
        if state.phase == "round_over":
            state.next_round_in_place()
        while state.phase == "play":
            seat = state.to_act
            legal = state.legal_actions(seat)
            for tile in TILES:
                for end in ("left", "right"):
                    action = Action(seat, "play", tile=tile, end=end)
                    ok = tile in state.hands[seat] and end in fitting_ends(tile, state.left, state.right)
                    if state.left is None and state.forced is not None:
                        ok = ok and tile == state.forced
                    assert (action in legal) == ok
                    if not ok:
                        with pytest.raises(IllegalAction):
                            state.copy().apply_in_place(action)
            state.apply_in_place(legal[0])
