"""``python -m core.replay`` is total (docs/records.md, "never a traceback"): any bytes give exit 0 with a result or
exit 2 with one ``bad_record`` / ``illegal_action`` / ``bad_deal`` object.

Named hostile inputs (invalid UTF-8, lone surrogates, integers of thousands of digits, NaN, deep nesting, wrong
types) plus hypothesis properties over arbitrary bytes, arbitrary JSON, and real records of all three games
with one part replaced by arbitrary JSON. The in-process answer must never come from the last-resort handler.
``REPLAY_FUZZ_EXAMPLES=N`` sets the size of the property runs (default 60; 180 for the mutated records).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.replay import answer

ROOT = Path(__file__).resolve().parent.parent
RECORDS = ROOT / "tests" / "records"
RESULT_KEYS = {"game", "rounds", "totals", "finished", "winner", "loser", "phase", "to_act", "extra"}
ERRORS = {"bad_record", "illegal_action", "bad_deal"}

CORPUS = [
    json.loads((RECORDS / game / f"{name}.json").read_text(encoding="utf-8"))
    for game, name in [
        ("thousand", "three_players_four_rounds"),
        ("thousand", "two_players_redeal_when_the_bidding_closed_itself"),
        ("thousand", "four_players_stops_mid_round"),
        ("deberts", "04_redeal_then_next_dealer_2p"),
        ("deberts", "07_hanging_summed_2p"),
        ("kozel", "full_game_2p"),
        ("kozel", "fish_double_in_hand_4p"),
    ]
]


def check(code: int, out: dict[str, Any]) -> None:
    """Exactly the contract: a result with exit 0, or one error object with exit 2; printable as JSON."""
    assert isinstance(out, dict)
    text = json.dumps(out, ensure_ascii=True)
    assert json.loads(text) == out
    if code == 0:
        assert set(out) == RESULT_KEYS
        return
    assert code == 2
    assert out["error"] in ERRORS
    assert isinstance(out["message"], str) and out["message"]
    assert "internal error" not in out["message"], out["message"]
    assert set(out) <= {"error", "index", "round", "message"}
    assert ("index" in out) == (out["error"] == "illegal_action")
    if out["error"] != "bad_record":
        assert "round" in out
    assert len(out["message"]) <= 300


def as_bytes(value: Any) -> bytes:
    return json.dumps(value).encode("utf-8")


def with_field(record: dict[str, Any], path: list[Any], value: Any) -> dict[str, Any]:
    record = json.loads(json.dumps(record))
    target: Any = record
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return record


def raw(record: dict[str, Any], path: list[Any], literal: bytes) -> bytes:
    """The record as bytes with the JSON text at ``path`` replaced by ``literal`` (which may be no valid JSON)."""
    marker = "@@RAW@@"
    return as_bytes(with_field(record, path, marker)).replace(b'"' + marker.encode() + b'"', literal)


THOUSAND, KOZEL = CORPUS[0], CORPUS[5]
SEAT = ["rounds", 0, "actions", 0, "seat"]
PLAY = ["rounds", 0, "actions", 8, "card"]  # seat 1 leads the first trick
CARD = ["rounds", 0, "deal", "hands", 0, 0]
HUGE = b"9" * 5000
NESTED = b"[" * 900 + b"]" * 900
DEEP = b"[" * 100_000 + b"]" * 100_000

HOSTILE: list[tuple[str, bytes, int, str | None]] = [
    # (label, the bytes, exit status, error code)
    ("empty input", b"", 2, "bad_record"),
    ("invalid UTF-8", b'{"game": "thousand\xff\xfe"}', 2, "bad_record"),
    ("a lone UTF-8 continuation byte", b"\x80", 2, "bad_record"),
    ("UTF-16 text", json.dumps(THOUSAND).encode("utf-16"), 2, "bad_record"),
    ("encoded surrogate (CESU)", b'{"game": "\xed\xa0\x80"}', 2, "bad_record"),
    ("lone surrogate as the game", b'{"game": "\\ud800", "players": 3, "rounds": []}', 2, "bad_record"),
    ("lone surrogate as a record key", b'{"\\udfff": 1}', 2, "bad_record"),
    ("lone surrogate as an option key", raw(THOUSAND, ["options"], b'{"\\ud83d": true}'), 2, "bad_record"),
    (
        "lone surrogate as an action type",
        raw(THOUSAND, ["rounds", 0, "actions", 0, "type"], b'"\\udc00x"'),
        2,
        "illegal_action",
    ),
    ("lone surrogate as a card played", raw(THOUSAND, PLAY, b'"\\ud800"'), 2, "illegal_action"),
    ("lone surrogate as a dealt card", raw(THOUSAND, CARD, b'"\\ud800"'), 2, "bad_deal"),
    ("5,000-digit seat", raw(THOUSAND, SEAT, HUGE), 2, "illegal_action"),
    ("5,000-digit player count", raw(THOUSAND, ["players"], HUGE), 2, "bad_record"),
    ("5,000-digit negative first dealer", raw(THOUSAND, ["first_dealer"], b"-" + HUGE), 2, "bad_record"),
    ("5,000-digit bid", raw(THOUSAND, ["rounds", 0, "actions", 0, "value"], HUGE), 2, "illegal_action"),
    ("5,000-digit number where kozel ignores it", raw(KOZEL, ["first_dealer"], HUGE), 0, None),
    ("1e999 as the player count", raw(THOUSAND, ["players"], b"1e999"), 2, "bad_record"),
    ("NaN as a seat", raw(THOUSAND, SEAT, b"NaN"), 2, "bad_record"),
    ("-Infinity as an option", raw(THOUSAND, ["options"], b'{"bidding_floor": -Infinity}'), 2, "bad_record"),
    ("3.0 as the player count", raw(THOUSAND, ["players"], b"3.0"), 2, "bad_record"),
    ("true as a seat", raw(THOUSAND, SEAT, b"true"), 2, "illegal_action"),
    ("100,000 nested lists", DEEP, 2, "bad_record"),
    ("100,000 nested lists as the game", b'{"game": ' + DEEP + b"}", 2, "bad_record"),
    ("900 nested lists as a card played", raw(THOUSAND, PLAY, NESTED), 2, "illegal_action"),
    ("900 nested lists as a dealt card", raw(THOUSAND, CARD, NESTED), 2, "bad_deal"),
    ("a million-item list as the game", b'{"game": [' + b"0," * 1_000_000 + b"0]}", 2, "bad_record"),
    (
        "a megabyte string as an option key",
        raw(THOUSAND, ["options"], b'{"' + b"x" * 1_000_000 + b'": 1}'),
        2,
        "bad_record",
    ),
    ("a string where the rounds go", raw(THOUSAND, ["rounds"], b'"rounds"'), 2, "bad_record"),
    ("an object where a hand goes", raw(THOUSAND, ["rounds", 0, "deal", "hands", 1], b'{"AS": 1}'), 2, "bad_deal"),
    ("a list as an option value", raw(THOUSAND, ["options"], b'{"golden_round": [true]}'), 2, "bad_record"),
    ("a BOM before the record", b"\xef\xbb\xbf" + as_bytes(THOUSAND), 2, "bad_record"),
    ("trailing garbage", as_bytes(THOUSAND) + b" x", 2, "bad_record"),
    ("the record itself", as_bytes(THOUSAND), 0, None),
]


@pytest.mark.parametrize(("label", "data", "code", "error"), HOSTILE, ids=[h[0] for h in HOSTILE])
def test_hostile_input_gets_one_clear_answer(label: str, data: bytes, code: int, error: str | None) -> None:
    got_code, out = answer(data)
    check(got_code, out)
    assert got_code == code, out
    if error is not None:
        assert out["error"] == error, out


def test_hostile_input_prints_one_line_through_the_command() -> None:
    # the real command with a real stdout: a lone surrogate echoed in the message, then a 5,000-digit seat
    for data, error in [(HOSTILE[8][1], "illegal_action"), (HOSTILE[11][1], "illegal_action")]:
        proc = subprocess.run(
            [sys.executable, "-m", "core.replay", "-"],
            input=data,
            capture_output=True,
            cwd=ROOT,
            timeout=60,
            env={"PYTHONIOENCODING": "ascii", "PATH": ""},
        )
        assert proc.returncode == 2 and proc.stderr == b"", proc.stderr
        assert proc.stdout.count(b"\n") == 1
        assert json.loads(proc.stdout)["error"] == error


# --------------------------------------------------------------------------------------------------
# properties

JSON_SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**6), max_value=10**6)
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8)
    | st.sampled_from(["thousand", "deberts", "kozel", "AS", "TH", "9C", "3-5", "6-6", "play", "bid", "pass", "left"])
)
JSON = st.recursive(
    JSON_SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=12,
)
# modest in the default suite; REPLAY_FUZZ_EXAMPLES=5000 for a long run
EXAMPLES = int(os.environ.get("REPLAY_FUZZ_EXAMPLES", "60"))
PROPERTY = settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@PROPERTY
@given(st.binary(max_size=200))
def test_any_bytes_get_one_clear_answer(data: bytes) -> None:
    check(*answer(data))


@PROPERTY
@given(JSON)
def test_any_json_gets_one_clear_answer(value: Any) -> None:
    check(*answer(json.dumps(value)))


@PROPERTY
@given(
    st.fixed_dictionaries(
        {
            "game": st.sampled_from(["thousand", "deberts", "kozel"]),
            "players": JSON,
            "options": JSON,
            "first_dealer": JSON,
            "rounds": JSON,
        }
    )
)
def test_record_shaped_json_gets_one_clear_answer(value: Any) -> None:
    check(*answer(json.dumps(value)))


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(value, dict):
        for k, v in value.items():
            out += _paths(v, (*prefix, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out += _paths(v, (*prefix, i))
    return out


PATHS = [_paths(r)[1:] for r in CORPUS]


@settings(max_examples=EXAMPLES * 3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_a_real_record_with_any_part_replaced_gets_one_clear_answer(data: st.DataObject) -> None:
    k = data.draw(st.integers(0, len(CORPUS) - 1), label="record")
    path = data.draw(st.sampled_from(PATHS[k]), label="path")
    how = data.draw(st.sampled_from(["replace", "delete", "wrap"]), label="how")
    record = json.loads(json.dumps(CORPUS[k]))
    parent: Any = record
    for key in path[:-1]:
        parent = parent[key]
    last = path[-1]
    if how == "replace":
        parent[last] = data.draw(JSON, label="value")
    elif how == "delete":
        del parent[last]
    else:
        parent[last] = [parent[last]]
    check(*answer(json.dumps(record)))
