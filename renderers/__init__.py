"""Pictures of hands, tables and score sheets drawn with Pillow from game views (bytes out, no chat code).

    from renderers import render_hand, render_table, render_score_sheet
    pic = render_table(state.view(None), names=["Аня", "Bob", "Chen"], lang="ru")
    pic.data, pic.format, pic.width, pic.height      # JPEG bytes ready to send as a photo

Every call takes a view (``state.view(seat)``: plain JSON data) and dispatches on ``view["game"]``. Only what
the view holds is drawn, so a public view gives a public picture. ``style`` is the deck: ``"classic"`` or
``"four"`` (four colours: ♦ blue, ♣ green); ``lang`` (``en``, ``ru``, ``uk``) is for the few words drawn.
"""

from __future__ import annotations

import importlib
from typing import Any

from PIL import Image

from core import games
from renderers.hand import hand_image
from renderers.output import Picture, encode

__all__ = ["Picture", "render_hand", "render_table", "render_score_sheet", "table_image", "sheet_image"]


def _module(view: dict[str, Any]):
    """The game's pictures module, as the registry (``core.games``) names it."""
    game = view.get("game") if isinstance(view, dict) else None
    if game not in games.NAMES:
        raise ValueError(f"no pictures for game {game!r}")
    return importlib.import_module(games.entry(game).renderer_module)


def table_image(
    view: dict[str, Any], names: list[str] | None = None, style: str = "classic", lang: str = "en"
) -> Image.Image:
    return _module(view).table_image(view, names, style, lang)


def sheet_image(
    view: dict[str, Any], names: list[str] | None = None, style: str = "classic", lang: str = "en"
) -> Image.Image:
    return _module(view).sheet_image(view, names, style, lang)


def render_hand(view: dict[str, Any], style: str = "classic", lang: str = "en", fmt: str | None = None) -> Picture:
    """The viewer's own cards or tiles (``view`` must be a seat's view, not the public one)."""
    im = hand_image(view, style)
    return encode(im) if fmt is None else encode(im, fmt)


def render_table(
    view: dict[str, Any],
    names: list[str] | None = None,
    style: str = "classic",
    lang: str = "en",
    fmt: str | None = None,
) -> Picture:
    """The table as the view's seat (or everybody, for ``view(None)``) sees it."""
    im = table_image(view, names, style, lang)
    return encode(im) if fmt is None else encode(im, fmt)


def render_score_sheet(
    view: dict[str, Any],
    names: list[str] | None = None,
    style: str = "classic",
    lang: str = "en",
    fmt: str | None = None,
) -> Picture:
    """The game's score sheet: a row per round, running totals, the game's marks."""
    im = sheet_image(view, names, style, lang)
    return encode(im) if fmt is None else encode(im, fmt)
