"""Create the starter tables: notes, its list's indexes, and the runtime's tables.

The generated API queries all of them (``shop.web.database``): idempotency_keys
for retried POSTs, rate_limit_counters for the token endpoint's limits.

Revision ID: 0001
Revises:
Created: with the project (codegen's be_root)
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0001"
down_revision: str | Sequence[str] | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "notes",
        sa.Column("id", sa.Uuid(), nullable=False),
        sa.Column("title", sa.String(), nullable=False),
        sa.Column("body", sa.Text(), nullable=False),
        sa.Column("pinned", sa.Boolean(), nullable=False),
        sa.Column(
            "created_at",
            sa.DateTime(timezone=True),
            server_default=sa.text("now()"),
            nullable=False,
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_notes")),
    )
    op.create_index(
        "ix_note_created_at_id", "notes", ["created_at", "id"], unique=False
    )
    op.create_index("ix_note_title_id", "notes", ["title", "id"], unique=False)
    op.create_table(
        "idempotency_keys",
        sa.Column("scope", sa.Text(), nullable=False),
        sa.Column("key", sa.String(length=255), nullable=False),
        sa.Column("fingerprint", sa.String(length=64), nullable=False),
        sa.Column("status_code", sa.Integer(), nullable=False),
        sa.Column("body", postgresql.JSONB(astext_type=sa.Text()), nullable=True),
        sa.Column("location", sa.Text(), nullable=True),
        sa.Column(
            "created_at",
            sa.DateTime(timezone=True),
            server_default=sa.text("now()"),
            nullable=False,
        ),
        sa.PrimaryKeyConstraint("scope", "key"),
    )
    op.create_table(
        "rate_limit_counters",
        sa.Column("bucket", sa.Text(), nullable=False),
        sa.Column("window_seconds", sa.Integer(), nullable=False),
        sa.Column("window_start", sa.DateTime(timezone=True), nullable=False),
        sa.Column("hits", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("bucket", "window_seconds"),
    )


def downgrade() -> None:
    op.drop_table("rate_limit_counters")
    op.drop_table("idempotency_keys")
    op.drop_index("ix_note_title_id", table_name="notes")
    op.drop_index("ix_note_created_at_id", table_name="notes")
    op.drop_table("notes")
