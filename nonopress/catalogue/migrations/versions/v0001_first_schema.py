"""The first schema: puzzles, tags, printings, bookings.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision: str | None = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "puzzles",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("key", sa.String(64), nullable=False, unique=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("shape_key", sa.String(40), nullable=True),
        sa.Column("width", sa.Integer, nullable=False),
        sa.Column("height", sa.Integer, nullable=False),
        sa.Column("colours", sa.Integer, nullable=False),
        sa.Column("title", sa.Text, nullable=False),
        sa.Column("author", sa.Text, nullable=False),
        sa.Column("copyright", sa.Text, nullable=False),
        sa.Column("licence", sa.Text, nullable=False),
        sa.Column("source", sa.Text, nullable=False),
        sa.Column("file", sa.Text, nullable=False),
        sa.Column("file_index", sa.Integer, nullable=False),
        sa.Column("puzzle", sa.Text, nullable=False),
        sa.Column("solution", sa.Text, nullable=True),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("verdict", sa.String(16), nullable=True),
        sa.Column("level", sa.String(32), nullable=True),
        sa.Column("score", sa.Float, nullable=True),
        sa.Column("stars", sa.Integer, nullable=True),
        sa.Column("minutes", sa.Float, nullable=True),
        sa.Column("minutes_low", sa.Float, nullable=True),
        sa.Column("minutes_high", sa.Float, nullable=True),
        sa.Column("steps", sa.Integer, nullable=True),
        sa.Column("grade_seconds", sa.Float, nullable=True),
        sa.Column("problem", sa.Text, nullable=False),
        sa.Column("grade", sa.Text, nullable=True),
        sa.Column("added_at", sa.String(20), nullable=False),
        sa.Column("graded_at", sa.String(20), nullable=True),
    )
    op.create_index("ix_puzzles_shape_key", "puzzles", ["shape_key"])
    op.create_index("ix_puzzles_level_size", "puzzles", ["level", "width", "height"])
    op.create_index("ix_puzzles_status", "puzzles", ["status"])
    op.create_index("ix_puzzles_score", "puzzles", ["score"])
    op.create_table(
        "tags",
        sa.Column("puzzle_id", sa.Integer, sa.ForeignKey("puzzles.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("tag", sa.String(64), primary_key=True),
    )
    op.create_index("ix_tags_tag", "tags", ["tag"])
    op.create_table(
        "printings",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("puzzle_key", sa.String(64), nullable=False),
        sa.Column("shape_key", sa.String(40), nullable=True),
        sa.Column("issue", sa.String(200), nullable=False),
        sa.Column("issue_date", sa.Date, nullable=True),
        sa.Column("profile", sa.String(32), nullable=False),
        sa.Column("page", sa.Integer, nullable=True),
        sa.Column("position", sa.Integer, nullable=False),
        sa.Column("printed_at", sa.String(20), nullable=False),
        sa.UniqueConstraint("issue", "puzzle_key", name="uq_printings_issue_puzzle"),
    )
    op.create_index("ix_printings_puzzle_key", "printings", ["puzzle_key"])
    op.create_index("ix_printings_shape_key", "printings", ["shape_key"])
    op.create_table(
        "bookings",
        sa.Column("puzzle_id", sa.Integer, sa.ForeignKey("puzzles.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("issue", sa.String(200), nullable=False),
        sa.Column("booked_at", sa.String(20), nullable=False),
    )
    op.create_index("ix_bookings_issue", "bookings", ["issue"])


def downgrade() -> None:
    op.drop_table("bookings")
    op.drop_table("printings")
    op.drop_table("tags")
    op.drop_table("puzzles")
