"""Migrations: up from an empty database; up from the previous revision holding a game in play, losing nothing;
the migrated schema is exactly the models; ``python -m bot migrate``."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext

from bot.storage import FINISHED, Storage
from bot.storage.migrate import current_revision, head_revision, upgrade
from bot.storage.models import Base
from tests import storage_support
from tests.storage_support import play, setup_table

db_url = storage_support.db_url
ROOT = Path(__file__).resolve().parents[1]


async def test_upgrade_from_empty_gives_exactly_the_models(db_url: str):
    st = await Storage.open(db_url)
    try:
        assert await current_revision(st.engine) == head_revision() == "0002"
        async with st.engine.connect() as conn:
            diff = await conn.run_sync(lambda c: compare_metadata(MigrationContext.configure(c), Base.metadata))
        assert diff == []
        await st.migrate()  # a second run (another worker starting) changes nothing
        assert await current_revision(st.engine) == "0002"
    finally:
        await st.close()


async def test_upgrade_from_the_previous_revision_keeps_a_game_in_play(db_url: str):
    old = await Storage.open(db_url, migrate=False)
    try:
        await upgrade(old.engine, "0001")
        assert await current_revision(old.engine) == "0001"
        table, state = await setup_table(old, "deberts", 2, seed="mig-1")
        table, state = await play(old, table, state, moves=15)
        await old.set_message_ref(table.id, {"message_id": 12})
        before_moves = await old.moves(table.id)
    finally:
        await old.close()

    st = await Storage.open(db_url)  # migrates to the newest revision on opening
    try:
        assert await current_revision(st.engine) == "0002"
        loaded = await st.table(table.id)
        assert loaded.state == state.to_json() and loaded.version == 15 and loaded.message_ref == {"message_id": 12}
        assert loaded.seats == table.seats
        assert await st.moves(table.id) == before_moves
        assert (await st.verify(table.id)).broken is None
        finished, final = await play(st, loaded, state)  # results and ratings need the new revision
        assert finished.status == FINISHED and [r.total for r in await st.results(table.id)] == final.totals
    finally:
        await st.close()


def test_python_m_bot_migrate(tmp_path: Path):
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    env["DATA_DIR"] = str(tmp_path / "data")
    out = subprocess.run(
        [sys.executable, "-m", "bot", "migrate"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0, out.stderr
    assert "database migrated to revision 0002" in out.stdout
    assert (tmp_path / "data" / "bot.sqlite3").is_file()
