"""Card and domino art, fonts and names: sizes, caching, the four-colour deck, names that never overflow."""

from __future__ import annotations

from PIL import Image

from renderers import cards, dominoes, labels, palette, text
from renderers import table as T
from tests.render_probe import card_core, contains

ALL_CARDS = [r + s for s in cards.SUITS for r in cards.RANKS]


def test_font_and_licence_are_shipped():
    for path in (text.REGULAR, text.BOLD):
        assert path.is_file() and path.stat().st_size > 100_000
    licence = (text.FONT_DIR / "LICENSE-DejaVu.txt").read_text(encoding="utf-8")
    assert "Bitstream Vera" in licence and "Arev" in licence
    assert text.has_glyph("Ж") and text.has_glyph("ї") and text.has_glyph("ґ")


def test_every_card_face_is_distinct_and_cached():
    faces = [cards.card_face(c, 104) for c in ALL_CARDS]
    assert all(f.size == (104, 146) and f.mode == "RGBA" for f in faces)
    assert len({f.tobytes() for f in faces}) == 32
    assert cards.card_face("AS", 104) is faces[cards.RANKS.index("A")]  # drawn once, then cached
    assert cards.card_back(104).size == (104, 146)


def test_four_colour_deck_recolours_only_diamonds_and_clubs():
    for card in ("QS", "7H"):
        assert cards.card_face(card, 90, "four").tobytes() == cards.card_face(card, 90).tobytes()
    for card, ink in (("QD", palette.SUIT_BLUE), ("9C", palette.SUIT_GREEN)):
        four = cards.card_face(card, 90, "four")
        assert four.tobytes() != cards.card_face(card, 90).tobytes()
        colours = {rgb for _n, rgb in four.convert("RGB").getcolors(1 << 16)}
        assert ink in colours


def test_dimmed_card_is_darker_and_keeps_its_shape():
    face, dim = cards.card_face("KD", 120), cards.card_face("KD", 120, dim=True)
    assert dim.getchannel("A").tobytes() == face.getchannel("A").tobytes()

    def brightness(im: Image.Image) -> int:
        return sum(n * v for n, v in im.convert("L").getcolors(256))

    assert brightness(dim) < brightness(face)


def test_domino_tiles_horizontal_vertical_and_back():
    v = dominoes.tile_face(2, 5, 120, True)
    h = dominoes.tile_face(2, 5, 120, False)
    assert v.size == (60, 120) and h.size == (120, 60)
    assert dominoes.tile_face(5, 2, 120, True).tobytes() != v.tobytes()  # the halves keep their places
    faces = {dominoes.tile_face(a, b, 80, True).tobytes() for a in range(7) for b in range(a, 7)}
    assert len(faces) == 28
    assert dominoes.tile_back(80, False).size == (80, 40)
    assert dominoes.parse_tile("3-6") == (3, 6)


def test_clean_name_strips_emoji_and_keeps_cyrillic():
    assert text.clean_name("Bob 🔥🔥") == "Bob"
    assert text.clean_name("Ґалина\u200d Їжак") == "Ґалина Їжак"
    assert text.clean_name("👍👍", "Seat 2") == "Seat 2"
    assert text.clean_name("Chen 陈静") == "Chen 陈静"  # drawn with the fallback font
    assert text.clean_name("Thai \U000e0061") == "Thai"  # a tag character no font draws
    assert text.clean_name("a\nb\x00c") == "a bc"
    assert labels.seat_names(["", None, "Ann"], 4, "ru") == ["Игрок 1", "Игрок 2", "Ann", "Игрок 4"]


def test_names_are_whole_with_a_short_form_that_never_collides():
    names = labels.seat_names(["Александр Петров", "Александр Сидоров", "Bob 🔥", "陈静"], 4, "ru")
    assert names == ["Александр Петров", "Александр Сидоров", "Bob", "陈静"]
    assert [n.short for n in names] == ["Александр П.", "Александр С.", "Bob", "陈静"]
    alike = labels.seat_names(["Александр Петров", "Александр Петренко", "Ann", "Ann"], 4, "uk")
    assert alike == ["Александр Петров", "Александр Петренко", "Ann (3)", "Ann (4)"]
    assert [n.short for n in alike] == ["Александр Петро.", "Александр Петре.", "Ann (3)", "Ann (4)"]
    assert len({n.short.casefold() for n in alike}) == 4


