"""Benchmarks: ``python -m bench.<name>`` prints a table and, last, one JSON line with every figure.

Every benchmark takes ``--quick``: the same run at small sizes, a few seconds long, so that CI runs each one
(``tests/test_bench_quick.py``) and a broken benchmark fails there rather than on the day it is needed. Its
figures are only a smoke test; the defaults are what the docs quote.
"""

from __future__ import annotations

import argparse
from typing import Any


def add_quick(parser: argparse.ArgumentParser, **sizes: Any) -> None:
    """Give ``parser`` a ``--quick`` flag that sets the options ``sizes`` (their ``dest`` names) to small values;
    an option given after ``--quick`` on the command line still wins."""

    class Quick(argparse.Action):
        def __call__(self, parser, namespace, values, option_string=None) -> None:  # noqa: ANN001
            namespace.quick = True
            for dest, value in sizes.items():
                setattr(namespace, dest, value)

    shown = ", ".join(f"--{dest.replace('_', '-')} {value}" for dest, value in sizes.items())
    parser.add_argument("--quick", action=Quick, nargs=0, default=False, help=f"a few seconds' smoke run: {shown}")
