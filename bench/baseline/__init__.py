"""A frozen copy of the Thousand ``normal`` computer player as it was before issue 18, the yardstick of its goals.

Seat it in self-play by naming this module: ``python -m core.selfplay --game thousand --players 3
--seats normal,bench.baseline,bench.baseline``. ``player(game, seed)`` returns an object with the same
``decide(view, history)`` as ``core.ai.ComputerPlayer``; the policy lives in ``bench/baseline/thousand``
(copies of ``core/ai/thousand`` normal, cardplay, estimate, memory and table) and decisions are seeded
exactly as they were then. Do not change this package: it is the "before" the new player is measured against.
"""

from __future__ import annotations

from bench.baseline.player import BaselinePlayer, player

__all__ = ["BaselinePlayer", "player"]
