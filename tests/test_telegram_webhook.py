"""No update lost when a webhook worker dies, none handled twice when Telegram delivers it again (issue 26,
finding 7): real ``python -m bot`` workers on one PostgreSQL database and Redis behind the fake Bot API, which
delivers an update again when the webhook call fails or times out, as Telegram does. The test holds the
table's row locked so that a press is caught in the middle of its handling, before its move is stored."""

from __future__ import annotations

import asyncio
import os

import asyncpg
import pytest
from redis.asyncio import Redis
from sqlalchemy.engine import make_url

from testkit.fake_bot_api import FakeBotAPI
from testkit.telegram_players import PREFIX
from tests.storage_support import PG_SKIP, PG_URL, drop_pg_database, fresh_pg_database
from tests.telegram_processes import HOOK, BotProcess

REDIS_URL = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")
GROUP = -100777

pytestmark = pytest.mark.skipif(not PG_URL, reason=PG_SKIP)


async def connect(url: str) -> asyncpg.Connection:
    u = make_url(url)
    return await asyncpg.connect(
        host=u.host, port=u.port or 5432, user=u.username, password=u.password, database=u.database
    )


async def waiting_on_a_lock(watch: asyncpg.Connection, holder: asyncpg.Connection) -> bool:
    """A move's write (an UPDATE of a table's state) waits for the lock ``holder``'s transaction holds. Asked on
    ``watch``, outside any transaction: a transaction sees the sessions of pg_stat_activity as they were when it
    first looked, so the holder never saw a worker's connection opened after that (its pool grows under load)."""
    rows = await watch.fetch(
        "SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND $1 = ANY(pg_blocking_pids(pid))"
        " AND query LIKE 'UPDATE game_tables SET %state%'",
        holder.get_server_pid(),
    )
    return bool(rows)


async def test_a_wait_on_the_lock_is_seen_when_its_session_connected_after_the_first_look():
    """The test below sees the press wait on the row lock it holds, even when the worker's pool opens a connection
    for the move after the test first looked."""
    url = await fresh_pg_database()
    holder, watch = await connect(url), await connect(url)
    late: asyncpg.Connection | None = None
    try:
        await holder.execute("CREATE TABLE game_tables (id int PRIMARY KEY, state text)")
        await holder.execute("INSERT INTO game_tables VALUES (1, '')")
        await holder.execute("BEGIN")
        await holder.execute("SELECT 1 FROM game_tables FOR UPDATE")
        assert not await waiting_on_a_lock(watch, holder)
        late = await connect(url)
        write = asyncio.ensure_future(late.execute("UPDATE game_tables SET state = 'moved'"))
        await until(lambda: waiting_on_a_lock(watch, holder))
        await holder.execute("ROLLBACK")
        await write
    finally:
        for c in (holder, watch, late):
            if c is not None:
                await c.close()
        await drop_pg_database(url)


async def player_moves(db: asyncpg.Connection) -> list[str]:
    return [r["action"] for r in await db.fetch("SELECT action::text FROM moves WHERE by = 'player' ORDER BY seq")]


async def until(predicate, timeout: float = 60.0) -> None:
    """Until ``predicate()`` (a plain or an async function) is true."""
    for _ in range(int(timeout / 0.05)):
        result = predicate()
        if asyncio.iscoroutine(result):
            result = await result
        if result:
            return
        await asyncio.sleep(0.05)
    raise AssertionError("timed out")


async def _count(db: asyncpg.Connection, n: int) -> bool:
    return len(await player_moves(db)) >= n


def ok_answers(api: FakeBotAPI, query: str) -> int:
    return sum(
        1
        for c in api.calls
        if c.method == "answerCallbackQuery" and c.ok and str(c.params.get("callback_query_id")) == query
    )


async def test_a_worker_killed_mid_update_loses_nothing_and_a_slow_one_is_not_doubled(tmp_path):
    try:
        await Redis.from_url(REDIS_URL).ping()
    except OSError:
        pytest.skip(f"no Redis at {REDIS_URL}")
    api = FakeBotAPI()
    await api.start()
    api.add_group(GROUP, "Kitchen")
    ann = api.add_user(11, "Ann")
    url = await fresh_pg_database()
    db, watch = await connect(url), await connect(url)  # db holds the row lock, watch sees who waits for it
    workers = [BotProcess(api, url, REDIS_URL, tmp_path, f"w{i}") for i in (1, 2)]
    api.webhook_timeout = 20.0  # fed like Telegram feeds a webhook: a failed or slow post is delivered again
    try:
        await workers[0].start()
        await workers[1].start()
        api.backends[HOOK] = [w.address for w in workers]
        api.say(ann, GROUP, "/new deberts 2")
        await api.wait_for(lambda: bool(api.visible(GROUP)), timeout=30)

        async def press_label(label: str) -> None:
            shown = api.last(GROUP)
            data = next(b["callback_data"] for b in shown.callback_buttons() if label in b["text"])
            await api.wait_answer(api.press(ann, GROUP, shown.message_id, data), timeout=30)

        await press_label("🤖")
        await press_label("Start")

        def my_card() -> tuple:
            for shown in reversed(api.visible(ann.id)):
                for b in shown.callback_buttons():
                    if b["callback_data"].startswith(PREFIX + "a."):
                        return shown, b["callback_data"]
            return None, None

        async def my_turn() -> bool:
            """A move button on Ann's screen for the table's current version."""
            _, card = my_card()
            version = await db.fetchval("SELECT version FROM game_tables")
            return card is not None and card.split(".")[2] == str(version)

        # 1. the worker handling a press is SIGKILLed before its move is stored: Telegram delivers it again
        await until(my_turn)
        hand, card = my_card()
        api.backends[HOOK] = [workers[0].address]  # this press goes to the first worker
        await db.execute("BEGIN")
        await db.execute("SELECT 1 FROM game_tables FOR UPDATE")
        killed = api.press(ann, ann.id, hand.message_id, card)
        await until(lambda: waiting_on_a_lock(watch, db))
        workers[0].kill()
        api.backends[HOOK] = [workers[1].address]
        await db.execute("ROLLBACK")
        await api.wait_answer(killed, timeout=30)
        await until(lambda: _count(db, 1))

        # 2. a slow worker: Telegram stops waiting and delivers the press again, to either worker
        workers[0] = await BotProcess(api, url, REDIS_URL, tmp_path, "w3").start()
        api.backends[HOOK] = [workers[1].address, workers[0].address]
        api.webhook_timeout = 0.5  # now Telegram stops waiting after half a second
        await until(my_turn)
        hand, card = my_card()
        await db.execute("BEGIN")
        await db.execute("SELECT 1 FROM game_tables FOR UPDATE")
        slow = api.press(ann, ann.id, hand.message_id, card)
        update_id = api.queries[slow]["update"]
        await until(lambda: waiting_on_a_lock(watch, db))
        await until(lambda: len(api.posted.get(update_id, [])) >= 3)
        await db.execute("ROLLBACK")
        await api.wait_answer(slow, timeout=30)
        await until(lambda: _count(db, 2))
        await api.settle(timeout=30)
        moves = await player_moves(db)
    finally:
        for w in workers:
            w.stop()
        await db.close()
        await watch.close()
        await api.stop()
        await drop_pg_database(url)
    assert update_id in api.redeliveries and api.queries[killed]["update"] in api.redeliveries
    assert ok_answers(api, killed) == 1 and ok_answers(api, slow) == 1  # each press answered once
    assert len(moves) == 2  # each move stored once
    for w in workers:
        assert "Traceback" not in w.log(), w.log()
