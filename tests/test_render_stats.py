"""The statistics pictures (``me`` and ``top``) read on a phone: every word at least 13 px when shown 480 px wide,
and a long name is drawn whole (wrapped, never cut); decoded back with Pillow."""

from __future__ import annotations

import io

from PIL import Image

from renderers import measure, stats

NAME = "Александра Константинопольская-Л"  # 32 characters
assert len(NAME) == 32


def _drawn(monkeypatch) -> list[str]:
    texts: list[str] = []
    real = stats.paste_text

    def spy(canvas, xy, text, size, *args, **kwargs):
        texts.append(text)
        return real(canvas, xy, text, size, *args, **kwargs)

    monkeypatch.setattr(stats, "paste_text", spy)
    return texts


ME = {
    "title": NAME,
    "subtitle": "Kitchen table · 14 games, 6 wins (43%)",
    "games": [
        {"title": "Thousand", "line": "8 games, 4 wins (50%) · rating 27.3", "ratings": [25.0, 26.2, 24.9, 27.3]},
        {"title": "Kozel", "line": "6 games, 2 wins (33%)", "ratings": []},
    ],
    "badges_title": "Achievements (3 of 22)",
    "badges": ["First game", "First win", "A contract of 200 or more made"],
}
TOP = {
    "title": "Kitchen table",
    "sections": [
        {
            "title": "season 2026-11 (this month) · Thousand",
            "head": ["#", "Name", "Rating", "Wins"],
            "rows": [["1", NAME, "+3.0", "2/2"], ["2", "Bob", "−1.2", "0/2"]],
        },
        {"title": "All time · Kozel", "head": ["#", "Name", "Rating", "Wins"], "rows": [["1", NAME, "28.0", "5/9"]]},
    ],
}


def test_both_pictures_read_at_480_px_and_draw_the_name_whole(monkeypatch):
    for draw, data in ((stats.stats_image, ME), (stats.top_image, TOP)):
        drawn = _drawn(monkeypatch)
        with measure.recording() as sizes:
            im = draw(data)
        assert min(sizes) >= measure.min_type(im.width), f"{min(sizes)} px type in a {im.width} px picture"
        assert measure.at_phone(min(sizes), im.width) >= 13
        assert "…" not in "".join(drawn)  # nothing was cut
        joined = " ".join(drawn)
        assert all(part in joined for part in NAME.split(" "))  # the name, wrapped onto lines, is all there
        monkeypatch.undo()


def test_a_name_wider_than_its_column_wraps_between_letters():
    long = "W" * 40
    lines = stats._wrap(long, stats.TEXT, False, 300)
    assert len(lines) > 1 and "".join(lines) == long


def test_encoded_pictures_decode():
    for render, data in ((stats.render_stats, ME), (stats.render_top, TOP), (stats.render_stats, {"title": "Ann"})):
        picture = render(data)
        im = Image.open(io.BytesIO(picture.data))
        im.load()
        assert im.width == stats.WIDTH and im.height > 200
