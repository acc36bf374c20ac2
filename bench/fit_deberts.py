"""``python -m bench.fit_deberts``: fit the Deberts hand-evaluation models of ``core.ai.deberts.estimate``.

Deals random rounds, makes the first seat to speak the declarer with a trump suit (the open suit in circle 1,
or another suit in circle 2 after everyone passed), lets normal players swap and play the round out, and
records the declarer's points minus the best defender's against the features of its six cards while
bidding ("bid") and of its nine cards when play starts ("final"). Least squares per stage gives the
coefficients, the intercept and the spread to paste into ``MODELS``. Last line: the models as JSON.
"""

from __future__ import annotations

import argparse
import json

from bench import add_quick
from bench.fit_thousand import least_squares
from core.ai.deberts import normal
from core.ai.deberts.estimate import FEATURES, features
from core.ai.deberts.memory import Memory
from core.ai.deberts.rollout import normal_action, play_round, step
from core.ai.deberts.table import from_state
from core.base import Action
from core.deberts import RULES
from core.rng import stream


def sample(players: int, seed: int, index: int) -> tuple[tuple[float, ...], tuple[float, ...], float]:
    rng = stream(seed, "fit", players, index)
    state = RULES.new_game(players, {}, seed=f"{seed}:{index}", first_dealer=rng.randrange(players))
    first = state.to_act
    assert first is not None
    seat = (first + rng.randrange(players)) % players  # any seat in the speaking order may declare
    memory = Memory(players)
    table = from_state(state, seat, memory, [])
    suits = ["S", "C", "D", "H"]
    # mostly the suit a normal player likes best, sometimes any suit, so that weak hands are seen too
    suit = max(suits, key=lambda s: normal.bid_value(table, s)) if rng.random() < 0.6 else rng.choice(suits)
    leads = seat == first
    hand6 = list(state.hands[seat])
    if suit == state.open[1]:
        if "7" + suit in hand6:
            hand6 = [c for c in hand6 if c != "7" + suit] + [state.open]
        before = features(hand6, suit, leads)
        while state.to_act != seat:
            state.apply_in_place(Action(state.to_act, "pass"))  # type: ignore[arg-type]
        state.apply_in_place(Action(seat, "play_trump"))
    else:
        before = features(hand6, suit, leads)
        for _ in range(players):
            state.apply_in_place(Action(state.to_act, "pass"))  # type: ignore[arg-type]
        while state.to_act != seat:
            state.apply_in_place(Action(state.to_act, "pass"))  # type: ignore[arg-type]
        state.apply_in_place(Action(seat, "name_suit", suit=suit))
    while state.phase == "swap":
        step(state, memory, normal_action(state, memory, rng))
    after = features(state.hands[seat], suit, leads)
    play_round(state, memory, rng)
    pts = state.sheet[-1]["points"]
    best_defender = max(p for s, p in enumerate(pts) if s != seat)
    return before, after, float(pts[seat] - best_defender)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=6000)
    parser.add_argument("--seed", type=int, default=7)
    add_quick(parser, rounds=60)
    args = parser.parse_args(argv)
    models = {}
    for players in (2, 3):
        data = [sample(players, args.seed, i) for i in range(args.rounds)]
        ys = [m for _b, _a, m in data]
        for stage, pick in (("bid", 0), ("final", 1)):
            coef, intercept, spread = least_squares([d[pick] for d in data], ys)
            models[f"{stage},{players}"] = {
                "coef": [round(c, 3) for c in coef],
                "intercept": round(intercept, 2),
                "spread": round(spread, 2),
            }
            shown = ", ".join(f"{n}={c:.2f}" for n, c in zip(FEATURES, coef))
            print(f"{players}p {stage:<6} {shown}, intercept={intercept:.1f}, spread={spread:.1f}")
    print(json.dumps(models))


if __name__ == "__main__":
    main()
