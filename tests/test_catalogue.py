"""The catalogue (``nonopress library``), every test on SQLite and on a real PostgreSQL.

PostgreSQL comes from ``NONOPRESS_TEST_POSTGRES_URL`` (``.ci/run`` starts a scratch server and
sets it). Without it the PostgreSQL half skips with a message, except under CI (``CI=true``),
where a missing server fails.
"""

from __future__ import annotations

import datetime as dt
import os
import signal
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
import sqlalchemy as sa
from stock_support import tiny_folder

from grader.colour.model import AnyPuzzle, ColourPuzzle, rows_to_colour_array
from grader.formats import read_any, write, write_any
from grader.model import Metadata, Puzzle
from nonopress.catalogue import (
    Filters,
    LevelWant,
    PickRequest,
    duplicates,
    find,
    get,
    open_catalogue,
    pick,
    schema,
)
from nonopress.catalogue.database import Catalogue
from nonopress.catalogue.importing import ImportOptions, add_files, insert_pending
from nonopress.cli import main

ROOT = Path(__file__).resolve().parents[1]
LIBRARY = ROOT / "puzzles"
POSTGRES_URL = os.environ.get("NONOPRESS_TEST_POSTGRES_URL", "").strip()


def _postgres_database() -> Iterator[str]:
    """A fresh schema-less database for one test: a new PostgreSQL schema on the server,
    named in the URL's search path, dropped afterwards."""
    if not POSTGRES_URL:
        message = "NONOPRESS_TEST_POSTGRES_URL is not set (.ci/run starts a scratch PostgreSQL)"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"under CI the catalogue must be tested on PostgreSQL: {message}")
        pytest.skip(message)
    name = f"t_{uuid.uuid4().hex[:12]}"
    admin = sa.create_engine(POSTGRES_URL.replace("postgresql://", "postgresql+psycopg://", 1))
    with admin.begin() as connection:
        connection.exec_driver_sql(f"CREATE SCHEMA {name}")
    separator = "&" if "?" in POSTGRES_URL else "?"
    try:
        yield f"{POSTGRES_URL}{separator}options=-csearch_path%3D{name}"
    finally:
        with admin.begin() as connection:
            connection.exec_driver_sql(f"DROP SCHEMA {name} CASCADE")
        admin.dispose()


@pytest.fixture(scope="module", autouse=True)
def compiled_kernels() -> None:
    """Compile (or load) both kinds' kernels before any import grades under its budget: a
    first compile after installing (a fresh CI machine) is not the import's doing, and
    would spend the 30 s a puzzle is given."""
    from grader.colour.solver import warm_up
    from grader.solver import ensure_compiled

    ensure_compiled()
    warm_up()


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield str(tmp_path / "catalogue.sqlite")
    else:
        yield from _postgres_database()


@pytest.fixture()
def catalogue(db_url: str) -> Iterator[Catalogue]:
    with open_catalogue(db_url) as opened:
        yield opened


def _library_files() -> list[Path]:
    return sorted(LIBRARY.glob("*.yaml")) + sorted((LIBRARY / "colour").glob("*.yaml"))


def _images(rows: list[str], start: int) -> list[list[str]]:
    """The picture's seven other images (rotated, mirrored, transposed), from ``start`` on."""
    grid = np.array([list(r) for r in rows])
    images = [np.rot90(grid), grid[:, ::-1], grid.T, np.rot90(grid, 2), np.rot90(grid, 3),
              grid[::-1, :], np.rot90(grid, 2).T]
    images = images[start % 7:] + images[:start % 7]
    return [["".join(r) for r in image] for image in images]


