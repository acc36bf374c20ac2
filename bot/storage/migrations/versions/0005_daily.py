"""The chat's daily deal: each person's attempt of a day and game, and the group's one message of the day.

Revision ID: 0005_daily
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from bot.storage.models import Id, UTCDateTime

revision = "0005_daily"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "daily_attempts",
        sa.Column("chat_id", Id, sa.ForeignKey("chats.id"), primary_key=True),
        sa.Column("game", sa.String(32), primary_key=True),
        sa.Column("day", sa.String(10), primary_key=True),
        sa.Column("user_id", Id, sa.ForeignKey("users.id"), primary_key=True),
        sa.Column("table_id", Id, sa.ForeignKey("game_tables.id", ondelete="SET NULL"), nullable=True),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("score", sa.Integer(), nullable=True),
        sa.Column("line", sa.JSON(), nullable=True),
        sa.Column("started_at", UTCDateTime(), nullable=False),
        sa.Column("ended_at", UTCDateTime(), nullable=True),
    )
    op.create_index("ix_daily_attempts_table", "daily_attempts", ["table_id"])
    op.create_table(
        "daily_posts",
        sa.Column("chat_id", Id, sa.ForeignKey("chats.id"), primary_key=True),
        sa.Column("day", sa.String(10), primary_key=True),
        sa.Column("message_ref", sa.JSON(), nullable=True),
        sa.Column("created_at", UTCDateTime(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("daily_posts")
    op.drop_index("ix_daily_attempts_table", table_name="daily_attempts")
    op.drop_table("daily_attempts")
