"""The solves the web player reports (issue 49): one row a solve attempt, its record id
unique so that a retried record is stored once.

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision: str | None = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "solves",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("record_id", sa.String(36), nullable=False, unique=True),
        sa.Column("solver_id", sa.String(36), nullable=False),
        sa.Column("puzzle_key", sa.String(64), nullable=False),
        sa.Column("grader_version", sa.String(64), nullable=False),
        sa.Column("seconds_active", sa.Float, nullable=False),
        sa.Column("completed", sa.Boolean, nullable=False),
        sa.Column("checks", sa.Integer, nullable=False),
        sa.Column("reveals", sa.Integer, nullable=False),
        sa.Column("errors_found", sa.Integer, nullable=False),
        sa.Column("hints_1", sa.Integer, nullable=False),
        sa.Column("hints_2", sa.Integer, nullable=False),
        sa.Column("hints_3", sa.Integer, nullable=False),
        sa.Column("hints_4", sa.Integer, nullable=False),
        sa.Column("hint_rungs", sa.Text, nullable=False),
        sa.Column("device", sa.String(16), nullable=False),
        sa.Column("started_at", sa.String(20), nullable=False),
        sa.Column("player", sa.String(64), nullable=False),
        sa.Column("received_at", sa.String(20), nullable=False),
        sa.Column("updated_at", sa.String(20), nullable=False),
    )
    op.create_index("ix_solves_puzzle_key", "solves", ["puzzle_key"])
    op.create_index("ix_solves_started_at", "solves", ["started_at"])


def downgrade() -> None:
    op.drop_table("solves")
