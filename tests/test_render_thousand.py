"""Thousand pictures from real positions: every seat count renders, sizes and limits, no hidden card shown."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from renderers import render_hand, render_score_sheet, render_table, sheet, table_image
from renderers import table as T
from renderers.cards import card_face
from renderers.hand import CARD_WIDTH, hand_image, sort_cards
from renderers.positions import find
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
        assert im.size == (T.WIDTH, T.HEIGHT) and _within_limits(im, pic.data)
        seat = state.to_act
        own = state.view(seat)
        assert _decode(render_table(own, NAMES[:players], style="four", lang="uk")).size == (T.WIDTH, T.HEIGHT)
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
            face = card_face(entry["card"], T.TRICK_CARD)
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
    row = {"round": 1, "scores": [0, 880, -120], "totals": [-120, 880, 0], "redeal": False, "declarer": 1,
           "contract": 120, "made": True, "conceded": False, "golden": True, "notes": notes}  # fmt: skip
    redeal = dict(row, round=2, redeal=True, notes=[])
    rows = [row, redeal] + [dict(row, round=k, notes=[]) for k in range(3, 60)]
    im = sheet_image_for(base, rows)
    assert im.height == sheet.PAD * 2 + sheet.HEAD_H + sheet.MAX_ROWS * sheet.ROW_H + sheet.FOOT_H
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
