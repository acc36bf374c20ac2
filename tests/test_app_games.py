"""Complete games through the chat application and the fake port, checked against the core's replay."""

from __future__ import annotations

import json

import pytest

from bot.storage import FINISHED
from core.records import result_of
from tests.app_support import db_path, fixed_deal, make_world, open_table, play_to_end

# Thousand's games are long and their length depends on the deal: these deals, with the computers' key below, give
# short whole games (moves: 338 for three people, 247 for two, 597 for four; the first twelve seeds gave 247-861,
# 479-1503 and 597-1397). Kozel and Deberts games are short whatever the deal, so they keep random ones.
SHORT_THOUSAND = {2: "000000000000000a", 3: "000000000000006c", 4: "0000000000000006"}
COMPUTERS_KEY = b"table-tests-key!"


@pytest.mark.parametrize(
    "game,players,humans,computers",
    [
        ("thousand", 3, ["Ann", "Bob", "Cid"], []),
        ("thousand", 2, ["Ann"], ["normal"]),
        ("thousand", 4, ["Ann", "Bob"], ["easy", "normal"]),
        ("deberts", 2, ["Ann", "Bob"], []),
        ("deberts", 3, ["Ann"], ["easy", "strong"]),
        ("kozel", 2, ["Ann", "Bob"], []),
        ("kozel", 3, ["Ann"], ["easy", "normal"]),
        ("kozel", 4, ["Ann", "Bob", "Cid"], ["strong"]),
    ],
)
async def test_complete_game(tmp_path, monkeypatch, game, players, humans, computers):
    if game == "thousand":
        fixed_deal(monkeypatch, SHORT_THOUSAND[players])
    world = await make_world(db_path(tmp_path))
    if game == "thousand":
        world.app.ctx.ai_key = COMPUTERS_KEY  # the computer seats choose the same way every run
    try:
        await open_table(world, game, humans, computers, players)
        await play_to_end(world, humans, 1)
        await world.app.idle()
        table = await world.app.storage.table(1)
        assert table.status == FINISHED
        assert await world.app.storage.open_table(table.chat_id) is None
        # the record a player exports replays through the core to the same end
        await world.users[humans[0]].say(world.chat, "export")
        doc = world.group()[-1].message.document
        assert doc is not None
        result = result_of(json.loads(doc.data))
        state = world.app._live[1].state
        assert result["totals"] == state.totals and result["finished"]
        results = await world.app.storage.results(1)
        assert sorted(r.place for r in results)[0] == 1
        for r in results:
            seat = table.seats[r.seat]
            assert (r.rating_after is not None) == (seat.user_id is not None)
        # the final score sheet told the chat who won
        final = [s for s in world.group() if s.message.image_name == "sheet.jpg"][-1]
        assert ("wins the game" in final.text) or ("is the kozel" in final.text)
    finally:
        await world.app.close()
