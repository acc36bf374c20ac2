"""Issue 27's game flows through the Telegram adapter (real aiogram over the fake Bot API, the real application on a
SQLite file), in en and ru: a non-host's /stop shows the others "Agree / Keep playing" with its count, the vote
passes by a button, and afterwards no private message of the game keeps buttons (points 3 and 10)."""

from __future__ import annotations

import pytest

from core.i18n import t
from testkit.telegram_players import PREFIX, Player
from tests.telegram_bot_support import LiveBot
from tests.telegram_support import KITCHEN

GROUP = KITCHEN  # the shared ``api`` fixture's group (tests/conftest.py)


def data_of(shown) -> list[str]:
    return [b["callback_data"] for b in shown.callback_buttons()]


@pytest.mark.parametrize("lang", ["en", "ru"])
async def test_a_stop_vote_passes_by_buttons_and_every_hand_loses_its_buttons(api, tmp_path, lang):
    bot = await LiveBot(api, tmp_path / "bot.sqlite3").start()
    try:
        ann, bob, cid = (
            Player(api, api.add_user(11 + i, name, language=lang), bot.settle)
            for i, name in enumerate(("Ann", "Bob", "Cid"))
        )
        await ann.say(GROUP, "/new thousand 3")
        for p, kind in ((bob, "j."), (cid, "j."), (ann, "s.")):
            lobby = next(s for s in reversed(api.visible(GROUP)) if s.callback_buttons())
            await p.press(lobby, next(d for d in data_of(lobby) if d.startswith(PREFIX + kind)))
        assert any(p.hands() for p in (ann, bob, cid))  # the first bidder has his choices

        await bob.say(GROUP, "/stop")
        vote = api.visible(GROUP)[-1]
        labels = [b["text"] for b in vote.callback_buttons()]
        assert labels == [t(lang, "Agree ({votes} of {players})", votes=1, players=3), t(lang, "Keep playing")]
        answer = await cid.press_label(vote, t(lang, "Agree ({votes} of {players})", votes=1, players=3))
        assert answer.get("text") in (None, "")
        assert (await bot.app.storage.table(1)).status == "abandoned"
        vote = api.messages[GROUP][vote.message_id]
        assert vote.text == t(lang, "The table is closed; nobody is rated for a stopped game.")
        assert not vote.callback_buttons()
        for p in (ann, bob, cid):
            assert not p.hands(), p.name  # no private message keeps buttons
            assert any(t(lang, "The game was stopped.") in (s.text or "") for s in p.private())
    finally:
        await bot.stop()
