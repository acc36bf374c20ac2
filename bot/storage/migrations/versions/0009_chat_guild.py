"""The server a chat belongs to (Discord's guild id), so that a worker takes on only the timers and tables of the
guilds whose shards it connects.

Revision ID: 0009_chat_guild
Revises: 0008_seasons
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009_chat_guild"
down_revision = "0008_seasons"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("chats", sa.Column("guild", sa.BigInteger(), nullable=True))


def downgrade() -> None:
    # ALTER TABLE … DROP COLUMN on both (SQLite 3.35+): a batch copy of ``chats`` would trip the foreign keys
    # of the tables that point at it
    op.drop_column("chats", "guild")
