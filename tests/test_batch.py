"""``nonopress batch``: every puzzle graded once, resumable after kill -9, crashes recorded."""

from __future__ import annotations

import io
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from grader import formats
from grader.ladder import grader_version
from grader.model import Metadata, Puzzle
from nonopress.batch.discover import find_puzzle_files, known_suffixes, read_tasks
from nonopress.batch.pool import run_pool
from nonopress.batch.progress import Progress
from nonopress.batch.rows import ResultRow, Task
from nonopress.batch.run import BatchOptions, run_batch
from nonopress.batch.store import ResultStore
from nonopress.batch.worker import grade_one
from nonopress.cli import main

ROOT = Path(__file__).resolve().parents[1]


def random_puzzles(count: int, size: int, seed: int) -> list[Puzzle]:
    rng = np.random.default_rng(seed)
    return [
        Puzzle.from_picture(rng.random((size, size)) < 0.6, Metadata(title=f"random {seed}-{i}"))
        for i in range(count)
    ]


def write_archive(folder: Path, *, singles: int = 6, bundle: int = 4, size: int = 8) -> set[str]:
    """Single-puzzle .non files, one .yaml bundle and a README; the puzzles' keys."""
    folder.mkdir(parents=True, exist_ok=True)
    puzzles = random_puzzles(singles + bundle, size, seed=size)
    for i, puzzle in enumerate(puzzles[:singles]):
        (folder / f"p{i:03d}.non").write_bytes(formats.write([puzzle], "non"))
    if bundle:
        (folder / "sub").mkdir(exist_ok=True)
        (folder / "sub" / "bundle.yaml").write_bytes(formats.write(puzzles[singles:], "yaml"))
    (folder / "README.md").write_text("not a puzzle\n")
    return {p.key() for p in puzzles}


def stored(out: Path) -> list[ResultRow]:
    with ResultStore.open_existing(out) as store:
        assert store.integrity_ok()
        return list(store.rows())


def run_quietly(options: BatchOptions, **kwargs: object) -> str:
    log = io.StringIO()
    run_batch(options, log=log, tty=False, **kwargs)  # type: ignore[arg-type]
    return log.getvalue()


# -- discovery ---------------------------------------------------------------------------


def test_discovery_finds_puzzle_files_by_suffix_and_skips_the_rest(tmp_path: Path) -> None:
    write_archive(tmp_path, singles=2, bundle=3)
    (tmp_path / ".hidden").mkdir()
    (tmp_path / ".hidden" / "x.non").write_bytes((tmp_path / "p000.non").read_bytes())
    (tmp_path / "notes.txt").write_text("Some notes about these puzzles.\n")
    (puzzle,) = random_puzzles(1, 5, seed=2)
    (tmp_path / "taai.txt").write_bytes(formats.write([puzzle], "taai"))  # .txt: sniffed
    manifest = tmp_path / "issue.yaml"  # lists puzzle files: not a puzzle file itself
    manifest.write_text("title: Monthly\npuzzles:\n  - p000.non\n  - file: p001.non\n")
    files = find_puzzle_files([tmp_path, tmp_path / "p000.non"], known_suffixes())
    assert [f.relative_to(tmp_path).as_posix() for f in files] == [
        "p000.non",
        "p001.non",
        "taai.txt",
        "sub/bundle.yaml",
    ]
    found = read_tasks(files, timeout_s=5)
    assert [(Path(t.file).name, t.index) for t in found.tasks] == [
        ("p000.non", 1),
        ("p001.non", 1),
        ("taai.txt", 1),
        ("bundle.yaml", 1),
        ("bundle.yaml", 2),
        ("bundle.yaml", 3),
    ]
    # Named on the command line, a manifest is read, and fails with the reader's hint.
    (failed,) = read_tasks(find_puzzle_files([manifest], known_suffixes()), 5).unreadable
    assert "an issue manifest?" in (failed.error or "")


def test_a_missing_path_is_a_clear_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "nowhere"
    assert main(["batch", str(missing), "--out", str(tmp_path / "out")]) == 2
    assert f"{missing}: no such file or folder" in capsys.readouterr().err


def test_a_folder_without_puzzles_is_a_clear_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "notes.md").write_text("nothing here\n")
    assert main(["batch", str(tmp_path), "--out", str(tmp_path / "out")]) == 2
    assert "no puzzle files found" in capsys.readouterr().err


# -- grading, resume, failures -----------------------------------------------------------


