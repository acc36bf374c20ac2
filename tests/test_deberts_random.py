"""Random Deberts games (2,000+): card-point conservation, who may act, round-trips, hidden hands, refusals.

Every game checks the cheap invariants at each round end; every 40th game ("deep") also checks at every
step that only the seat to act has actions, that views and events hide the hands, that a random illegal
action is refused without a change, that a JSON copy taken at a random step continues identically, and
that the game's record replays to the same result.
"""

from __future__ import annotations

import json
import random

import pytest

from core.base import Action, IllegalAction
from core.deberts import RULES, DebertsState
from core.deberts.cards import DECK
from core.deberts.playout import choose
from core.randomplay import uniform
from core.records import replay
from core.rng import stream

# Card points written out independently of the engine's tables.
PLAIN = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2}
TRUMP = {"J": 20, "9": 14, "A": 11, "T": 10, "K": 4, "Q": 3}

OPTION_SETS = [
    {},
    {"winner_takes_all": True, "trump_in_combinations": "kharkov"},
    {"obligatory_order": True, "seven_swap": False},
    {"hanging_separately": True, "target": 501},
    {"target": 301, "winner_takes_all": True, "hanging_separately": True, "obligatory_order": True},
]
GAMES = 2000
CHUNKS = 8


def _card_points(cards, trump):
    return sum((TRUMP if c[1] == trump else PLAIN).get(c[0], 0) for c in cards)


def _check_round_end(s: DebertsState) -> None:
    row = s.sheet[-1]
    n = s.players
    if row["redeal"]:
        assert row["scores"] == [0] * n and s.trump is None
        return
    trump = s.trump
    won = [c for w in s.won for c in w]
    assert len(won) == 9 * n == len(set(won)) and all(not h for h in s.hands) and sum(s.tricks) == 9
    stock = [c for c in DECK if c not in won]
    assert len(stock) == 32 - 9 * n == s.stock_count()
    assert _card_points(won, trump) + 10 + _card_points(stock, trump) == 162
    # each seat's round points: its tricks' cards, the last trick, runs if counted, bella
    runs = s.runs
    for seat in range(n):
        want = _card_points(s.won[seat], trump) + (10 if s.last_bonus == seat else 0)
        if runs is not None and runs["scorer"] == seat and s.tricks[seat] > 0:
            want += runs["points"]
        if s.bella == seat:
            want += 20
        assert row["points"][seat] == want
    if runs is not None:
        assert runs["status"] == ("scored" if s.tricks[runs["scorer"]] else "lost")
    # conservation: what was written = the round's points − what started hanging + what was paid out
    assert (
        sum(row["scores"])
        == sum(row["points"])
        - (row["points"][row["declarer"]] if row["result"] == "hanging" else 0)
        + row["hanging_paid"]
    )
    assert row["hanging"] == sum(s.pots)


def _public(s: DebertsState) -> set[str]:
    """Cards in hands that everybody knows: declared runs and a swapped open card."""
    known = set()
    if s.runs is not None:
        known |= {c for runs in s.runs["by_seat"] for r in runs for c in r["cards"]}
    if s.swapped and s.open is not None:
        known.add(s.open)
    return known


def _check_hidden(s: DebertsState, events) -> None:
    public = _public(s)
    hidden = [{c for c in h if c not in public} for h in s.hands]
    text = json.dumps([e.to_json() for e in events])
    assert not any(f'"{c}"' in text for h in hidden for c in h), text
    for viewer in (None, *range(s.players)):
        view = s.view(viewer)
        body = json.dumps(view)
        for seat in range(s.players):
            if seat == viewer:
                assert sorted(view["hand"]) == sorted(s.hands[seat])
                continue
            assert not any(f'"{c}"' in body for c in hidden[seat]), (viewer, seat)
        assert view["hand_counts"] == [len(h) for h in s.hands]


def _try_illegal(s: DebertsState, rng: random.Random, seat: int, legal: list[Action]) -> None:
    other = (seat + 1) % s.players
    tries = [
        Action(other, "pass"),
        Action(seat, "play", card=DECK[rng.randrange(32)]),
        Action(seat, "name_suit", suit="SCDH"[rng.randrange(4)]),
        Action(seat, "swap_seven"),
        Action(seat, "play_trump"),
    ]
    before = s.to_json()
    for action in tries:
        if action in legal:
            continue
        with pytest.raises(IllegalAction):
            s.apply_in_place(action)
        assert s.to_json() == before


def _play(players: int, seed: int, deep: bool) -> None:
    options = OPTION_SETS[seed % len(OPTION_SETS)]
    policy = uniform if seed % 4 == 3 else choose
    rng = stream(seed, "test-policy")
    s = RULES.new_game(players, options, seed=seed)
    snap_at = rng.randrange(40, 200) if deep else -1
    snapshot = None
    steps: list[Action | None] = []  # None: deal the next round
    step = 0
    while not s.finished:
        if step == snap_at:
            snapshot = json.loads(json.dumps(s.to_json()))
        step += 1
        if s.phase == "round_over":
            assert all(not s.legal_actions(p) for p in range(players)) and s.to_act is None
            s.next_round_in_place()
            if snapshot is not None:
                steps.append(None)
            continue
        seat = s.to_act
        legal = s.legal_actions(seat)
        assert legal
        if deep:
            assert all(not s.legal_actions(p) for p in range(players) if p != seat)
            if rng.random() < 0.1:
                _try_illegal(s, rng, seat, legal)
        action = policy(s, seat, legal, rng)
        events = s.apply_in_place(action)
        if snapshot is not None:
            steps.append(action)
        if deep and (rng.random() < 0.2 or s.phase != "play"):
            _check_hidden(s, events)
        if s.phase in ("round_over", "game_over"):
            _check_round_end(s)
    assert s.to_act is None and all(not s.legal_actions(p) for p in range(players))
    res = s.result()
    total = [0] * players
    for row in res["rounds"]:
        total = [a + b for a, b in zip(total, row["scores"])]
        assert row["totals"] == total
    assert res["totals"] == total and res["winner"] is not None and max(total) >= s.options.target
    assert sorted(total)[-1] > sorted(total)[-2] == total[sorted(range(players), key=total.__getitem__)[-2]]
    if deep:
        assert replay(json.loads(json.dumps(s.record()))).result() == res
        if snapshot is not None:
            copy = DebertsState.from_json(snapshot)
            for action in steps:
                if action is None:
                    copy.next_round_in_place()
                else:
                    copy.apply_in_place(action)
            assert copy.to_json() == s.to_json()


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_random_games(chunk):
    per = GAMES // CHUNKS
    for i in range(chunk * per, (chunk + 1) * per):
        _play(2 + i % 2, 7_000 + i, deep=i % 40 == 0)
