"""What players see: the lobby, the public table, a private hand, score sheets — as ``bot.port.Message``\\ s.

Pure functions of a table's data; pictures are drawn by ``renderers`` (callers run these off the event loop).
The public table never carries a hand picture and a private message always names its table.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot import keyboards, payloads, prompts, texts
from bot.port import MAX_CAPTION, Button, Message
from core.base import Event, GameRules
from core.i18n import describe, t
from renderers import render_hand, render_score_sheet, render_table

CAPTION_EVENTS = 8  # the latest sentences shown under the table picture


@dataclass(frozen=True, slots=True)
class SeatInfo:
    """A seat as the messages show it."""

    seat: int
    name: str
    computer: str | None = None  # level
    taken_over: bool = False
    human: bool = True


def seat_label(info: SeatInfo, lang: str) -> str:
    if info.computer:
        return f"{info.name} ({texts.level_name(info.computer, lang)})"
    if info.taken_over:
        return info.name + " (" + t(lang, "computer plays") + ")"  # no f-string: Babel extracts the msgid
    return info.name


def computer_name(seat: int, lang: str) -> str:
    return t(lang, "Computer {n}", n=seat + 1)


def fit(text: str, limit: int = MAX_CAPTION) -> str:
    """Cut from the top (the oldest sentences) so the newest stay, never mid-line where avoidable."""
    if len(text) <= limit:
        return text
    lines = text.split("\n")
    while len(lines) > 1 and len("\n".join(lines)) > limit - 2:
        lines.pop(0)
    out = "\n".join(lines)
    return ("…\n" + out)[:limit] if len(out) > limit - 2 else "…\n" + out


# ------------------------------------------------------------------------------------------------------------
# Lobby


@dataclass(frozen=True, slots=True)
class LobbyView:
    """A lobby as its message shows it: the game's rules, the seats, the host, the conventions, the page."""

    table_id: int
    rev: int  # the lobby revision its host buttons carry
    rules: GameRules
    players: int
    seats: tuple[SeatInfo | None, ...]
    host_name: str
    options: dict[str, Any]  # the core options as stored (defaults left out)
    timer: int
    pause: int = texts.DEFAULT_PAUSE  # seconds a finished round stays on view
    page: str = "main"  # "main" or "set" (the settings page)
    timeout_moves: bool = False  # a long timer's end: the computer moves (or the table waits)
    hints: bool = False  # a 💡 button on each hand; the game is not rated
    waiting: tuple[str, ...] = ()  # a rematch: the people whose seats are held until they confirm


