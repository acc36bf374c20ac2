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
from renderers.measure import cached_sprite
from renderers.names import fit_name
from renderers.text import paste_text, text_sprite, text_width

GIVE_PHASES = ("bidding", "talon", "give", "contract")


def _plate_marks(v: dict[str, Any], s: int) -> list[Image.Image]:
    """Bolts as sticks and the barrel with its attempt dots (never on the winner: he is off the barrel)."""
    marks: list[Image.Image] = []
    if (v.get("barrel") or [False] * (s + 1))[s] and v.get("winner") != s:
        marks.append(shapes.barrel(36))
        used = (v.get("barrel_attempts") or [0] * (s + 1))[s]
        marks.append(_attempt_dots(used))
    bolts = (v.get("bolts") or [0] * (s + 1))[s]
    marks.extend(T.mark_sprites_sticks(bolts))
    return marks


def _attempt_dots(used: int) -> Image.Image:
    return sheet.dots(used, 3, palette.BAD[:3], (230, 230, 220), 14)


def _bubble_for(v: dict[str, Any], s: int, lang: str) -> Image.Image | None:
    phase = v.get("phase")
    said = (v.get("bids") or [None] * (s + 1))[s]
    if phase == "bidding":
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
        if said == "pass":  # who passed stays visible after the bidding
            return T.bubble_sprite(word("pass", lang), palette.TEXT_DIM, (30, 30, 30, 200))
        return None
    rows = v.get("score_sheet") or []
    if phase in ("round_over", "game_over") and rows:
        last = rows[-1]
        if last.get("redeal"):
            return None
        value = _scored(last, s)
        color = palette.GOOD if value > 0 else palette.BAD if value < 0 else palette.TEXT
        return T.bubble_sprite(signed(value), color, (20, 24, 22, 220))
    return None


def _scored(row: dict[str, Any], s: int) -> int:
    """What seat ``s`` scored in the round itself (its contract or card points), before any penalty."""
    return int(row["scores"][s]) - sum(int(n.get("value") or 0) for n in row.get("notes") or () if _penalty(n, s))


def _penalty(note: dict, s: int) -> bool:
    return note.get("seat") == s and note.get("type") in PENALTIES


PENALTIES = ("bolt_penalty", "barrel_fall", "missed_barrels_reset", "dump_truck")


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
        out = []
        if phase == "play" and v.get("leader") == s:
            out.append(T.bubble_sprite(word("leads", lang), palette.TEXT_DARK, (150, 210, 255, 240), T.SMALL))
        out += _marriage_sprites(v, s, style)
        if phase == "play" and s in (v.get("active") or range(n)):
            taken = int((v.get("tricks_taken") or [0] * n)[s])
            points = int((v.get("round_points") or [0] * n)[s])
            out.append(sheet.tricks_sprite(f"{taken} \u00b7 {word('points_short', lang, n=points)}"))
        if v.get("sitting_out") == s and phase in GIVE_PHASES + ("play",):
            out.append(T.label(word("rests", lang), T.SMALL, palette.TEXT_DIM))
        return out + _given_sprites(v, s, names_, style)

    def plate(s: int) -> dict[str, Any]:
        on_barrel = (v.get("barrel") or [False] * n)[s] and v.get("winner") != s
        return {
            "idle": v.get("sitting_out") == s and phase in GIVE_PHASES + ("play",),
            "marks": _plate_marks(v, s),
            "total_color": palette.GOLD if on_barrel else palette.TEXT,
        }

    T.draw_card_seats(
        im, v, names_, spots, style, lang=lang, bubble=lambda s: _bubble_for(v, s, lang), marks=marks, plate=plate
    )
    _draw_center(im, v, spots, style, lang)
    _draw_info(im, v, names_, style, lang)
    if phase in ("round_over", "game_over"):
        _draw_summary(im, v, names_, lang)
    last = v.get("last_trick")
    if last and phase in ("play", "round_over", "game_over"):
        T.draw_last_trick(im, last.get("cards") or [], last.get("winner"), names_, style, word("last_trick", lang))
    return im


