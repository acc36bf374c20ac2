"""``DebertsState``: the Deberts engine together with what a seat sees and how the game is stored.

The package reads one way: cards, options, deal, bidding, combinations, play and scoring below; the engine
(``engine.py``) that composes them; the view (``view.py``) and the storage (``persist.py``) on top of the
engine; and this class, which everyone else uses, on top of all of them.
"""

from __future__ import annotations

from typing import Any, Self

from core.deberts.engine import ACTION_FIELDS, ACTIVE, PHASES, DebertsEngine
from core.deberts.persist import dump_state, load_state
from core.deberts.view import build_view

__all__ = ["ACTION_FIELDS", "ACTIVE", "PHASES", "DebertsState"]


class DebertsState(DebertsEngine):
    """One Deberts game: the rules (``DebertsEngine``), its views and its JSON."""

    def view(self, seat: int | None) -> dict[str, Any]:
        return build_view(self, seat)

    def to_json(self) -> dict[str, Any]:
        return dump_state(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Self:
        return load_state(cls, data)
