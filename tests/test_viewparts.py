"""Views built from cached parts (core/viewparts.py) are the views built afresh, and stay correct as games go on."""

from __future__ import annotations

import json

import pytest

from core import games
from core.randomplay import play_game


def _fresh_sheet(game: str, state) -> list:
    if game == "thousand":
        from core.thousand.view import _row

        return [_row(r) for r in state.history]
    return json.loads(json.dumps(state.sheet))


@pytest.mark.parametrize("game,players", [("thousand", 3), ("deberts", 2), ("kozel", 4)])
def test_views_share_finished_rows_and_give_fresh_options(game: str, players: int) -> None:
    rules = games.get(game)
    state = play_game(rules, players, seed=5, max_rounds=4)
    first = state.view(0)
    assert first["score_sheet"] and first["score_sheet"] == _fresh_sheet(game, state)
    first["options"]["changed_by_a_caller"] = True
    first["score_sheet"].append({"not": "a row"})
    second = state.view(1)
    assert "changed_by_a_caller" not in second["options"]
    assert second["options"] == {k: v for k, v in first["options"].items() if k != "changed_by_a_caller"}
    assert second["score_sheet"] == _fresh_sheet(game, state)


def test_a_copied_state_and_the_original_each_show_their_own_sheet() -> None:
    state = play_game(games.get("thousand"), 3, seed=9, max_rounds=3)
    assert state.phase == "round_over"
    before = state.view(0)["score_sheet"]
    other = state.copy()
    assert other.view(0)["score_sheet"] == before
    other.next_round_in_place()
    while other.phase != "round_over":  # the copy plays one more round (first legal action every time)
        other.apply_in_place(other.legal_actions(other.to_act)[0])
    longer = other.view(1)["score_sheet"]
    assert len(longer) == len(before) + 1 and longer == _fresh_sheet("thousand", other)
    assert state.view(2)["score_sheet"] == before == _fresh_sheet("thousand", state)