def _draw_center(im: Image.Image, v: dict[str, Any], spots: dict[int, T.Spot], style: str, lang: str) -> None:
    """The trick in play, or the talon(s): face down while waiting, face up once shown to everyone."""
    n = int(v["players"])
    cx, cy = im.width // 2, im.height // 2
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
            width = T.trick_card(n) if sum(len(g) for g in groups) <= 4 else T.trick_card(n) - 20
            _talon_groups(im, cx, cy, groups, width, style, word("talon", lang), numbered)
        return
    if phase == "play":
        T.draw_trick(im, spots, v.get("trick") or [], style, T.trick_card(n))
    if groups:  # during play and after the round: what the talon held (if shown), small at the bottom left
        w, h = card_size(T.MINI_CARD)
        x = T.MARGIN
        y = im.height - T.MARGIN - h
        count = sum(len(g) for g in groups)  # 2 players: two talons of two, left of the bottom plate
        step = w + 4 if count <= 3 else w + 2
        paste_text(im, (x, y - 6), word("talon", lang), T.SMALL, palette.TEXT_DIM, bold=True, anchor="lb", shadow=True)
        for group in groups:
            for card in group:
                sprite = card_back(T.MINI_CARD) if card is None else card_face(card, T.MINI_CARD, style)
                canvas.paste(im, sprite, x, y)
                x += step
            x += 8


def _draw_summary(im: Image.Image, v: dict[str, Any], names: list[str], lang: str) -> None:
    """Between rounds: who played what contract and whether it was made, in the middle of the table."""
    rows = v.get("score_sheet") or []
    if not rows:
        return
    last = rows[-1]
    cx, cy = im.width // 2, im.height // 2
    if last.get("redeal"):
        canvas.paste_center(im, T.label(word("redeal", lang), 32, palette.TEXT_DIM), cx, cy)
        return
    d = last.get("declarer")
    if not isinstance(d, int) or not 0 <= d < len(names) or last.get("contract") is None:
        return
    made = last.get("made")
    mark = "\u2713" if made else "\u2717" if made is False else word("conceded", lang)
    pill = T.bubble_sprite(f"{last['contract']} {mark}", palette.TEXT_DARK, palette.GOOD if made else palette.BAD, 32)
    name = T.label(fit_name(names[d], 32, True, 360), 32)
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
    gap, group_gap = 8, 36
    widths = [len(g) * w + (len(g) - 1) * gap for g in groups]
    total = sum(widths) + group_gap * (len(groups) - 1)
    x = cx - total / 2
    paste_text(im, (cx, cy - h / 2 - 8), title, T.SMALL, palette.TEXT_DIM, bold=True, anchor="mb", shadow=True)
    for i, (g, gw) in enumerate(zip(groups, widths)):
        T.draw_cards_row(im, x + gw / 2, cy, g, width, style, gap)
        if numbered:
            tag = T.bubble_sprite(str(i + 1), palette.TEXT_DARK, (245, 245, 238, 240), T.SMALL)
            canvas.paste_center(im, tag, x + gw / 2, cy + h / 2 + 30)
        x += gw + group_gap


