"""One or more events of every type of every game, covering each variant a sentence has (for the i18n tests)."""

from __future__ import annotations

from core.base import Event

_SCORED = {
    "round": 3,
    "scores": [120, -40, 0],
    "totals": [300, 60, 1000],
    "contract": 120,
    "made": True,
    "conceded": False,
    "golden": False,
    "points": [120, 20, 0],
    "stand_still": False,
}

THOUSAND = [
    Event("round_started", None, {"round": 1, "dealer": 0, "sitting_out": None, "golden": False}),
    Event("round_started", None, {"round": 2, "dealer": 3, "sitting_out": 3, "golden": True}),
    Event("barrel_takes_talon", 1, {"value": 121}),
    Event("auto_pass", 2, {"floor": -100, "total": -160}),
    Event("plays_by_default", 0, {"value": 100}),
    Event("bid", 1, {"value": 115}),
    Event("pass", 2, {}),
    Event("bidding_won", 1, {"value": 140, "on_hundred": False}),
    Event("bidding_won", 0, {"value": 100, "on_hundred": True}),
    Event("talon_shown", 1, {"cards": ["AS", "TH", "9C"]}),
    Event("talon_hidden", 1, {}),
    Event("card_given", 1, {"to": 2}),
    Event("contract_asked", 1, {"bid": 140}),
    Event("contract", 1, {"value": 160, "bid": 140}),
    Event("conceded", 1, {"bid": 140, "contract": 160}),
    Event("card_played", 0, {"card": "KD"}),
    Event("marriage", 1, {"suit": "H", "points": 100, "trump": "H", "ace": False}),
    Event("marriage", 1, {"suit": "A", "points": 200, "trump": "S", "ace": True}),
    Event("trick_won", 2, {"points": 21, "cards": ["AS", "TS", "KS"], "trick": 3}),
    Event("round_scored", 0, _SCORED),
    Event("round_scored", 0, {**_SCORED, "stand_still": True}),
    Event("round_scored", 0, {**_SCORED, "made": False}),
    Event("round_scored", 0, {**_SCORED, "made": False, "stand_still": True}),
    Event("round_scored", 0, {**_SCORED, "made": False, "conceded": True}),
    Event("round_scored", 0, {**_SCORED, "made": False, "conceded": True, "stand_still": True}),
    Event("bolt", 2, {"value": 2}),
    Event("bolt_penalty", 2, {"value": -120}),
    Event("barrel_on", 0, {"value": 0}),
    Event("barrel_attempt", 0, {"value": 0, "attempt": 2}),
    Event("barrel_fall", 0, {"value": -120, "reason": "attempts", "missed": 1}),
    Event("barrel_fall", 0, {"value": -120, "reason": "pushed"}),
    Event("barrel_fall", 0, {"value": -120, "reason": "together"}),
    Event("barrel_fall", 0, {"value": -120}),
    Event("barrel_fail", 0, {"value": -120, "contract": 120}),
    Event("barrel_win", 0, {"value": 120}),
    Event("missed_barrels_reset", 0, {"value": -760}),
    Event("dump_truck", 1, {"value": -555}),
    Event("redeal", 2, {"reason": "four_nines", "dealer": 0}),
    Event("redeal", 2, {"reason": "under_14", "dealer": 0}),
    Event("redeal", 2, {"reason": "talon_nines", "dealer": 0}),
    Event("game_won", 0, {"total": 1005}),
]

_RESULT = {
    "result": "made",
    "points": [90, 40, 32],
    "scores": [162, 40, 0],
    "totals": [162, 40, 0],
    "winner_takes_all": False,
    "hanging_added": 0,
    "hanging_paid": 0,
    "hanging_to": [],
    "hanging": 0,
}
_RUNS = [[{"kind": "berz", "cards": ["9H", "TH", "JH", "QH"]}], [{"kind": "terz", "top": "K"}], []]

DEBERTS = [
    Event("deal", 0, {"round": 1, "open": "JC"}),
    Event("trump_named", 1, {"suit": "C", "circle": 1}),
    Event("trump_named", 1, {"suit": "D", "circle": 2}),
    Event("pass", 1, {"circle": 1}),
    Event("all_passed", None, {"next_dealer": 1}),
    Event("extra_dealt", None, {"bottom": "7S", "stock_count": 13}),
    Event("seven_swapped", 2, {"seven": "7C", "open": "JC"}),
    Event("seven_kept", 2, {}),
    *(
        Event("runs", 0, {"runs": _RUNS, "points": 50, "beaten": [{"seat": 1, "reason": reason}]})
        for reason in ("berz_beats_terz", "higher_top", "trump_run", "deal_order")
    ),
    Event("card_played", 1, {"card": "TD"}),
    Event("bella", 1, {"suit": "H", "points": 20}),
    Event("trick_won", 0, {"points": 21, "cards": ["AS", "TS"], "trick": 4}),
    Event("runs_counted", 0, {"points": 50}),
    Event("last_trick", 0, {"points": 10}),
    Event("runs_lost", 1, {"points": 20, "reason": "no_trick"}),
    Event("round_result", 0, _RESULT),
    Event("round_result", 0, {**_RESULT, "winner_takes_all": True, "hanging_paid": 25, "hanging_to": [0]}),
    Event("round_result", 1, {**_RESULT, "result": "bait", "hanging_paid": 61, "hanging_to": [2, 0]}),
    Event("round_result", 0, {**_RESULT, "result": "hanging", "points": [41, 41, 80], "hanging": 41}),
    Event("game_won", 0, {"total": 313, "target": 301}),
    Event("play_on", None, {"seats": [0, 1], "total": 413, "target": 301}),
]

_SCORES = {
    "round": 2,
    "totals": [28, 0, 0],
    "opened": [True, False, True],
    "opened_now": [True, False, False],
    "remembered": [0, 16, 0],
    "gained": [23, 7, 2],
}

KOZEL = [
    Event("round_started", 0, {"round": 1, "first_rule": True}),
    Event("round_started", 1, {"round": 2, "first_rule": False}),
    Event("redeal", None, {"round": 1, "seats": [0, 2], "reasons": ["doubles", "value"]}),
    Event("tile_played", 0, {"tile": "3|5", "end": "left", "left": 3, "right": 6}),
    Event("tile_played", 1, {"tile": "6|6", "end": "right", "left": 3, "right": 6}),
    *(Event("drew", 1, {"count": n, "bazaar": 14 - n}) for n in (1, 2, 5)),
    Event("knocked", 2, {}),
    Event("went_out", 2, {}),
    Event("fish", 0, {"value": 4}),
    Event("fish_taken", 1, {"amount": 61}),
    Event("fish_tie", None, {"amount": 44, "carry": 44}),
    Event("carry_taken", 0, {"amount": 22}),
    Event("carry_kept", None, {"carry": 35}),
    Event("round_scores", None, _SCORES),
    Event("game_over", 1, {"totals": [40, 112, 76], "rating": [2, 0, 1]}),
]

SAMPLES = {"thousand": THOUSAND, "deberts": DEBERTS, "kozel": KOZEL}
