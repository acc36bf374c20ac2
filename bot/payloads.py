"""Button payloads: what a button carries (table id, state version, an action's code) and how it is read back.

A payload is short ASCII made of ``bot.port.PAYLOAD_CHARS``: a kind's code, then its fields, separated by ``.``.
``KINDS`` is the one table of kinds: code, readable name (what ``bot.app`` dispatches on), fields::

    a.17.42.play,c=QS       move: play the queen of spades at table 17, version 42
    u.17.42.bid~130         a private picker step (show the bids from 130): changes nothing
    j.17  l.17  s.17        join / leave / start the lobby of table 17
    c.17.3.normal           host: add a computer of that level (lobby revision 3)
    r.17.3.2                host: remove the computer at seat 2
    n.17.3.4                host: four seats
    o.17.3.5                host: the next value of setting 5
    m.17.3.set              host: show the lobby's settings page (``main``: back)
    h.17                    show my hand (sends it privately)
    k.17                    take my seat back from the computer
    L.ru                    the chat's (or, privately, my) language
    N.kozel                 open a table for this game here
    i.17.42                 a hint: what the normal computer would do now (answered privately)
    y.17.1795000000         agree to the vote to stop table 17 (the vote's time, epoch seconds: it expires)
    g.17.1795000000         keep playing: the vote to stop table 17 ends
    p.17                    play again: a lobby with finished table 17's seats, computers and options
    D.5.kozel               play today's Kozel deal of chat 5 (the group's daily message)
    Q.17                    give up my daily attempt at table 17 (it counts as played)

Anything that does not parse is ``None``: the press gets a notice and nothing changes. Numbers (table, version,
revision, seat) are read with ``number``: ASCII digits up to ``MAX_ID``, the database's signed 32-bit integer, so a
forged id is refused here as invalid and never reaches the database.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.port import MAX_PAYLOAD, PAYLOAD_CHARS

MAX_ID = 2**31 - 1  # the database's INTEGER (signed 32 bits): no table, version or seat is ever larger


@dataclass(frozen=True, slots=True)
class Kind:
    """One kind of button: the code that travels in the payload, the readable name the application dispatches on
    (``Application.press_handlers``), and the fields after the code."""

    code: str
    name: str
    fields: tuple[str, ...]


KINDS: dict[str, Kind] = {
    k.code: k
    for k in (
        Kind("a", "move", ("table", "version", "code")),
        Kind("u", "picker_step", ("table", "version", "code")),
        Kind("j", "join", ("table",)),
        Kind("l", "leave", ("table",)),
        Kind("s", "start", ("table",)),
        Kind("h", "show_hand", ("table",)),
        Kind("k", "take_seat_back", ("table",)),
        Kind("c", "add_computer", ("table", "rev", "code")),
        Kind("r", "remove_computer", ("table", "rev", "number")),
        Kind("n", "seat_count", ("table", "rev", "number")),
        Kind("o", "next_option", ("table", "rev", "number")),
        Kind("m", "settings_page", ("table", "rev", "code")),
        Kind("L", "language", ("code",)),
        Kind("N", "open_game", ("code",)),
        Kind("i", "hint", ("table", "version")),
        Kind("y", "stop_agree", ("table", "number")),
        Kind("g", "stop_keep", ("table", "number")),
        Kind("p", "play_again", ("table",)),
        Kind("D", "daily", ("number", "code")),
        Kind("Q", "daily_stop", ("table",)),
    )
}
BY_NAME: dict[str, Kind] = {k.name: k for k in KINDS.values()}


@dataclass(frozen=True, slots=True)
class Payload:
    kind: str
    table: int | None = None
    version: int | None = None
    rev: int | None = None
    number: int | None = None
    code: str | None = None

    @property
    def name(self) -> str:
        """The kind's readable name (``join``, ``move``, …)."""
        return KINDS[self.kind].name

    def encode(self) -> str:
        fields = KINDS[self.kind].fields
        parts = [self.kind] + [str(getattr(self, f)) for f in fields]
        text = ".".join(parts)
        if len(text.encode()) > MAX_PAYLOAD or not set(text) <= PAYLOAD_CHARS:
            raise ValueError(f"payload does not fit: {text!r}")
        return text


def make(kind: str, **fields: int | str) -> str:
    """The payload of a button: ``kind`` is the code (``"j"``) or the readable name (``"join"``)."""
    if kind in BY_NAME:
        kind = BY_NAME[kind].code
    return Payload(kind, **fields).encode()  # type: ignore[arg-type]


def number(raw: str) -> int | None:
    """A number from outside (a payload field, a start payload, a command's argument): ASCII digits, at most
    ``MAX_ID``; ``None`` for anything else (never raises)."""
    if not raw or len(raw) > len(str(MAX_ID)) or not raw.isascii() or not raw.isdigit():
        return None
    value = int(raw)
    return value if value <= MAX_ID else None


def parse(text: object) -> Payload | None:
    """Read a payload; ``None`` for anything malformed (never raises)."""
    if not isinstance(text, str) or not text or len(text) > MAX_PAYLOAD or not set(text) <= PAYLOAD_CHARS:
        return None
    kind, _, rest = text.partition(".")
    known = KINDS.get(kind)
    if known is None:
        return None
    fields = known.fields
    # the last field (a code) may itself contain dots? no: codes never contain dots, but split at most n-1 times
    parts = rest.split(".", len(fields) - 1) if rest else []
    if len(parts) != len(fields):
        return None
    values: dict[str, int | str] = {}
    for name, raw in zip(fields, parts):
        if name == "code":
            if not raw:
                return None
            values[name] = raw
        else:
            value = number(raw)
            if value is None:
                return None
            values[name] = value
    return Payload(kind, **values)  # type: ignore[arg-type]
