"""Migrations: up from an empty database; up from the previous revision holding a game in play, losing nothing;
the migrated schema is exactly the models; 0003, 0004, 0005 to 0008 down and up again;
``python -m bot migrate``."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import inspect

from bot.storage import FINISHED, Storage
from bot.storage.migrate import alembic_config, current_revision, head_revision
from bot.storage.models import Base
from tests import storage_support
from tests.storage_support import play, setup_table

db_url = storage_support.db_url
ROOT = Path(__file__).resolve().parents[1]


async def test_upgrade_from_empty_gives_exactly_the_models(db_url: str):
    st = await Storage.open(db_url)
    try:
        assert await current_revision(st.engine) == head_revision()
        async with st.engine.connect() as conn:
            diff = await conn.run_sync(lambda c: compare_metadata(MigrationContext.configure(c), Base.metadata))
        assert diff == []
        await st.migrate()  # a second run (another worker starting) changes nothing
        assert await current_revision(st.engine) == head_revision()
    finally:
        await st.close()


async def test_upgrade_from_the_previous_revision_keeps_a_game_in_play(db_url: str):
    old = await Storage.open(db_url)
    try:
        # the game is started by today's code, which needs the newest schema, and then goes back to 0001
        table, state = await setup_table(old, "deberts", 2, seed="mig-1")
        async with old._write() as conn:
            await conn.run_sync(lambda c: _alembic(c, "downgrade", "0001"))
        assert await current_revision(old.engine) == "0001"
        table, state = await play(old, table, state, moves=15)
        await old.set_message_ref(table.id, {"message_id": 12})
        before_moves = await old.moves(table.id)
    finally:
        await old.close()

    st = await Storage.open(db_url)  # migrates to the newest revision on opening
    try:
        assert await current_revision(st.engine) == head_revision()
        loaded = await st.table(table.id)
        assert loaded.state == state.to_json() and loaded.version == 15 and loaded.message_ref == {"message_id": 12}
        assert loaded.seats == table.seats
        assert await st.moves(table.id) == before_moves
        assert (await st.verify(table.id)).broken is None
        finished, final = await play(st, loaded, state)  # results and ratings need the new revision
        assert finished.status == FINISHED and [r.total for r in await st.results(table.id)] == final.totals
    finally:
        await st.close()


async def test_stop_votes_go_down_and_come_back(db_url: str):
    """0003 downgrades to 0002 (the votes table goes, the games stay) and upgrades again."""
    st = await Storage.open(db_url)
    try:
        table, _ = await setup_table(st, "thousand", 3, seed="mig-3")
        await st.vote_stop(table.id, table.seats[1].user_id)
        async with st._write() as conn:
            await conn.run_sync(lambda c: _alembic(c, "downgrade", "0002"))
        assert await current_revision(st.engine) == "0002"
        async with st.engine.connect() as conn:
            assert "stop_votes" not in await conn.run_sync(lambda c: inspect(c).get_table_names())
        await st.migrate()
        assert (await st.table(table.id)).version == 0
        assert (await st.vote_stop(table.id, table.seats[2].user_id)).voters == (table.seats[2].user_id,)
    finally:
        await st.close()


async def test_presses_and_invitations_go_down_and_come_back(db_url: str):
    """0004 downgrades to 0003 (presses and invitations go, the games and their moves stay) and upgrades again."""
    st = await Storage.open(db_url)
    try:
        table, state = await setup_table(st, "kozel", 2, seed="mig-4")
        await st.add_invitation(table.id, table.seats[1].user_id)
        async with st._write() as conn:
            await conn.run_sync(lambda c: _alembic(c, "downgrade", "0003"))
        async with st.engine.connect() as conn:
            names = await conn.run_sync(lambda c: inspect(c).get_table_names())
        assert "presses" not in names and "invitations" not in names
        table, state = await play(st, table, state, moves=3)  # a move without a press key needs no 0004
        await st.migrate()
        assert await st.pending_invitations(table.id) == frozenset()
        assert (await st.verify(table.id)).version == 3
    finally:
        await st.close()


async def test_the_daily_deal_goes_down_and_comes_back(db_url: str):
    """0005_daily downgrades to 0004 (the attempts and daily messages go, the games stay) and upgrades again."""
    st = await Storage.open(db_url)
    try:
        table, state = await setup_table(st, "kozel", 2, seed="mig-5")
        user = table.seats[0].user_id
        assert user is not None
        _attempt, created = await st.claim_attempt(table.chat_id, "kozel", "2026-11-27", user)
        assert created
        names = await _down_to(st, "0004")
        assert "daily_attempts" not in names and "daily_posts" not in names
        await st.migrate()
        assert await st.attempts(table.chat_id) == []
        _attempt, created = await st.claim_attempt(table.chat_id, "kozel", "2026-11-27", user)
        assert created and (await st.verify(table.id)).broken is None
    finally:
        await st.close()


async def test_notify_goes_down_and_comes_back(db_url: str):
    """0006_notify downgrades to 0005_daily (the subscriptions go, the games stay) and upgrades again."""
    st = await Storage.open(db_url)
    try:
        table, _state = await setup_table(st, "kozel", 2, seed="mig-6")
        user = table.seats[0].user_id
        assert user is not None
        await st.set_notify(table.chat_id, user, True)
        names = await _down_to(st, "0005_daily")
        assert "notify_subs" not in names and "notify_sent" not in names and "daily_attempts" in names
        await st.migrate()
        assert not await st.notify_on(table.chat_id, user)
        assert await st.claim_notice(table.id, user) and not await st.claim_notice(table.id, user)
    finally:
        await st.close()


async def test_achievements_go_down_and_come_back(db_url: str):
    """0007_achievements downgrades to 0006_notify (the achievements go, the games stay) and upgrades again."""
    st = await Storage.open(db_url)
    try:
        table, _state = await setup_table(st, "kozel", 2, seed="mig-7")
        user = table.seats[0].user_id
        assert user is not None
        assert await st.award(table.chat_id, user, ["first_game"], table.id) == ["first_game"]
        assert await st.award(table.chat_id, user, ["first_game", "first_win"], table.id) == ["first_win"]
        names = await _down_to(st, "0006_notify")
        assert "achievements" not in names and "notify_subs" in names
        await st.migrate()
        assert await st.earned(table.chat_id, user) == []
        assert (await st.verify(table.id)).broken is None
    finally:
        await st.close()


async def test_seasons_go_down_and_come_back(db_url: str):
    """0008_seasons downgrades to 0007_achievements (the season settings go, the games stay) and upgrades again."""
    st = await Storage.open(db_url)
    try:
        table, _state = await setup_table(st, "kozel", 2, seed="mig-8")
        await st.set_season_kind(table.chat_id, "quarter")
        assert await st.claim_season_post(table.chat_id, "2026-Q3")
        assert not await st.claim_season_post(table.chat_id, "2026-Q3")
        names = await _down_to(st, "0007_achievements")
        assert "season_settings" not in names and "season_posts" not in names and "achievements" in names
        await st.migrate()
        assert await st.season_kind(table.chat_id) is None
        assert (await st.verify(table.id)).broken is None
    finally:
        await st.close()


async def test_chat_guilds_go_down_and_come_back(db_url: str):
    """0009_chat_guild downgrades to 0008_seasons (the guilds go, the chats and games stay) and upgrades again: a
    chat's guild is unknown then (any Discord worker's) until it is given again."""
    st = await Storage.open(db_url)
    try:
        table, _state = await setup_table(st, "kozel", 2, seed="mig-9")
        den = await st.chat("discord", "c1", title="Den", guild=600_000_000_000_000_001)
        await _down_to(st, "0008_seasons")
        async with st.engine.connect() as conn:
            columns = await conn.run_sync(lambda c: [col["name"] for col in inspect(c).get_columns("chats")])
        assert "guild" not in columns and "title" in columns
        await st.migrate()
        assert (await st.get_chat(den.id)).guild is None and (await st.get_chat(den.id)).title == "Den"
        assert (await st.chat("discord", "c1", guild=600_000_000_000_000_001)).guild == 600_000_000_000_000_001
        assert (await st.verify(table.id)).broken is None
    finally:
        await st.close()


async def test_a_pending_deal_marked_in_the_message_reference_is_carried_into_its_columns(db_url: str):
    """0010_table_deal: a finished round on view, marked by an older release inside ``message_ref``, becomes the
    table's ``deal_pending`` (and a claim its ``dealing_at``); the reference keeps where the message is only. It
    downgrades (the columns go) and upgrades again."""
    st = await Storage.open(db_url)
    try:
        table, _state = await setup_table(st, "kozel", 2, seed="mig-10")
        other, _ = await setup_table(st, "kozel", 2, seed="mig-10b", chat="-other")
        await _down_to(st, "0009_chat_guild")
        where = {"platform": "telegram", "chat_id": "-1", "message_id": "7"}
        await st.set_message_ref(table.id, {**where, "deal_pending": 3})
        await st.set_message_ref(other.id, {**where, "chat_id": "-2", "deal_showing": 1234.5})
        await st.migrate()
        rec = await st.table(table.id)
        assert (rec.deal_pending, rec.dealing_at, rec.message_ref) == (3, None, where)
        rec = await st.table(other.id)
        assert (rec.deal_pending, rec.dealing_at) == (other.version, 1234.5)
        assert rec.message_ref == {**where, "chat_id": "-2"}
        await _down_to(st, "0009_chat_guild")
        async with st.engine.connect() as conn:
            columns = await conn.run_sync(lambda c: [col["name"] for col in inspect(c).get_columns("game_tables")])
        assert "deal_pending" not in columns and "message_ref" in columns
        await st.migrate()
        assert (await st.verify(table.id)).broken is None
    finally:
        await st.close()


async def _down_to(st: Storage, revision: str) -> list[str]:
    """Downgrade to ``revision``; the names of the tables left."""
    async with st._write() as conn:
        await conn.run_sync(lambda c: _alembic(c, "downgrade", revision))
    async with st.engine.connect() as conn:
        return await conn.run_sync(lambda c: inspect(c).get_table_names())


def _alembic(sync_conn, action: str, revision: str) -> None:
    cfg = alembic_config()
    cfg.attributes["connection"] = sync_conn
    getattr(command, action)(cfg, revision)


def test_python_m_bot_migrate(tmp_path: Path):
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    env["DATA_DIR"] = str(tmp_path / "data")
    out = subprocess.run(
        [sys.executable, "-m", "bot", "migrate"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0, out.stderr
    assert f"database migrated to revision {head_revision()}" in out.stdout
    assert (tmp_path / "data" / "bot.sqlite3").is_file()
