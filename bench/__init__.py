"""Benchmarks: ``python -m bench.<name>`` prints a table and, last, one JSON line with every figure.

Every benchmark takes ``--quick``: the same run at small sizes, a few seconds long, so that CI runs each one
(``tests/test_bench_quick.py``) and a broken benchmark fails there rather than on the day it is needed. Its
figures are only a smoke test; the defaults are what the docs quote.

A benchmark never hangs: every wait for something another task or process must do (a frame, an answer, the
application going idle, a server starting) has a deadline (``within``), and one that passes fails the run with a
message that says what did not come.
"""

from __future__ import annotations

import argparse
import asyncio
from collections.abc import Awaitable
from typing import Any, TypeVar

T = TypeVar("T")


class Stalled(RuntimeError):
    """What a benchmark waited for did not come within its deadline."""


async def within(aw: Awaitable[T], seconds: float, what: str) -> T:
    """``aw``'s result if it comes within ``seconds``; else ``Stalled`` naming ``what`` (e.g. "table 3: version 17
    on every page")."""
    deadline = asyncio.timeout(seconds)
    try:
        async with deadline:
            return await aw
    except TimeoutError:
        if not deadline.expired():  # the awaited work's own timeout: its own message
            raise
        raise Stalled(f"{what}: nothing within {seconds:g} s") from None


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
