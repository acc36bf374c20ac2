"""The press that stored a move (idempotent presses across workers) and the invitations to a private chat.

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from bot.storage.models import Id, UTCDateTime

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "presses",
        sa.Column("press_key", sa.String(128), primary_key=True),
        sa.Column("table_id", Id, sa.ForeignKey("game_tables.id", ondelete="CASCADE"), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("at", UTCDateTime(), nullable=False),
    )
    op.create_index("ix_presses_at", "presses", ["at"])
    op.create_table(
        "invitations",
        sa.Column("table_id", Id, sa.ForeignKey("game_tables.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("user_id", Id, sa.ForeignKey("users.id"), primary_key=True),
        sa.Column("waiting", sa.Boolean(), nullable=False),
        sa.Column("sent_at", UTCDateTime(), nullable=True),
        sa.Column("created_at", UTCDateTime(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("invitations")
    op.drop_index("ix_presses_at", table_name="presses")
    op.drop_table("presses")
