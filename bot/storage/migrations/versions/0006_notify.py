""" "Call me when a table opens": who wants a message per chat, and which table told whom.

Revision ID: 0006_notify
Revises: 0005_daily
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from bot.storage.models import Id, UTCDateTime

revision = "0006_notify"
down_revision = "0005_daily"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "notify_subs",
        sa.Column("chat_id", Id, sa.ForeignKey("chats.id"), primary_key=True),
        sa.Column("user_id", Id, sa.ForeignKey("users.id"), primary_key=True),
        sa.Column("created_at", UTCDateTime(), nullable=False),
    )
    op.create_table(
        "notify_sent",
        sa.Column("table_id", Id, sa.ForeignKey("game_tables.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("user_id", Id, sa.ForeignKey("users.id"), primary_key=True),
        sa.Column("at", UTCDateTime(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("notify_sent")
    op.drop_table("notify_subs")
