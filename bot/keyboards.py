"""Buttons for a seat's legal actions: cards and tiles, a compact value picker, two-step choices.

``action_rows(view, table_id, version, lang, step)`` turns ``view["legal"]`` into rows of ``Button``\\ s whose
payloads are either a whole action (``a.<table>.<version>.<code>``) or a picker step (``u.…``) that only redraws
the keyboard. Every action the seat may take is reachable; nothing else is offered.

Pickers:
* values (bids, contracts): up to ``FEW`` values as buttons, otherwise the lowest ``QUICK`` and "More…", which
  shows ranges of ``SPAN`` points; a range shows its values, and a range of one value is that value's own
  button. Never more than a dozen buttons at once.
* giving a card (Thousand): the card first, then who gets it; when one receiver is left, the card gives it.
* a Kozel tile that fits both ends: the tile first, then the end — unless both ends lead to the same game (the
  first tile of a round, or both ends showing the same number): then the tile's one button plays it.

No question with one possible answer: buttons whose outcomes are the same collapse into one, here in the
keyboard; the core's legal actions stay as they are. Cards and tiles come in the hand picture's order
(``renderers.hand.picture_order``), so a button is found where the picture shows its card.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from bot import payloads
from bot.port import Button
from core.base import Action
from core.cards import SUIT_SYMBOLS, pretty
from core.i18n import t
from renderers.hand import picture_order

ROW = 5  # buttons per row of cards/tiles/values
FEW = 8  # this many values or fewer: all shown at once
QUICK = 4  # the lowest values shown beside "More…"
SPAN = 30  # points per range in "More…"

Rows = list[list[Button]]


def _act(table_id: int, version: int, action: Action) -> str:
    return payloads.make("a", table=table_id, version=version, code=action.code())


def _step(table_id: int, version: int, step: str) -> str:
    return payloads.make("u", table=table_id, version=version, code=step)


def _chunks(buttons: list[Button], size: int = ROW) -> Rows:
    return [buttons[i : i + size] for i in range(0, len(buttons), size)]


def card_label(card: str) -> str:
    return pretty(card)


def tile_label(tile: str) -> str:
    a, _, b = tile.partition("-")
    return f"{a}|{b}"


def action_label(game: str, action: Action, lang: str, names: list[str]) -> str:
    """A short button label for one action (also used in notices)."""
    typ = action.type
    if typ == "pass":
        return t(lang, "Pass")
    if typ in ("bid", "contract"):
        return str(action.value)
    if typ == "play" and action.card:
        return card_label(action.card)
    if typ == "play" and action.tile:
        return tile_label(action.tile)
    if typ == "concede":
        return t(lang, "Concede")
    if typ == "redeal":
        return t(lang, "Redeal")
    if typ == "take_talon":
        return t(lang, "Talon {n}", n=(action.index or 0) + 1)
    if typ == "give":
        return f"{card_label(action.card or '')} → {names[action.to or 0]}"
    if typ == "name_suit":
        return pretty_suit(action.suit or "")
    if typ == "play_trump":
        return t(lang, "Play")
    if typ == "swap_seven":
        return t(lang, "Swap the seven")
    return typ


def pretty_suit(suit: str) -> str:
    return SUIT_SYMBOLS.get(suit, suit)


def same_outcome_ends(view: dict[str, Any]) -> bool:
    """Kozel: whether laying a tile on either end leads to the same game (an empty line, whose first tile lies
    the same way on both ends, or two ends showing the same number, where either end leaves the same two)."""
    ends = view.get("ends") or {}
    return ends.get("left") is None or ends.get("left") == ends.get("right")


def tile_steps(view: dict[str, Any]) -> dict[str, list[Action]]:
    """Kozel: the tiles that may be played now, each with the plays whose outcomes differ (one per end that
    leads somewhere else), in the picture's order."""
    tiles: dict[str, list[Action]] = defaultdict(list)
    for a in (Action.from_json(x) for x in view.get("legal") or []):
        if a.type == "play" and a.tile is not None:
            tiles[a.tile].append(a)
    if same_outcome_ends(view):
        tiles = defaultdict(list, {tile: acts[:1] for tile, acts in tiles.items()})
    return {tile: tiles[tile] for tile in _in_picture_order(view, list(tiles))}


def _in_picture_order(view: dict[str, Any], codes: list[str]) -> list[str]:
    rank = {code: i for i, code in enumerate(picture_order(view))}
    return sorted(codes, key=lambda c: rank.get(c, len(rank)))


