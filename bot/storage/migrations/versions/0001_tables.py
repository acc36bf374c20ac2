"""Users, chats, tables, seats and the move log.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from bot.storage.models import Id, UTCDateTime

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

OPEN_WHERE = sa.text("status IN ('lobby', 'playing')")


def upgrade() -> None:
    op.create_table(
        "users",
        sa.Column("id", Id, primary_key=True, autoincrement=True),
        sa.Column("platform", sa.String(32), nullable=False),
        sa.Column("platform_id", sa.String(128), nullable=False),
        sa.Column("name", sa.String(256), nullable=False),
        sa.Column("language", sa.String(16), nullable=True),
        sa.Column("created_at", UTCDateTime(), nullable=False),
        sa.UniqueConstraint("platform", "platform_id", name="uq_users_platform_id"),
    )
    op.create_table(
        "chats",
        sa.Column("id", Id, primary_key=True, autoincrement=True),
        sa.Column("platform", sa.String(32), nullable=False),
        sa.Column("platform_id", sa.String(128), nullable=False),
        sa.Column("thread", sa.String(128), nullable=False),
        sa.Column("title", sa.String(256), nullable=False),
        sa.Column("language", sa.String(16), nullable=True),
        sa.Column("defaults", sa.JSON(), nullable=False),
        sa.Column("created_at", UTCDateTime(), nullable=False),
        sa.UniqueConstraint("platform", "platform_id", "thread", name="uq_chats_platform_id_thread"),
    )
    op.create_table(
        "game_tables",
        sa.Column("id", Id, primary_key=True, autoincrement=True),
        sa.Column("chat_id", Id, sa.ForeignKey("chats.id"), nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("players", sa.Integer(), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("seed", sa.String(128), nullable=False),
        sa.Column("host_user_id", Id, sa.ForeignKey("users.id"), nullable=True),
        sa.Column("state", sa.Text(), nullable=True),
        sa.Column("state_digest", sa.String(64), nullable=True),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("lobby_rev", sa.Integer(), nullable=False),
        sa.Column("deadline", UTCDateTime(), nullable=True),
        sa.Column("deadline_kind", sa.String(32), nullable=True),
        sa.Column("message_ref", sa.JSON(), nullable=True),
        sa.Column("broken", sa.Text(), nullable=True),
        sa.Column("created_at", UTCDateTime(), nullable=False),
        sa.Column("updated_at", UTCDateTime(), nullable=False),
    )
    op.create_index(
        "uq_game_tables_open_chat",
        "game_tables",
        ["chat_id"],
        unique=True,
        sqlite_where=OPEN_WHERE,
        postgresql_where=OPEN_WHERE,
    )
    op.create_index("ix_game_tables_deadline", "game_tables", ["deadline"])
    op.create_index("ix_game_tables_chat_status", "game_tables", ["chat_id", "status"])
    op.create_table(
        "seats",
        sa.Column("table_id", Id, sa.ForeignKey("game_tables.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("seat", sa.Integer(), primary_key=True),
        sa.Column("user_id", Id, sa.ForeignKey("users.id"), nullable=True),
        sa.Column("computer", sa.String(16), nullable=True),
        sa.Column("taken_over", sa.Boolean(), nullable=False),
        sa.Column("timeouts", sa.Integer(), nullable=False),
        sa.Column("private_ref", sa.JSON(), nullable=True),
    )
    op.create_index("ix_seats_user", "seats", ["user_id"])
    op.create_table(
        "moves",
        sa.Column("table_id", Id, sa.ForeignKey("game_tables.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("seq", sa.Integer(), primary_key=True),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("action", sa.JSON(), nullable=False),
        sa.Column("actor_user_id", Id, sa.ForeignKey("users.id"), nullable=True),
        sa.Column("by", sa.String(16), nullable=False),
        sa.Column("at", UTCDateTime(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("moves")
    op.drop_index("ix_seats_user", "seats")
    op.drop_table("seats")
    op.drop_index("ix_game_tables_chat_status", "game_tables")
    op.drop_index("ix_game_tables_deadline", "game_tables")
    op.drop_index("uq_game_tables_open_chat", "game_tables")
    op.drop_table("game_tables")
    op.drop_table("chats")
    op.drop_table("users")
