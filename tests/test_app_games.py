"""Complete games through the chat application and the fake port, checked against the core's replay."""

from __future__ import annotations

import json

import pytest

from bot.storage import FINISHED
from core.records import result_of
from tests.app_support import db_path, make_world, open_table, play_to_end


@pytest.mark.parametrize(
    "game,players,humans,computers",
    [
        ("thousand", 3, ["Ann", "Bob", "Cid"], []),
    ],
)
async def test_complete_game(tmp_path, game, players, humans, computers):
    world = await make_world(db_path(tmp_path))
    try:
        await open_table(world, game, humans, computers, players)
        await play_to_end(world, humans, 1)
        await world.app.idle()
        rec = await world.app.storage.open_table(1)
        assert rec is None
        table = await world.app.storage.table(1)
        assert table.status == FINISHED
        record = await world.app.storage.record(1)
        result = result_of(json.loads(json.dumps(record)))
        assert result["totals"] == world.app._live[1].state.totals
    finally:
        await world.app.close()
