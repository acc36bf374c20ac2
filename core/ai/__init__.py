"""Computer players for every game: ``player(game, level, seed).decide(view, history) -> Action``.

A computer player is honest: it decides only from its own seat's ``view`` (``state.view(seat)``) and the
public event history of the game (at least every event since the current round started). Levels:

- ``random``: a uniformly random legal action;
- ``easy``: simple rules with randomness, legal and sensible-looking, beatable;
- ``normal``: hand evaluation for bidding, sensible discards and contracts, card play that remembers the
  cards played and the voids shown;
- ``strong``: determinized Monte Carlo search over the hidden cards, with ``normal`` play-outs.

Decisions are reproducible: the same seed, view and history give the same action.
"""

from __future__ import annotations

from core.ai.player import LEVELS, ComputerPlayer, player

__all__ = ["LEVELS", "ComputerPlayer", "player"]
