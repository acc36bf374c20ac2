"""Table manners through the application and the fake port (issue 27 points 6 and 9): buttons in the hand
picture's order, no question with one possible answer, prompts that name the choice made so far and say why a
choice is narrow, pickers without one-value ranges, domino words for dominoes, `join` while seated, every
text translated, names drawn whole where they fit."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot import keyboards
from core import games
from core.ai.player import ComputerPlayer
from core.base import Action
from core.cards import pretty
from core.i18n import t
from renderers.hand import picture_order
from testkit.fakeport import FakeUser, Shown
from tests.app_support import World, db_path, make_world, open_table

LANGS = ["en", "ru"]


async def _seat_user(world: World, table_id: int, seat: int) -> FakeUser | None:
    rec = await world.app.storage.table(table_id)
    s = next(s for s in rec.seats if s.seat == seat)
    if s.user is None:
        return None
    return next(u for u in world.users.values() if u.user.id == s.user.platform_id)


async def _live_view(world: World, table_id: int) -> tuple[int, dict[str, Any], list]:
    rec = await world.app.storage.table(table_id)
    live = await world.app.live(rec)
    seat = live.state.to_act
    return seat, live.state.view(seat), live.round_events


async def _play_until(world: World, table_id: int, wanted, *, choose=None, limit: int = 600):
    """Humans move (the normal computer player's choice, or ``choose(view)``) by pressing their buttons until a
    human is to act in a view for which ``wanted(view)`` holds; returns (user, view)."""
    for presses in range(limit):
        await world.app.idle()
        rec = await world.app.storage.table(table_id)
        assert rec.status == "playing", "the game ended before the moment looked for"
        seat, view, history = await _live_view(world, table_id)
        user = await _seat_user(world, table_id, seat)
        assert user is not None
        if wanted(view):
            return user, view
        action = (choose and choose(view)) or ComputerPlayer(rec.game, "normal", seed=presses).decide(view, history)
        assert await user.play_code(action.code()), action.code()
    raise AssertionError("the moment never came")


def _turn_message(user: FakeUser) -> Shown:
    return user.hands()[0]


def _codes(shown: Shown) -> list[str]:
    return [b.payload.split(".", 3)[3] for b in shown.buttons() if b.payload.startswith(("a.", "u."))]


# ------------------------------------------------------------------------------------------------------------
# Thousand: the opening call, the picker, the gives, the hand's order, "you must follow suit"


@pytest.mark.parametrize("lang", LANGS)
async def test_thousand_first_hand_gives_and_cards_ask_only_what_is_open(tmp_path, lang):
    world = await make_world(db_path(tmp_path), lang=lang)
    try:
        for name in ("Ann", "Bob", "Cid"):
            world.user(name, lang)
        await open_table(world, "thousand", ["Ann", "Bob", "Cid"], [], 3)

        # the first hand opens: the prompt says so and why there is no Pass
        seat, view, _ = await _live_view(world, 1)
        first = await _seat_user(world, 1, seat)
        hand = _turn_message(first)
        assert view["first_hand"] == seat and "pass" not in {a["type"] for a in view["legal"]}
        assert t(lang, "open the bidding (100 or more)") in hand.text
        assert t(lang, "The first hand must open the bidding at 100 or more: no Pass on the opening call.") in hand.text
        assert t(lang, "Pass") not in [b.label for b in hand.buttons()]
        if any(b.label == "…" for b in hand.buttons()):  # "…" shows ranges, none of them of one value
            await first.press_label(hand, "…")
            labels = [b.label for b in _turn_message(first).buttons()]
            ranges = [label.split("–") for label in labels if "–" in label]
            assert ranges and all(lo != hi for lo, hi in ranges), labels
            await first.press_label(_turn_message(first), t(lang, "Back"))

        # the first hand takes the contract at 100 (the others pass), gives two cards, one to each
        def bid_low(v: dict[str, Any]) -> Action | None:
            acts = [Action.from_json(a) for a in v["legal"]]
            if v["seat"] == seat:
                low = [a for a in acts if a.type in ("bid", "contract")]
                return min(low, key=lambda a: a.value or 0) if low else None
            return next((a for a in acts if a.type == "pass"), None)

        user, view = await _play_until(world, 1, lambda v: v["phase"] == "give", choose=bid_low)
        names = [(await _seat_user(world, 1, s)).user.name for s in range(3)]
        shown = _turn_message(user)
        assert t(lang, "give a card to each opponent") in shown.text
        cards = [b for b in shown.buttons() if b.payload.startswith("u.") and "give~c=" in b.payload]
        # the cards in the picture's order
        assert [b.label for b in cards] == [pretty(c) for c in picture_order(view)]
        await user.press(shown, cards[0])
        chosen = picture_order(view)[0]
        shown = _turn_message(user)
        assert t(lang, "who gets {card}?", card=pretty(chosen)) in shown.text  # the prompt names the card
        receivers = [b for b in shown.buttons() if b.payload.startswith("a.")]
        assert len(receivers) == 2
        await user.press(shown, receivers[0])
        await world.app.idle()
        # the second give: one receiver left, so a card gives itself (no "to whom?"), and the prompt names him
        seat2, view2, _ = await _live_view(world, 1)
        left = {a["to"] for a in view2["legal"] if a["type"] == "give"}
        assert len(left) == 1
        shown = _turn_message(user)
        assert t(lang, "give a card to {name}", name=names[left.pop()]) in shown.text
        gives = [b for b in shown.buttons() if "give" in b.payload]
        assert gives and all(b.payload.startswith("a.") for b in gives)
        assert [b.label for b in gives] == [pretty(c) for c in picture_order(view2)]
        await user.press(shown, gives[-1])

        # later, in play: a seat that must follow suit is told so, with the cards in the picture's order
        def must_follow(v: dict[str, Any]) -> bool:
            legal = [a["card"] for a in v["legal"] if a["type"] == "play"]
            return bool(v["trick"]) and 0 < len(legal) < len(v["hand"])

        user, view = await _play_until(world, 1, must_follow)
        shown = _turn_message(user)
        legal = {a["card"] for a in view["legal"] if a["type"] == "play"}
        plays = [b.label for b in shown.buttons() if b.payload.startswith("a.") and ",c=" in b.payload]
        assert plays == [pretty(c) for c in picture_order(view) if c in legal]
        led = view["trick"][0]["card"][1]
        reasons = [
            t(lang, "You must follow suit ({suit}).", suit=keyboards.pretty_suit(led)),
            t(
                lang,
                "You have no {suit}: you must play a trump ({trump}).",
                suit=keyboards.pretty_suit(led),
                trump=keyboards.pretty_suit(view["trump"] or ""),
            ),
        ]
        assert any(r in shown.text for r in reasons), shown.text
    finally:
        await world.app.close()


def test_a_value_picker_never_offers_a_range_of_one_value():
    """Every run of values a bid or a contract can take: the "…" page shows ranges of two values or more,
    and a lone value as its own button (the "200–200" of before)."""
    for lo in (100, 105, 110, 120, 121, 125):
        for hi in range(lo + 45, 305, 5):
            values = ([121] if lo == 121 else []) + list(range(lo if lo != 121 else 125, hi + 1, 5))
            view = {"game": "thousand", "legal": [{"type": "bid", "seat": 0, "value": v} for v in values]}
            rows = keyboards.action_rows(view, 1, 1, "en", ["A", "B", "C"], "bid~more")
            buttons = [b for row in rows for b in row]
            shown: list[int] = []
            for b in buttons:
                if "–" in b.label:
                    a, z = (int(x) for x in b.label.split("–"))
                    assert a < z, b.label
                    shown += [v for v in values if a <= v <= z]
                elif b.label.isdigit():
                    assert b.payload.startswith("a.")
                    shown.append(int(b.label))
            assert sorted(shown) == values  # every value still reachable, once


# ------------------------------------------------------------------------------------------------------------
# Kozel: one button where the end makes no difference, tiles in the picture's order, domino words


@pytest.mark.parametrize("lang", LANGS)
async def test_kozel_first_tile_has_one_button_and_the_table_speaks_of_tiles(tmp_path, lang):
    world = await make_world(db_path(tmp_path), lang=lang)
    try:
        for name in ("Ann", "Bob"):
            world.user(name, lang)
        await open_table(world, "kozel", ["Ann", "Bob"], [], 2)
        seat, view, _ = await _live_view(world, 1)
        user = await _seat_user(world, 1, seat)
        shown = _turn_message(user)
        assert view["ends"]["left"] is None
        tiles = [b for b in shown.buttons() if ",l=" in b.payload or "tile~" in b.payload]
        assert tiles and all(b.payload.startswith("a.") for b in tiles)  # no "left or right?" on an empty line
        fits = list(view["playable"])
        assert [b.label for b in tiles] == [keyboards.tile_label(x) for x in picture_order(view) if x in fits]
        if view["first_rule"] and len(fits) < len(view["hand"]):
            assert (
                t(
                    lang,
                    "The game opens with {tile}: 1-1 leads, else the next double held (2-2 … 6-6, 0-0).",
                    tile=keyboards.tile_label(fits[0]),
                )
                in shown.text
            )
        await user.press(shown, tiles[0])
        await world.app.idle()
        table = world.table_message()
        labels = [b.label for b in table.buttons()]
        assert t(lang, "Show my tiles") in labels and not any(t(lang, "Show my hand") in x for x in labels)
        assert {"en": "Show my tiles", "ru": "Мои кости"}[lang] in labels
    finally:
        await world.app.close()


def _kozel_states(seeds: range):
    """Every position of random Kozel games (2 to 4 players) with the seat to act and its view."""
    rules = games.get("kozel")
    for seed in seeds:
        players = 2 + seed % 3
        state = rules.new_game(players, seed=seed)
        rng = random.Random(seed)
        for _ in range(400):
            if state.finished:
                break
            seat = state.to_act
            if seat is None:
                state.next_round_in_place()
                continue
            view = state.view(seat)
            yield view
            legal = state.legal_actions(seat)
            state.apply_in_place(rng.choice(legal))


def test_kozel_asks_for_an_end_only_when_the_ends_lead_to_different_games():
    asked = collapsed = 0
    for view in _kozel_states(range(40)):
        rows = keyboards.action_rows(view, 1, 1, "en", ["A", "B", "C", "D"])
        steps = {b.payload.split("=", 1)[1] for row in rows for b in row if "tile~l=" in b.payload}
        ends = view["ends"]
        both = {tile for tile, where in view["playable"].items() if len(where) == 2}
        if ends["left"] is None or ends["left"] == ends["right"]:
            assert steps == set(), view["ends"]  # one button plays it
            collapsed += len(both)
        else:
            assert steps == both  # the end changes the game: asked
            asked += len(both)
        # and one tap on the tile's one button is a legal play of that tile
        for row in rows:
            for b in row:
                if b.payload.startswith("a.") and ",l=" in b.payload:
                    action = Action.parse(view["seat"], b.payload.split(".", 3)[3])
                    assert action.to_json() in view["legal"]
    assert asked and collapsed


# ------------------------------------------------------------------------------------------------------------
# Words: join while seated


@pytest.mark.parametrize("lang", LANGS)
async def test_join_while_seated_in_a_running_game_says_you_are_already_at_the_table(tmp_path, lang):
    world = await make_world(db_path(tmp_path), lang=lang)
    try:
        ann = world.user("Ann", lang)
        await open_table(world, "thousand", ["Ann"], ["easy", "easy"], 3)
        before = len(world.group())
        await ann.say(world.chat, "join")
        said = [s.text for s in world.group()[before:]] + [s.text for s in world.port.private(ann.user.id)]
        assert any(t(lang, "You already have a seat at this table.") in x for x in said), said
        assert not any(t(lang, "The game has already started.") in x for x in said)
        stranger = world.user("Dan", lang)
        before = len(world.group())
        await stranger.say(world.chat, "join")
        said = [s.text for s in world.group()[before:]] + [s.text for s in world.port.private(stranger.user.id)]
        assert any(t(lang, "The game has already started.") in x for x in said), said
    finally:
        await world.app.close()


# ------------------------------------------------------------------------------------------------------------
# Pictures: names whole where they fit


@pytest.mark.parametrize("game,players", [("thousand", 3), ("kozel", 4), ("deberts", 2)])
def test_a_name_that_fits_is_drawn_whole_on_the_table_and_the_sheet(game, players):
    """ "Guest 6421" and "Guest 6987" were both drawn "Guest 6."; now the pictures differ exactly where the
    names' last letters are, so the whole names are drawn (decoded pixels, not the text we meant to draw)."""
    from PIL import ImageChops

    from renderers import sheet_image, table_image

    state = games.get(game).new_game(players, seed=3)
    view = state.view(None)
    others = ["Bob", "Cid", "Dan"][: players - 1]
    for draw in (table_image, sheet_image):
        for lang in LANGS:
            a = draw(view, ["Guest 6421", *others], "classic", lang).convert("RGB")
            b = draw(view, ["Guest 6987", *others], "classic", lang).convert("RGB")
            same = draw(view, ["Guest 6421", *others], "classic", lang).convert("RGB")
            assert ImageChops.difference(a, same).getbbox() is None
            box = ImageChops.difference(a, b).getbbox()
            assert box is not None, f"{draw.__name__}: the names' ends are not drawn"
            # and the difference is small: only the last digits, the rest of the picture is the same
            assert (box[2] - box[0]) * (box[3] - box[1]) < a.width * a.height // 20


# ------------------------------------------------------------------------------------------------------------
# Pictures: every notation of a sheet in its legend


@pytest.mark.parametrize("lang", LANGS)
def test_every_sheet_explains_its_notation_in_a_legend(lang, monkeypatch):
    """Whole random games of each game: the sheet's legend names each notation its rows use (the round's
    score beside the total, the declarer's cell, a made or failed contract, a bait, hanging points, Kozel's
    remembered "+N", an open account, the hand's points)."""
    from core.randomplay import play_game
    from renderers import labels, sheet, sheet_image

    drawn: list[str] = []
    real = sheet.legend_item
    monkeypatch.setattr(sheet, "legend_item", lambda icon, text: drawn.append(text) or real(icon, text))
    seen: set[str] = set()
    for game, players in (("thousand", 3), ("deberts", 3), ("kozel", 4)):
        for seed in range(3):
            state = play_game(games.get(game), players, seed)
            rows = [r for r in state.view(None)["score_sheet"] if not r.get("redeal")]
            drawn.clear()
            sheet_image(state.view(None), ["Ann", "Bob", "Cid", "Dan"][:players], "classic", lang)
            want = {"legend_round"} if game != "kozel" else {"legend_hand"}
            if game == "thousand":
                want |= {"legend_declarer"} if any(isinstance(r.get("declarer"), int) for r in rows) else set()
                want |= {"legend_made"} if any(r.get("made") for r in rows) else set()
                want |= {"legend_failed"} if any(r.get("made") is False for r in rows) else set()
            if game == "deberts":
                want |= {"legend_bait"} if any(r.get("result") == "bait" for r in rows) else set()
                want |= {"legend_hanging"} if any(r.get("hanging") for r in rows) else set()
            if game == "kozel":
                want |= {"legend_open"} if any(any(r["opened"]) for r in rows) else set()
                want |= {"legend_remembered"} if any(any(r["remembered"]) for r in rows) else set()
            for key in want:
                assert labels.word(key, lang) in drawn, (game, seed, key)
            seen |= want
    assert {"legend_failed", "legend_bait", "legend_remembered", "legend_open"} <= seen
