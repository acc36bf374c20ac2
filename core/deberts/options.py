"""Deberts table conventions (docs/rules-deberts.md) as typed options with their defaults."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from core.base import Options, option


@dataclass(frozen=True)
class DebertsOptions(Options):
    """Every Deberts convention; ``target`` defaults to 301 for two players and 501 for three."""

    target: int = option(301, (301, 501), "play until this total (default 301 for 2 players, 501 for 3)")
    winner_takes_all: bool = option(False, (False, True), "a declarer who makes it writes everyone's points")
    obligatory_order: bool = option(False, (False, True), "the dealer must name a suit when all others passed")
    seven_swap: bool = option(True, (True, False), "the declarer may swap the trump 7 for the open card")
    hanging_separately: bool = option(False, (False, True), "several hanging baits are played one per round")
    trump_in_combinations: str = option(
        "moscow", ("moscow", "kharkov"), "moscow: a trump run beats an equal run; kharkov: trump ignored"
    )

    @classmethod
    def defaults_for(cls, players: int) -> dict[str, Any]:
        return {"target": 501 if players == 3 else 301}

    @classmethod
    def choices_for(cls, name: str, players: int) -> tuple[Any, ...]:
        if name == "target":
            return (501, 301) if players == 3 else (301, 501)
        return super().choices_for(name, players)
