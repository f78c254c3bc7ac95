"""The catalogue's tables, as SQLAlchemy Core: what every query in the package is written against.

- ``puzzles``: one row a puzzle (keyed by its clues' content hash): the puzzle itself as the
  project's YAML, its metadata, the grade record, and the design's shape key under the eight
  symmetries (:mod:`grader.shapes`), which finds a picture drawn twice.
- ``tags``: the puzzle's subject words (``animals``, ``christmas``), one row each.
- ``printings``: publication history, one row a puzzle printed in an issue. Keyed by the
  puzzle's key and shape key rather than a foreign key, so that a printing made before a
  puzzle was imported still counts when it is.
- ``solves``: what the web player reported of one solve attempt (``nonopress collect``),
  one row a record id, keyed to the puzzle by its key (as printings are).
- ``secrets``: keys the catalogue keeps (the one the solves' sender digests are made with).
- ``bookings``: a puzzle picked for an issue that is not printed yet. The puzzle's id is the
  primary key, so the database itself refuses to book one puzzle for two issues.

The migrations under ``migrations/versions`` create these tables; a test holds them equal.
"""

from __future__ import annotations

from sqlalchemy import (
    Boolean,
    Column,
    Date,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
)

from grader.kinds import TAGS

metadata = MetaData()

#: kinds of puzzle, as stored (each kind's tag: grader.kinds.STORED)
KINDS = TAGS
#: a puzzle's grading state: pending until the batch machinery has graded it
STATUSES = ("pending", "graded", "failed", "undecided")

puzzles = Table(
    "puzzles",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("key", String(64), nullable=False, unique=True),
    Column("kind", String(16), nullable=False),
    Column("shape_key", String(40), nullable=True),
    Column("width", Integer, nullable=False),
    Column("height", Integer, nullable=False),
    Column("colours", Integer, nullable=False),
    Column("title", Text, nullable=False),
    Column("author", Text, nullable=False),
    Column("copyright", Text, nullable=False),
    Column("licence", Text, nullable=False),
    Column("source", Text, nullable=False),
    Column("file", Text, nullable=False),
    Column("file_index", Integer, nullable=False),
    Column("puzzle", Text, nullable=False),  # the project's YAML: rebuilds the puzzle exactly
    Column("solution", Text, nullable=True),  # proved (or given) solution rows, '\n'-joined
    Column("status", String(16), nullable=False),
    Column("verdict", String(16), nullable=True),
    Column("level", String(32), nullable=True),
    Column("score", Float, nullable=True),
    Column("stars", Integer, nullable=True),
    Column("minutes", Float, nullable=True),
    Column("minutes_low", Float, nullable=True),
    Column("minutes_high", Float, nullable=True),
    Column("steps", Integer, nullable=True),
    Column("grade_seconds", Float, nullable=True),
    Column("problem", Text, nullable=False),
    Column("grade", Text, nullable=True),  # the grade record as JSON
    Column("added_at", String(20), nullable=False),  # UTC, 2026-11-26T19:00:00Z
    Column("graded_at", String(20), nullable=True),
    # what graded it (grader.ladder.grader_version): another grader's grade is redone
    Column("grader", String(64), nullable=True),
)
Index("ix_puzzles_shape_key", puzzles.c.shape_key)
Index("ix_puzzles_level_size", puzzles.c.level, puzzles.c.width, puzzles.c.height)
Index("ix_puzzles_status", puzzles.c.status)
Index("ix_puzzles_score", puzzles.c.score)

tags = Table(
    "tags",
    metadata,
    Column(
        "puzzle_id", Integer, ForeignKey("puzzles.id", ondelete="CASCADE"), primary_key=True
    ),
    Column("tag", String(64), primary_key=True),
)
Index("ix_tags_tag", tags.c.tag)

printings = Table(
    "printings",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("puzzle_key", String(64), nullable=False),
    Column("shape_key", String(40), nullable=True),
    Column("issue", String(200), nullable=False),
    Column("issue_date", Date, nullable=True),
    Column("profile", String(32), nullable=False),
    Column("page", Integer, nullable=True),
    Column("position", Integer, nullable=False),  # the puzzle's number in the issue
    Column("printed_at", String(20), nullable=False),
    UniqueConstraint("issue", "puzzle_key", name="uq_printings_issue_puzzle"),
)
Index("ix_printings_puzzle_key", printings.c.puzzle_key)
Index("ix_printings_shape_key", printings.c.shape_key)

bookings = Table(
    "bookings",
    metadata,
    Column(
        "puzzle_id", Integer, ForeignKey("puzzles.id", ondelete="CASCADE"), primary_key=True
    ),
    Column("issue", String(200), nullable=False),
    Column("booked_at", String(20), nullable=False),
)
Index("ix_bookings_issue", bookings.c.issue)

solves = Table(
    "solves",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    # the player's uuid4 for one solve attempt: a retry or a later record of the same
    # attempt finds this row (nonopress/solves/store.py says what a resend changes)
    Column("record_id", String(36), nullable=False, unique=True),
    Column("solver_id", String(36), nullable=False),
    Column("puzzle_key", String(64), nullable=False),
    Column("grader_version", String(64), nullable=False),
    Column("seconds_active", Float, nullable=False),
    Column("completed", Boolean, nullable=False),
    Column("checks", Integer, nullable=False),
    Column("reveals", Integer, nullable=False),
    Column("errors_found", Integer, nullable=False),
    Column("hints_1", Integer, nullable=False),
    Column("hints_2", Integer, nullable=False),
    Column("hints_3", Integer, nullable=False),
    Column("hints_4", Integer, nullable=False),
    Column("hint_rungs", Text, nullable=False),  # JSON list of rung names, in order
    Column("device", String(16), nullable=False),
    Column("started_at", String(20), nullable=False),  # UTC to the minute, 2026-11-28T02:30Z
    Column("player", String(64), nullable=False),
    Column("received_at", String(20), nullable=False),
    Column("updated_at", String(20), nullable=False),
    # a keyed digest of the sender's network address (nonopress/solves/senders.py), never
    # the address: one address counts once however many solver ids it invents; NULL for a
    # record stored before it was kept (each such record counts as a sender of its own)
    Column("sender", String(32), nullable=True),
    # how the attempt was finished (record.FINISHES): NULL for a record stored before the
    # player said; a hinted or revealed finish is never a clean solve (reports.Solve.clean)
    Column("finish", String(16), nullable=True),
)
Index("ix_solves_puzzle_key", solves.c.puzzle_key)
Index("ix_solves_started_at", solves.c.started_at)
Index("ix_solves_puzzle_sender", solves.c.puzzle_key, solves.c.sender)
Index("ix_solves_puzzle_solver", solves.c.puzzle_key, solves.c.solver_id)

#: secrets the catalogue keeps for itself (the key of the solves' sender digest)
secrets = Table(
    "secrets",
    metadata,
    Column("name", String(32), primary_key=True),
    Column("value", String(128), nullable=False),
)
