"""The web table asks no question with one possible answer: a Kozel tile whose two ends lead to the same game (the
round's first tile, or both ends showing one number) is one choice on the page, as on the chat's keyboard; the
core's legal actions keep both ends (issue 32 point 5)."""

from __future__ import annotations

from pathlib import Path

import aiohttp
import pytest

from bot.webapp.seatview import offered
from core.base import Action
from tests.webapp_support import new_app, open_game, open_page, person, serve_webapp, session_for


@pytest.fixture
async def site(tmp_path: Path):
    app = await new_app(tmp_path)
    s = await serve_webapp(app, poll_interval=0.05)
    yield s
    await s.close()
    await app.close()


async def test_the_first_tile_of_a_round_is_one_choice_on_the_page(site):
    rec = await open_game(site.app, "den", person("Anna"), "kozel", 2, people=(person("Boris"),))
    state = (await site.app.live(rec)).state
    mover = state.view(None)["to_act"]
    legal = [Action.from_json(a) for a in state.view(mover)["legal"]]
    assert {a.end for a in legal} == {"left", "right"} and len({a.tile for a in legal}) == 1  # the core: both ends
    async with aiohttp.ClientSession() as http:
        page = await open_page(http, site.url, await session_for(http, site.url, ("Anna", "Boris")[mover], "den"))
        frame = await page.wait(lambda f: f.get("type") == "table" and f["your_turn"])
        plays = [a for a in frame["actions"] if a["type"] == "play"]
        assert len(plays) == 1
        assert "end" not in plays[0]["label"] and plays[0]["label"] == legal[0].tile.replace("-", "|")
        answer = await page.press(plays[0]["payload"])
        assert answer["type"] == "answer" and answer["text"] is None  # the one choice plays the tile
        await page.wait(lambda f: f.get("type") == "table" and f["version"] > frame["version"])
        await page.close()


def test_equal_ends_offer_a_tile_once_and_different_ends_ask_which():
    both = [Action(0, "play", tile="3-5", end="left"), Action(0, "play", tile="3-5", end="right")]
    legal = [a.to_json() for a in both]
    same = {"game": "kozel", "seat": 0, "hand": ["3-5", "0-1"], "ends": {"left": 5, "right": 5}, "legal": legal}
    assert [a.end for a in offered(same, both)] == ["left"]
    differ = dict(same, ends={"left": 5, "right": 3})
    assert [a.end for a in offered(differ, both)] == ["left", "right"]