def test_a_design_added_again_rotated_mirrored_or_transposed_is_flagged(
        catalogue: Catalogue, tmp_path: Path) -> None:
    from nonopress.batch.discover import read_tasks

    originals = read_tasks(_library_files(), 30.0).tasks
    insert_pending(catalogue, originals)
    assert duplicates(catalogue, near=2) == [], "distinct library puzzles were flagged"
    copies = []
    for number, task in enumerate(originals):
        puzzle = task.puzzle
        assert puzzle.solution is not None
        path = tmp_path / f"copy-{number}.yaml"
        # the first image whose clues differ (a symmetric picture is its own mirror image)
        for image in _images(list(puzzle.solution), number):
            copy = _puzzle_of(puzzle, image)
            if copy.key() != puzzle.key():
                break
        path.write_bytes(write_any(copy, "yaml"))
        copies.append(path)
    from nonopress.batch.discover import read_tasks as read_again

    insert_pending(catalogue, read_again(copies, 30.0).tasks)
    pairs = duplicates(catalogue, near=0)
    by_original = {pair.first.key: pair for pair in pairs}
    copied = {t.key for t in originals} - {read_any(p)[0].key() for p in copies}
    assert set(by_original) == copied
    assert len(copied) == len(originals) - 1  # the loaded die is symmetric under all eight
    assert all(pair.cells == 0 for pair in pairs)


def _puzzle_of(puzzle: AnyPuzzle, image: list[str]) -> AnyPuzzle:
    meta = Metadata(title=f"Copy of {puzzle.title}", author="Someone else")
    if isinstance(puzzle, Puzzle):
        return Puzzle.from_picture(image, meta)
    return ColourPuzzle.from_picture(rows_to_colour_array(image, puzzle.palette),
                                     puzzle.palette, meta)


def test_a_near_duplicate_one_cell_apart_is_shown(catalogue: Catalogue, tmp_path: Path) -> None:
    from nonopress.batch.discover import read_tasks

    cat = read_any(LIBRARY / "cat.yaml")[0]
    assert isinstance(cat, Puzzle) and cat.solution is not None
    rows = [list(r) for r in cat.solution]
    rows[0][0] = "#" if rows[0][0] == "." else "."
    changed = Puzzle.from_picture(["".join(r) for r in rows][::-1], Metadata(title="Cat 2"))
    (tmp_path / "cat2.yaml").write_bytes(write(changed, "yaml"))
    insert_pending(catalogue, read_tasks([LIBRARY / "cat.yaml", tmp_path / "cat2.yaml"],
                                         30.0).tasks)
    pairs = duplicates(catalogue, near=2)
    assert [(p.first.title, p.second.title, p.cells) for p in pairs] in (
        [("Cat", "Cat 2", 1)], [("Cat 2", "Cat", 1)])


def test_add_grades_both_kinds_and_find_filters(catalogue: Catalogue) -> None:
    files = [str(LIBRARY / n) for n in ("heart.yaml", "house.yaml", "cat.yaml",
                                        "loaded-die.yaml", "clock.yaml")]
    files.append(str(LIBRARY / "colour" / "ladybird.yaml"))
    summary = add_files(catalogue, files, ImportOptions(jobs=1, timeout_s=30, tags=("test",)))
    assert (summary.read, summary.added, summary.graded) == (6, 6, 6)
    entries = {e.title: e for e in find(catalogue)}
    assert entries["Ladybird"].kind == "colour" and entries["Ladybird"].level == "easy"
    assert entries["Loaded Die"].verdict == "multiple" and entries["Loaded Die"].score is None
    assert entries["Alarm Clock"].level == "hard" and entries["Heart"].tags == ("test",)
    assert all(e.minutes for e in entries.values() if e.score is not None)
    small = find(catalogue, Filters(widths=(1, 7), heights=(1, 7)))
    assert {e.title for e in small} == {"Heart", "House"}
    assert {e.title for e in find(catalogue, Filters(kind="colour"))} == {"Ladybird"}
    assert {e.title for e in find(catalogue, Filters(levels=("hard",)))} == {"Alarm Clock"}
    heart = entries["Heart"].minutes
    assert heart is not None
    assert "Heart" in {e.title for e in find(catalogue, Filters(minutes=(heart, heart)))}
    again = add_files(catalogue, files, ImportOptions(jobs=1, timeout_s=30))
    assert (again.added, again.graded) == (0, 0)
    heart_again = get(catalogue, str(entries["Heart"].id)).puzzle()
    assert heart_again == read_any(LIBRARY / "heart.yaml")[0]  # clues, solution, metadata


