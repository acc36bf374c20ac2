"""The registry of game kinds: ``get("thousand")`` returns that game's ``GameRules``."""

from __future__ import annotations

import importlib

from core.base import GameRules, OptionsError

# Game name -> module that exposes ``RULES`` (a GameRules instance).
_MODULES = {
    "thousand": "core.thousand",
    "deberts": "core.deberts",
    "kozel": "core.kozel",
}

NAMES = tuple(_MODULES)


def get(name: str) -> GameRules:
    """The rules of a game by name; raises ``OptionsError`` for an unknown game."""
    module = _MODULES.get(name) if isinstance(name, str) else None
    if module is None:
        raise OptionsError(f"unknown game '{name}'", "unknown_game", game=name)
    return importlib.import_module(module).RULES


def available() -> list[str]:
    """Names of the games whose package is present."""
    out = []
    for name, module in _MODULES.items():
        try:
            importlib.import_module(module)
        except ModuleNotFoundError:
            continue
        out.append(name)
    return out