def _draw_info(im: Image.Image, v: dict[str, Any], names: list[str], style: str, lang: str) -> None:
    """Top left: the round (×2 when golden), trump or "no trump", the contract with the declarer's name,
    and "plays 100 · talon closed" when the declarer sits on a hundred with the talon unseen."""
    rows: list[list[Image.Image]] = []
    first = [T.label(f"{word('round', lang)} {v.get('round', 0)}", T.SMALL, palette.TEXT_DIM)]
    if v.get("golden"):
        first.append(T.bubble_sprite("\u00d72", palette.TEXT_DARK, palette.GOLD, T.SMALL))
    rows.append(first)
    phase = v.get("phase")
    trump = v.get("trump")
    if trump in ("S", "C", "D", "H"):
        rows.append([T.suit_badge(trump, style, 40), T.label(word("trump", lang), T.BIG)])
    elif phase == "play":
        rows.append([T.label(word("no_trump", lang), T.BIG, palette.TEXT_DIM)])
    contract = v.get("contract")
    d = v.get("declarer")
    if contract is not None and phase in ("contract", "play") and isinstance(d, int) and 0 <= d < len(names):
        pill = T.bubble_sprite(str(contract), palette.TEXT_DARK, palette.HIGHLIGHT)
        rows.append([pill, T.label(fit_name(names[d], T.SMALL, True, 300 - pill.width), T.SMALL)])
    # closed to the others: on a hundred the talon is shown only under the table's option (the declarer's
    # own view holds its cards either way)
    closed = not (v.get("options") or {}).get("show_talon_on_100", False)
    if v.get("on_hundred") and phase in ("give", "contract", "play"):
        parts = [word("plays_100", lang)] + ([word("talon_closed", lang)] if closed else [])
        text = " \u00b7 ".join(parts)
        if text_width(text, T.SMALL, True) > T.INFO_WIDTH.get(int(v["players"]), 300):
            rows += [[T.label(part, T.SMALL, palette.HIGHLIGHT)] for part in parts]  # two lines in a narrow corner
        else:
            rows.append([T.label(text, T.SMALL, palette.HIGHLIGHT)])
    T.info_lines(im, rows)


def _given_sprites(v: dict[str, Any], s: int, names: list[str], style: str) -> list[Image.Image]:
    """Private view only, on the viewer's own row: the cards he gave ("9♣ → name") or got ("← name")."""
    seat = v.get("seat")
    if s != seat or v.get("phase") not in ("give", "contract", "play"):
        return []
    out = []
    for g in v.get("given") or ():
        other = g["to"] if g.get("from") == seat else g.get("from")
        arrow = "\u2192" if g.get("from") == seat else "\u2190"
        who = names[other] if isinstance(other, int) and 0 <= other < len(names) else "?"
        out.append(given_pill(g["card"], f"{arrow} {fit_name(who, T.SMALL, True, 200)}", style))
    return out


