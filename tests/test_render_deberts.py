"""Deberts pictures from real positions: both seat counts render, the sheet marks results, no hidden card."""

from __future__ import annotations

import io

import pytest
from PIL import Image

pytest.importorskip("core.deberts")

from renderers import deberts, render_hand, render_score_sheet, render_table, sheet_image, table_image  # noqa: E402
from renderers import table as T  # noqa: E402
from renderers.cards import card_face  # noqa: E402
from renderers.demo.positions import find  # noqa: E402
from tests.render_probe import card_core, contains  # noqa: E402

NAMES = ["Александра Константинопольская", "Bob 🔥", "Ґалина"]
MOMENTS = ("bidding", "play", "round_over")


@pytest.fixture(scope="module")
def positions():
    return {n: find("deberts", n, only=MOMENTS) for n in (2, 3)}


def _decode(data: bytes) -> Image.Image:
    im = Image.open(io.BytesIO(data))
    im.load()
    return im


@pytest.mark.parametrize("players", [2, 3])
def test_every_picture_renders(positions, players):
    assert set(positions[players]) == set(MOMENTS)
    for state in positions[players].values():
        pub = state.view(None)
        assert _decode(render_table(pub, NAMES[:players], lang="uk").data).size == T.size(players)
        own = state.view(state.to_act)
        assert _decode(render_table(own, NAMES[:players], style="four").data).size == T.size(players)
        if own["hand"]:
            hand = _decode(render_hand(own).data)
            assert hand.width > hand.height
        sheet = _decode(render_score_sheet(pub, NAMES[:players], lang="ru").data)
        assert sheet.width + sheet.height <= 10_000


def _visible(view) -> set[str]:
    shown = {e["card"] for e in view["trick"]}
    if view["last_trick"]:
        shown |= {e["card"] for e in view["last_trick"]["cards"]}
    if view["open_card"]:
        shown.add(view["open_card"]["shown"])
    if view["bottom_card"]:
        shown.add(view["bottom_card"])
    for runs in (view["runs"] or {}).get("by_seat", []):
        for run in runs:
            shown |= set(run.get("cards") or ())
    return shown


@pytest.mark.parametrize("players", [2, 3])
def test_public_table_never_shows_a_hidden_card(positions, players):
    for moment in ("bidding", "play"):
        state = positions[players][moment]
        pub = state.view(None)
        deal = state.record()["rounds"][-1]["deal"]
        dealt = {c for h in deal["hands"] for c in h} | {c for h in deal.get("extra", []) for c in h}
        hidden = dealt - _visible(pub)
        assert hidden
        im = table_image(pub, NAMES[:players])
        for card in sorted(hidden):
            for width in (*T.FACE_WIDTHS, deberts.RUN_CARD):
                face = card_face(card, width)
                assert not contains(im, face, card_core(face)), f"{card} shown at {width}px in {moment}"
        shown = pub["open_card"]["shown"]
        width = T.trick_card(players) if moment == "bidding" else T.MINI_CARD
        assert contains(im, card_face(shown, width), card_core(card_face(shown, width)))


def test_sheet_marks_bait_and_hanging(positions):
    base = positions[3]["round_over"].view(None)
    row = {
        "round": 1,
        "scores": [0, 70, 40],
        "totals": [0, 70, 40],
        "redeal": False,
        "declarer": 0,
        "trump": "H",
        "result": "bait",
        "points": [30, 50, 40],
        "hanging": 0,
        "hanging_paid": 0,
        "hanging_to": [],
    }
    hanging = dict(row, round=2, result="hanging", scores=[0, 20, 30], totals=[0, 90, 70], hanging=60)
    paid = dict(row, round=3, result="made", scores=[110, 0, 0], totals=[110, 90, 70], hanging_paid=60, hanging_to=[0])
    im = sheet_image(dict(base, score_sheet=[row, hanging, paid]), NAMES)
    bait_pink, hanging_blue = deberts.RESULT_MARKER["bait"][:3], deberts.RESULT_MARKER["hanging"][:3]
    colours = {rgb for _n, rgb in im.getcolors(1 << 20)}
    assert bait_pink in colours and hanging_blue in colours


def test_the_sheet_explains_the_last_round_under_the_totals():
    import json
    from pathlib import Path

    from core.deberts import RULES

    stored = Path(__file__).parent / "stored" / "deberts_3p_round7_before_breakdown.json"
    view = RULES.from_json(json.loads(stored.read_text(encoding="utf-8"))).view(None)
    assert view["round_breakdown"]["result"] == "bait"
    plain = sheet_image(dict(view, round_breakdown=None), NAMES, lang="ru")
    shown = sheet_image(view, NAMES, lang="ru")
    assert shown.height > plain.height
    pink = deberts.RESULT_MARKER["bait"][:3]
    below = shown.crop((0, plain.height - 40, shown.width, shown.height))  # the block under the totals
    assert pink in {rgb for _n, rgb in below.getcolors(1 << 20)}  # the declarer's round points, marked as a bait


@pytest.mark.parametrize("lang", ["ru", "uk", "en"])
def test_the_round_marks_beside_a_row_are_never_cut_off(lang):
    """A hanging round's marks (trump, "висит", "↷60") wrap onto three lines in the narrow column: the row
    grows to hold them all, so no mark touches the row's top or bottom edge."""
    from renderers import palette, sheet

    row = {
        "round": 5,
        "scores": [60, 0, 46],
        "totals": [284, 127, 278],
        "redeal": False,
        "declarer": 1,
        "trump": "S",
        "result": "hanging",
        "points": [60, 60, 46],
        "hanging": 60,
        "hanging_paid": 0,
        "hanging_to": [],
    }
    strip = sheet.row_image(deberts._sheet_row(row, 3, "classic", lang), 3, True)
    x0, x1 = sheet.PAD + sheet.ROUND_W, sheet.PAD + sheet.ROUND_W + sheet.EXTRA_W - 8
    for y in (0, 1, 2, strip.height - 3, strip.height - 2):
        edge = {strip.getpixel((x, y)) for x in range(x0, x1)}
        assert edge <= {palette.PAPER, palette.PAPER_LINE}, (y, edge - {palette.PAPER})


def test_the_gold_mark_under_a_hand_is_the_trump_suit_and_ends_with_the_trump_cards():
    """The mark under the hand explains itself: the trump suit's symbol, then a gold bar under the trump cards only
    (it used to run on under the next suit's cards, which half cover the last trump)."""
    from renderers import palette
    from renderers.hand import PAD, _card_xs, draw_cards, sort_cards

    cards = sort_cards(["KH", "8H", "9S", "7S", "AD", "AC", "KC", "JC", "8C"], "deberts", "H")
    assert cards[:2] == ["KH", "8H"]
    im = draw_cards(cards, set(cards), trump="H").convert("RGB")
    xs = _card_xs(cards, 150)
    gold = palette.GOLD[:3]

    def golden(x0: int, x1: int) -> int:
        row = range(im.height - PAD + 1, im.height)
        return sum(
            1 for x in range(x0, x1) for y in row if sum(abs(a - b) for a, b in zip(im.getpixel((x, y)), gold)) < 60
        )

    assert golden(xs[0], xs[0] + 14) > 20  # the heart, under the first trump
    assert golden(xs[1], xs[2] - 8) > 100  # the bar, under the trumps as far as they show
    assert golden(xs[2], im.width) == 0  # nothing under the spades and the rest
    assert golden(0, im.width) == golden(xs[0], xs[2])
