"""What graded each puzzle: the grader's version and the hash of its ladder and scoring
tables (grader.ladder.grader_version). Rows graded before are NULL: an unknown grader, so
``library add`` grades them again, as it does a puzzle graded with another ladder table.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision: str | None = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("puzzles") as table:  # SQLite: add a column, keep every row
        table.add_column(sa.Column("grader", sa.String(64), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("puzzles") as table:
        table.drop_column("grader")
