"""Kozel pictures from real positions: every seat count renders, the sheet's colours, no hidden tile drawn."""

from __future__ import annotations

import io

import pytest
from PIL import Image

pytest.importorskip("core.kozel")

from renderers import kozel, render_hand, render_score_sheet, render_table, sheet_image, table_image  # noqa: E402
from renderers import table as T  # noqa: E402
from renderers.demo.positions import find  # noqa: E402
from renderers.dominoes import parse_tile, tile_face  # noqa: E402
from tests.render_probe import contains, tile_core  # noqa: E402


def _sprites(a: int, b: int, length: int) -> list[Image.Image]:
    return [tile_face(x, y, length, v) for x, y in ((a, b), (b, a)) for v in (False, True)]


MOMENTS = ("start", "play", "round_over")


@pytest.fixture(scope="module")
def positions():
    return {n: find("kozel", n, only=MOMENTS) for n in (2, 3, 4)}


def _decode(data: bytes) -> Image.Image:
    im = Image.open(io.BytesIO(data))
    im.load()
    return im


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_picture_renders(positions, players):
    assert set(positions[players]) == set(MOMENTS)
    names = ["Олександр Вишневський-Коваленко", "Bob 🔥", "Ann", "Chen"][:players]
    for state in positions[players].values():
        pub = state.view(None)
        assert _decode(render_table(pub, names, lang="uk").data).size == T.size(players)
        own = state.view(state.to_act if state.to_act is not None else 0)
        assert _decode(render_table(own, names).data).size == T.size(players)
        if own["hand"]:
            assert _decode(render_hand(own).data).width > 0
        assert _decode(render_score_sheet(pub, names).data).height > 0


@pytest.mark.parametrize("players", [2, 3, 4])
def test_public_table_never_shows_a_hidden_tile(positions, players):
    state = positions[players]["play"]
    pub = state.view(None)
    on_table = {e["tile"] for e in pub["chain"]}
    hidden = {f"{a}-{b}" for a in range(7) for b in range(a, 7)} - on_table
    line = [(a, b, d) for a, b, d, _i in kozel.line_tiles(pub)]
    _placed, length, _w, _h = kozel.fit_snake(line, kozel.chain_area(players))
    im = table_image(pub, ["A", "B", "C", "D"][:players])
    a, b = parse_tile(pub["chain"][0]["tile"])  # the probe does find what lies on the table
    assert any(contains(im, s, tile_core(s)) for s in _sprites(a, b, length))
    for code in sorted(hidden):
        a, b = parse_tile(code)
        sprites = _sprites(a, b, length) + _sprites(a, b, kozel.OWN_LENGTH) + _sprites(a, b, kozel.SHOWN_LENGTH)
        assert not any(contains(im, s, tile_core(s)) for s in sprites), f"{code} shown"


def test_sheet_writes_remembered_in_yellow_and_open_accounts_in_red(positions):
    from renderers import palette

    base = positions[4]["round_over"].view(None)
    row = {
        "round": 1,
        "scores": [0, 0, 20, 0],
        "totals": [0, 0, 20, 0],
        "redeal": False,
        "ending": "out",
        "by": 0,
        "points": [0, 3, 13, 5],
        "gained": [0, 3, 13, 5],
        "remembered": [0, 3, 0, 9],
        "opened": [False, False, True, False],
        "carry_in": 0,
        "carry": 0,
        "carry_to": None,
        "fish_to": None,
    }
    im = sheet_image(
        dict(
            base, score_sheet=[row], totals=[0, 0, 20, 0], remembered=[0, 3, 0, 9], opened=[False, False, True, False]
        ),
        None,
    )
    colours = {rgb for _n, rgb in im.getcolors(1 << 20)}
    assert palette.INK_YELLOW[:3] in colours and palette.INK_RED[:3] in colours


def test_round_over_bubbles_show_the_points_counted_from_the_tiles(positions):
    v = positions[3]["round_over"].view(None)
    last = v["score_sheet"][-1]
    for s in range(3):
        bubble = kozel._bubble_for(v, s, "ru")
        if last.get("ending") == "out" and last.get("by") == s:
            continue
        counted = sum(a + b for a, b in (parse_tile(t) for t in v["revealed"][s]))
        assert counted == last["points"][s]
        color = kozel.OPENED if last["opened"][s] else kozel.REMEMBERED
        assert bubble is T.bubble_sprite(f"+{counted}", color, (20, 24, 22, 220))


def test_rating_is_drawn_only_when_the_game_is_rated_and_named_as_rating():
    over = find("kozel", 4, only=("game_over",))["game_over"].view(None)
    assert over["rating"]
    rated = sheet_image(over, ["A", "B", "C", "D"], lang="uk")
    unrated = sheet_image(dict(over, rating=None), ["A", "B", "C", "D"], lang="uk")
    assert rated.height > unrated.height  # the ★ rating line and its legend
    seat = next(s for s in range(4) if s != over["loser"])
    text = f"\u2605 Рейтинг {kozel.signed(int(over['rating'][seat]))}"
    assert kozel._bubble_for(over, seat, "uk") is T.bubble_sprite(
        text, T.palette.TEXT_DARK, (190, 200, 255, 245), T.SMALL
    )
    assert kozel._bubble_for(dict(over, rating=None), seat, "uk") is None