def test_batch_grades_every_puzzle_once_and_a_rerun_skips_them(tmp_path: Path) -> None:
    keys = write_archive(tmp_path / "in")
    (tmp_path / "in" / "broken.non").write_text("width 3\nheight x\n")
    options = BatchOptions(paths=(str(tmp_path / "in"),), out=tmp_path / "out", jobs=2)
    log = run_quietly(options)
    assert "11 puzzles in 8 files; 0 already done, 10 to grade" in log

    rows = {row.key: row for row in stored(tmp_path / "out")}
    assert set(rows) - keys == {next(k for k in rows if k.startswith("unreadable-"))}
    broken = next(r for r in rows.values() if r.file.endswith("broken.non"))
    assert broken.status == "failed"
    assert "broken.non:2" in broken.error
    for key in keys:
        row = rows[key]
        assert row.status == "graded", row
        assert row.verdict in ("unique", "multiple")
        if row.verdict == "unique":
            assert row.level and row.score is not None and row.stars is not None
        else:  # a defect is not a difficulty: no score, no stars, and what is wrong
            assert (row.level, row.score, row.stars) == ("ambiguous", None, None)
            assert row.error.startswith("several solutions: two of them differ in")
        assert row.solution is not None and len(row.solution) == 8
        if row.verdict == "unique":  # a unique puzzle's grid is its picture
            assert set("".join(row.solution)) <= {"#", "."}

    again = run_quietly(options)
    assert "11 already done, 0 to grade" in again
    assert len(stored(tmp_path / "out")) == len(rows)


def test_a_fixed_file_is_read_again_and_its_failure_forgotten(tmp_path: Path) -> None:
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "p.non").write_text("width 3\nheight x\n")
    options = BatchOptions(paths=(str(folder),), out=tmp_path / "out", jobs=1)
    run_quietly(options)
    assert [r.status for r in stored(tmp_path / "out")] == ["failed"]

    (puzzle,) = random_puzzles(1, 6, seed=3)
    (folder / "p.non").write_bytes(formats.write([puzzle], "non"))
    run_quietly(options)
    (row,) = stored(tmp_path / "out")
    assert (row.key, row.status) == (puzzle.key(), "graded")


def _boom(task: Task) -> ResultRow:
    if task.index == 2:
        raise RuntimeError("grader bug")
    return grade_one(task)


def test_a_puzzle_that_raises_is_recorded_failed_and_retried_on_request(tmp_path: Path) -> None:
    write_archive(tmp_path / "in", singles=1, bundle=3)
    options = BatchOptions(paths=(str(tmp_path / "in"),), out=tmp_path / "out", jobs=2)
    run_quietly(options, work=_boom)
    statuses = {(Path(r.file).name, r.index): (r.status, r.error) for r in stored(options.out)}
    assert statuses[("bundle.yaml", 2)] == ("failed", "RuntimeError: grader bug")
    assert statuses[("bundle.yaml", 1)][0] == "graded"

    assert "4 already done" in run_quietly(options)  # failures count as done ...
    log = run_quietly(BatchOptions(**{**options.__dict__, "retry_failed": True}))
    assert "3 already done, 1 to grade" in log  # ... unless asked to retry them
    assert {r.status for r in stored(options.out)} == {"graded"}


def test_grade_one_turns_an_exception_into_a_failed_row(monkeypatch: pytest.MonkeyPatch) -> None:
    import grader.grading

    def broken(*args: object, **kwargs: object) -> None:
        raise ValueError("no luck")

    monkeypatch.setattr(grader.grading, "grade", broken)
    (puzzle,) = random_puzzles(1, 5, seed=1)
    row = grade_one(Task(puzzle.key(), "f.non", 1, "", puzzle, 5.0))
    assert row.status == "failed"
    assert row.error.startswith("ValueError: no luck")
    assert (row.width, row.height) == (5, 5)


def _tasks(count: int) -> list[Task]:
    return [
        Task(p.key(), "x.yaml", i, "", p, 5.0) for i, p in enumerate(random_puzzles(count, 6, 9))
    ]


def _quick(task: Task) -> ResultRow:
    """A stand-in for grading: these tests are about the pool, not the grader."""
    return ResultRow(task.key, task.file, task.index, task.title, "graded", verdict="unique")


def _crash_on_second(task: Task) -> ResultRow:
    if task.index == 1:
        os._exit(3)
    return _quick(task)