def lobby_message(lobby: LobbyView, lang: str) -> Message:
    """The lobby message: who sits where, the host, the conventions, and the buttons of its page."""
    table_id, rev, players, seats, options, timer = (
        lobby.table_id,
        lobby.rev,
        lobby.players,
        lobby.seats,
        lobby.options,
        lobby.timer,
    )
    option_rows = texts.option_rows(lobby.rules, players)
    name = texts.game_name(lobby.rules.name, lang)
    lines = [t(lang, "{game}: a table for {n} is open.", game=name, n=players), ""]
    for i in range(players):
        info = seats[i] if i < len(seats) else None
        lines.append(f"{i + 1}. {seat_label(info, lang) if info else '—'}")
    lines.append("")
    changed = [
        texts.option_line(row["name"], options.get(row["name"], row["default"]), lang)
        for row in option_rows
        if options.get(row["name"], row["default"]) != row["default"]
    ]
    lines.append(t(lang, "Host: {name}", name=lobby.host_name))
    lines.append(t(lang, "Turn timer") + ": " + texts.timer_text(timer, lang))
    if timer >= texts.LONG_TIMER:
        lines.append(texts.timeout_moves_line(lobby.timeout_moves, lang))
    if lobby.hints:
        lines.append(texts.hints_line(True, lang))
    if changed:
        lines.append(t(lang, "House rules: {rules}", rules="; ".join(changed)))
    full = all(s is not None for s in seats[:players]) and len(seats) >= players
    if lobby.waiting:
        lines.append(
            t(
                lang,
                "⏳ Seats held for {names}: tap Join to play again (or the host starts without them: "
                "a computer takes the seat).",
                names=", ".join(lobby.waiting),
            )
        )
    lines.append("")
    lines.append(t(lang, "All seats taken: the host starts the game.") if full else t(lang, "Press Join to sit down."))

    if lobby.page == "set":
        rows: list[list[Button]] = []
        for i, row in enumerate(option_rows):
            value = options.get(row["name"], row["default"])
            rows.append(
                [
                    Button(
                        texts.option_line(row["name"], value, lang),
                        payloads.make("o", table=table_id, rev=rev, number=i),
                    )
                ]
            )
        timer_index = len(option_rows)
        rows.append(
            [
                Button(
                    t(lang, "Turn timer") + ": " + texts.timer_text(timer, lang),
                    payloads.make("o", table=table_id, rev=rev, number=timer_index),
                )
            ]
        )
        rows.append(
            [
                Button(
                    texts.pause_line(lobby.pause, lang),
                    payloads.make("o", table=table_id, rev=rev, number=timer_index + 1),
                )
            ]
        )
        if timer >= texts.LONG_TIMER:
            rows.append(
                [
                    Button(
                        texts.timeout_moves_line(lobby.timeout_moves, lang),
                        payloads.make("o", table=table_id, rev=rev, number=texts.TIMEOUT_MOVES_ROW),
                    )
                ]
            )
        rows.append(
            [
                Button(
                    texts.hints_line(lobby.hints, lang),
                    payloads.make("o", table=table_id, rev=rev, number=texts.HINTS_ROW),
                )
            ]
        )
        rows.append([Button("◀ " + t(lang, "Back"), payloads.make("m", table=table_id, rev=rev, code="main"))])
        return Message("\n".join(lines), buttons=tuple(tuple(r) for r in rows))

    rows = [
        [
            Button(t(lang, "Join"), payloads.make("j", table=table_id), style="primary"),
            Button(t(lang, "Leave"), payloads.make("l", table=table_id)),
        ],
        [
            Button("+🤖 " + texts.level_name(level, lang), payloads.make("c", table=table_id, rev=rev, code=level))
            for level in texts.TABLE_LEVELS
        ],
    ]
    third = []
    if any(s is not None and s.computer for s in seats):
        last = max(s.seat for s in seats if s is not None and s.computer)
        third.append(Button("−🤖", payloads.make("r", table=table_id, rev=rev, number=last)))
    rules = lobby.rules
    if rules.max_players > rules.min_players:
        nxt = players + 1 if players < rules.max_players else rules.min_players
        third.append(
            Button(t(lang, "Seats: {n}", n=players) + " ⟳", payloads.make("n", table=table_id, rev=rev, number=nxt))
        )
    third.append(Button("⚙ " + t(lang, "Settings"), payloads.make("m", table=table_id, rev=rev, code="set")))
    rows.append(third)
    rows.append([Button("▶ " + t(lang, "Start"), payloads.make("s", table=table_id), style="primary")])
    return Message("\n".join(lines), buttons=tuple(tuple(r) for r in rows))


