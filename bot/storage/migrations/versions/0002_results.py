"""Results per seat of a finished table, and ratings per chat, game and user.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from bot.storage.models import Id, UTCDateTime

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "results",
        sa.Column("table_id", Id, sa.ForeignKey("game_tables.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("seat", sa.Integer(), primary_key=True),
        sa.Column("user_id", Id, sa.ForeignKey("users.id"), nullable=True),
        sa.Column("total", sa.Integer(), nullable=False),
        sa.Column("place", sa.Integer(), nullable=False),
        sa.Column("rating_before", sa.Float(), nullable=True),
        sa.Column("rating_after", sa.Float(), nullable=True),
        sa.Column("mu", sa.Float(), nullable=True),
        sa.Column("sigma", sa.Float(), nullable=True),
        sa.Column("barrels", sa.Integer(), nullable=True),
        sa.Column("bolts", sa.Integer(), nullable=True),
        sa.Column("baits", sa.Integer(), nullable=True),
        sa.Column("kozel", sa.Boolean(), nullable=True),
        sa.Column("rating_points", sa.Integer(), nullable=True),
    )
    op.create_index("ix_results_user", "results", ["user_id"])
    op.create_table(
        "ratings",
        sa.Column("chat_id", Id, sa.ForeignKey("chats.id"), primary_key=True),
        sa.Column("game", sa.String(32), primary_key=True),
        sa.Column("user_id", Id, sa.ForeignKey("users.id"), primary_key=True),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("rating", sa.Float(), nullable=True),
        sa.Column("points", sa.Integer(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("updated_at", UTCDateTime(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("ratings")
    op.drop_index("ix_results_user", "results")
    op.drop_table("results")
