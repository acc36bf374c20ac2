"""What ``python -m bench.cluster`` divides by the moves: the worker's Redis commands and round trips
(``metrics.count_redis``) and its reads of tables from the database (``tablebot_table_reads_total``)."""

from __future__ import annotations

import uuid

from bot import metrics
from bot.storage import Storage
from bot.telegram.coordination import RedisCoordinator
from tests.storage_support import setup_table, sqlite_url


def sample(name: str, **labels: str) -> float:
    """The sum of this metric's samples whose labels include ``labels``."""
    return sum(
        s.value
        for family in metrics.REGISTRY.collect()
        for s in family.samples
        if s.name == name and labels.items() <= s.labels.items()
    )


async def test_redis_commands_and_round_trips_are_counted_as_redis_sees_them(redis_url):
    coordinator = RedisCoordinator(redis_url, f"counts-{uuid.uuid4().hex}")
    try:
        await coordinator.latest("warm")  # the connection's handshake is counted here, not below
        commands = sample("tablebot_redis_commands_total", client="telegram")
        trips = sample("tablebot_redis_round_trips_total", client="telegram")
        multi = sample("tablebot_redis_commands_total", client="telegram", command="MULTI")
        await coordinator.put("k", "v")  # SET: one command, one round trip
        assert await coordinator.get("k") == "v"  # GET
        assert await coordinator.bump("n") == 1  # MULTI, INCRBY, EXPIRE, EXEC in one round trip
        assert sample("tablebot_redis_commands_total", client="telegram") - commands == 6
        assert sample("tablebot_redis_commands_total", client="telegram", command="MULTI") - multi == 1
        assert sample("tablebot_redis_round_trips_total", client="telegram") - trips == 3
    finally:
        await coordinator.close()


async def test_every_table_read_from_the_database_is_counted_and_a_version_check_is_none(tmp_path):
    storage = await Storage.open(sqlite_url(tmp_path))
    try:
        table, state = await setup_table(storage)
        before = sample("tablebot_table_reads_total")
        await storage.table(table.id)
        assert sample("tablebot_table_reads_total") - before == 1
        await storage.open_table(table.chat_id)
        await storage.versions([table.id])  # the version and status only: no table read
        assert sample("tablebot_table_reads_total") - before == 2
    finally:
        await storage.close()
