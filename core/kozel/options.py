"""Kozel table conventions: how a fish is scored (docs/rules-kozel.md, the record option ``fish``)."""

from __future__ import annotations

from dataclasses import dataclass

from core.base import Options, option


@dataclass(frozen=True)
class KozelOptions(Options):
    fish: str = option(
        "all",
        ("all", "one"),
        "fish scoring: 'all' = everyone scores his own hand; 'one' = the player with the most points takes the "
        "sum of all hands (a tie carries the sum to the next round)",
    )