def _random_puzzles(folder: Path, count: int, size: int = 20) -> list[str]:
    rng = np.random.default_rng(37)
    keys = []
    for number in range(count):
        picture = rng.random((size, size)) < 0.55
        puzzle = Puzzle.from_picture(picture, Metadata(title=f"Random {number}"))
        (folder / f"r{number:03d}.yaml").write_bytes(write(puzzle, "yaml"))
        keys.append(puzzle.key())
    return keys


def _count(url: str, where: str = "") -> int:
    with open_catalogue(url) as opened, opened.reading() as connection:
        return int(connection.execute(sa.text(f"SELECT count(*) FROM puzzles {where}"))
                   .scalar_one())


def test_an_import_killed_with_sigkill_resumes_with_every_puzzle_once(
        db_url: str, tmp_path: Path) -> None:
    folder = tmp_path / "stock"
    folder.mkdir()
    keys = _random_puzzles(folder, 120)  # more than a group of grades, more than a second
    command = [sys.executable, "-m", "nonopress", "library", "--db", db_url, "add",
               str(folder), "-j", "1", "--timeout", "20"]
    child = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 240
    graded = 0
    while time.monotonic() < deadline and child.poll() is None:
        try:
            graded = _count(db_url, "WHERE status <> 'pending'")
        except Exception:  # the schema is not there yet
            graded = 0
        if graded >= 2:
            break
        time.sleep(0.02)
    child.send_signal(signal.SIGKILL)
    child.wait()
    pending = _count(db_url, "WHERE status = 'pending'")
    assert graded >= 2 and pending > 0, "the import finished before it could be killed"
    done = subprocess.run(command, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    with open_catalogue(db_url) as opened, opened.reading() as connection:
        stored = connection.execute(sa.select(schema.puzzles.c.key,
                                              schema.puzzles.c.status)).all()
    assert sorted(k for k, _ in stored) == sorted(keys)  # every puzzle, once
    assert {status for _, status in stored} <= {"graded", "undecided"}


def test_two_editors_adding_the_same_stock_at_once_store_each_puzzle_once(
        db_url: str, tmp_path: Path) -> None:
    folder = tmp_path / "stock"
    folder.mkdir()
    keys = _random_puzzles(folder, 24, size=10)
    open_catalogue(db_url).close()  # the schema first: both then race on the puzzles only
    command = [sys.executable, "-m", "nonopress", "library", "--db", db_url, "add",
               str(folder), "-j", "1", "--timeout", "20"]
    editors = [subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                text=True) for _ in range(2)]
    for editor in editors:
        _, err = editor.communicate(timeout=600)
        assert editor.returncode == 0, err
    with open_catalogue(db_url) as opened, opened.reading() as connection:
        stored = connection.execute(sa.select(schema.puzzles.c.key,
                                              schema.puzzles.c.status)).all()
    assert sorted(k for k, _ in stored) == sorted(keys)
    assert {status for _, status in stored} <= {"graded", "undecided"}


def _stock_for_picking(catalogue: Catalogue, count: int) -> None:
    """``count`` graded easy puzzles, without grading (the picker only reads columns)."""
    rows = [{"key": f"{n:024x}", "kind": "bw", "shape_key": f"s{n:019x}", "width": 15,
             "height": 15, "colours": 1, "title": f"P{n}", "author": "", "copyright": "",
             "licence": "", "source": "", "file": "x.yaml", "file_index": 1,
             "puzzle": "", "status": "graded", "verdict": "unique", "level": "easy",
             "score": n / count, "stars": 1, "problem": "", "added_at": "2026"}
            for n in range(count)]
    with catalogue.writing() as connection:
        connection.execute(schema.puzzles.insert(), rows)


