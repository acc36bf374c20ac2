"""Thousand pictures from real positions: every seat count renders, sizes and limits, no hidden card shown."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from renderers import render_hand, render_score_sheet, render_table, sheet, table_image
from renderers import table as T
from renderers.cards import card_face
from renderers.demo.positions import find
from renderers.hand import CARD_WIDTH, hand_image, sort_cards
from tests.render_probe import card_core, contains

NAMES = ["Александра Константинопольская", "Bob 🔥", "W" * 32, "Ґалина"]
MOMENTS = ("bidding", "give", "play", "round_over")


@pytest.fixture(scope="module")
def positions():
    return {n: find("thousand", n, only=MOMENTS) for n in (2, 3, 4)}


def _decode(pic) -> Image.Image:
    im = Image.open(io.BytesIO(pic.data))
    im.load()
    return im


def _within_limits(im: Image.Image, data: bytes) -> bool:
    w, h = im.size
    return len(data) < 10 * 1024 * 1024 and w + h <= 10_000 and max(w, h) / min(w, h) <= 20


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_picture_renders_for_every_seat_count(positions, players):
    found = positions[players]
    assert set(found) == set(MOMENTS)
    for state in found.values():
        pub = state.view(None)
        pic = render_table(pub, NAMES[:players], lang="ru")
        im = _decode(pic)
        assert im.size == T.size(players) and _within_limits(im, pic.data)
        seat = state.to_act
        own = state.view(seat)
        assert _decode(render_table(own, NAMES[:players], style="four", lang="uk")).size == T.size(players)
        if own["hand"]:
            hpic = render_hand(own)
            him = _decode(hpic)
            assert _within_limits(him, hpic.data) and him.height < him.width
        spic = render_score_sheet(pub, NAMES[:players], lang="en")
        sim = _decode(spic)
        assert _within_limits(sim, spic.data)
        assert sim.width == sheet.columns(players, True)[0]


def _deal_cards(state) -> set[str]:
    deal = state.record()["rounds"][-1]["deal"]
    cards = {c for hand in deal["hands"] for c in hand}
    return cards | {c for talon in deal["talon"] for c in talon}


def _public_cards(view) -> set[str]:
    shown = {e["card"] for e in view["trick"]}
    if view["last_trick"]:
        shown |= {e["card"] for e in view["last_trick"]["cards"]}
    for t in view["talons"]:
        shown |= set(t["cards"] or ())
    return shown


@pytest.mark.parametrize("players", [2, 3, 4])
def test_public_table_never_shows_a_hidden_card(positions, players):
    for moment in ("bidding", "play"):
        state = positions[players][moment]
        pub = state.view(None)
        im = table_image(pub, NAMES[:players])
        visible = _public_cards(pub)
        hidden = _deal_cards(state) - visible
        assert len(hidden) >= 10
        for card in sorted(hidden):
            for width in T.FACE_WIDTHS:
                face = card_face(card, width)
                assert not contains(im, face, card_core(face)), f"{card} at {width}px shown in {moment}"
        for entry in pub["trick"]:  # the probe does find what is really on the table
            face = card_face(entry["card"], T.trick_card(players))
            assert contains(im, face, card_core(face))


def test_private_table_shows_own_cards_only(positions):
    state = positions[3]["play"]
    seat = state.to_act
    own = state.view(seat)
    im = table_image(own, NAMES[:3])
    for card in own["hand"]:
        face = card_face(card, T.OWN_CARD)
        assert contains(im, face, card_core(face))
    others = {c for s in range(3) if s != seat for c in state.view(s)["hand"]}
    for card in others - _public_cards(own) - {g["card"] for g in own["given"]}:
        face = card_face(card, T.OWN_CARD)
        assert not contains(im, face, card_core(face))


def test_hand_is_sorted_trump_first_and_dims_what_cannot_be_played():
    assert sort_cards(["9S", "AH", "TS", "KH", "QC", "AD"], "thousand", "C") == ["QC", "AH", "KH", "TS", "9S", "AD"]
    assert sort_cards(["7D", "JD", "9D", "AD", "QS"], "deberts", "D")[:4] == ["JD", "9D", "AD", "7D"]
    view = {
        "game": "thousand",
        "hand": ["AS", "KS", "QH", "9H", "TC"],
        "trump": "H",
        "legal": [{"seat": 0, "type": "play", "card": "QH"}, {"seat": 0, "type": "play", "card": "9H"}],
    }
    im = hand_image(view)
    for card in ("QH", "9H"):
        face = card_face(card, CARD_WIDTH)
        assert contains(im, face, card_core(face))
    for card in ("AS", "KS"):  # TC is the last card: its index is visible too
        dim = card_face(card, CARD_WIDTH, dim=True)
        assert contains(im, dim, card_core(dim))
        face = card_face(card, CARD_WIDTH)
        assert not contains(im, face, card_core(face))


def test_score_sheet_marks_every_event_and_folds_long_games(positions):
    base = positions[3]["round_over"].view(None)
    notes = [
        {"seat": 0, "type": "bolt", "value": 1},
        {"seat": 0, "type": "bolt_penalty", "value": -120},
        {"seat": 1, "type": "barrel_on", "value": 0},
        {"seat": 2, "type": "barrel_fall", "value": -120},
        {"seat": 2, "type": "dump_truck", "value": -555},
        {"seat": 1, "type": "missed_barrels_reset", "value": -700},
    ]
    row = {
        "round": 1,
        "scores": [0, 880, -120],
        "totals": [-120, 880, 0],
        "redeal": False,
        "declarer": 1,
        "contract": 120,
        "made": True,
        "conceded": False,
        "golden": True,
        "notes": notes,
    }
    redeal = dict(row, round=2, redeal=True, notes=[])
    rows = [row, redeal] + [dict(row, round=k, notes=[]) for k in range(3, 60)]
    im = sheet_image_for(base, rows)
    longer = sheet_image_for(base, rows + [dict(row, round=k, notes=[]) for k in range(60, 120)])
    assert im.height == longer.height  # folded: only the last rounds are drawn, however long the game
    short = sheet_image_for(base, [row, redeal])
    assert short.height < im.height


def sheet_image_for(view, rows) -> Image.Image:
    from renderers import sheet_image

    return sheet_image(dict(view, score_sheet=rows), NAMES[:3])


def test_pictures_can_be_drawn_from_several_threads(positions):
    """A bot renders in worker threads: shared caches must give the same pictures as one thread does."""
    from concurrent.futures import ThreadPoolExecutor

    views = [s.view(None) for n in (2, 3, 4) for s in positions[n].values()]
    alone = [render_score_sheet(v, NAMES[: v["players"]]).data for v in views]
    alone_tables = [render_table(v, NAMES[: v["players"]]).data for v in views]
    with ThreadPoolExecutor(4) as pool:
        sheets = list(pool.map(lambda v: render_score_sheet(v, NAMES[: v["players"]]).data, views))
        tables = list(pool.map(lambda v: render_table(v, NAMES[: v["players"]]).data, views))
    assert sheets == alone and tables == alone_tables


def test_sheet_shows_the_round_as_scored_and_each_penalty_apart():
    """A made 105 beside a third bolt's −120 shows +105 and −120, never the −15 change of the total."""
    from renderers import palette, shapes
    from renderers.thousand import _sheet_row

    notes = [
        {"seat": 0, "type": "bolt_penalty", "value": -120},
        {"seat": 1, "type": "dump_truck", "value": -555},
    ]
    row = {
        "round": 7,
        "scores": [-15, -495, 40],
        "totals": [300, 0, 420],
        "redeal": False,
        "declarer": 0,
        "contract": 105,
        "made": True,
        "conceded": False,
        "golden": False,
        "notes": notes,
    }
    cells = _sheet_row(row, 3, "ru").cells

    def ink(text, color, bold=False):
        return sheet.ink(text, color, bold, sheet.SMALL_INK)

    made, penalty = ink("+105", palette.INK_GREEN), ink("\u2212120", palette.INK_RED, True)
    assert made in cells[0].parts and penalty in cells[0].parts
    assert ink("\u221215", palette.INK_RED) not in cells[0].parts
    assert shapes.stick(9, 28, (120, 90, 50)) in cells[0].parts  # the third bolt itself
    assert ink("+60", palette.INK_GREEN) in cells[1].parts  # what he took in the round, then the truck
    assert ink("555\u21920", palette.INK_BLUE, True) in cells[1].parts
    assert cells[0].marker == palette.MARKER_YELLOW and cells[1].marker is None


