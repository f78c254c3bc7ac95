"""How a solve was finished (issue 56): ``unaided``, ``hinted`` (a hint accepted, or shown
down to its cells) or ``revealed``, beside each record, so that a solve finished by hints
is never counted clean. NULL for a record stored before the player said (read as it was
then: clean when completed without a reveal).

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision: str | None = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("solves") as batch:
        batch.add_column(sa.Column("finish", sa.String(16), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("solves") as batch:
        batch.drop_column("finish")
