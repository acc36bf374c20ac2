"""Every picture reads on a phone: the smallest type, taken from the layout, is at least 13 px when the
picture is shown 480 px wide — for every kind of picture of the gallery, every game, seat count and language."""

from __future__ import annotations

from functools import partial

import pytest

from renderers import measure, sheet_image, table_image
from renderers.demo.positions import SEATS, find
from renderers.hand import hand_image

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


def _deberts_round_ends():
    """Views of every round end of the hand-checked Deberts records: bait, hanging bait, pots paid out,
    winner takes all, runs lost, bella — each line the sheet's breakdown can draw."""
    import json
    from pathlib import Path

    from core.records import replay

    views = []
    for path in sorted((Path(__file__).parent / "records" / "deberts").glob("*.json")):
        if path.name.endswith(".expected.json"):
            continue
        record = json.loads(path.read_text())
        for k in range(1, len(record["rounds"]) + 1):
            state = replay(dict(record, rounds=record["rounds"][:k]))
            if state.phase in ("round_over", "game_over") and state.view(None)["round_breakdown"]:
                views.append(state.view(None))
    return views


def test_the_deberts_round_breakdown_reads_at_480_px_in_every_language():
    views = _deberts_round_ends()
    kinds = {v["round_breakdown"]["result"] for v in views}
    assert kinds == {"made", "bait", "hanging"}
    for view in views:
        names = NAMES[: view["players"]]
        for lang in ("ru", "uk", "en"):
            size, width = _smallest(partial(sheet_image, view, names, "classic", lang))
            assert size >= measure.min_type(width), f"{lang} round {view['round_breakdown']['round']}: {size} px"
            plain = sheet_image(dict(view, round_breakdown=None), names, "classic", lang)
            shown = sheet_image(view, names, "classic", lang)
            assert shown.width == plain.width and shown.height >= plain.height + 5 * 34  # title and 4+ lines
