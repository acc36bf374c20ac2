"""``KozelState``: the Kozel engine together with what a seat sees and how the game is stored.

The package reads one way: tiles, options, deal, chain, play and scoring below; the engine (``engine.py``)
that composes them; the view (``view.py``) and the storage (``persist.py``) on top of the engine; and this
class, which everyone else uses, on top of all of them.
"""

from __future__ import annotations

from typing import Any, Self

from core.kozel.engine import PHASES, KozelEngine
from core.kozel.persist import dump_state, load_state
from core.kozel.view import build_view

__all__ = ["PHASES", "KozelState"]


class KozelState(KozelEngine):
    """One Kozel game: the rules (``KozelEngine``), its views and its JSON."""

    def view(self, seat: int | None) -> dict[str, Any]:
        return build_view(self, seat)

    def to_json(self) -> dict[str, Any]:
        return dump_state(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Self:
        return load_state(cls, data)
