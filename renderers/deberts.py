"""Deberts pictures: the table (bids, the open card on the stock, trump, runs and bella, trick) and the sheet.

Reads only the view (core/deberts/view.py documents its keys). Declared runs are public (they are declared
with their cards), so they are drawn beside their owner: the scoring runs bright with their points, beaten
or lost ones dimmed. The sheet ends with how the last round was scored (the view's ``round_breakdown``).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any

from PIL import Image

from renderers import canvas, palette, sheet
from renderers import table as T
from renderers.cards import card_back, card_face, card_size
from renderers.labels import number, seat_names, signed, word
from renderers.measure import cached_sprite
from renderers.names import fit_name
from renderers.palette import RGBA
from renderers.text import paste_text, text_width

RUN_CARD = 66  # the compact index is 26 px: readable at 480 px wide
RUN_STEP = 26
RESULT_INK: dict[str, RGBA] = {"made": palette.INK_GREEN, "bait": palette.INK_RED, "hanging": palette.INK_BLUE}
RESULT_MARKER: dict[str, RGBA] = {
    "made": palette.MARKER_YELLOW,
    "bait": (255, 200, 196, 255),
    "hanging": (200, 220, 255, 255),
}
SUITS = ("S", "C", "D", "H")


def _suit_pill(suit: str, style: str, bg: RGBA) -> Image.Image:
    return _suit_pill_cached(suit, style, bg)


@lru_cache(maxsize=32)
def _suit_pill_cached(suit: str, style: str, bg: RGBA) -> Image.Image:
    badge = T.suit_badge(suit, style, 30)
    w = badge.width + 24
    pill = canvas.plate(w, T.BUBBLE_H, bg, (0, 0, 0, 90), T.BUBBLE_H // 2).copy()
    pill.alpha_composite(badge, ((w - badge.width) // 2, (T.BUBBLE_H - badge.height) // 2))
    return pill


def _bubble_for(v: dict[str, Any], s: int, style: str, lang: str) -> Image.Image | None:
    phase = v.get("phase")
    if phase == "bidding":
        said = (v.get("bids") or [None] * (s + 1))[s]
        if said is None:
            return None
        if said == "pass":
            return T.bubble_sprite(word("pass", lang), palette.TEXT_DIM, (30, 30, 30, 200))
        if said == "play":
            return T.bubble_sprite(word("play", lang), palette.TEXT_DARK, palette.HIGHLIGHT)
        if said in SUITS:
            return _suit_pill(said, style, palette.HIGHLIGHT)
        return None
    if phase in ("swap", "play"):
        trump = v.get("trump")
        if s == v.get("declarer") and trump in SUITS:
            return _suit_pill(trump, style, palette.HIGHLIGHT)
        return None
    rows = v.get("score_sheet") or []
    if phase in ("round_over", "game_over") and rows and not rows[-1].get("redeal"):
        value = int(rows[-1]["scores"][s])
        color = palette.GOOD if value > 0 else palette.TEXT
        return T.bubble_sprite(signed(value), color, (20, 24, 22, 220))
    return None


@cached_sprite(maxsize=256)
def run_sprite(cards: tuple[str, ...], points: int, bright: bool, style: str) -> Image.Image:
    """One declared run: its cards fanned small, its points beside them (dimmed when it does not score)."""
    w, h = card_size(RUN_CARD)
    width = w + RUN_STEP * (len(cards) - 1)
    label = T.label(str(points), T.SMALL, palette.HIGHLIGHT if bright else palette.TEXT_DIM)
    im = Image.new("RGBA", (width + 6 + label.width, h), (0, 0, 0, 0))
    for i, card in enumerate(cards):
        im.alpha_composite(card_face(card, RUN_CARD, style, dim=not bright), (i * RUN_STEP, 0))
    im.alpha_composite(label, (width + 6, (h - label.height) // 2))
    return im


@cached_sprite(maxsize=64)
def said_run_sprite(kind: str, top: str, points: int, lang: str) -> Image.Image:
    """A run that was beaten: what its owner said ("terz K"), dimmed, without its cards."""
    name = word(kind, lang) if kind in ("terz", "berz") else kind
    top_label = "10" if top == "T" else top
    return T.bubble_sprite(f"{name} {top_label} \u00b7 {points}".strip(), palette.TEXT_DIM, (30, 30, 30, 200), T.SMALL)


def _seat_marks(v: dict[str, Any], s: int, style: str, lang: str) -> list[Image.Image]:
    marks: list[Image.Image] = []
    runs = v.get("runs")
    if runs and v.get("phase") in ("play", "round_over", "game_over"):
        by_seat = runs.get("by_seat") or []
        scoring = runs.get("scorer") == s and runs.get("status") != "lost"
        for run in by_seat[s] if s < len(by_seat) else ():
            if run.get("cards"):
                marks.append(run_sprite(tuple(run["cards"]), int(run["points"]), scoring, style))
            else:  # a beaten run is only said aloud: its kind and top card, never its cards
                marks.append(said_run_sprite(run.get("kind", ""), run.get("top", ""), int(run["points"]), lang))
    trump = v.get("trump")
    if v.get("bella") == s and trump in SUITS:
        marks.append(sheet.suit_points_sprite(trump, 20, style))
    if v.get("phase") == "play":
        marks.append(sheet.tricks_sprite(str((v.get("tricks_taken") or [0] * (s + 1))[s])))
    return marks


def table_image(view: dict[str, Any], names: list[str] | None, style: str = "classic", lang: str = "en") -> Image.Image:
    v = view
    n = int(v["players"])
    names_ = seat_names(names, n, lang)
    spots = T.spots_by_seat(n, v.get("seat"))
    im = T.background(n)
    phase = v.get("phase")
    T.draw_card_seats(
        im,
        v,
        names_,
        spots,
        style,
        lang=lang,
        bubble=lambda s: _bubble_for(v, s, style, lang),
        marks=lambda s: _seat_marks(v, s, style, lang),
    )
    cx, cy = im.width // 2, im.height // 2
    holder = v.get("dealer")
    held = names_[holder] if isinstance(holder, int) and 0 <= holder < n else None
    if phase in ("bidding", "swap"):
        _draw_stock(im, v, cx, cy, T.trick_card(n), style, lang, held)
    else:
        if phase == "play":
            T.draw_trick(im, spots, v.get("trick") or [], style, T.trick_card(n))
        w, h = card_size(T.MINI_CARD)
        _draw_stock(im, v, T.MARGIN + 16 + w, im.height - T.MARGIN - h / 2, T.MINI_CARD, style, lang, held)
    if phase in ("round_over", "game_over"):
        _draw_summary(im, v, names_, style, lang)
    _draw_info(im, v, style, lang)
    last = v.get("last_trick")
    if last and phase in ("play", "round_over", "game_over"):
        T.draw_last_trick(im, last.get("cards") or [], last.get("winner"), names_, style, word("last_trick", lang))
    return im


def _draw_stock(
    im: Image.Image, v: dict[str, Any], cx: float, cy: float, width: int, style: str, lang: str, holder: str | None
) -> None:
    """The stock: a pile of backs with the open card face up on it, the bottom card once shown, how many
    cards it holds and who holds it (the dealer)."""
    count = int(v.get("stock_count") or 0)
    open_card = v.get("open_card") or {}
    shown = open_card.get("shown")
    bottom = v.get("bottom_card")
    w, h = card_size(width)
    if count <= 0 and not shown:
        return
    layers = min(4, max(1, count // 4))
    back = card_back(width)
    x0 = cx - w
    for i in range(layers):
        canvas.paste(im, back, x0 - i * 3, cy - h / 2 - i * 3)
    if count:
        tag = T.count_tag(count)
        canvas.paste(im, tag, x0 - 3 * layers + (w - tag.width) / 2, cy - tag.height / 2)
    if holder:
        room = 290 if width < T.TRICK_CARD - 10 else 420  # the corner, left of the bottom plate; or the middle
        room -= int(text_width(word("stock_at", lang, name=""), T.SMALL, True))
        title = word("stock_at", lang, name=fit_name(holder, T.SMALL, True, room))
        if width >= T.TRICK_CARD - 10:
            paste_text(im, (cx, cy + h / 2 + 10), title, T.SMALL, palette.TEXT_DIM, bold=True, anchor="mt", shadow=True)
        else:
            paste_text(
                im,
                (x0 - 3 * layers, cy - h / 2 - 3 * layers - 6),
                title,
                T.SMALL,
                palette.TEXT_DIM,
                bold=True,
                anchor="lb",
                shadow=True,
            )
    x = cx + 8
    if shown:
        canvas.paste(im, card_face(shown, width, style), x, cy - h / 2)
        if width >= T.TRICK_CARD - 10:
            title = word("open_card", lang)
            paste_text(
                im, (x + w / 2, cy - h / 2 - 10), title, T.SMALL, palette.TEXT_DIM, bold=True, anchor="mb", shadow=True
            )
        x += w + 8
    if bottom:
        canvas.paste(im, card_face(bottom, width, style), x, cy - h / 2)
        if width >= T.TRICK_CARD - 10:
            title = word("bottom", lang)
            paste_text(
                im, (x + w / 2, cy - h / 2 - 10), title, T.SMALL, palette.TEXT_DIM, bold=True, anchor="mb", shadow=True
            )


def _draw_info(im: Image.Image, v: dict[str, Any], style: str, lang: str) -> None:
    rows: list[list[Image.Image]] = []
    if v.get("target"):
        first = word("round_to", lang, n=v.get("round", 0), target=v["target"])
    else:
        first = f"{word('round', lang)} {v.get('round', 0)}"
    room = T.INFO_WIDTH[int(v["players"])]
    if text_width(first, T.SMALL, True) > room and " \u00b7 " in first:  # too wide for the corner: two lines
        rows += [[T.label(part, T.SMALL, palette.TEXT_DIM)] for part in first.split(" \u00b7 ", 1)]
    else:
        rows.append([T.label(first, T.SMALL, palette.TEXT_DIM)])
    trump = v.get("trump")
    if trump in SUITS:
        rows.append([T.suit_badge(trump, style, 40), T.label(word("trump", lang), T.BIG)])
    elif v.get("phase") == "bidding" and v.get("circle") == 2:
        rows.append([T.bubble_sprite(word("circle", lang, n=2), palette.TEXT_DARK, (245, 245, 238, 240), T.SMALL)])
    hanging = v.get("hanging") or {}
    if hanging.get("points"):  # the points hanging from a bait or a tie: each pot as it waits
        pots = [int(p) for p in hanging.get("pots") or [] if p] or [int(hanging["points"])]
        text = " + ".join(str(p) for p in pots)
        rows.append([T.label(word("hanging", lang), T.SMALL), T.bubble_sprite(text, palette.TEXT, (40, 80, 170, 230))])
    T.info_lines(im, rows)


def _draw_summary(im: Image.Image, v: dict[str, Any], names: list[str], style: str, lang: str) -> None:
    rows = v.get("score_sheet") or []
    if not rows:
        return
    last = rows[-1]
    cx, cy = im.width // 2, im.height // 2
    if last.get("redeal"):
        canvas.paste_center(im, T.label(word("redeal", lang), 32, palette.TEXT_DIM), cx, cy)
        return
    d = last.get("declarer")
    result = last.get("result")
    if not isinstance(d, int) or not 0 <= d < len(names) or result not in RESULT_INK:
        return
    parts = [T.label(fit_name(names[d], 30, True, 300), 30)]
    if last.get("trump") in SUITS:
        parts.append(T.suit_badge(last["trump"], style, 34))
    bg = {"made": palette.GOOD, "bait": palette.BAD, "hanging": (120, 160, 255, 255)}[result]
    text = f"{word('made', lang)} \u2713" if result == "made" else word(result, lang)
    parts.append(T.bubble_sprite(text, palette.TEXT_DARK, bg, 28))
    width = sum(p.width for p in parts) + 14 * (len(parts) - 1)
    x = cx - width / 2
    for p in parts:
        canvas.paste(im, p, x, cy - p.height / 2)
        x += p.width + 14


# ------------------------------------------------------------------------------------------------------
# Score sheet


def sheet_image(view: dict[str, Any], names: list[str] | None, style: str = "classic", lang: str = "en") -> Image.Image:
    v = view
    n = int(v["players"])
    names_ = seat_names(names, n, lang)
    folded, rows = sheet.shown_rows(v.get("score_sheet") or [])
    strips = [
        sheet.cached_row(sheet.row_key("deberts", r, lang, style), lambda r=r: _sheet_row(r, n, style, lang), n, True)
        for r in rows
    ]
    totals = v.get("totals") or [0] * n
    footer = [sheet.Cell([sheet.ink(number(int(t)), palette.INK, bold=True, size=26)]) for t in totals]
    target = v.get("target")
    return sheet.draw(
        names_,
        strips,
        footer,
        word("total", lang),
        extra_title=word("target", lang, n=target) if target else word("trump", lang),
        winner=v.get("winner"),
        lang=lang,
        folded=folded,
        details=_breakdown_block(v.get("round_breakdown"), n, lang),
        legend=_legend(rows, lang),
    )


def _legend(rows: list[dict[str, Any]], lang: str) -> list[Image.Image]:
    """What the sheet's marks mean (only the marks that are there): the round's score, the declarer's cell in
    the result's colour, a bait, hanging points and where they went, the round's own points."""
    played = [r for r in rows if not r.get("redeal")]
    results = {r.get("result") for r in played}
    out = []
    if played:
        out.append(
            sheet.legend_item(
                sheet.ink(f"+{sheet.SAMPLE}", palette.INK_GREEN, size=sheet.SMALL_INK), word("legend_round", lang)
            )
        )
    if "made" in results:
        made = sheet.ink("\u2713", RESULT_INK["made"], True, sheet.SMALL_INK)
        out.append(sheet.legend_item(made, word("legend_made", lang)))
        out.append(sheet.legend_item(sheet.swatch(RESULT_MARKER["made"]), word("legend_declarer", lang)))
    if "bait" in results:
        out.append(sheet.legend_item(sheet.swatch(RESULT_MARKER["bait"]), word("legend_bait", lang)))
    if "hanging" in results or any(r.get("hanging") for r in played):
        out.append(
            sheet.legend_item(
                sheet.ink(f"\u21b7{sheet.SAMPLE}", palette.INK_BLUE, size=sheet.SMALL_INK), word("legend_hanging", lang)
            )
        )
    if any(r.get("hanging_paid") for r in played):
        out.append(
            sheet.legend_item(
                sheet.ink(f"\u21b3{sheet.SAMPLE}", palette.INK_BLUE, True, sheet.SMALL_INK), word("legend_paid", lang)
            )
        )
    if any(p is not None and int(p) != int(s) for r in played for p, s in zip(r.get("points") or (), r["scores"])):
        out.append(
            sheet.legend_item(
                sheet.ink(f"({sheet.SAMPLE})", palette.INK_SOFT, size=sheet.SMALL_INK), word("legend_own", lang)
            )
        )
    return out


def _breakdown_block(b: dict[str, Any] | None, n: int, lang: str) -> Image.Image | None:
    """The breakdown block, drawn once per round breakdown and language (like a past row)."""
    if not b or not isinstance(b.get("declarer"), int):
        return None

    def draw() -> Image.Image:
        return sheet.details_image(word("scored_how", lang, n=b.get("round", "")), _breakdown(b, n, lang), n, True)

    return sheet.cached_strip((sheet.row_key("deberts-breakdown", b, lang), n), draw)


def _runs_text(run: dict[str, Any], lang: str) -> str:
    kind = run.get("kind")
    name = word(kind, lang) if kind in ("terz", "berz") else str(kind)
    return f"{name} {int(run.get('points', 0))}"


def _breakdown(b: dict[str, Any], n: int, lang: str) -> list[sheet.Detail]:
    """How the last round was scored, line by line under the sheet: each seat's card points, the last
    trick's 10, the runs (with a red cross when they did not count), bella, the round points (the
    declarer's cell in the result's colour), then what the rules did — a bait, a hanging bait, winner takes
    all, hanging points paid out — and what each wrote. Lines nobody has are left out."""
    d = int(b["declarer"])
    result = b.get("result")
    lines: list[sheet.Detail] = []

    def add(key: str, parts_of: Callable[[int], list[Image.Image]]) -> None:
        lines.append(sheet.Detail(word(key, lang), [sheet.Cell(parts_of(s)) for s in range(n)]))

    def only(seat: object, text: str, color: RGBA) -> Callable[[int], list[Image.Image]]:
        return lambda s: [sheet.ink(text, color, True, sheet.SMALL_INK)] if s == seat else []

    add("trick_points", lambda s: [sheet.ink(str(int(b["cards"][s])), palette.INK, size=sheet.SMALL_INK)])
    if isinstance(b.get("last_trick"), int):
        add("last_trick", only(b["last_trick"], "+10", palette.INK_GREEN))
    runs = b.get("runs")
    if runs:
        counted = bool(runs.get("counted"))
        color = palette.INK_GREEN if counted else palette.INK_SOFT
        parts = [sheet.ink(_runs_text(r, lang), color, size=sheet.SMALL_INK) for r in runs.get("runs") or []]
        if not counted:  # the scorer took no trick: his runs are void
            parts.append(sheet.ink("\u2717", palette.INK_RED, True, sheet.SMALL_INK))
        add("runs", lambda s: parts if s == runs.get("seat") else [])
    if isinstance(b.get("bella"), int):
        add("bella_line", only(b["bella"], "+20", palette.INK_GREEN))
    marker = RESULT_MARKER.get(result)
    points = [sheet.ink(str(int(p)), palette.INK, True, sheet.SMALL_INK) for p in b["points"]]
    lines.append(
        sheet.Detail(
            word("round_points", lang), [sheet.Cell([p], marker if s == d else None) for s, p in enumerate(points)]
        )
    )
    moved = [int(x) for x in b.get("moved") or [0] * n]
    if result == "bait":
        add("bait_line", lambda s: _change(moved[s]))
    elif result == "hanging":
        add("hanging_bait", only(d, f"\u21b7{int(b.get('hanging_added') or 0)}", palette.INK_BLUE))
    elif b.get("winner_takes_all"):
        add("takes_all", lambda s: _change(moved[s]))
    paid = [int(x) for x in b.get("paid") or [0] * n]
    if any(paid):
        add("hanging_points", lambda s: _change(paid[s], palette.INK_BLUE, "\u21b3") if paid[s] else [])
    scores = [int(x) for x in b["scores"]]
    if scores != [int(p) for p in b["points"]]:
        add(
            "written",
            lambda s: [
                sheet.ink(
                    signed(scores[s]), palette.INK_GREEN if scores[s] > 0 else palette.INK_SOFT, True, sheet.SMALL_INK
                )
            ],
        )
    return lines


def _change(amount: int, color: RGBA | None = None, prefix: str = "") -> list[Image.Image]:
    """A signed amount moved by the rules (green in, red out), or nothing."""
    if not amount:
        return []
    ink = color or (palette.INK_GREEN if amount > 0 else palette.INK_RED)
    return [sheet.ink(prefix + (str(amount) if prefix else signed(amount)), ink, True, sheet.SMALL_INK)]


def _sheet_row(r: dict[str, Any], n: int, style: str, lang: str) -> sheet.Row:
    """One round: what each seat wrote and the running total; trump and the result (made, bait, hanging)
    beside the round; the declarer's cell marked in the result's colour; hanging points paid out in blue."""
    if r.get("redeal"):
        return sheet.Row(str(r.get("round", "")), [], span=word("redeal", lang))
    d = r.get("declarer")
    result = r.get("result")
    extra: list[Image.Image] = []
    if r.get("trump") in SUITS:
        from renderers import shapes

        extra.append(shapes.suit_icon(r["trump"], 26, palette.suit_color(r["trump"], style)))
    if result in RESULT_INK:
        text = "\u2713" if result == "made" else word(result, lang)
        extra.append(sheet.ink(text, RESULT_INK[result], bold=True, size=sheet.SMALL_INK))
    if r.get("hanging"):  # points left hanging after this round
        extra.append(sheet.ink(f"\u21b7{int(r['hanging'])}", palette.INK_BLUE, size=sheet.SMALL_INK))
    paid_to = r.get("hanging_to") or []
    paid = int(r.get("hanging_paid") or 0)
    cells = []
    for s in range(n):
        parts = [sheet.ink(number(int(r["totals"][s])), palette.INK, bold=True)]
        score = int(r["scores"][s])
        parts.append(
            sheet.ink(signed(score), palette.INK_GREEN if score > 0 else palette.INK_SOFT, size=sheet.SMALL_INK)
        )
        raw = (r.get("points") or [score] * n)[s]
        if raw is not None and int(raw) != score:  # the round's own points when something else was written
            parts.append(sheet.ink(f"({int(raw)})", palette.INK_SOFT, size=sheet.SMALL_INK))
        if paid and s in paid_to:  # equal shares, the odd point to the first defender from the declarer's left
            base, odd = divmod(paid, len(paid_to))
            share = base + (1 if paid_to.index(s) < odd else 0)
            parts.append(sheet.ink(f"\u21b3{share}", palette.INK_BLUE, bold=True, size=sheet.SMALL_INK))
        marker = RESULT_MARKER.get(result) if s == d else None
        cells.append(sheet.Cell(parts, marker=marker))
    return sheet.Row(str(r.get("round", "")), cells, extra=extra)