def test_four_player_sheet_marks_the_dealer_sitting_out(positions):
    """Each row knows who sat out dealing: the seat dealt no cards in that round's record."""
    from renderers.thousand import _row_dealers

    for moment in ("round_over", "play"):
        state = positions[4][moment]
        v = state.view(None)
        rows = v["score_sheet"]
        dealt = [next(i for i, h in enumerate(r["deal"]["hands"]) if not h) for r in state.record()["rounds"]]
        assert rows and _row_dealers(v, rows) == dealt[: len(rows)]


def test_dealer_chip_speaks_the_chat_language_and_the_winner_has_no_barrel(positions):
    from renderers import shapes
    from renderers.thousand import _plate_marks
    from tests.render_probe import contains

    pub = positions[3]["bidding"].view(None)
    for lang, letter in (("ru", "С"), ("uk", "Р"), ("en", "D")):
        im = table_image(pub, NAMES[:3], lang=lang)
        for other in {"С", "Р", "D"}:
            chip = shapes.chip(48, other, (250, 250, 246), (40, 40, 48))
            core = (14, 14, 34, 34)
            assert contains(im, chip, core) == (other == letter), f"{other} chip in {lang}"
    won = dict(pub, winner=1, barrel=[False, True, False], barrel_attempts=[0, 1, 0])
    assert _plate_marks(won, 1) == []
    assert _plate_marks(dict(won, winner=None), 1) != []


def test_a_golden_round_on_the_sheet_is_named_in_the_legend():
    """Gold paper alone does not say why a made 115 shows +230: the legend names the golden round ×2."""
    from renderers.thousand import _legend

    row = {
        "round": 1,
        "scores": [230, 0, 0],
        "totals": [230, 0, 0],
        "redeal": False,
        "declarer": 0,
        "contract": 115,
        "made": True,
        "conceded": False,
        "golden": True,
        "notes": [],
    }
    plain = dict(row, golden=False, scores=[115, 0, 0], totals=[115, 0, 0])
    common = _legend([plain], 3, "ru")  # this round's score, the declarer's cell, a made contract
    assert len(common) == 3
    *same, item = _legend([row], 3, "ru")
    assert len(same) == len(common)
    assert item.width > sheet.legend_item(None, "золотой \u00d72").width  # the gold swatch and its words