def action_rows(
    view: dict[str, Any], table_id: int, version: int, lang: str, names: list[str], step: str | None = None
) -> Rows:
    """The keyboard for this seat now; ``step`` is a picker step from a ``u`` payload (None: the first page)."""
    legal = [Action.from_json(a) for a in view.get("legal") or []]
    if not legal:
        return []
    by_type: dict[str, list[Action]] = defaultdict(list)
    for a in legal:
        by_type[a.type].append(a)
    game = view.get("game", "")
    rows: Rows = []
    back = [Button("◀ " + t(lang, "Back"), _step(table_id, version, "main"))]

    # value pickers: bids and contracts
    for typ in ("bid", "contract"):
        if typ not in by_type:
            continue
        values = sorted(a.value for a in by_type[typ] if a.value is not None)
        seat = legal[0].seat
        rows += _value_rows(typ, values, seat, table_id, version, step, back)
        if step is not None and step.startswith(typ + "~"):
            return rows
    if step is not None and step.startswith("give~"):
        card = step.partition("=")[2]
        gives = [a for a in by_type.get("give", []) if a.card == card]
        if gives:
            return [[Button(names[a.to or 0], _act(table_id, version, a)) for a in gives], back]
    if step is not None and step.startswith("tile~"):
        tile = step.partition("=")[2]
        plays = tile_steps(view).get(tile, [])
        if len(plays) > 1:
            arrows = {"left": "◀ " + t(lang, "left end"), "right": t(lang, "right end") + " ▶"}
            return [[Button(arrows.get(a.end or "", a.end or "?"), _act(table_id, version, a)) for a in plays], back]

    if "give" in by_type:
        receivers: dict[str, list[Action]] = defaultdict(list)
        for a in by_type["give"]:
            if a.card:
                receivers[a.card].append(a)
        buttons = []
        for card in _in_picture_order(view, list(receivers)):
            if len(receivers[card]) == 1:  # one receiver left: the card goes to him, no question
                buttons.append(Button(card_label(card), _act(table_id, version, receivers[card][0])))
            else:
                buttons.append(Button(card_label(card), _step(table_id, version, f"give~c={card}")))
        rows += _chunks(buttons)
    if "play" in by_type:
        plays = by_type["play"]
        if plays[0].card is not None:
            rank = {code: i for i, code in enumerate(picture_order(view))}
            plays = sorted(plays, key=lambda a: rank.get(a.card or "", len(rank)))
            rows += _chunks([Button(card_label(a.card or ""), _act(table_id, version, a)) for a in plays])
        else:
            buttons = []
            for tile, acts in tile_steps(view).items():
                if len(acts) == 1:
                    buttons.append(Button(tile_label(tile), _act(table_id, version, acts[0])))
                else:
                    buttons.append(Button(tile_label(tile) + " ⇆", _step(table_id, version, f"tile~l={tile}")))
            rows += _chunks(buttons)
    if "take_talon" in by_type:
        rows.append(
            [Button(action_label(game, a, lang, names), _act(table_id, version, a)) for a in by_type["take_talon"]]
        )
    if "name_suit" in by_type or "play_trump" in by_type:
        line = [
            Button(action_label(game, a, lang, names), _act(table_id, version, a))
            for a in by_type.get("play_trump", [])
        ]
        line += [
            Button(t(lang, "Name {suit}", suit=pretty_suit(a.suit or "")), _act(table_id, version, a))
            for a in by_type.get("name_suit", [])
        ]
        rows += _chunks(line, 4)
    if "swap_seven" in by_type:
        rows.append([Button(t(lang, "Swap the seven"), _act(table_id, version, by_type["swap_seven"][0]))])
    tail = []
    for typ, style in (("pass", "default"), ("concede", "danger"), ("redeal", "danger")):
        for a in by_type.get(typ, []):
            tail.append(Button(action_label(game, a, lang, names), _act(table_id, version, a), style=style))
    known = {"bid", "contract", "give", "play", "take_talon", "name_suit", "play_trump", "swap_seven"}
    known |= {"pass", "concede", "redeal"}
    for typ, acts in by_type.items():  # a type this keyboard does not know still gets a button
        if typ not in known:
            tail += [Button(action_label(game, a, lang, names), _act(table_id, version, a)) for a in acts]
    if tail:
        rows.append(tail)
    return rows


def _value_rows(
    typ: str, values: list[int], seat: int, table_id: int, version: int, step: str | None, back: list[Button]
) -> Rows:
    def btn(v: int) -> Button:
        return Button(str(v), _act(table_id, version, Action(seat, typ, value=v)), style="primary")

    if len(values) <= FEW:
        return _chunks([btn(v) for v in values], 4)
    if step == f"{typ}~more":
        lo = values[0]
        starts = sorted({lo + (v - lo) // SPAN * SPAN for v in values})
        ranges = []
        for s in starts:
            inside = [v for v in values if s <= v < s + SPAN]
            if len(inside) == 1:  # a range of one value is that value: no "200–200"
                ranges.append(btn(inside[0]))
            else:
                ranges.append(Button(f"{inside[0]}–{inside[-1]}", _step(table_id, version, f"{typ}~{s}")))
        return _chunks(ranges, 4) + [back]
    if step is not None and step.startswith(f"{typ}~") and step[len(typ) + 1 :].isdigit():
        s = int(step[len(typ) + 1 :])
        inside = [v for v in values if s <= v < s + SPAN]
        if inside:
            return _chunks([btn(v) for v in inside], 3) + [back]
    quick = [btn(v) for v in values[:QUICK]]
    more = Button("…", _step(table_id, version, f"{typ}~more"))
    return [quick + [more]]
