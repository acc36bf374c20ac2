"""Game records (docs/records.md): check a record, replay it into a state, and report errors by code.

A record fixes every deal and every decision, so replaying it always yields the same state. Every game
state can write its own record (``state.record()``); ``replay`` reads one back.
"""

from __future__ import annotations

import reprlib
from typing import Any

from core import games
from core.base import Action, BadDeal, GameState, IllegalAction, OptionsError

MAX_MESSAGE = 300  # characters of an error message; longer ones are cut


class HugeNumber:
    """A JSON integer literal too long to be any record's field (the reader keeps it apart from ``int``)."""

    __slots__ = ("digits",)

    def __init__(self, literal: str) -> None:
        self.digits = len(literal.lstrip("-"))

    def __repr__(self) -> str:
        return f"<a number of {self.digits} digits>"


_SHORT = reprlib.Repr()
_SHORT.maxlevel = 3
_SHORT.maxstring = 40
_SHORT.maxother = 40
_SHORT.maxlist = _SHORT.maxdict = 4


def shown(value: Any) -> str:
    """A short, safe repr of a value taken from a record, for error messages."""
    return safe_text(_SHORT.repr(value))


def safe_text(text: str) -> str:
    """The text with lone surrogates replaced (so it always encodes) and cut to ``MAX_MESSAGE`` characters."""
    text = text.encode("utf-8", "replace").decode("utf-8")
    return text if len(text) <= MAX_MESSAGE else text[: MAX_MESSAGE - 1] + "…"


class RecordError(Exception):
    """A record that cannot be replayed: ``code`` is ``bad_record``, ``bad_deal`` or ``illegal_action``."""

    def __init__(self, code: str, message: str, round: int | None = None, index: int | None = None):
        super().__init__(message)
        self.code = code
        self.round = round
        self.index = index

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"error": self.code}
        if self.index is not None:
            out["index"] = self.index
        if self.round is not None:
            out["round"] = self.round
        out["message"] = safe_text(str(self))
        return out


_RECORD_KEYS = {"game", "players", "options", "first_dealer", "rounds"}


def replay(record: Any) -> GameState:
    """Replay a record and return the state it leads to; raises ``RecordError``."""
    if not isinstance(record, dict):
        raise RecordError("bad_record", "a record must be a JSON object")
    unknown = set(record) - _RECORD_KEYS
    if unknown:
        raise RecordError("bad_record", f"unknown record field {shown(sorted(unknown)[0])}")
    name = record.get("game")
    if not isinstance(name, str) or name not in games.NAMES:
        raise RecordError("bad_record", f"unknown game {shown(name)}")
    try:
        rules = games.get(name)
    except ModuleNotFoundError:  # pragma: no cover - every registered game ships
        raise RecordError("bad_record", f"game {name!r} is not available") from None
    players = record.get("players")
    if type(players) is not int or not rules.min_players <= players <= rules.max_players:
        raise RecordError(
            "bad_record", f"{name} needs {rules.min_players} to {rules.max_players} players, got {shown(players)}"
        )
    options = record.get("options", {})
    if options is None:
        options = {}
    try:
        opts = rules.options(players, options)
    except OptionsError as err:
        raise RecordError("bad_record", str(err)) from None
    first_dealer = record.get("first_dealer")
    if name == "kozel":
        first_dealer = None
    elif type(first_dealer) is not int or not 0 <= first_dealer < players:
        raise RecordError("bad_record", f"first_dealer must be a seat 0..{players - 1}, got {shown(first_dealer)}")
    rounds = record.get("rounds")
    if not isinstance(rounds, list):
        raise RecordError("bad_record", "'rounds' must be a list")

    state = rules.new_game(players, opts, seed=0, first_dealer=first_dealer, start=False)
    for r, entry in enumerate(rounds):
        if not isinstance(entry, dict) or "deal" not in entry or not isinstance(entry.get("actions", []), list):
            raise RecordError("bad_record", "a round entry needs 'deal' and a list 'actions'", round=r)
        extra_keys = set(entry) - {"deal", "actions"}
        if extra_keys:
            raise RecordError("bad_record", f"unknown round field {shown(sorted(extra_keys)[0])}", round=r)
        if state.finished:
            raise RecordError("bad_record", "a round entry after the game ended", round=r)
        if state.phase != "round_over":
            raise RecordError("bad_record", "a round entry after an unfinished round", round=r)
        try:
            state.next_round_in_place(entry["deal"])
        except BadDeal as err:
            raise RecordError("bad_deal", str(err), round=r) from None
        for i, raw in enumerate(entry.get("actions", [])):
            try:
                action = Action.from_json(raw)
                if state.phase in ("round_over", "game_over"):
                    raise IllegalAction("the round is over: no more actions", "round_over")
                state.apply_in_place(action)
            except BadDeal as err:
                raise RecordError("bad_deal", str(err), round=r) from None
            except IllegalAction as err:
                raise RecordError("illegal_action", str(err), round=r, index=i) from None
    return state


def result_of(record: Any) -> dict[str, Any]:
    """The result JSON of a record (docs/records.md), or raises ``RecordError``."""
    try:
        return replay(record).result()
    except RecursionError:
        raise RecordError("bad_record", "the record is nested too deeply") from None