def test_two_concurrent_pickers_never_double_book(catalogue: Catalogue, db_url: str) -> None:
    _stock_for_picking(catalogue, 60)
    request = PickRequest(levels={"easy": LevelWant(6)}, seed=1)
    results: dict[str, list[int]] = {}
    errors: list[BaseException] = []
    start = threading.Barrier(8)

    def picker(issue: str) -> None:
        with open_catalogue(db_url) as own:
            start.wait()
            try:
                results[issue] = [e.id for e in pick(own, request, issue)]
            except BaseException as exc:
                errors.append(exc)

    threads = [threading.Thread(target=picker, args=(f"issue {n}",)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    assert not errors, errors
    assert all(len(ids) == 6 for ids in results.values())
    everything = [i for ids in results.values() for i in ids]
    assert len(everything) == len(set(everything)) == 6 * len(results)
    assert len(results) == 8 - len(errors)
    with catalogue.reading() as connection:
        booked = connection.execute(sa.select(schema.bookings.c.puzzle_id)).scalars().all()
    assert sorted(booked) == sorted(everything)


def test_a_pick_is_deterministic_with_its_seed_and_refuses_when_stock_runs_out(
        catalogue: Catalogue) -> None:
    from grader.errors import NonopressError

    _stock_for_picking(catalogue, 20)
    request = PickRequest(levels={"easy": LevelWant(5)}, seed=3)
    first = [e.key for e in pick(catalogue, request, "A", book=False)]
    assert first == [e.key for e in pick(catalogue, request, "B", book=False)]
    other = [e.key for e in pick(catalogue, PickRequest(levels={"easy": LevelWant(5)}, seed=4),
                                 "C", book=False)]
    assert other != first
    scores = [e.score for e in pick(catalogue, request, "A")]
    assert scores == sorted(scores)  # the rising curve
    with pytest.raises(NonopressError, match="not enough free puzzles"):
        pick(catalogue, PickRequest(levels={"easy": LevelWant(16)}), "D")


MANIFEST = """\
# an issue from the catalogue
title: Test Monthly
issue: 1
date: 2026-12-01
from_library:
  levels: {easy: 3, hard: 1}
  sizes: 5x5..30x30
  unused_for: 12
  seed: 5
"""


def test_an_issue_filled_from_the_catalogue_rebuilds_exactly_and_records_its_printing(
        db_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    names = ("heart.yaml", "house.yaml", "cat.yaml", "mug.yaml", "clock.yaml", "umbrella.yaml")
    assert main(["library", "--db", db_url, "add", *(str(LIBRARY / n) for n in names),
                 "-j", "1"]) == 0
    manifest = tmp_path / "issue.yaml"
    manifest.write_text(MANIFEST, encoding="utf-8")
    out = tmp_path / "one.pdf"
    assert main(["issue", str(manifest), "-o", str(out), "--db", db_url, "-q"]) == 0
    written = manifest.read_text(encoding="utf-8")
    assert written.startswith("# an issue from the catalogue\n") and "chosen:" in written
    chosen = sorted((tmp_path / "issue-puzzles").glob("*.yaml"))
    assert len(chosen) == 4
    titles = [read_any(p)[0].title for p in chosen]
    assert titles[-1] == "Alarm Clock"  # the hard one last: the rising curve
    again = tmp_path / "two.pdf"
    assert main(["issue", str(manifest), "-o", str(again), "--db", db_url, "-q"]) == 0
    assert manifest.read_text(encoding="utf-8") == written
    assert out.read_bytes() == again.read_bytes()
    capsys.readouterr()
    assert main(["library", "--db", db_url, "history", _id_of(db_url, "Alarm Clock")]) == 0
    shown = capsys.readouterr().out
    assert "Test Monthly 1, no. 4" in shown and "page" in shown
    # printing a printed puzzle in another issue warns, naming the earlier issue
    other = tmp_path / "other.yaml"
    other.write_text(f"title: Other\nissue: 9\npuzzles:\n  - {chosen[0]}\n", encoding="utf-8")
    assert main(["issue", str(other), "-o", str(tmp_path / "o.pdf"), "--db", db_url,
                 "-q"]) == 0
    assert "was printed in Test Monthly 1 (2026-12-01)" in capsys.readouterr().err
    # and it is no longer free for an issue that wants puzzles unused for 12 issues
    fresh = tmp_path / "fresh.yaml"
    fresh.write_text(MANIFEST.replace("issue: 1", "issue: 2").replace("hard: 1", "hard: 0"),
                     encoding="utf-8")
    assert main(["issue", str(fresh), "-o", str(tmp_path / "f.pdf"), "--db", db_url,
                 "-q"]) == 2
    assert "not enough free puzzles" in capsys.readouterr().err


def _id_of(url: str, title: str) -> str:
    with open_catalogue(url) as opened:
        return str(next(e.id for e in find(opened) if e.title == title))


def test_export_and_import_move_stock_and_history(db_url: str, tmp_path: Path) -> None:
    first = str(tmp_path / "first.sqlite")
    assert main(["library", "--db", first, "add", str(LIBRARY / "heart.yaml"),
                 str(LIBRARY / "house.yaml"), "--tag", "love", "-j", "1"]) == 0
    with open_catalogue(first) as opened:
        from nonopress.catalogue import Printed, record_printings

        record_printings(opened, "Old issue", [Printed(read_any(LIBRARY / "heart.yaml")[0], 1)])
    dump = tmp_path / "stock.jsonl"
    assert main(["library", "--db", first, "export", "-o", str(dump)]) == 0
    assert main(["library", "--db", db_url, "import", str(dump)]) == 0
    assert main(["library", "--db", db_url, "import", str(dump)]) == 0  # nothing twice
    with open_catalogue(db_url) as opened:
        entries = find(opened, Filters(tags=("love",)))
        assert sorted(e.title for e in entries) == ["Heart", "House"]
        assert all(e.status == "graded" for e in entries)
        printed = find(opened, Filters(never_printed=True))
        assert [e.title for e in printed] == ["House"]


def test_a_bad_database_or_export_is_one_line_and_status_2(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["library", "--db", str(tmp_path / "none.sqlite"), "find"]) == 2
    assert "no catalogue here" in capsys.readouterr().err
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"format": "nonopress-catalogue", "version": 1}\nnot json\n')
    assert main(["library", "--db", str(tmp_path / "c.sqlite"), "import", str(bad)]) == 2
    err = capsys.readouterr().err
    assert str(bad) in err and ":2" in err and len(err.strip().splitlines()) == 1
    assert main(["library", "--db", "mysql://x/y", "find"]) == 2


@pytest.mark.parametrize("option", [["--timeout", "-5"], ["--timeout", "0"], ["--jobs", "-3"]])
def test_library_add_refuses_the_budgets_batch_refuses(
        tmp_path: Path, option: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    """``library add`` grades through the batch machinery and takes batch's options, checked
    the same way (it once took a negative --timeout and graded with it)."""
    db = str(tmp_path / "c.sqlite")
    try:
        status = main(["library", "--db", db, "add", str(LIBRARY / "heart.yaml"), *option])
    except SystemExit as exc:  # argparse refuses the value itself
        status = int(exc.code or 0)
    assert status == 2
    assert option[0] in capsys.readouterr().err


def test_the_migrations_build_the_schema_the_queries_are_written_against(
        catalogue: Catalogue) -> None:
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    with catalogue.engine.connect() as connection:
        context = MigrationContext.configure(connection, opts={
            "version_table": "catalogue_version"})
        differences = compare_metadata(context, schema.metadata)
    assert differences == []
    with open_catalogue(catalogue.url):  # opening again migrates nothing and loses nothing
        pass


def test_printing_a_mirror_image_of_a_printed_puzzle_warns(catalogue: Catalogue) -> None:
    from nonopress.catalogue import Printed, earlier_printings, record_printings

    owl = read_any(LIBRARY / "owl.yaml")[0]
    assert isinstance(owl, Puzzle) and owl.solution is not None
    turned = np.rot90(np.array([list(row) for row in owl.solution]))  # the owl on its side
    mirrored = Puzzle.from_picture(["".join(row) for row in turned[:, ::-1]],
                                   Metadata(title="Night Bird", author="Someone else"))
    assert mirrored.key() != owl.key()
    assert record_printings(catalogue, "Monthly 4", [Printed(owl, 3, 2)],
                            date=dt.date(2026, 4, 1)) == 1
    warnings = earlier_printings(catalogue, [read_any(LIBRARY / "heart.yaml")[0], mirrored],
                                 "Monthly 9")
    assert warnings == ["puzzle 2 (Night Bird) is a duplicate (rotated, mirrored or redrawn) "
                        "of a puzzle printed in Monthly 4 (2026-04-01), page 2"]
    assert earlier_printings(catalogue, [owl], "Monthly 4") == []  # its own issue, rebuilt


def test_the_catalogue_is_named_by_db_then_the_environment_then_a_config_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from nonopress.catalogue.database import DEFAULT_FILE, resolve_location

    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("NONOPRESS_LIBRARY", raising=False)
    assert resolve_location(None) == DEFAULT_FILE
    (tmp_path / ".nonopress-library").write_text("# the team's\npostgresql://u:p@h/db\n")
    assert resolve_location(None) == "postgresql://u:p@h/db"
    monkeypatch.setenv("NONOPRESS_LIBRARY", "team.sqlite")
    assert resolve_location(None) == "team.sqlite"
    assert resolve_location("mine.sqlite") == "mine.sqlite"


def test_a_puzzle_graded_by_another_grader_is_graded_again_on_add(catalogue: Catalogue) -> None:
    from grader.ladder import grader_version

    files = [str(LIBRARY / "heart.yaml"), str(LIBRARY / "colour" / "ladybird.yaml")]
    first = add_files(catalogue, files, ImportOptions(jobs=1, timeout_s=30))
    assert first.graded == 2
    P = schema.puzzles
    with catalogue.reading() as connection:
        assert set(connection.execute(sa.select(P.c.grader)).scalars()) == {grader_version()}
    # as if Heart had been graded with another ladder table (or before the column existed)
    with catalogue.writing() as connection:
        connection.execute(P.update().where(P.c.title == "Heart").values(grader=None))
    again = add_files(catalogue, files, ImportOptions(jobs=1, timeout_s=30))
    assert (again.added, again.graded) == (0, 1)
    with catalogue.reading() as connection:
        rows = connection.execute(sa.select(P.c.title, P.c.status, P.c.grader)).all()
    assert sorted(rows) == [("Heart", "graded", grader_version()),
                            ("Ladybird", "graded", grader_version())]
    assert add_files(catalogue, files, ImportOptions(jobs=1, timeout_s=30)).graded == 0


def test_a_catalogue_of_the_first_revision_is_migrated_keeping_its_puzzles(
        db_url: str) -> None:
    from alembic import command
    from alembic.config import Config

    with open_catalogue(db_url) as opened:  # the newest schema, taken back to the first
        config = Config()
        config.set_main_option("script_location", "nonopress.catalogue:migrations")
        with opened.engine.connect() as connection, connection.begin():
            config.attributes["connection"] = connection
            command.downgrade(config, "0001")
        with opened.writing() as connection:
            connection.execute(sa.text(
                "INSERT INTO puzzles (key, kind, width, height, colours, title, author, "
                "copyright, licence, source, file, file_index, puzzle, status, problem, "
                "added_at, score) VALUES ('k', 'bw', 1, 1, 1, 'Old', '', '', '', '', 'f', 1, "
                "'x', 'graded', '', '2025-01-01T00:00:00Z', 1.5)"))
    with open_catalogue(db_url) as opened, opened.reading() as connection:
        rows = connection.execute(sa.text("SELECT title, score, grader FROM puzzles")).all()
    assert [tuple(r) for r in rows] == [("Old", 1.5, None)]


def test_library_find_shows_tenths_under_a_minute(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tiny_folder(tmp_path)
    db = str(tmp_path / "c.sqlite")
    assert main(["library", "add", str(folder), "--db", db, "-j", "1"]) == 0
    capsys.readouterr()
    assert main(["library", "find", "--db", db]) == 0
    rows = [line.split() for line in capsys.readouterr().out.splitlines()[1:]]
    minutes = [row[6] for row in rows]  # id kind size level score stars min title
    assert minutes and all(m.startswith("0.") for m in minutes), rows
