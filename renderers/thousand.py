"""Thousand pictures: the table (bids, talons, trump, trick, bolts, barrel) and the score sheet.

Reads only the view (core/thousand/view.py documents its keys): a public view never holds a hidden card,
so nothing drawn here can reveal one.
"""

from __future__ import annotations

from typing import Any

from PIL import Image

from renderers import canvas, palette, shapes, sheet
from renderers import table as T
from renderers.cards import card_back, card_face, card_size
from renderers.labels import number, seat_names, signed, word
from renderers.text import ellipsize, paste_text

GIVE_PHASES = ("bidding", "talon", "give", "contract")


def _plate_marks(v: dict[str, Any], s: int) -> list[Image.Image]:
    marks: list[Image.Image] = []
    if v.get("barrel", [False] * (s + 1))[s]:
        marks.append(shapes.barrel(36))
        used = (v.get("barrel_attempts") or [0] * (s + 1))[s]
        marks.append(_attempt_dots(used))
    bolts = (v.get("bolts") or [0] * (s + 1))[s]
    marks.extend(T.mark_sprites_sticks(bolts))
    return marks


def _attempt_dots(used: int) -> Image.Image:
    return sheet.dots(used, 3, palette.BAD[:3], (230, 230, 220), 12)


def _bubble_for(v: dict[str, Any], s: int, lang: str) -> Image.Image | None:
    phase = v.get("phase")
    if phase == "bidding":
        said = (v.get("bids") or [None] * (s + 1))[s]
        if said is None:
            return None
        if said == "pass":
            return T.bubble_sprite(word("pass", lang), palette.TEXT_DIM, (30, 30, 30, 200))
        top = said == v.get("bid")
        return T.bubble_sprite(str(said), palette.TEXT_DARK, palette.HIGHLIGHT if top else (245, 245, 238, 240))
    if phase in ("talon", "give", "contract", "play"):
        if s == v.get("declarer"):
            value = v.get("contract") or v.get("bid")
            return T.bubble_sprite(str(value), palette.TEXT_DARK, palette.HIGHLIGHT) if value else None
        return None
    rows = v.get("score_sheet") or []
    if phase in ("round_over", "game_over") and rows:
        last = rows[-1]
        if last.get("redeal"):
            return None
        value = last["scores"][s]
        color = palette.GOOD if value > 0 else palette.BAD if value < 0 else palette.TEXT
        return T.bubble_sprite(signed(value), color, (20, 24, 22, 220))
    return None


def _tricks_sprite(n: int) -> Image.Image:
    return sheet.tricks_sprite(str(n))


def _marriage_sprites(v: dict[str, Any], s: int, style: str) -> list[Image.Image]:
    out = []
    for m in v.get("marriages") or ():
        if m.get("seat") == s and m.get("suit") in ("S", "C", "D", "H"):
            out.append(sheet.suit_points_sprite(m["suit"], int(m.get("points", 0)), style))
    return out


def table_image(view: dict[str, Any], names: list[str] | None, style: str = "classic", lang: str = "en") -> Image.Image:
    v = view
    n = int(v["players"])
    names_ = seat_names(names, n, lang)
    spots = T.spots_by_seat(n, v.get("seat"))
    im = T.background(n)
    phase = v.get("phase")

    def marks(s: int) -> list[Image.Image]:
        out = _marriage_sprites(v, s, style)
        if phase == "play" and s in (v.get("active") or range(n)):
            out.append(_tricks_sprite(int((v.get("tricks_taken") or [0] * n)[s])))
        if v.get("sitting_out") == s and phase in GIVE_PHASES + ("play",):
            out.append(T.label(word("rests", lang), T.SMALL, palette.TEXT_DIM))
        return out

    def plate(s: int) -> dict[str, Any]:
        on_barrel = (v.get("barrel") or [False] * n)[s]
        return {
            "idle": v.get("sitting_out") == s,
            "marks": _plate_marks(v, s),
            "total_color": palette.GOLD if on_barrel else palette.TEXT,
        }

    T.draw_card_seats(im, v, names_, spots, style, bubble=lambda s: _bubble_for(v, s, lang), marks=marks, plate=plate)
    _draw_center(im, v, spots, style, lang)
    _draw_info(im, v, style, lang)
    if phase in ("round_over", "game_over"):
        _draw_summary(im, v, names_, lang)
    last = v.get("last_trick")
    if last and phase in ("play", "round_over", "game_over"):
        T.draw_last_trick(im, last.get("cards") or [], last.get("winner"), names_, style, word("last_trick", lang))
    _draw_given(im, v, names_, style, lang)
    return im