def test_a_worker_that_dies_is_recorded_against_its_puzzle_and_replaced() -> None:
    rows: list[ResultRow] = []
    run_pool(_tasks(6), rows.append, jobs=2, work=_crash_on_second, hard_limit_s=60)
    by_index = {row.index: row for row in rows}
    assert sorted(by_index) == list(range(6))
    assert by_index[1].status == "failed"
    assert by_index[1].error == "worker process exited with status 3"
    assert all(by_index[i].status == "graded" for i in (0, 2, 3, 4, 5))


def _hang_on_third(task: Task) -> ResultRow:
    if task.index == 2:
        time.sleep(3600)  # ignores every budget: only the hard limit can stop it
    return _quick(task)


def test_a_worker_past_the_hard_limit_is_stopped_and_recorded_undecided() -> None:
    rows: list[ResultRow] = []
    started = time.monotonic()
    run_pool(_tasks(5), rows.append, jobs=2, work=_hang_on_third, hard_limit_s=3)
    assert time.monotonic() - started < 60
    by_index = {row.index: row for row in rows}
    assert sorted(by_index) == list(range(5))
    assert by_index[2].status == "undecided"
    assert "hard limit of 3 s" in by_index[2].error
    assert all(by_index[i].status == "graded" for i in (0, 1, 3, 4))


# -- kill -9 in the middle of a run --------------------------------------------------------


def _count_rows(database: Path) -> int:
    if not database.exists():
        return 0
    try:
        with sqlite3.connect(f"{database.as_uri()}?mode=ro", uri=True, timeout=5) as db:
            return int(db.execute("SELECT count(*) FROM results").fetchone()[0])
    except sqlite3.Error:
        return 0  # created but no table yet


def _children(pid: int) -> list[int]:
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        text = (task / "children").read_text() if (task / "children").exists() else ""
        found.extend(int(child) for child in text.split())
    return found


def _alive(pid: int) -> bool:
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except FileNotFoundError:
        return False
    return "State:\tZ" not in status


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="uses /proc and SIGKILL")
def test_sigkill_mid_run_loses_only_puzzles_in_flight_and_a_rerun_completes(
    tmp_path: Path,
) -> None:
    total = 40
    keys = write_archive(tmp_path / "in", singles=total - 20, bundle=20, size=15)
    out = tmp_path / "out"
    database = out / "results.sqlite"
    command = [sys.executable, "-m", "nonopress", "batch", str(tmp_path / "in"), "--out", str(out)]
    command += ["--jobs", "2", "--timeout", "20"]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}

    process = subprocess.Popen(command, cwd=ROOT, env=env, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 240
    while _count_rows(database) < 5 and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.01)
    children_listed = Path(f"/proc/{process.pid}/task/{process.pid}/children").exists()
    workers = _children(process.pid)
    process.send_signal(signal.SIGKILL)
    process.wait()
    partial = _count_rows(database)
    assert 5 <= partial < total, f"the batch finished {partial} puzzles before the kill"

    # Workers die with their parent: nothing keeps grading (or holds the database) after.
    if children_listed:  # kernels built without CONFIG_PROC_CHILDREN cannot tell
        assert workers
    for pid in workers:
        for _ in range(100):
            if not _alive(pid):
                break
            time.sleep(0.05)
        assert not _alive(pid), f"worker {pid} outlived its killed parent"

    with sqlite3.connect(database) as db:
        assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)

    rerun = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert rerun.returncode == 0, rerun.stderr
    assert f"{total} puzzles in 21 files; {partial} already done, {total - partial} to grade" in (
        rerun.stderr
    )
    with sqlite3.connect(database) as db:
        assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        rows = db.execute("SELECT key, status, verdict, score FROM results").fetchall()
    assert sorted(key for key, *_ in rows) == sorted(keys)  # each puzzle exactly once
    # every puzzle graded; a score exactly for those with one solution (random puzzles
    # often have several: a defect, not a difficulty)
    not_graded = [row for row in rows if row[1] != "graded" or not row[2]]
    assert not not_graded
    assert all((row[3] is not None) == (row[2] == "unique") for row in rows)


# -- Dask ----------------------------------------------------------------------------------


