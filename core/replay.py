"""``python -m core.replay RECORD.json`` (or ``-`` for stdin): print a record's result JSON.

Exit 0 with the result object; exit 2 with one ``{"error": ..., "message": ...}`` object for a bad record, a
bad deal or an illegal action (docs/records.md). The reader and the printer are total: any bytes at all (invalid
UTF-8, lone surrogates, NaN, numbers of any length, any nesting) give one of those two answers, never a
traceback. ``read_record`` is the same reader for the bot (stored states, imported records).
"""

from __future__ import annotations

import json
import sys
from typing import Any

from core.records import HugeNumber, RecordError, result_of, safe_text

MAX_BYTES = 16 * 1024 * 1024  # far above any real game (a long Thousand game is ~100 KB)
MAX_DIGITS = 100  # no record field needs more; Python refuses to convert more than 4,300 digits at all


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _int(text: str) -> int | HugeNumber:
    # a longer literal is kept as a HugeNumber: never an int, so every field that needs a number refuses it,
    # while a field the game ignores (the kozel first_dealer) still ignores it
    if len(text) > MAX_DIGITS:
        return HugeNumber(text)
    return int(text)


def read_record(data: bytes | str) -> Any:
    """Decode and parse a record (UTF-8 JSON); raises ``RecordError("bad_record")`` on anything else."""
    if isinstance(data, bytes):
        if len(data) > MAX_BYTES:
            raise RecordError("bad_record", "the record is too large")
        try:
            data = data.decode("utf-8")
        except UnicodeDecodeError as err:
            raise RecordError("bad_record", f"the record is not UTF-8 text (byte {err.start})") from None
    try:
        return json.loads(data, parse_int=_int, parse_constant=_no_constant)
    except RecursionError:
        raise RecordError("bad_record", "the record is nested too deeply") from None
    except ValueError as err:  # json.JSONDecodeError is a ValueError too
        raise RecordError("bad_record", f"not JSON: {safe_text(str(err))}") from None


def _print(obj: dict[str, Any]) -> None:
    # ASCII escapes: any message (even one quoting a lone surrogate) prints on any terminal encoding
    sys.stdout.write(json.dumps(obj, ensure_ascii=True) + "\n")
    sys.stdout.flush()


def _read_input(arg: str) -> bytes | str:
    if arg == "-":
        stream = getattr(sys.stdin, "buffer", None)
        return stream.read(MAX_BYTES + 1) if stream is not None else sys.stdin.read()
    with open(arg, "rb") as fh:
        return fh.read(MAX_BYTES + 1)


def answer(data: bytes | str) -> tuple[int, dict[str, Any]]:
    """The exit status and the one object to print for a record given as bytes or text."""
    try:
        return 0, result_of(read_record(data))
    except RecordError as err:
        return 2, err.to_json()
    except RecursionError:
        return 2, {"error": "bad_record", "message": "the record is nested too deeply"}
    except Exception as err:  # the contract is "never a traceback"; tests assert it never happens
        return 2, {
            "error": "bad_record",
            "message": f"the record cannot be replayed (internal error: {type(err).__name__})",
        }


def run(arg: str) -> tuple[int, dict[str, Any]]:
    """Replay the record named by ``arg`` (a path or ``-``): the exit status and the one object to print."""
    try:
        data = _read_input(arg)
    except OSError as err:
        return 2, {"error": "bad_record", "message": f"cannot read the record: {safe_text(err.strerror or str(err))}"}
    return answer(data)


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m core.replay RECORD.json | -", file=sys.stderr)
        _print({"error": "bad_record", "message": "expected one argument: a file or -"})
        return 2
    code, out = run(args[0])
    _print(out)
    return code


if __name__ == "__main__":
    sys.exit(main())
