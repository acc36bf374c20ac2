"""Player names as pictures show them: short ("Александр П."), and never two seats that look alike.

A chat name is cleaned first (``renderers.text.clean_name``: no emoji or invisible characters; scripts
DejaVu lacks are kept and drawn with the fallback font). A name of several words becomes the first word
and the initial of the second ("Александр Петров" -> "Александр П."). Where two seats would still look
alike, each gets as much of its second word as tells them apart ("Александр Петров" and "Александр
Петренко" -> "Александр Петро." and "Александр Петре."), the whole of it when needed, and seats whose
names are the same in full get their seat number ("Bob (2)"). A name that is left empty after cleaning
(only emoji) becomes "Seat N" in the picture's language.
"""

from __future__ import annotations

from renderers.text import ELLIPSIS, clean_name, text_width


def _split(name: str) -> tuple[str, str]:
    first, _sep, rest = name.partition(" ")
    return first, rest.strip()


def _abbreviated(first: str, rest: str, keep: int) -> str:
    """``first`` and the first ``keep`` letters of ``rest`` (with a dot when cut)."""
    if not rest:
        return first
    second = rest.split(" ")[0] if keep <= len(rest.split(" ")[0]) else rest
    if keep >= len(second):
        return f"{first} {second}"
    return f"{first} {second[:keep]}."


def _key(text: str) -> str:
    return text.casefold().replace(".", "").replace(" ", "")


def short_names(raw: list[str | None], fallbacks: list[str]) -> list[str]:
    """One short drawable name per seat, no two alike; ``fallbacks[i]`` for an unusable name."""
    full = [clean_name(r, fb) if r is not None else fb for r, fb in zip(raw, fallbacks)]
    parts = [_split(name) for name in full]
    keep = [1] * len(full)
    short = [_abbreviated(first, rest, 1) for first, rest in parts]
    for _ in range(64):  # each pass lengthens the names that still collide; ends when all are distinct
        clashes = _clashing(short)
        if not clashes:
            break
        grew = False
        for i in clashes:
            first, rest = parts[i]
            if rest and _abbreviated(first, rest, keep[i]) != _abbreviated(first, rest, keep[i] + 1):
                keep[i] += 1
                short[i] = _abbreviated(first, rest, keep[i])
                grew = True
        if not grew:
            break
    clashes = _clashing(short)
    for i in sorted(clashes):  # the same name in full: the seat number tells them apart
        short[i] = f"{full[i]} ({i + 1})"
    return short


def _clashing(names: list[str]) -> set[int]:
    seen: dict[str, list[int]] = {}
    for i, name in enumerate(names):
        seen.setdefault(_key(name), []).append(i)
    return {i for group in seen.values() if len(group) > 1 for i in group}


def fit_name(name: str, size: int, bold: bool, max_width: int) -> str:
    """``name`` as it fits ``max_width``: whole; else its first word cut ("Алекса… П."); else the first
    word as an initial ("А. Константиноп."); else cut in the middle with ``…`` (its start and its end
    stay: the part that tells two seats apart is at the end)."""
    if text_width(name, size, bold) <= max_width:
        return name
    first, rest = _split(name)
    if rest and len(first) > 2:
        for keep in range(len(first) - 1, 3, -1):  # "Алекса… П.": the first word cut, the rest whole
            cut = f"{first[:keep]}{ELLIPSIS} {rest}"
            if text_width(cut, size, bold) <= max_width:
                return cut
        name = f"{first[0]}. {rest}"
        if text_width(name, size, bold) <= max_width:
            return name
    return _middle_cut(name, size, bold, max_width)


def _middle_cut(text: str, size: int, bold: bool, max_width: int) -> str:
    best = ELLIPSIS
    for keep in range(1, len(text)):
        tail = (keep + 1) // 2
        cut = text[: keep - tail].rstrip() + ELLIPSIS + text[len(text) - tail :].lstrip()
        if text_width(cut, size, bold) > max_width:
            break
        best = cut
    return best
