"""The Kozel chain laid out as a snake: all 28 tiles fit the table for every seat count, never overlapping."""

from __future__ import annotations

import pytest
from PIL import Image

from renderers import kozel
from renderers import table as T
from renderers.dominoes import tile_face
from tests.render_probe import contains, tile_core


def full_line() -> list[tuple[int, int, bool]]:
    """All 28 tiles in one line (an Euler path of the complete graph on 0..6 with loops)."""
    edges = {(a, b) for a in range(7) for b in range(a, 7)}
    adj = {v: sorted([e for e in edges if v in e]) for v in range(7)}
    used: set[tuple[int, int]] = set()
    stack, path = [0], []
    while stack:
        v = stack[-1]
        nxt = next((e for e in adj[v] if e not in used), None)
        if nxt is None:
            path.append(stack.pop())
        else:
            used.add(nxt)
            stack.append(nxt[1] if nxt[0] == v else nxt[0])
    return [(a, b, a == b) for a, b in zip(path, path[1:])]


def chain_view(players: int, line: list[tuple[int, int, bool]], **extra) -> dict:
    chain = [
        {"tile": f"{min(a, b)}-{max(a, b)}", "end": "right", "seat": 0, "double": d, "pips": [a, b]} for a, b, d in line
    ]
    view = {
        "game": "kozel",
        "players": players,
        "seat": None,
        "phase": "play",
        "to_act": 0,
        "dealer": None,
        "round": 3,
        "totals": [0] * players,
        "hand": None,
        "hand_counts": [0] * players,
        "legal": [],
        "score_sheet": [],
        "finished": False,
        "winner": None,
        "loser": None,
        "chain": chain,
        "line": list(range(len(chain))),
        "bazaar_count": 0,
        "remembered": [0] * players,
        "opened": [False] * players,
        "carry": 0,
        "revealed": None,
    }
    view.update(extra)
    return view


def test_full_line_is_valid():
    line = full_line()
    assert len(line) == 28 and len({(min(a, b), max(a, b)) for a, b, _d in line}) == 28
    assert all(line[i][1] == line[i + 1][0] for i in range(27))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_all_28_tiles_fit_without_overlap(players):
    line = full_line()
    area = kozel.chain_area(players)
    placed, length, w, h = kozel.fit_snake(line, area)
    assert len(placed) == 28 and length >= 52
    assert w <= area[2] - area[0] and h <= area[3] - area[1]
    boxes = []
    for p in placed:
        pw, ph = (length // 2, length) if p.vertical else (length, length // 2)
        boxes.append((p.x, p.y, p.x + pw, p.y + ph))
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1], "tiles overlap"
    # neighbours along the line touch the same value: each drawn tile keeps its pips
    assert [{p.first, p.second} for p in placed] == [{a, b} for a, b, _d in line]
    im = kozel.table_image(chain_view(players, line), ["Ω" * 32] * players)
    assert im.size == T.size(players)
    for a, b, _d in line[::9]:  # the probe finds chain tiles in the picture
        assert any(contains(im, s, tile_core(s)) for s in _sprites(a, b, length))


def _sprites(a: int, b: int, length: int) -> list[Image.Image]:
    return [tile_face(x, y, length, v) for x, y in ((a, b), (b, a)) for v in (False, True)]


def test_short_chain_uses_big_tiles_and_one_row():
    line = full_line()[:5]
    placed, length, _w, _h = kozel.fit_snake(line, kozel.chain_area(4))
    assert length == kozel.TILE_LENGTHS[0] or len({p.y for p in placed if not p.vertical}) == 1