@cached_sprite(maxsize=64)
def given_pill(card: str, text: str, style: str) -> Image.Image:
    """A card named by its rank and suit symbol, then who it went to or came from, on a light pill."""
    from renderers.cards import rank_label

    rank = text_sprite(rank_label(card[0]), T.SMALL, (*palette.suit_color(card[1], style), 255), True)
    suit = shapes.suit_icon(card[1], 24, palette.suit_color(card[1], style))
    label = text_sprite(text, T.SMALL, palette.TEXT_DARK, True)
    h = max(rank.height, label.height) + 10
    w = 14 + rank.width + 2 + suit.width + 8 + label.width + 14
    pill = canvas.plate(w, h, (245, 245, 238, 240), (0, 0, 0, 90), h // 2).copy()
    x = 14
    for part in (rank, suit, label):
        pill.alpha_composite(part, (x, (h - part.height) // 2))
        x += part.width + (2 if part is rank else 8)
    return pill


# ------------------------------------------------------------------------------------------------------
# Score sheet

NOTE_ORDER = (
    "bolt",
    "bolt_penalty",
    "barrel_on",
    "barrel_attempt",
    "barrel_fail",
    "barrel_fall",
    "barrel_win",
    "missed_barrels_reset",
    "dump_truck",
)


def sheet_image(view: dict[str, Any], names: list[str] | None, style: str = "classic", lang: str = "en") -> Image.Image:
    v = view
    n = int(v["players"])
    names_ = seat_names(names, n, lang)
    all_rows = v.get("score_sheet") or []
    dealers = _row_dealers(v, all_rows)
    folded, rows = sheet.shown_rows(all_rows)
    first = len(all_rows) - len(rows)
    strips = []
    for i, r in enumerate(rows):
        out = dealers[first + i] if n == 4 else None
        key = sheet.row_key("thousand", r, lang, out)
        strips.append(sheet.cached_row(key, lambda r=r, out=out: _sheet_row(r, n, lang, out), n, True))
    totals = v.get("totals") or [0] * n
    footer = [sheet.Cell([sheet.ink(number(int(t)), palette.INK, bold=True, size=30)]) for t in totals]
    return sheet.draw(
        names_,
        strips,
        footer,
        word("total", lang),
        extra_title=word("bid", lang),  # "Bid", "Ставка": fits the narrow column in every language
        winner=v.get("winner"),
        lang=lang,
        folded=folded,
        legend=_legend(rows, n, lang),
    )


def _row_dealers(v: dict[str, Any], rows: list[dict[str, Any]]) -> list[int | None]:
    """The dealer of every sheet row, walked back from the view's dealer: the deal passes on after a
    played round and stays with the same dealer after a redeal."""
    dealer = v.get("dealer")
    n = int(v["players"])
    if not isinstance(dealer, int) or not rows:
        return [None] * len(rows)
    out: list[int | None] = [None] * len(rows)
    in_round = v.get("phase") not in ("round_over", "game_over")
    d = dealer
    for i in range(len(rows) - 1, -1, -1):
        if in_round or i < len(rows) - 1:  # ``d`` is the dealer of the row after this one
            d = d if rows[i].get("redeal") else (d - 1) % n
        out[i] = d
        in_round = False
    return out


def _sheet_row(r: dict[str, Any], n: int, lang: str, sitting_out: int | None = None) -> sheet.Row:
    """One round as players write it: the new total, the round's result as scored (a made 105 is +105)
    and then every penalty as its own mark (a bolt, −120, a fall, "555→0"); the contract (green when
    made, red when not) and the declarer's cell highlighted; the 4-player dealer sitting out marked."""
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
            contract_cell.append(_conceded_flag())  # the word is in the legend: it does not fit the column
    order = {k: i for i, k in enumerate(NOTE_ORDER)}
    cells = []
    for s in range(n):
        parts = [sheet.ink(number(int(r["totals"][s])), palette.INK, bold=True)]
        if s == sitting_out:
            parts.append(_dealer_chip(lang))
        scored = _scored(r, s)
        color = palette.INK_GREEN if scored > 0 else palette.INK_RED if scored < 0 else palette.INK_SOFT
        parts.append(sheet.ink(signed(scored), color, size=sheet.SMALL_INK))
        for note in sorted(notes_by_seat.get(s, []), key=lambda x: order.get(x.get("type"), 99)):
            parts.extend(_note_marks(note))
        cells.append(sheet.Cell(parts, marker=palette.MARKER_YELLOW if s == d else None))
    tint = palette.PAPER_GOLD if r.get("golden") else None
    return sheet.Row(str(r.get("round", "")), cells, extra=contract_cell, tint=tint)


def _conceded_flag() -> Image.Image:
    return sheet.ink("\u2691", palette.INK_SOFT, True, sheet.SMALL_INK)


def _dealer_chip(lang: str) -> Image.Image:
    return shapes.chip(44, word("dealer_chip", lang), (250, 250, 246), (90, 96, 110))


def _note_marks(note: dict) -> list[Image.Image]:
    """A penalty or barrel note as the marks players write: a stick, −120, a barrel, a crossed barrel
    with −120, a crown, "555→0"."""
    kind = note.get("type")
    value = int(note.get("value") or 0)
    if kind == "bolt":
        return [shapes.stick(9, 28, (120, 90, 50))]
    if kind == "bolt_penalty":
        return [shapes.stick(9, 28, (120, 90, 50)), sheet.ink(signed(value), palette.INK_RED, True, sheet.SMALL_INK)]
    if kind == "barrel_on":
        return [shapes.barrel(28)]
    if kind == "barrel_attempt":
        return [sheet.dots(int(note.get("attempt", 0)), 3, palette.INK_RED[:3], (210, 210, 200))]
    if kind == "barrel_fail":
        return [sheet.crossed_barrel(28)]
    if kind == "barrel_fall":
        return [sheet.crossed_barrel(28), sheet.ink(signed(value), palette.INK_RED, True, sheet.SMALL_INK)]
    if kind == "barrel_win":
        return [shapes.crown(32, 25, palette.GOLD[:3])]
    if kind == "missed_barrels_reset":
        return [sheet.ink(f"{number(-value)}\u21920", palette.INK_RED, True, sheet.SMALL_INK)]
    if kind == "dump_truck":
        return [sheet.ink(f"{number(-value)}\u21920", palette.INK_BLUE, True, sheet.SMALL_INK)]
    return []


def _legend(rows: list[dict[str, Any]], n: int, lang: str) -> list[Image.Image]:
    """What the marks on the shown rows mean (only the marks that are there)."""
    kinds = {note.get("type") for r in rows for note in r.get("notes") or ()}
    out = []
    played = [r for r in rows if not r.get("redeal")]
    if played:  # the round's result beside the total, the declarer's cell, the contract's colour
        out.append(
            sheet.legend_item(
                sheet.ink(f"+{sheet.SAMPLE}", palette.INK_GREEN, size=sheet.SMALL_INK), word("legend_round", lang)
            )
        )
    if any(isinstance(r.get("declarer"), int) for r in played):
        out.append(sheet.legend_item(sheet.swatch(palette.MARKER_YELLOW), word("legend_declarer", lang)))
    if any(r.get("made") for r in played):
        out.append(
            sheet.legend_item(
                sheet.ink(sheet.SAMPLE, palette.INK_GREEN, True, sheet.SMALL_INK), word("legend_made", lang)
            )
        )
    if any(r.get("made") is False for r in played):
        out.append(
            sheet.legend_item(
                sheet.ink(sheet.SAMPLE, palette.INK_RED, True, sheet.SMALL_INK), word("legend_failed", lang)
            )
        )
    if kinds & {"bolt", "bolt_penalty"}:
        out.append(sheet.legend_item(shapes.stick(9, 28, (120, 90, 50)), word("bolt", lang)))
    if "barrel_on" in kinds:
        out.append(sheet.legend_item(shapes.barrel(28), word("barrel", lang)))
    if "barrel_attempt" in kinds:
        dots = sheet.dots(2, 3, palette.INK_RED[:3], (210, 210, 200))
        out.append(sheet.legend_item(dots, word("legend_barrel_tries", lang)))
    if kinds & {"barrel_fall", "barrel_fail"}:
        out.append(sheet.legend_item(sheet.crossed_barrel(28), word("fall", lang)))
    if "dump_truck" in kinds:
        out.append(sheet.legend_item(None, f"555\u21920 {word('dump_truck', lang)}"))
    if any(r.get("conceded") for r in rows):
        out.append(sheet.legend_item(_conceded_flag(), word("conceded", lang)))
    if n == 4 and any(not r.get("redeal") for r in rows):
        out.append(sheet.legend_item(_dealer_chip(lang), word("deals", lang)))
    if any(r.get("golden") for r in rows):  # the row's gold paper: why a made 115 shows +230
        out.append(_golden_item(lang))
    return out


@cached_sprite(maxsize=8)
def _golden_item(lang: str) -> Image.Image:
    """The legend's golden round: a swatch of the gold paper and "golden ×2"."""
    swatch = canvas.plate(36, 24, (*palette.PAPER_GOLD, 255), palette.PAPER_LINE + (255,), 6)
    return sheet.legend_item(swatch, f"{word('golden', lang)} \u00d72")
