"""``python -m bench.i18n``: what the gettext catalogs cost — first load of a language, and every sentence after.

Three figures per language: CPU milliseconds to compile its ``.po`` in memory at first use (read_po, write_mo,
GNUTranslations; the cache is cleared before each run), microseconds per ``t`` lookup with formatting, and
microseconds per event sentence (``describe`` over the sample events of all three games). The baseline, timed
in alternation with the sentences in the same process, is the bare ``str.format`` of the same English
sentences from a dict: ``ratio`` = sentence time / baseline time (the price of gettext, Babel numbers and lists).
Last line: one JSON object with every figure.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Callable

from bench import add_quick
from core.i18n import LANGS, describe, t
from core.i18n.catalogs import _translations
from testkit.event_samples import SAMPLES

EVENTS = [(game, event) for game, events in SAMPLES.items() for event in events]


def _cpu(fn: Callable[[], object]) -> float:
    start = time.thread_time()
    fn()
    return time.thread_time() - start


def compile_ms(lang: str, repeat: int) -> float:
    def load() -> None:
        _translations.cache_clear()
        t(lang, "Seat {n}", n=1)

    return statistics.median(_cpu(load) for _ in range(repeat)) * 1000


def measure(lang: str, repeat: int, loops: int) -> dict:
    english = {i: describe(game, event, "en") for i, (game, event) in enumerate(EVENTS)}
    templates = {i: text.replace("{", "{{").replace("}", "}}") + " {n}" for i, text in english.items()}

    def sentences() -> None:
        for _ in range(loops):
            for game, event in EVENTS:
                describe(game, event, lang, ["Аня", "Боря", "Катя", "Дима"])

    def baseline() -> None:
        for _ in range(loops):
            for i in range(len(EVENTS)):
                templates[i].format(n=i)

    def lookups() -> None:
        for _ in range(loops * 100):
            t(lang, "{who} takes the talon: {cards}.", who="Аня", cards="A♠ 10♥ 9♣")

    sentences(), baseline(), lookups()
    pairs = [(_cpu(sentences), _cpu(baseline)) for _ in range(repeat)]
    n = loops * len(EVENTS)
    return {
        "lang": lang,
        "compile_ms": round(compile_ms(lang, repeat), 2),
        "t_us": round(statistics.median(_cpu(lookups) for _ in range(repeat)) / (loops * 100) * 1e6, 2),
        "sentence_us": round(statistics.median(a for a, _ in pairs) / n * 1e6, 2),
        "baseline_us": round(statistics.median(b for _, b in pairs) / n * 1e6, 3),
        "ratio": round(statistics.median(a / b for a, b in pairs), 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--loops", type=int, default=20)
    add_quick(parser, repeat=1, loops=1)
    args = parser.parse_args()
    rows = [measure(lang, args.repeat, args.loops) for lang in LANGS]
    print(f"{len(EVENTS)} sample events of {len(SAMPLES)} games; CPU time, medians of {args.repeat} runs")
    print(f"{'lang':<6}{'compile ms':>12}{'t() µs':>10}{'sentence µs':>14}{'baseline µs':>14}{'ratio':>8}")
    for r in rows:
        print(
            f"{r['lang']:<6}{r['compile_ms']:>12}{r['t_us']:>10}{r['sentence_us']:>14}{r['baseline_us']:>14}"
            f"{r['ratio']:>8}"
        )
    print(json.dumps({"events": len(EVENTS), "repeat": args.repeat, "loops": args.loops, "langs": rows}))


if __name__ == "__main__":
    main()
