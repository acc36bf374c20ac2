"""Thousand's table conventions (docs/rules-thousand.md) with their defaults; keys exactly as in records
(docs/records.md)."""

from __future__ import annotations

from dataclasses import dataclass

from core.base import Options, option


@dataclass(frozen=True)
class ThousandOptions(Options):
    bidding_floor: int = option(-1000, (-1000, -300, -200, -100), "a player below this total passes automatically")
    second_talon_to_last_trick: bool = option(
        False, (False, True), "2p: the unused talon's points go to the last trick"
    )
    show_talon_on_100: bool = option(False, (False, True), "show the talon when the declarer sits on a hundred")
    may_concede: bool = option(True, (True, False), "the declarer may give up before the first lead")
    concede_penalty: bool = option(True, (True, False), "conceding costs the bid (no: a bolt instead)")
    redeal: bool = option(False, (False, True), "four 9s, under 14 points or a talon of 9s may call a redeal")
    bolts_in_a_row: bool = option(False, (False, True), "only three bolts in a row cost 120")
    bidding_on_barrel: bool = option(True, (True, False), "others may outbid the player on the barrel")
    missed_barrels_reset: bool = option(False, (False, True), "three missed barrels set the total to 0")
    ace_marriage: bool = option(False, (False, True), "four aces are a marriage worth 200")
    dump_truck: bool = option(False, (False, True), "a total of exactly 555 or -555 becomes 0")
    golden_round: bool = option(False, (False, True), "the first three rounds count double")