def test_a_dask_local_cluster_gives_the_same_results_as_the_process_pool(tmp_path: Path) -> None:
    pytest.importorskip("distributed", reason="Dask distributed is not installed (extra: dask)")
    write_archive(tmp_path / "in", singles=5, bundle=5, size=10)
    paths = (str(tmp_path / "in"),)
    run_quietly(BatchOptions(paths=paths, out=tmp_path / "local", jobs=2))
    log = run_quietly(
        BatchOptions(
            paths=paths, out=tmp_path / "dask", jobs=2, scheduler="local", dask_processes=False
        )
    )
    assert "10 to grade" in log

    def comparable(out: Path) -> dict[str, tuple[object, ...]]:
        return {
            r.key: (
                r.file,
                r.index,
                r.status,
                r.verdict,
                r.level,
                r.score,
                r.stars,
                r.rungs,
                r.steps,
                r.solution,
            )
            for r in stored(out)
        }

    local, dask = comparable(tmp_path / "local"), comparable(tmp_path / "dask")
    assert len(local) == 10
    assert dask == local
    # ... and the same resume behaviour.
    again = run_quietly(
        BatchOptions(paths=paths, out=tmp_path / "dask", scheduler="local", dask_processes=False)
    )
    assert "10 already done, 0 to grade" in again


def _slow_first(task: Task) -> ResultRow:
    if task.index == 0:
        time.sleep(4.5)  # a Dask worker thread cannot be stopped: it sleeps on regardless
    return _quick(task)


def test_dask_futures_past_the_hard_limit_are_recorded_and_queued_ones_wait() -> None:
    pytest.importorskip("distributed", reason="Dask distributed is not installed (extra: dask)")
    from nonopress.batch.dask_runner import connect, run_on_client

    rows: list[ResultRow] = []
    with connect("local", jobs=1, processes=False) as client:
        # One worker thread: the second task queues behind the first and must not time out.
        run_on_client(client, _tasks(2), rows.append, work=_slow_first, hard_limit_s=1.5)
    by_index = {row.index: row for row in rows}
    assert by_index[0].status == "undecided"
    assert "hard limit of 1.5 s; task cancelled" in by_index[0].error
    assert by_index[1].status == "graded"


def test_without_dask_the_scheduler_option_is_a_clear_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    write_archive(tmp_path / "in", singles=1, bundle=0)
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed -> ImportError
    argv = ["batch", str(tmp_path / "in"), "--out", str(tmp_path / "out"), "--scheduler", "local"]
    assert main(argv) == 2
    assert "pip install 'nonopress[dask]'" in capsys.readouterr().err


# -- progress ------------------------------------------------------------------------------


def _row(status: str, verdict: str | None) -> ResultRow:
    return ResultRow("k", "f.non", 1, "", status, verdict=verdict, error="boom")  # type: ignore[arg-type]


def test_progress_draws_a_bar_with_count_rate_and_eta_on_a_terminal() -> None:
    stream = io.StringIO()
    progress = Progress(4, stream, tty=True)
    progress.started -= 10  # as if the first two puzzles took ten seconds
    progress.update(_row("graded", "unique"))
    progress.update(_row("failed", None))
    progress.finish()
    text = stream.getvalue()
    assert "\r[##############--------------] 2/4 puzzles, 0.20/s" in text
    assert "ETA 0:10" in text
    assert "failed: f.non#1: boom\n" in text  # printed above the bar, not into it
    assert text.endswith("\n")


def test_progress_logs_sparse_lines_when_not_on_a_terminal() -> None:
    stream = io.StringIO()
    progress = Progress(3, stream, tty=False, log_every_s=3600)
    for _ in range(3):
        progress.update(_row("graded", "unique"))
    progress.finish()
    assert stream.getvalue() == ""  # nothing to say within the hour, and no bar
    assert progress.by_verdict == {"unique": 3}


def test_a_grade_that_ran_out_of_time_is_undecided_but_keeps_the_proved_verdict() -> None:
    from grader.grading import Grade
    from grader.model import Grid
    from nonopress.batch.worker import row_from_grade

    (puzzle,) = random_puzzles(1, 4, seed=4)
    task = Task(puzzle.key(), "f.non", 1, "", puzzle, 5.0)
    grid = Grid.from_rows(["#?..", "????", "....", "#..#"])
    why = "undecided: the time budget of 5 s ran out before the grade was done"
    outcome = Grade(
        "unique", "undecided", None, None, {"simple-boxes": 3}, (), grid, 5.0, problem=why
    )
    row = row_from_grade(task, outcome, 5.1)
    assert (row.status, row.verdict, row.level) == ("undecided", "unique", "undecided")
    assert (row.score, row.stars) == (None, None)
    assert row.solution == ("#?..", "????", "....", "#..#")
    assert row.error == why
    finished = row_from_grade(task, Grade("unique", "easy", 0.4, 1, {}, (), grid, 0.1), 0.1)
    assert (finished.status, finished.error) == ("graded", "")


