"""Player names as pictures show them: whole where they fit, short where they must be ("Александр П."), and
never two seats that look alike.

A chat name is cleaned first (``renderers.text.clean_name``: no emoji or invisible characters; scripts
DejaVu lacks are kept and drawn with the fallback font). ``short_names`` gives each seat its whole name as a
``SeatName``, a ``str`` that also knows its shortest form that still tells the seats apart: the first word
and the initial of the second ("Александр Петров" -> "Александр П."), or as much of the second word as tells
two seats apart ("Александр Петров" and "Александр Петренко" -> "Александр Петро." and "Александр
Петре."). Seats whose names are the same in full get their seat number ("Bob (2)"). A name that is left empty
after cleaning (only emoji) becomes "Seat N" in the picture's language.

``fit_name`` measures the room where the name is drawn: the whole name when it fits, else the second word
cut only as far as needed (never below the seat's shortest form), then the cuts of the first word.
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


class SeatName(str):
    """A seat's whole drawable name; ``short`` is its shortest form that no other seat's name looks like."""

    short: str

    def __new__(cls, whole: str, short: str) -> SeatName:
        name = super().__new__(cls, whole)
        name.short = short
        return name


def _key(text: str) -> str:
    return text.casefold().replace(".", "").replace(" ", "")


def short_names(raw: list[str | None], fallbacks: list[str]) -> list[SeatName]:
    """One drawable name per seat, whole, each with its short form (no two alike); ``fallbacks[i]`` for an
    unusable name."""
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
        short[i] = full[i] = f"{full[i]} ({i + 1})"
    return [SeatName(whole, cut) for whole, cut in zip(full, short)]


def _clashing(names: list[str]) -> set[int]:
    seen: dict[str, list[int]] = {}
    for i, name in enumerate(names):
        seen.setdefault(_key(name), []).append(i)
    return {i for group in seen.values() if len(group) > 1 for i in group}


def fit_name(name: str, size: int, bold: bool, max_width: int) -> str:
    """``name`` as it fits ``max_width``: whole; else its second word cut as little as needed, down to the
    seat's short form ("Александр Петр.", "Александр П."); else its first word cut ("Алекса… П."); else the
    first word as an initial ("А. Константиноп."); else cut in the middle with ``…`` (its start and its end
    stay: the part that tells two seats apart is at the end)."""
    if text_width(name, size, bold) <= max_width:
        return name
    first, rest = _split(name)
    if rest and not rest.endswith(")"):  # "Александр Петро.": the second word cut only as far as needed
        short = getattr(name, "short", _abbreviated(first, rest, 1))
        longest = len(rest) if " " in rest else len(rest.split(" ")[0])
        for keep in range(longest - 1, 0, -1):
            cut = _abbreviated(first, rest, keep)
            if text_width(cut, size, bold) <= max_width:
                return cut
            if cut == short:  # shorter would look like another seat
                break
        name = short
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