def test_a_name_is_cut_only_as_far_as_its_room_needs_and_never_below_its_short_form():
    from renderers.names import fit_name

    a, b = labels.seat_names(["Александр Петров", "Александр Петренко"], 2, "ru")
    assert fit_name(a, 30, True, 1000) == "Александр Петров"  # room enough: whole
    for width in range(120, 420, 10):
        fa, fb = fit_name(a, 30, True, width), fit_name(b, 30, True, width)
        assert text.text_width(fa, 30, True) <= width and text.text_width(fb, 30, True) <= width
        assert fa != fb, width  # never "Александр П." for both
    room = text.text_width("Александр Петр.", 30, True)
    assert fit_name(a, 30, True, room) == "Алекса… Петро."  # "Петр." would look like Петренко
    alone, _ = labels.seat_names(["Александр Петров", "Bob"], 2, "ru")
    assert fit_name(alone, 30, True, room) == "Александр Петр."  # only the letters that do not fit are cut
    # a script DejaVu lacks keeps the real name, never "Игрок N" beside real names
    assert labels.seat_names(["李小龙", "Bob"], 2, "ru") == ["李小龙", "Bob"]


def test_fallback_font_draws_a_script_dejavu_lacks():
    assert not text.has_glyph("陈") and text.has_fallback_glyph("陈")
    assert text.runs("Chen 陈静") == (("Chen ", False), ("陈静", True))
    sprite = text.text_sprite("陈静", 30, (255, 255, 255, 255), True)
    assert sprite.getchannel("A").getbbox() is not None and sprite.width >= 50
    licence = (text.FONT_DIR / "LICENSE-DroidSansFallback.txt").read_text(encoding="utf-8")
    assert "Apache License" in licence and text.FALLBACK.stat().st_size > 1_000_000


def test_names_that_still_look_alike_keep_their_distinguishing_part_when_cut():
    from renderers.names import fit_name

    a, b = labels.seat_names(["Александра Константинопольская", "Александра Константинова"], 2, "ru")
    assert a != b
    width = 260
    fa, fb = fit_name(a, 30, True, width), fit_name(b, 30, True, width)
    assert fa != fb and text.text_width(fa, 30, True) <= width and text.text_width(fb, 30, True) <= width
    from renderers import sheet

    for players in (2, 3, 4):  # the score sheet's column heads (names on two lines) keep them apart too
        room = sheet.seat_width(players) - 16
        la, lb = sheet._name_lines(a, room), sheet._name_lines(b, room)
        assert la != lb and all(text.text_width(line, sheet.NAME_SIZE, True) <= room for line in la + lb)


def test_ellipsize_fits_the_measured_width():
    name = "Олександр Вишневський-Коваленко"  # 31 characters
    for width in (60, 150, 268):
        cut = text.ellipsize(name, 28, True, width)
        assert text.text_width(cut, 28, True) <= width
        assert cut.endswith("…") and name.startswith(cut[:-1].rstrip())
    assert text.ellipsize("Ann", 28, True, 268) == "Ann"


def test_long_name_never_leaves_its_plate():
    """Draw a plate with the longest names on a blank canvas: nothing outside the plate changes."""
    for name in ("Ш" * 32, "W" * 32, "Александра Константинопольская"):
        for kwargs in ({}, {"dealer": "С", "crown": True, "active": False}):
            bg = Image.new("RGB", T.size(3), (0, 0, 0))
            im = bg.copy()
            spot = T.layout(3)[0]
            T.draw_plate(im, spot, name, "-1000", **kwargs)
            x0, y0 = spot.plate[0] - spot.plate_w // 2, spot.plate[1] - T.PLATE_H // 2
            box = (x0, y0, x0 + spot.plate_w, y0 + T.PLATE_H)
            outside = im.copy()
            outside.paste((0, 0, 0), box)
            assert outside.getbbox() is None, f"{name!r} drawn outside its plate"


def test_probe_finds_a_pasted_card_and_nothing_else():
    canvas = Image.new("RGB", (400, 300), palette.FELT)
    sprite = cards.card_face("QH", 104)
    canvas.paste(sprite, (123, 77), sprite)
    assert contains(canvas, sprite, card_core(sprite))
    other = cards.card_face("QD", 104)
    assert not contains(canvas, other, card_core(other))
