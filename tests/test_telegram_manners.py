"""Table manners through the Telegram adapter (real aiogram over the fake Bot API): the Kozel table speaks of
tiles, the first tile is one tap, hand buttons follow the picture, and `/join` while seated says so — in the
chat's language (issue 27 points 6 and 9)."""

from __future__ import annotations

import pytest

from bot import keyboards
from core.i18n import t
from renderers.hand import picture_order
from testkit.telegram_players import PREFIX, Player
from tests.telegram_bot_support import LiveBot
from tests.telegram_support import KITCHEN
from tests.test_telegram_games import Here, lobby_of, table_of

GROUP = KITCHEN  # the shared ``api`` fixture's group (tests/conftest.py)


@pytest.mark.parametrize("lang", ["en", "ru"])
async def test_kozel_first_tile_is_one_tap_and_join_while_seated_says_so(api, tmp_path, lang):
    here = Here(await LiveBot(api, tmp_path / "bot.sqlite3").start())
    try:
        ann = Player(api, api.add_user(11, "Ann", language=lang), here.settle)
        bob = Player(api, api.add_user(12, "Bob", language=lang), here.settle)
        await ann.say(GROUP, "/lang " + lang)
        await ann.say(GROUP, "/new kozel 2")
        await bob.press_label(lobby_of(api, GROUP), t(lang, "Join"))
        await ann.press_label(lobby_of(api, GROUP), t(lang, "Start"))
        table = table_of(api, GROUP)
        labels = [b["text"] for b in table.callback_buttons()]
        assert t(lang, "Show my tiles") in labels and {"en": "Show my tiles", "ru": "Мои кости"}[lang] in labels

        app = here.bot.app
        rec = await app.storage.table(1)
        live = await app.live(rec)
        seat = live.state.to_act
        view = live.state.view(seat)
        mover = ann if next(s for s in rec.seats if s.seat == seat).user.name == "Ann" else bob
        hand = mover.hands()[0]
        tiles = [b for b in hand.callback_buttons() if ",l=" in b["callback_data"] or "tile~" in b["callback_data"]]
        assert tiles and all(b["callback_data"].startswith(PREFIX + "a.") for b in tiles)  # no "which end?"
        assert [b["text"] for b in tiles] == [
            keyboards.tile_label(x) for x in picture_order(view) if x in view["playable"]
        ]
        await mover.press(hand, tiles[0]["callback_data"])
        assert (await app.storage.table(1)).version > rec.version  # one tap played it

        await ann.say(GROUP, "/join")
        said = [s.text or "" for s in api.visible(GROUP)] + [s.text or "" for s in ann.private()]
        assert any(t(lang, "You already have a seat at this table.") in x for x in said), said[-3:]
        assert not any(t(lang, "The game has already started.") in x for x in said)
    finally:
        await here.bot.stop()