def stop_vote_message(table_id: int, stamp: int, name: str, votes: int, players: int, ttl: int, lang: str) -> Message:
    """A vote to stop: who asked, how many agree, how long it lasts; "Agree" with its count and "Keep playing"."""
    text = "\n".join(
        [
            t(
                lang,
                "{name} wants to stop the game: {votes} of {players} players agree (more than half needed).",
                name=name,
                votes=votes,
                players=players,
            ),
            t(lang, "The vote lasts {n} min.", n=max(1, ttl // 60)),
        ]
    )
    return Message(text, buttons=(stop_vote_buttons(table_id, stamp, votes, players, lang),))


def stop_vote_buttons(table_id: int, stamp: int, votes: int, players: int, lang: str) -> tuple[Button, Button]:
    """A vote's "Agree" with its count and "Keep playing" (the chat's vote message and the web table)."""
    agree = Button(
        t(lang, "Agree ({votes} of {players})", votes=votes, players=players),
        payloads.make("stop_agree", table=table_id, number=stamp),
    )
    keep = Button(t(lang, "Keep playing"), payloads.make("stop_keep", table=table_id, number=stamp), style="primary")
    return agree, keep


# ------------------------------------------------------------------------------------------------------------
# The table in the group


def sentences(game: str, events: list[Event], lang: str, names: list[str]) -> list[str]:
    out = []
    for ev in events:
        try:
            text = describe(game, ev, lang, names)
        except (KeyError, ValueError, TypeError, IndexError):
            continue
        if text:
            out.append(text)
    return out


def turn_line(state_view: dict[str, Any], names: list[str], lang: str, seats: list[SeatInfo]) -> str:
    if state_view.get("finished"):
        return t(lang, "The game is over.")
    seat = state_view.get("to_act")
    if seat is None:
        return ""
    return t(lang, "Turn: {name}", name=seat_label(seats[seat], lang))


def show_mine(game: str, lang: str) -> str:
    """The label of the button that shows a player his own hand: dominoes are tiles, not cards (no card back)."""
    return t(lang, "Show my tiles") if game == "kozel" else "🂠 " + t(lang, "Show my hand")


def table_message(
    *,
    game: str,
    table_id: int,
    view: dict[str, Any],
    names: list[str],
    seats: list[SeatInfo],
    recent: list[Event],
    lang: str,
    title: str,
    style: str = "classic",
) -> Message:
    """The one public table message: the picture, the latest events, whose turn, and the public buttons."""
    picture = render_table(view, names=names, lang=lang, style=style)
    lines = [f"{title}"]
    lines += sentences(game, recent[-CAPTION_EVENTS:], lang, names)
    turn = turn_line(view, names, lang, seats)
    if turn:
        lines.append(turn)
    rows: list[tuple[Button, ...]] = []
    if not view.get("finished"):
        # dominoes are tiles, not cards: no card back and the domino word
        line = [Button(show_mine(game, lang), payloads.make("h", table=table_id))]
        if any(s.taken_over for s in seats):
            line.append(Button(t(lang, "Take my seat back"), payloads.make("k", table=table_id)))
        rows.append(tuple(line))
    return Message(fit("\n".join(lines)), image=picture.data, image_name="table.jpg", buttons=tuple(rows))


def sheet_message(
    *, game: str, view: dict[str, Any], names: list[str], lines: list[str], lang: str, title: str
) -> Message:
    picture = render_score_sheet(view, names=names, lang=lang)
    return Message(fit("\n".join([title, *lines])), image=picture.data, image_name="sheet.jpg")


# ------------------------------------------------------------------------------------------------------------
# A player's private message


def hand_message(
    *,
    game: str,
    table_id: int,
    version: int,
    view: dict[str, Any],
    names: list[str],
    seats: list[SeatInfo],
    lang: str,
    where: str,
    step: str | None = None,
    note: str | None = None,
) -> Message:
    """The seat's hand picture with its legal actions as buttons; the text says which table it is."""
    picture = render_hand(view, lang=lang)
    seat = view["seat"]
    lines = [where]
    if view.get("finished"):
        lines.append(t(lang, "The game is over."))
    elif note:  # the computer plays this seat: its turn is not his
        lines.append(note)
    elif view.get("to_act") == seat and view.get("legal"):
        lines.append(t(lang, "Your turn: {what}", what=prompts.what(game, view, lang, names, step)))
        reason = prompts.why(game, view, lang)
        if reason:
            lines.append(reason)
    elif view.get("legal"):
        lines.append(t(lang, "You may act now."))
    elif view.get("to_act") is not None:
        # not whom we wait for: this message is edited only when the hand or the choices change
        lines.append(t(lang, "Not your turn yet: the table in the group shows whose turn it is."))
    rows = keyboards.action_rows(view, table_id, version, lang, names, step)
    return Message(
        fit("\n".join(lines)),
        image=picture.data,
        image_name="hand.jpg",
        buttons=tuple(tuple(r) for r in rows),
    )
