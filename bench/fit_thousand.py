"""``python -m bench.fit_thousand``: fit the Thousand hand-evaluation models of ``core.ai.thousand.estimate``.

Deals random rounds, makes one seat the declarer at 100 (it opens, everyone passes), lets normal players
take the talon, give, and play the round out, and records the declarer's round points (card points plus
marriages) against the features of its hand before the talon ("bid") and after the gives ("final").
Least squares per stage gives the coefficients, the intercept and the spread (residual standard
deviation) to paste into ``MODELS``; least squares per kind of final hand (marriages held: none, one, two or
more; an ace held or not) over the features and the aces held gives ``CONTRACT_MODELS``. Last line: the
models as JSON.
"""

from __future__ import annotations

import argparse
import json
import math

from bench import add_quick
from core.ai.thousand.estimate import FEATURES, contract_features, features, hand_kind
from core.ai.thousand.memory import Memory, hand_bits
from core.ai.thousand.rollout import normal_action, play_round, step
from core.base import Action
from core.rng import stream
from core.thousand import RULES


def sample(players: int, seed: int, index: int) -> tuple[tuple[float, ...], list[str], int]:
    rng = stream(seed, "fit", players, index)
    dealer = rng.randrange(players)
    state = RULES.new_game(players, {}, seed=f"{seed}:{index}", first_dealer=dealer)
    declarer = state.first_hand
    before = features(state.hands[declarer])
    state.apply_in_place(Action(declarer, "bid", value=100))
    while state.phase == "bidding":
        state.apply_in_place(Action(state.to_act, "pass"))  # type: ignore[arg-type]
    memory = Memory(players)
    while state.phase in ("talon", "give"):
        action = normal_action(state, memory, rng)
        if action.type == "concede":
            action = next(a for a in state.legal_actions(declarer) if a.type == "give")
        step(state, memory, action)
    after = list(state.hands[declarer])
    state.apply_in_place(Action(declarer, "contract", value=100))
    play_round(state, memory, rng)
    row = state.history[-1]
    return before, after, row["points"][declarer]


def least_squares(xs: list[tuple[float, ...]], ys: list[float]) -> tuple[list[float], float, float]:
    rows = [(*x, 1.0) for x in xs]
    k = len(rows[0])
    a = [[sum(r[i] * r[j] for r in rows) + (1e-6 if i == j else 0) for j in range(k)] for i in range(k)]
    b = [sum(r[i] * y for r, y in zip(rows, ys)) for i in range(k)]
    for col in range(k):  # Gaussian elimination with partial pivoting
        piv = max(range(col, k), key=lambda r: abs(a[r][col]))
        a[col], a[piv] = a[piv], a[col]
        b[col], b[piv] = b[piv], b[col]
        for r in range(k):
            if r != col and a[col][col]:
                f = a[r][col] / a[col][col]
                a[r] = [x - f * y for x, y in zip(a[r], a[col])]
                b[r] -= f * b[col]
    sol = [b[i] / a[i][i] if a[i][i] else 0.0 for i in range(k)]
    pred = [sum(c * v for c, v in zip(sol, r)) for r in rows]
    spread = math.sqrt(sum((y - p) ** 2 for y, p in zip(ys, pred)) / max(1, len(ys) - k))
    return sol[:-1], sol[-1], spread


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=4000)
    parser.add_argument("--seed", type=int, default=7)
    add_quick(parser, rounds=60)
    args = parser.parse_args(argv)
    models = {}
    for players in (2, 3):
        data = [sample(players, args.seed, i) for i in range(args.rounds)]
        ys = [float(p) for _b, _a, p in data]
        finals = [features(a) for _b, a, _p in data]
        for stage, xs in (("bid", [b for b, _a, _p in data]), ("final", finals)):
            coef, intercept, spread = least_squares(xs, ys)
            models[f"{stage},{players}"] = {
                "coef": [round(c, 3) for c in coef],
                "intercept": round(intercept, 2),
                "spread": round(spread, 2),
            }
            shown = ", ".join(f"{n}={c:.2f}" for n, c in zip(FEATURES, coef))
            print(f"{players}p {stage:<6} {shown}, intercept={intercept:.1f}, spread={spread:.1f}")
        kinds: dict[tuple[int, bool], list[int]] = {}
        keys = [hand_bits(a) for _b, a, _p in data]
        for i, key in enumerate(keys):
            kinds.setdefault(hand_kind(key), []).append(i)
        for (pairs, ace), rows in sorted(kinds.items()):
            xs = [contract_features(keys[i]) for i in rows]
            coef, intercept, spread = least_squares(xs, [ys[i] for i in rows])
            models[f"contract,{players},{pairs},{int(ace)}"] = {
                "coef": [round(c, 3) for c in coef],
                "intercept": round(intercept, 2),
                "spread": round(spread, 2),
            }
            print(f"{players}p contract, {pairs} marriages, ace {ace}: {len(rows)} hands, spread={spread:.1f}")
    print(json.dumps(models))


if __name__ == "__main__":
    main()
