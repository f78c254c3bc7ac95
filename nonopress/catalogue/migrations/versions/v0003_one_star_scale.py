"""One star scale (issue 46): a grade's stars are the score's stars kept within its level's
two, as a page prints them. Rows stored before held the score's own stars (a hard puzzle
could show 5 in the catalogue and 4 in print): they are brought within their level's two.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision: str | None = "0002"
branch_labels = None
depends_on = None

#: the stars each level may show (grader.scoring.LEVEL_STARS when this was written: a
#: migration keeps its own copy, so that later tables do not rewrite history)
LEVEL_STARS = {"easy": (1, 2), "medium": (2, 3), "hard": (3, 4), "fiendish": (4, 5),
               "needs-guessing": (5, 5)}


def upgrade() -> None:
    puzzles = sa.table("puzzles", sa.column("level", sa.String), sa.column("stars", sa.Integer))
    for level, (low, high) in LEVEL_STARS.items():
        op.execute(puzzles.update()
                   .where(puzzles.c.level == level, puzzles.c.stars < low)
                   .values(stars=low))
        op.execute(puzzles.update()
                   .where(puzzles.c.level == level, puzzles.c.stars > high)
                   .values(stars=high))


def downgrade() -> None:
    pass  # the score's own stars are not kept: a row graded again gets them back