def _draw_center(im: Image.Image, v: dict[str, Any], spots: dict[int, T.Spot], style: str, lang: str) -> None:
    """The trick in play, or the talon(s): face down while waiting, face up once shown to everyone."""
    cx, cy = T.WIDTH // 2, T.HEIGHT // 2
    phase = v.get("phase")
    talons = v.get("talons") or []
    groups: list[list[str | None]] = []
    for t in talons:
        if t.get("count"):
            groups.append(list(t["cards"]) if t.get("cards") else [None] * int(t["count"]))
        elif t.get("cards"):
            groups.append(list(t["cards"]))
    if phase in GIVE_PHASES:
        if groups:
            numbered = phase == "talon" and len(groups) > 1
            _talon_groups(im, cx, cy, groups, T.TRICK_CARD, style, word("talon", lang), numbered)
        return
    if phase == "play":
        T.draw_trick(im, spots, v.get("trick") or [], style)
    if groups:  # during play and after the round: what the talon held (if shown), small at the bottom left
        w, h = card_size(T.MINI_CARD)
        x = T.MARGIN + 8
        y = T.HEIGHT - T.MARGIN - 8 - h
        paste_text(im, (x, y - 8), word("talon", lang), T.SMALL, palette.TEXT_DIM, bold=True, anchor="lb", shadow=True)
        for group in groups:
            for card in group:
                sprite = card_back(T.MINI_CARD) if card is None else card_face(card, T.MINI_CARD, style)
                canvas.paste(im, sprite, x, y)
                x += w + 6
            x += 14


def _draw_summary(im: Image.Image, v: dict[str, Any], names: list[str], lang: str) -> None:
    """Between rounds: who played what contract and whether it was made, in the middle of the table."""
    rows = v.get("score_sheet") or []
    if not rows:
        return
    last = rows[-1]
    cx, cy = T.WIDTH // 2, T.HEIGHT // 2
    if last.get("redeal"):
        canvas.paste_center(im, T.label(word("redeal", lang), 30, palette.TEXT_DIM), cx, cy)
        return
    d = last.get("declarer")
    if not isinstance(d, int) or not 0 <= d < len(names) or last.get("contract") is None:
        return
    made = last.get("made")
    mark = "\u2713" if made else "\u2717" if made is False else word("conceded", lang)
    pill = T.bubble_sprite(f"{last['contract']} {mark}", palette.TEXT_DARK, palette.GOOD if made else palette.BAD, 30)
    name = T.label(ellipsize(names[d], 30, True, 420), 30)
    width = name.width + 16 + pill.width
    canvas.paste(im, name, cx - width / 2, cy - name.height / 2)
    canvas.paste(im, pill, cx - width / 2 + name.width + 16, cy - pill.height / 2)


def _talon_groups(
    im: Image.Image,
    cx: int,
    cy: int,
    groups: list[list[str | None]],
    width: int,
    style: str,
    title: str,
    numbered: bool = False,
) -> None:
    w, h = card_size(width)
    gap, group_gap = 10, 44
    widths = [len(g) * w + (len(g) - 1) * gap for g in groups]
    total = sum(widths) + group_gap * (len(groups) - 1)
    x = cx - total / 2
    paste_text(im, (cx, cy - h / 2 - 12), title, T.SMALL, palette.TEXT_DIM, bold=True, anchor="mb", shadow=True)
    for i, (g, gw) in enumerate(zip(groups, widths)):
        T.draw_cards_row(im, x + gw / 2, cy, g, width, style, gap)
        if numbered:
            tag = T.bubble_sprite(str(i + 1), palette.TEXT_DARK, (245, 245, 238, 240), 24)
            canvas.paste_center(im, tag, x + gw / 2, cy + h / 2 + 34)
        x += gw + group_gap


def _draw_info(im: Image.Image, v: dict[str, Any], style: str, lang: str) -> None:
    rows: list[list[Image.Image]] = []
    first = [T.label(f"{word('round', lang)} {v.get('round', 0)}", T.SMALL, palette.TEXT_DIM)]
    if v.get("golden"):
        first.append(T.bubble_sprite("\u00d72", palette.TEXT_DARK, palette.GOLD, 22))
    rows.append(first)
    trump = v.get("trump")
    if trump in ("S", "C", "D", "H"):
        rows.append([T.suit_badge(trump, style, 44), T.label(word("trump", lang), 26)])
    contract = v.get("contract")
    if contract is not None and v.get("phase") in ("contract", "play"):
        rows.append(
            [T.label(word("contract", lang), 26), T.bubble_sprite(str(contract), palette.TEXT_DARK, palette.HIGHLIGHT)]
        )
    T.info_lines(im, rows)


