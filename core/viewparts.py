"""Cheap parts of a seat's view that every view repeats: the options as a dict and the finished score-sheet rows.

``options_dict`` turns an options object into its dict once per object (``dataclasses.asdict`` is slow) and
hands out a fresh shallow copy each time: option values are plain scalars, so a caller may change it freely.
``sheet_rows`` converts each finished row of a score sheet once per game state and shares the converted rows
between views: the list is new for every view, the rows in it are READ-ONLY (nothing in ``bot/``,
``renderers/`` or ``core/ai`` changes them; copy a row before changing it). A finished row never changes
(the engines only append rows, and a copied state shares its rows), and a row is converted again whenever
the state holds a different row object at that place (a state loaded or copied).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

_OPTIONS: dict[Any, dict[str, Any]] = {}


def options_dict(options: Any) -> dict[str, Any]:
    """``options.to_dict()`` of a frozen (hashable) options object, as a fresh copy of a cached dict."""
    cached = _OPTIONS.get(options)
    if cached is None:
        if len(_OPTIONS) > 1024:  # tables with unusual options come and go: keep the cache small
            _OPTIONS.clear()
        cached = _OPTIONS[options] = options.to_dict()
    return dict(cached)


def sheet_rows(state: Any, rows: Sequence[dict[str, Any]], convert: Callable[[dict[str, Any]], Any]) -> list[Any]:
    """``[convert(r) for r in rows]``, each finished row converted once per state (the rows are shared)."""
    held = state.__dict__.get("_sheet_rows_cache")
    if held is None or held[0] != id(state):  # none yet, or copied along with another state's attributes
        held = state.__dict__["_sheet_rows_cache"] = (id(state), [])
    cache: list[tuple[dict[str, Any], Any]] = held[1]
    out = []
    for i, r in enumerate(rows):
        if i < len(cache) and cache[i][0] is r:
            out.append(cache[i][1])
            continue
        del cache[i:]
        converted = convert(r)
        cache.append((r, converted))
        out.append(converted)
    del cache[len(rows) :]
    return out
