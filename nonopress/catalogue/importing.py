"""``library add``: read puzzle files, store each puzzle once, grade it with the batch machinery.

Two phases, each safe under ``kill -9``: first every puzzle read is inserted as ``pending``
(500 a transaction; a puzzle whose clues are already there is left alone), then the pending
puzzles of this run are graded by the batch's process pool (or Dask) and the grades are
committed as they arrive, in groups of at most 32 or one second (a commit is a disk sync;
a kill loses at most the last group, whose puzzles are still pending). Running the same
command again skips what is graded and grades what is still pending: every puzzle ends up
in the catalogue once.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from grader.errors import NonopressError
from grader.kinds import AnyPuzzle, kind_of
from grader.shapes import Picture
from grader.wording import plural
from nonopress.batch.rows import ResultRow, Task
from nonopress.catalogue import schema
from nonopress.catalogue.database import Catalogue
from nonopress.catalogue.entries import dumps, minutes_of, storable, utc_now

#: grades written in one transaction at most, and the longest a grade waits to be written
_GROUP = 32
_GROUP_SECONDS = 1.0


@dataclass(frozen=True)
class ImportOptions:
    jobs: int = 0  # 0: every core
    timeout_s: float = 60.0
    scheduler: str | None = None  # a Dask scheduler address, "local", or None
    tags: tuple[str, ...] = ()
    retry_failed: bool = False
    #: read pictures (PNG, GIF, BMP) as puzzles, a pixel a cell: a folder's pictures are
    #: usually art to make puzzles of (``nonopress make``), not puzzles
    pictures: bool = False


@dataclass(frozen=True)
class ImportSummary:
    read: int  # puzzles read from the files
    added: int  # new to the catalogue
    graded: int  # graded in this run
    unreadable: tuple[str, ...]  # one line per file that could not be read
    #: one line per puzzle whose clues the catalogue already holds from another file
    merged: tuple[str, ...] = ()
    #: the pictures passed over (ImportOptions.pictures not set)
    pictures: tuple[str, ...] = ()


def shape_key_of(puzzle: AnyPuzzle, solution: Sequence[str] | None) -> str | None:
    """The design's key under the eight symmetries, from the proved or given solution (or,
    for a kind whose registry entry names a ``design_key``, from its clue grid)."""
    from grader.kinds import entry_of
    from grader.shapes import shape_key

    design_key = entry_of(puzzle).design_key
    if design_key is not None:
        return design_key(puzzle)
    picture = _picture(puzzle, solution)
    return None if picture is None else shape_key(picture)


def _picture(puzzle: AnyPuzzle, solution: Sequence[str] | None) -> Picture | None:
    rows = list(solution) if solution else list(puzzle.solution or ())
    if not rows or any("?" in row for row in rows):
        return None
    return kind_of(puzzle).picture(rows)


def puzzle_text(puzzle: AnyPuzzle) -> str:
    from grader.kinds import write_puzzles

    return write_puzzles([puzzle], "yaml").decode("utf-8")


def add_files(catalogue: Catalogue, paths: Sequence[str], options: ImportOptions = ImportOptions(),
              *, log: TextIO | None = None) -> ImportSummary:
    """Import and grade every puzzle under ``paths`` (files or folders, every format)."""
    from nonopress.batch.discover import find_puzzle_files, known_suffixes, read_tasks

    stream = log if log is not None else sys.stderr
    files = find_puzzle_files(paths, known_suffixes())
    pictures = () if options.pictures else tuple(str(f) for f in files if is_picture(f))
    files = [f for f in files if str(f) not in pictures]
    if not files:
        said = (f" ({plural(len(pictures), 'picture')}: add --pictures to read a pixel as "
                "a cell, or make them into puzzles with nonopress make)" if pictures else "")
        raise NonopressError(f"no puzzle files found in {', '.join(paths)}{said}")
    named = frozenset(Path(p) for p in paths if not Path(p).is_dir())
    found = read_tasks(files, options.timeout_s, named)
    # the same clues twice in this run are named as the catalogue's own are (a file
    # dropped without a word is a puzzle the editor believes is in the catalogue)
    merged = (*(f"{line}: stored once, from the first" for line in found.duplicate_names),
              *stored_elsewhere(catalogue, found.tasks))
    added = insert_pending(catalogue, found.tasks, options.tags)
    todo = _still_to_grade(catalogue, found.tasks, options.retry_failed)
    stream.write(f"{plural(len(found.tasks), 'puzzle')} read, {added} new to {catalogue.name}; "
                 f"{len(todo)} to grade\n")
    graded = grade_tasks(catalogue, todo, options, log=stream) if todo else 0
    return ImportSummary(len(found.tasks), added, graded,
                         tuple(f"{row.file}: {row.error}" for row in found.unreadable),
                         merged, pictures)


def is_picture(path: Path) -> bool:
    """Whether a file is a picture (PNG, GIF, BMP by its name): art, not a puzzle, unless
    the editor says otherwise."""
    from grader.formats import format_for_path
    from grader.formats.pictures import PICTURE_FORMATS

    spec = format_for_path(path)
    return spec is not None and spec.name in PICTURE_FORMATS


def stored_elsewhere(catalogue: Catalogue, tasks: Sequence[Task]) -> tuple[str, ...]:
    """A line for each puzzle whose clues the catalogue holds already from another file
    (or another place in a file): it is stored once, and the editor should know which."""
    import sqlalchemy as sa

    P = schema.puzzles
    lines: list[str] = []
    with catalogue.reading() as connection:
        for start in range(0, len(tasks), 500):
            part = tasks[start:start + 500]
            rows = connection.execute(sa.select(P.c.key, P.c.id, P.c.title, P.c.file,
                                                P.c.file_index).where(
                P.c.key.in_([t.key for t in part]))).all()
            stored = {str(row.key): row for row in rows}
            for task in part:
                row = stored.get(task.key)
                if row is None or (str(row.file), int(row.file_index or 1)) == (
                        task.file, task.index):
                    continue
                title = f" {row.title!r}" if row.title else ""
                lines.append(f"{task.file} #{task.index} has the clues of puzzle "
                             f"{row.id}{title} (from {row.file}): stored once, as {row.id}")
    return tuple(lines)


def insert_pending(catalogue: Catalogue, tasks: Sequence[Task],
                   tags: Sequence[str] = ()) -> int:
    """Insert the puzzles not in the catalogue yet as ``pending``; the number inserted."""
    import sqlalchemy as sa

    added = 0
    chunk = 500
    for start in range(0, len(tasks), chunk):
        part = tasks[start:start + chunk]
        with catalogue.writing(exclusive=True) as connection:
            known = set(connection.execute(
                sa.select(schema.puzzles.c.key).where(
                    schema.puzzles.c.key.in_([t.key for t in part]))).scalars())
            rows = [_pending_row(task) for task in part if task.key not in known]
            if rows:
                # another editor adding the same files at this moment: theirs stands
                connection.execute(_insert_new(catalogue.dialect), rows)
                added += len(rows)
            if tags:
                ids = connection.execute(sa.select(schema.puzzles.c.id).where(
                    schema.puzzles.c.key.in_([t.key for t in part]))).scalars().all()
                set_tags(connection, ids, add=tags)
    return added


def _insert_new(dialect: str) -> object:
    """An INSERT that leaves a puzzle whose key is already there alone."""
    if dialect == "postgresql":
        from sqlalchemy.dialects.postgresql import insert as pg_insert

        return pg_insert(schema.puzzles).on_conflict_do_nothing(index_elements=["key"])
    from sqlalchemy.dialects.sqlite import insert as sqlite_insert

    return sqlite_insert(schema.puzzles).on_conflict_do_nothing(index_elements=["key"])


def _pending_row(task: Task) -> dict[str, object]:
    puzzle = task.puzzle
    kind = kind_of(puzzle)
    meta = puzzle.meta
    return {
        "key": task.key, "kind": kind.tag,
        "shape_key": shape_key_of(puzzle, None), "width": puzzle.width,
        "height": puzzle.height,
        "colours": kind.colours(),
        # a title with a NUL in it is stored (as U+FFFD), its file with the rest
        "title": storable(meta.title), "author": storable(meta.author),
        "copyright": storable(meta.copyright), "licence": storable(meta.license),
        "source": storable(meta.source), "file": storable(task.file),
        "file_index": task.index, "puzzle": puzzle_text(puzzle),
        "solution": "\n".join(puzzle.solution) if puzzle.solution else None,
        "status": "pending", "problem": "", "added_at": utc_now(),
    }


def set_tags(connection: object, ids: Sequence[int], *, add: Sequence[str] = (),
             remove: Sequence[str] = ()) -> None:
    """Add and remove tags (lower-cased, trimmed) on the puzzles ``ids``."""
    import sqlalchemy as sa

    conn: sa.Connection = connection  # type: ignore[assignment]
    wanted = sorted({storable(t.strip().lower()) for t in add if t.strip()})
    gone = sorted({t.strip().lower() for t in remove if t.strip()})
    if gone and ids:
        conn.execute(schema.tags.delete().where(
            schema.tags.c.puzzle_id.in_(ids), schema.tags.c.tag.in_(gone)))
    if wanted and ids:
        query = sa.select(schema.tags.c.puzzle_id, schema.tags.c.tag).where(
            schema.tags.c.puzzle_id.in_(ids))
        have = {(int(row[0]), str(row[1])) for row in conn.execute(query)}
        rows = [{"puzzle_id": i, "tag": t} for i in ids for t in wanted if (i, t) not in have]
        if rows:
            conn.execute(schema.tags.insert(), rows)


def _still_to_grade(catalogue: Catalogue, tasks: Sequence[Task], retry: bool) -> list[Task]:
    """Pending puzzles (and failed and undecided ones on ``retry``), and those graded by
    another grader (another ladder table, scoring weights or version; NULL: unknown)."""
    import sqlalchemy as sa

    from grader.ladder import grader_version

    P = schema.puzzles
    wanted = ("pending", "failed", "undecided") if retry else ("pending",)
    current = grader_version()
    keys: set[str] = set()
    with catalogue.reading() as connection:
        for start in range(0, len(tasks), 500):
            part = [t.key for t in tasks[start:start + 500]]
            outdated = sa.and_(P.c.status != "pending",
                               sa.or_(P.c.grader.is_(None), P.c.grader != current))
            keys.update(connection.execute(sa.select(P.c.key).where(
                P.c.key.in_(part), sa.or_(P.c.status.in_(wanted), outdated))).scalars())
    return [task for task in tasks if task.key in keys]


def grade_tasks(catalogue: Catalogue, tasks: list[Task], options: ImportOptions,
                *, log: TextIO) -> int:
    """Grade ``tasks`` with the batch runner; each grade is committed as it arrives."""
    from nonopress.batch.pool import run_pool
    from nonopress.batch.progress import Progress
    from nonopress.batch.run import hard_limit_for
    from nonopress.batch.worker import grade_one

    by_key = {task.key: task for task in tasks}
    if options.scheduler is None:  # each kind's kernels once here, before any clock
        from grader.kinds import kind_of

        kinds = {kind.name: kind for kind in map(kind_of, (t.puzzle for t in tasks))}
        for kind in kinds.values():
            kind.prepare(log)
    progress = Progress(len(tasks), log)
    waiting: list[tuple[AnyPuzzle, ResultRow]] = []
    flushed = time.monotonic()

    def flush() -> None:
        nonlocal flushed
        if waiting:
            store_grades(catalogue, waiting)
            waiting.clear()
        flushed = time.monotonic()

    def record(row: ResultRow) -> None:
        # Grades are committed in small groups (a commit is a disk sync): a kill loses at
        # most the last second's grades, whose puzzles are still pending and graded again.
        waiting.append((by_key[row.key].puzzle, row))
        progress.update(row)
        if len(waiting) >= _GROUP or time.monotonic() - flushed >= _GROUP_SECONDS:
            flush()

    limit = hard_limit_for(options.timeout_s)
    jobs = options.jobs if options.jobs > 0 else (_cores())
    try:
        if options.scheduler is None:
            run_pool(tasks, record, jobs=jobs, work=grade_one, hard_limit_s=limit)
        else:
            from nonopress.batch.dask_runner import connect, require_distributed, run_on_client

            require_distributed()
            with connect(options.scheduler, jobs=jobs) as client:
                run_on_client(client, tasks, record, work=grade_one, hard_limit_s=limit)
    finally:
        flush()
        progress.finish()
    return progress.done


def _cores() -> int:
    import os

    return os.cpu_count() or 1


def store_grades(catalogue: Catalogue, graded: Sequence[tuple[AnyPuzzle, ResultRow]]) -> None:
    """Write finished grades (and the shape key a proved solution gives, when the file had
    no solution or another one) in one transaction."""
    with catalogue.writing() as connection:
        for puzzle, row in graded:
            connection.execute(schema.puzzles.update().where(
                schema.puzzles.c.key == row.key).values(**_grade_values(puzzle, row)))


def _grade_values(puzzle: AnyPuzzle, row: ResultRow) -> dict[str, object]:
    minutes, low, high = minutes_of(row.grade_record)
    values: dict[str, object] = {
        "status": row.status, "verdict": row.verdict, "level": row.level,
        "score": row.score, "stars": row.stars, "minutes": minutes, "minutes_low": low,
        "minutes_high": high, "steps": row.steps, "grade_seconds": row.time_s,
        "problem": storable(row.error), "grade": dumps(row.grade_record), "graded_at": utc_now(),
        "grader": row.grader or None,
    }
    solution = row.solution if row.verdict == "unique" else None
    if solution is not None and tuple(solution) != tuple(puzzle.solution or ()):
        values["solution"] = "\n".join(solution)
        values["shape_key"] = shape_key_of(puzzle, solution)
    return values
