"""Who sent a solve (issue 57): a keyed digest of the sender's network address beside each
record, so that one address counts once however many solver ids it invents, and the secret
key of that digest, kept in the catalogue so that every collector of it agrees.

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision: str | None = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("solves") as batch:
        batch.add_column(sa.Column("sender", sa.String(32), nullable=True))
    op.create_index("ix_solves_puzzle_sender", "solves", ["puzzle_key", "sender"])
    op.create_index("ix_solves_puzzle_solver", "solves", ["puzzle_key", "solver_id"])
    op.create_table(
        "secrets",
        sa.Column("name", sa.String(32), primary_key=True),
        sa.Column("value", sa.String(128), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("secrets")
    op.drop_index("ix_solves_puzzle_solver", "solves")
    op.drop_index("ix_solves_puzzle_sender", "solves")
    with op.batch_alter_table("solves") as batch:
        batch.drop_column("sender")
