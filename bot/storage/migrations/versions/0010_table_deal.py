"""A table's next deal, in columns of its own: ``deal_pending`` (the version whose finished round is on view, its next
deal not yet shown) and ``dealing_at`` (when a worker claimed posting it). They were markers inside
``message_ref``, which now says only where the table's message is (issue 40). A marker left by an older release is
carried over.

Revision ID: 0010_table_deal
Revises: 0009_chat_guild
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010_table_deal"
down_revision = "0009_chat_guild"
branch_labels = None
depends_on = None

PENDING = "deal_pending"
DEALING = "deal_showing"


def upgrade() -> None:
    op.add_column("game_tables", sa.Column("deal_pending", sa.Integer(), nullable=True))
    op.add_column("game_tables", sa.Column("dealing_at", sa.Float(), nullable=True))
    tables = sa.table(
        "game_tables",
        sa.column("id", sa.BigInteger()),
        sa.column("version", sa.Integer()),
        sa.column("message_ref", sa.JSON()),
        sa.column("deal_pending", sa.Integer()),
        sa.column("dealing_at", sa.Float()),
    )
    conn = op.get_bind()
    for row in conn.execute(sa.select(tables.c.id, tables.c.version, tables.c.message_ref)).all():
        ref = row.message_ref
        if not isinstance(ref, dict) or (PENDING not in ref and DEALING not in ref):
            continue
        pending = ref.get(PENDING)
        dealing = ref.get(DEALING)
        values = {
            "message_ref": {k: v for k, v in ref.items() if k not in (PENDING, DEALING)},
            "deal_pending": pending if isinstance(pending, int) else row.version,
            "dealing_at": float(dealing) if isinstance(dealing, int | float) else None,
        }
        conn.execute(sa.update(tables).where(tables.c.id == row.id).values(**values))


def downgrade() -> None:
    op.drop_column("game_tables", "dealing_at")
    op.drop_column("game_tables", "deal_pending")
