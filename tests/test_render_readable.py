"""Every picture reads on a phone: the smallest type, taken from the layout, is at least 13 px when the
picture is shown 480 px wide — for every kind of picture of the gallery, every game, seat count and language."""

from __future__ import annotations

from functools import partial

import pytest

from renderers import measure, sheet_image, table_image
from renderers.hand import hand_image
from renderers.positions import SEATS, find

NAMES = ["Александра Константинопольская", "Bob 🔥🔥", "Олександр Вишневський-Коваленко-Пе", "Chen Jing 陈静"]
CASES = [(game, n) for game, counts in SEATS.items() for n in counts]


def _smallest(draw) -> tuple[int, int]:
    """(smallest type size drawn, picture width) for one picture."""
    with measure.recording() as sizes:
        im = draw()
    assert sizes, "a picture with words or numbers reports their sizes"
    return min(sizes), im.width


@pytest.mark.parametrize(("game", "players"), CASES)
def test_every_picture_kind_reads_at_480_px(game, players):
    moments = find(game, players)
    assert {"round_over", "game_over"} <= set(moments)
    names = NAMES[:players]
    for lang in ("ru", "uk", "en"):
        for moment, state in moments.items():
            pub = state.view(None)
            seat = state.to_act if state.to_act is not None else 0
            own = state.view(seat)
            pictures = {
                "table": partial(table_image, pub, names, "classic", lang),
                "private table": partial(table_image, own, names, "four", lang),
                "sheet": partial(sheet_image, pub, names, "classic", lang),
            }
            if lang == "ru" and own.get("hand") and game != "kozel":  # tiles carry no words or numbers
                pictures["hand"] = partial(hand_image, own)
            for kind, draw in pictures.items():
                size, width = _smallest(draw)
                at_phone = measure.at_phone(size, width)
                assert size >= measure.min_type(width), (
                    f"{game} {players}p {moment} {kind} ({lang}): {size} px type in a {width} px picture "
                    f"is {at_phone:.1f} px at 480 px wide"
                )


def test_the_recorder_sees_text_inside_cached_sprites():
    from renderers import table as T

    T.bubble_sprite("pass", (0, 0, 0, 255), (255, 255, 255, 255), 40)  # built once, outside any recording
    with measure.recording() as sizes:
        T.bubble_sprite("pass", (0, 0, 0, 255), (255, 255, 255, 255), 40)
    assert sizes == [40]
    assert measure.min_type(480) == 13 and measure.min_type(960) == 26
