"""Achievements: what each user earned in each chat, once, with the table that gave it.

Revision ID: 0007_achievements
Revises: 0006_notify
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from bot.storage.models import Id, UTCDateTime

revision = "0007_achievements"
down_revision = "0006_notify"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "achievements",
        sa.Column("chat_id", Id, sa.ForeignKey("chats.id"), primary_key=True),
        sa.Column("user_id", Id, sa.ForeignKey("users.id"), primary_key=True),
        sa.Column("code", sa.String(32), primary_key=True),
        sa.Column("table_id", Id, sa.ForeignKey("game_tables.id", ondelete="SET NULL"), nullable=True),
        sa.Column("at", UTCDateTime(), nullable=False),
    )
    op.create_index("ix_achievements_table", "achievements", ["table_id"])


def downgrade() -> None:
    op.drop_index("ix_achievements_table", table_name="achievements")
    op.drop_table("achievements")