# -- results keyed by what made them -----------------------------------------------------

def _batch_cli(paths: list[str], out: Path, ladder: Path | None) -> str:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("NONOPRESS_LADDER", None)
    if ladder is not None:
        env["NONOPRESS_LADDER"] = str(ladder)
    done = subprocess.run(
        [sys.executable, "-m", "nonopress", "batch", *paths, "--out", str(out), "--jobs", "2"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=600,
    )
    assert done.returncode == 0, done.stderr
    return done.stderr


def _grade_scores(paths: list[str], ladder: Path) -> dict[str, float]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "NONOPRESS_LADDER": str(ladder)}
    done = subprocess.run([sys.executable, "-m", "nonopress", "grade", "--json", *paths],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    import json

    items = [json.loads(line) for line in done.stdout.splitlines()]  # one object a puzzle
    return {item["title"]: item["score"] for item in items}


def test_a_resumed_batch_grades_again_what_another_ladder_table_graded(tmp_path: Path) -> None:
    paths = ["puzzles/cat.yaml", "puzzles/colour/ladybird.yaml"]
    out = tmp_path / "out"
    first = _batch_cli(paths, out, None)
    assert "0 already done, 2 to grade" in first
    before = {row.title: row for row in stored(out)}
    assert {row.grader for row in before.values()} == {grader_version()}

    # the same table under another name: the same grader, nothing graded again
    same = tmp_path / "same.yaml"
    same.write_bytes((ROOT / "grader" / "ladder.yaml").read_bytes())
    assert "2 already done, 0 to grade" in _batch_cli(paths, out, same)

    # a heavier extreme-owners step (both kinds use the rung): both rows graded again
    text = (ROOT / "grader" / "ladder.yaml").read_text()
    heavier = tmp_path / "heavier.yaml"
    old_weight = "    weight: 2.5681\n"
    assert text.count(old_weight) == 1
    heavier.write_text(text.replace(old_weight, "    weight: 6.0\n"))
    resumed = _batch_cli(paths, out, heavier)
    assert "0 already done, 2 to grade (2 of them graded before by another grader" in resumed
    after = {row.title: row for row in stored(out)}
    assert len(after) == 2
    assert {row.grader for row in after.values()} != {grader_version()}
    expected = _grade_scores(paths, heavier)
    for title, row in after.items():
        assert row.score == pytest.approx(expected[title], abs=1e-3)
        assert row.score is not None and before[title].score is not None
    assert after["Ladybird"].score != before["Ladybird"].score  # type: ignore[union-attr]
    csv_text = subprocess.run(
        [sys.executable, "-m", "nonopress", "report", str(out), "-f", "csv", "-o", "-"],
        cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True, text=True,
        timeout=120, check=True).stdout
    assert f"{expected['Ladybird']}" in csv_text
    assert "2 already done, 0 to grade" in _batch_cli(paths, out, heavier)


OLD_SCHEMA = """
CREATE TABLE results (key TEXT PRIMARY KEY, file TEXT NOT NULL, idx INTEGER NOT NULL,
    title TEXT NOT NULL, width INTEGER, height INTEGER, status TEXT NOT NULL, verdict TEXT,
    level TEXT, score REAL, stars INTEGER, rungs TEXT NOT NULL, steps INTEGER,
    time_s REAL NOT NULL, error TEXT NOT NULL, solution TEXT, finished_at TEXT NOT NULL);
CREATE TABLE meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);
INSERT INTO meta VALUES ('schema', '1');
INSERT INTO results VALUES ('k1', 'a.non', 1, 'Old', 2, 2, 'graded', 'unique', 'easy', 0.5,
    1, '{"simple-boxes": 4}', 4, 0.1, '', '##\n..', '2025-01-01T00:00:00Z');
INSERT INTO results VALUES ('unreadable-x', 'b.non', 0, '', NULL, NULL, 'failed', NULL,
    NULL, NULL, NULL, '{}', NULL, 0.0, 'cannot read', NULL, '2025-01-01T00:00:00Z');
"""


def test_a_database_of_the_first_schema_is_migrated_and_keeps_its_rows(tmp_path: Path) -> None:
    database = tmp_path / "results.sqlite"
    with sqlite3.connect(database) as db:
        db.executescript(OLD_SCHEMA)
    with ResultStore.open_existing(tmp_path) as store:  # read as it is, nothing changed
        (old,) = [row for row in store.rows() if row.key == "k1"]
    assert (old.score, old.grader, old.minutes, old.palette) == (0.5, "", None, {})
    with ResultStore.create(tmp_path) as store:
        # every row kept; the puzzle graded by an unknown grader is stale, the file not
        assert store.count() == 2
        assert store.stale_keys(grader_version()) == {"k1"}
        assert [row for row in store.rows() if row.key == "k1"] == [old]
    with sqlite3.connect(database) as db:
        assert db.execute("SELECT value FROM meta WHERE name='schema'").fetchone() == ("2",)
        columns = {row[1] for row in db.execute("PRAGMA table_info(results)")}
    assert {"grader", "palette", "minutes"} <= columns


# -- both kinds, end to end ----------------------------------------------------------------

def test_a_folder_of_both_kinds_is_recorded_with_verdicts_and_grades_and_reported(
    tmp_path: Path,
) -> None:
    """The bundled puzzles, black and white beside colour, through batch and report."""
    import base64
    import re
    import shutil

    from PIL import Image

    from grader.kinds import kind_of, read_puzzles
    from grader.results import Budget

    folder = tmp_path / "in"
    (folder / "colour").mkdir(parents=True)
    sources = sorted((ROOT / "puzzles").glob("*.yaml"))
    colours = sorted((ROOT / "puzzles" / "colour").glob("*.yaml"))
    for path in sources:
        shutil.copy(path, folder / path.name)
    for path in colours:
        shutil.copy(path, folder / "colour" / path.name)
    out = tmp_path / "out"
    assert main(["batch", str(folder), "--out", str(out), "--jobs", "2"]) == 0

    rows = {Path(row.file).relative_to(folder).as_posix(): row for row in stored(out)}
    expected_files = {p.name for p in sources} | {f"colour/{p.name}" for p in colours}
    assert set(rows) == expected_files  # every puzzle, each once
    for name, row in rows.items():
        (puzzle,) = read_puzzles(folder / name)
        kind = kind_of(puzzle)
        # the verdict the puzzle's own solver gives, and the grade `grade` gives
        assert row.verdict == kind.solve(2, Budget(seconds=60)).verdict, name
        grade = kind.grade(None, Budget(seconds=60))
        assert (row.status, row.level, row.stars) == ("graded", grade.level, grade.stars), name
        assert row.score == pytest.approx(grade.score) if grade.score is not None \
            else row.score is None
        assert row.palette == ({} if kind.name == "black-and-white" else kind.cell_colours())
    assert rows["loaded-die.yaml"].verdict == "multiple"
    assert sum(row.verdict == "unique" for row in rows.values()) == len(rows) - 1
    assert {rows[f"colour/{p.name}"].level for p in colours} == {"easy"}

    page_file = tmp_path / "report.html"
    assert main(["report", str(out), "-o", str(page_file)]) == 0
    page = page_file.read_text()
    assert f"kind: black-and-white {len(sources)}, colour {len(colours)}" in page
    for row in rows.values():
        assert f"<td>{row.title}</td>" in page
    # the ladybird's thumbnail is painted in its own red and black
    (uri,) = re.findall(r'src="data:image/png;base64,([^"]+)" alt="solution of '
                        r'[^"]*ladybird.yaml"', page)
    image = Image.open(io.BytesIO(base64.b64decode(uri))).convert("RGB")
    assert {(0xD7, 0x26, 0x1E), (0x1A, 0x1A, 0x1A), (255, 255, 255)} == \
        {colour for _, colour in image.getcolors()}
    assert '<span class="colours">2 colours</span>' in page


def test_the_batch_asks_the_puzzle_contract_and_never_the_kind() -> None:
    """batch (and so the catalogue's grading, which runs on it) reads, grades and records
    both kinds through grader.kinds: no module imports the colour house or asks isinstance
    of a puzzle kind."""
    import ast

    kinds = {"Puzzle", "ColourPuzzle", "ColourGrade", "Grade", "AnyPuzzle"}
    for path in sorted((ROOT / "nonopress" / "batch").glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                assert not (node.module or "").startswith("grader.colour"), path.name
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    and node.func.id == "isinstance"):
                target = node.args[1]
                names = target.elts if isinstance(target, ast.Tuple) else [target]
                asked = {getattr(n, "id", getattr(n, "attr", "")) for n in names}
                assert not asked & kinds, (path.name, asked)
