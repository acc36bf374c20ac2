"""Runs (terz, berz) found automatically, and which single player scores them.

Run order: A K Q J 10 9 8 7 in one suit. Three in a row is a terz (20), four or more a berz (50).
Only one player scores runs, all of his: the owner of the best single run. Precedence, step by step:
a berz beats any terz; same kind: the higher top card; still equal: the trump run (Moscow; Kharkov ignores
trump); still equal: the earlier seat in deal order (from the dealer's left). Whether the runs count at
all (their owner must take a trick) is decided at the end of the round, by the state.
"""

from __future__ import annotations

from typing import Any

from core.cards import SUITS
from core.deberts.bidding import deal_order
from core.deberts.cards import RANKS, SEQ

TERZ = 20
BERZ = 50


def find_runs(hand: list[str]) -> list[dict[str, Any]]:
    """Every maximal run of 3+ cards in a hand, best first (berz before terz, then by top card)."""
    runs: list[dict[str, Any]] = []
    for suit in SUITS:
        held = sorted((SEQ[c[0]] for c in hand if c[1] == suit), reverse=True)
        i = 0
        while i < len(held):
            j = i
            while j + 1 < len(held) and held[j + 1] == held[j] - 1:
                j += 1
            length = j - i + 1
            if length >= 3:
                cards = [RANKS[v] + suit for v in held[i : j + 1]]
                kind = "berz" if length >= 4 else "terz"
                runs.append({"kind": kind, "suit": suit, "top": cards[0][0], "cards": cards, "points": _value(kind)})
            i = j + 1
    runs.sort(key=lambda r: (r["kind"] == "berz", SEQ[r["top"]]), reverse=True)
    return runs


def _value(kind: str) -> int:
    return BERZ if kind == "berz" else TERZ


def run_key(run: dict[str, Any], trump: str | None, moscow: bool) -> tuple[int, int, int]:
    """Precedence of one run without the deal-order step: (berz?, top card, trump run under Moscow?)."""
    return (int(run["kind"] == "berz"), SEQ[run["top"]], int(moscow and run["suit"] == trump))


def best_run(runs: list[dict[str, Any]], trump: str | None, moscow: bool) -> dict[str, Any] | None:
    return max(runs, key=lambda r: run_key(r, trump, moscow)) if runs else None


def why_beaten(winner: dict[str, Any], loser: dict[str, Any], trump: str | None, moscow: bool) -> str:
    """The precedence step at which the winner's best run beats the loser's best run."""
    if winner["kind"] != loser["kind"]:
        return "berz_beats_terz"
    if winner["top"] != loser["top"]:
        return "higher_top"
    if moscow and (winner["suit"] == trump) != (loser["suit"] == trump):
        return "trump_run"
    return "deal_order"


def decide(hands: list[list[str]], trump: str, dealer: int, moscow: bool) -> dict[str, Any] | None:
    """Runs of every seat and who scores them; ``None`` when nobody holds a run.

    Returns ``{"by_seat": [[run, ...] per seat], "scorer": seat, "points": int, "beaten": [{"seat",
    "reason"}], "status": "pending"}``.
    """
    players = len(hands)
    by_seat = [find_runs(h) for h in hands]
    scorer: int | None = None
    scorer_best: dict[str, Any] | None = None
    for seat in deal_order(dealer, players):  # earlier seats win ties: only a strictly better run replaces
        best = best_run(by_seat[seat], trump, moscow)
        if best is None:
            continue
        if scorer_best is None or run_key(best, trump, moscow) > run_key(scorer_best, trump, moscow):
            scorer, scorer_best = seat, best
    if scorer is None or scorer_best is None:
        return None
    beaten = []
    for seat in deal_order(dealer, players):
        best = best_run(by_seat[seat], trump, moscow)
        if seat != scorer and best is not None:
            beaten.append({"seat": seat, "reason": why_beaten(scorer_best, best, trump, moscow)})
    return {
        "by_seat": by_seat,
        "scorer": scorer,
        "points": sum(r["points"] for r in by_seat[scorer]),
        "beaten": beaten,
        "status": "pending",
    }


def public_runs(runs: dict[str, Any] | None, viewer: int | None = None) -> dict[str, Any] | None:
    """What a seat may see of the runs (``viewer`` None: everyone).

    The scorer shows his runs with their cards, and a seat sees its own; a beaten seat's runs are known only
    as what players say aloud to compare them: the kind and the top card's rank of its best run.
    """
    if runs is None:
        return None
    by_seat: list[list[dict[str, Any]]] = []
    for seat, seat_runs in enumerate(runs["by_seat"]):
        if seat in (runs["scorer"], viewer):
            by_seat.append([{**r, "cards": list(r["cards"])} for r in seat_runs])
        elif seat_runs:
            best = seat_runs[0]
            by_seat.append([{"kind": best["kind"], "top": best["top"], "points": best["points"]}])
        else:
            by_seat.append([])
    return {
        "by_seat": by_seat,
        "scorer": runs["scorer"],
        "points": runs["points"],
        "beaten": [dict(b) for b in runs["beaten"]],
        "status": runs["status"],
    }
