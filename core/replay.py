"""``python -m core.replay RECORD.json`` (or ``-`` for stdin): print a record's result JSON.

Exit 0 with the result object; exit 2 with ``{"error": ..., "message": ...}`` for a bad record, a bad
deal or an illegal action (SCENARIOS.md). Never a traceback.
"""

from __future__ import annotations

import json
import sys

from core.records import RecordError, result_of


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m core.replay RECORD.json | -", file=sys.stderr)
        print(json.dumps({"error": "bad_record", "message": "expected one argument: a file or -"}))
        return 2
    try:
        if args[0] == "-":
            text = sys.stdin.read()
        else:
            with open(args[0], encoding="utf-8") as fh:
                text = fh.read()
    except (OSError, UnicodeDecodeError) as err:
        print(json.dumps({"error": "bad_record", "message": f"cannot read the record: {err}"}))
        return 2
    try:
        record = json.loads(text)
    except (json.JSONDecodeError, RecursionError) as err:
        print(json.dumps({"error": "bad_record", "message": f"not JSON: {err}"}))
        return 2
    try:
        result = result_of(record)
    except RecordError as err:
        print(json.dumps(err.to_json(), ensure_ascii=False))
        return 2
    except RecursionError:
        print(json.dumps({"error": "bad_record", "message": "the record is nested too deeply"}))
        return 2
    print(json.dumps(result, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
