"""Seasons: each chat's season length, and the summary of each finished season (posted once).

Revision ID: 0008_seasons
Revises: 0007_achievements
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from bot.storage.models import Id, UTCDateTime

revision = "0008_seasons"
down_revision = "0007_achievements"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "season_settings",
        sa.Column("chat_id", Id, sa.ForeignKey("chats.id"), primary_key=True),
        sa.Column("kind", sa.String(16), nullable=False),
    )
    op.create_table(
        "season_posts",
        sa.Column("chat_id", Id, sa.ForeignKey("chats.id"), primary_key=True),
        sa.Column("season", sa.String(16), primary_key=True),
        sa.Column("at", UTCDateTime(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("season_posts")
    op.drop_table("season_settings")
