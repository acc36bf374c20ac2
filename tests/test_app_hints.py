"""Hints (issue 27 point 8), through the application and the fake port: the table option `hints` (off by default)
puts a 💡 button on the hand of the player to move; it shows him alone what the normal computer player would do and
what that move does, and changes nothing; a game played with hints is not rated."""

from __future__ import annotations

import pytest

from bot.hints import what_it_does
from bot.keyboards import action_label
from bot.port import Press
from bot.storage import FINISHED
from core.ai.player import ComputerPlayer
from core.base import Action
from core.i18n import t
from tests.app_support import World, db_path, make_world, play_to_end, press_kind

# what a Kozel move does, as the hint says it
WHY = {
    lang: {
        t(lang, m)
        for m in (
            "It is the only move allowed now.",
            "It opens the line.",
            "It plays a double.",
            "It plays on the line's end.",
        )
    }
    for lang in ("en", "ru")
}


async def _open(world: World, lang: str, *, hints: bool) -> None:
    ann = world.user("Ann", lang)
    await ann.say(world.chat, "new", "kozel 2")
    await press_kind(world, ann, "c", ".easy")
    await ann.press_label(world.lobby(), t(lang, "Settings"), world.chat)
    assert t(lang, "Hints 💡: off") in [b.label for b in world.lobby().buttons()]  # off by default
    if hints:
        shown, _ = await ann.press_label(world.lobby(), t(lang, "Hints 💡: off"), world.chat)
        assert shown == t(lang, "Hints 💡: on (the game is not rated)")
    await ann.press_label(world.lobby(), t(lang, "Back"), world.chat)
    assert (t(lang, "Hints 💡: on (the game is not rated)") in world.lobby().text) == hints
    text, _ = await press_kind(world, ann, "s")
    assert text is None, text


async def _my_turn_hand(world: World):
    """Ann's hand when it is her turn (the computer moves first when it leads)."""
    await world.app.idle()
    ann = world.users["Ann"]
    return next(s for s in ann.hands())


@pytest.mark.parametrize("lang", ["en", "ru"])
async def test_a_hint_is_private_changes_nothing_and_the_game_is_not_rated(tmp_path, lang):
    world = await make_world(db_path(tmp_path), lang=lang)
    try:
        await _open(world, lang, hints=True)
        ann = world.users["Ann"]
        hand = await _my_turn_hand(world)
        hint = next(b for b in hand.buttons() if b.label == "💡")
        rec = await world.app.storage.table(1)
        live = await world.app.live(rec)
        seat = live.state.to_act
        view = live.state.view(seat)
        expected = ComputerPlayer("kozel", "normal", seed=world.app.ai_seed(1, seat)).decide(
            view, list(live.round_events)
        )
        before, moves = world.port.snapshot(), len(await world.app.storage.moves(1))
        text, alert = await ann.press(hand, hint)
        assert alert and text is not None
        first, why = text.split("\n")
        assert first == t(lang, "💡 The computer would play: {move}", move=action_label("kozel", expected, lang, []))
        assert why in WHY[lang]
        assert world.port.snapshot() == before  # nothing shown to anyone: the answer is the presser's alone
        after = await world.app.storage.table(1)
        assert after.version == rec.version and len(await world.app.storage.moves(1)) == moves
        # the hint is an honest move: pressing it is allowed
        assert expected in live.state.legal_actions(seat)
        await play_to_end(world, ["Ann"], 1)
        await world.app.idle()
        assert (await world.app.storage.table(1)).status == FINISHED
        rows = await world.app.storage.results(1)
        assert rows and all(r.rating_after is None and r.mu is None and r.rating_points is None for r in rows)
        ann_rec = await world.app.storage.user(world.port.platform, ann.user.id, "Ann")
        chat = await world.app.storage.chat(world.port.platform, world.chat.id)
        assert await world.app.storage.ratings(chat.id, "kozel", [ann_rec.id]) == {}
        sheet = [s for s in world.group() if s.message.image_name == "sheet.jpg"][-1]
        assert t(lang, "Not rated: hints were on.") in sheet.text
    finally:
        await world.app.close()


@pytest.mark.parametrize("lang", ["en", "ru"])
async def test_without_hints_there_is_no_button_and_a_forged_one_is_refused(tmp_path, lang):
    world = await make_world(db_path(tmp_path), lang=lang)
    try:
        await _open(world, lang, hints=False)
        ann = world.users["Ann"]
        hand = await _my_turn_hand(world)
        assert "💡" not in [b.label for b in hand.buttons()]
        rec = await world.app.storage.table(1)
        before = world.port.snapshot()
        await world.app.press(Press(ann.user, None, f"i.1.{rec.version}", None))
        assert world.port.last_answer() == (t(lang, "Hints are off at this table."), True)
        await world.app.press(Press(ann.user, None, f"i.1.{rec.version + 5}", None))
        assert world.port.last_answer()[0] == t(lang, "This button is out of date: the game has moved on.")
        assert world.port.snapshot() == before
        await play_to_end(world, ["Ann"], 1)
        await world.app.idle()
        rows = await world.app.storage.results(1)
        assert any(r.rating_after is not None for r in rows)  # an ordinary game is rated
    finally:
        await world.app.close()


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_hints_line_says_what_a_card_move_does(lang):
    legal = [{"seat": 0, "type": "play", "card": "QS"}, {"seat": 0, "type": "play", "card": "9H"}]
    view = {"legal": legal, "trick": [], "trump": "H"}

    def why(card: str, trick: list[str]) -> str:
        v = dict(view, trick=[{"seat": 1, "card": c} for c in trick])
        return what_it_does(v, Action(0, "play", card=card), lang, ["Ann", "Bob"])

    assert why("QS", []) == t(lang, "It leads the trick.")
    assert why("QS", ["AS"]) == t(lang, "It follows suit.")
    assert why("9H", ["AD"]) == t(lang, "It cannot follow suit and trumps.")
    assert why("QS", ["AD"]) == t(lang, "It cannot follow suit and discards.")
    only = {"legal": legal[:1], "trick": []}
    assert what_it_does(only, Action(0, "play", card="QS"), lang, []) == t(lang, "It is the only move allowed now.")
    bid = what_it_does(view, Action(0, "bid", value=120), lang, [])
    assert bid == t(lang, "It bids {n}.", n=120) and "120" in bid
