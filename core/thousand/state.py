"""``ThousandState``: the Thousand engine together with what a seat sees and how the game is stored.

The package reads one way: cards, actions, options, deal, bidding, play and scoring below; the engine
(``engine.py``) that composes them and its hot path (``fastpath.py``); the view (``view.py``) and the storage
(``persist.py``) on top of the engine; and this class, which everyone else uses, on top of all of them.
"""

from __future__ import annotations

from typing import Any, Self

from core.thousand.engine import ACTION_TYPES, PLAY_PHASES
from core.thousand.fastpath import ThousandFastEngine
from core.thousand.persist import dump_state, load_state
from core.thousand.view import view_of

__all__ = ["ACTION_TYPES", "PLAY_PHASES", "ThousandState"]


class ThousandState(ThousandFastEngine):
    """One Thousand game: the rules (``ThousandEngine``, fast on its common moves), its views and its JSON."""

    def view(self, seat: int | None) -> dict[str, Any]:
        return view_of(self, seat)

    def to_json(self) -> dict[str, Any]:
        return dump_state(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Self:
        return load_state(cls, data)