def _draw_given(im: Image.Image, v: dict[str, Any], names: list[str], style: str, lang: str) -> None:
    """Private view only: the cards the viewer gave or received this round (he knows them)."""
    given = v.get("given") or []
    seat = v.get("seat")
    if not given or seat is None or v.get("phase") not in ("give", "contract", "play"):
        return
    w, h = card_size(T.MINI_CARD)
    x = T.WIDTH - T.MARGIN - 8
    y = T.HEIGHT - T.MARGIN - 8 - h
    for g in reversed(given):
        other = g["to"] if g.get("from") == seat else g.get("from")
        arrow = "\u2192" if g.get("from") == seat else "\u2190"
        x -= w
        canvas.paste(im, card_face(g["card"], T.MINI_CARD, style), x, y)
        who = names[other] if isinstance(other, int) and 0 <= other < len(names) else "?"
        paste_text(im, (x + w / 2, y - 6), f"{arrow} {who}", 16, palette.TEXT, anchor="mb", max_width=w + 40)
        x -= 48


# ------------------------------------------------------------------------------------------------------
# Score sheet

NOTE_ORDER = ("bolt", "bolt_penalty", "barrel_on", "barrel_attempt", "barrel_fail", "barrel_fall", "barrel_win")


def sheet_image(view: dict[str, Any], names: list[str] | None, style: str = "classic", lang: str = "en") -> Image.Image:
    v = view
    n = int(v["players"])
    names_ = seat_names(names, n, lang)
    folded, rows = sheet.shown_rows(v.get("score_sheet") or [])
    strips = [
        sheet.cached_row(sheet.row_key("thousand", r, lang), lambda r=r: _sheet_row(r, n, lang), n, True) for r in rows
    ]
    totals = v.get("totals") or [0] * n
    footer = [sheet.Cell([sheet.ink(number(int(t)), palette.INK, bold=True, size=26)]) for t in totals]
    return sheet.draw(
        names_,
        strips,
        footer,
        word("total", lang),
        extra_title=word("contract", lang),
        winner=v.get("winner"),
        lang=lang,
        folded=folded,
    )


def _sheet_row(r: dict[str, Any], n: int, lang: str) -> sheet.Row:
    """One round as players write it: running total, the round's score, bolts and barrel marks per seat;
    the contract (green when made, red when not) and the declarer's cell highlighted."""
    if r.get("redeal"):
        return sheet.Row(str(r.get("round", "")), [], span=word("redeal", lang))
    notes_by_seat: dict[int, list[dict]] = {}
    for note in r.get("notes") or ():
        notes_by_seat.setdefault(int(note.get("seat", -1)), []).append(note)
    d = r.get("declarer")
    contract_cell: list[Image.Image] = []
    if isinstance(d, int) and r.get("contract") is not None:
        made = r.get("made")
        ink = palette.INK_GREEN if made else palette.INK_RED if made is False else palette.INK_SOFT
        contract_cell.append(sheet.ink(str(r["contract"]), ink, bold=True))
        if r.get("conceded"):
            contract_cell.append(sheet.ink(word("conceded", lang), palette.INK_SOFT, size=18))
    cells = []
    for s in range(n):
        parts = [sheet.ink(number(int(r["totals"][s])), palette.INK, bold=True)]
        score = int(r["scores"][s])
        color = palette.INK_GREEN if score > 0 else palette.INK_RED if score < 0 else palette.INK_SOFT
        parts.append(sheet.ink(signed(score), color, size=18))
        order = {k: i for i, k in enumerate(NOTE_ORDER)}
        for note in sorted(notes_by_seat.get(s, []), key=lambda x: order.get(x.get("type"), 99)):
            icon = _note_icon(note)
            if icon is not None:
                parts.append(icon)
        cells.append(sheet.Cell(parts, marker=palette.MARKER_YELLOW if s == d else None))
    tint = palette.PAPER_GOLD if r.get("golden") else None
    return sheet.Row(str(r.get("round", "")), cells, extra=contract_cell, tint=tint)


def _note_icon(note: dict) -> Image.Image | None:
    kind = note.get("type")
    if kind == "bolt":
        return shapes.stick(8, 26, (120, 90, 50))
    if kind == "bolt_penalty":
        return sheet.ink("\u2212120", palette.INK_RED, bold=True, size=18)
    if kind == "barrel_on":
        return shapes.barrel(26)
    if kind == "barrel_attempt":
        return sheet.dots(int(note.get("attempt", 0)), 3, palette.INK_RED[:3], (210, 210, 200))
    if kind in ("barrel_fall", "barrel_fail"):
        return sheet.crossed_barrel(26)
    if kind == "barrel_win":
        return shapes.crown(30, 24, palette.GOLD[:3])
    if kind == "missed_barrels_reset":
        return sheet.ink("\u21920", palette.INK_RED, bold=True, size=18)
    if kind == "dump_truck":
        return sheet.ink("555\u21920", palette.INK_BLUE, bold=True, size=18)
    return None
