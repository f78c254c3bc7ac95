"""``nonopress batch`` on mosaics: a folder of mosaic files (YAML and kohend/simon-puzzles
game IDs) graded beside nonograms, each puzzle once, and resumable after kill -9 as the
black-and-white batch is."""

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

from grader import formats as bw_formats
from grader.mosaic import formats
from grader.mosaic_model import MosaicPuzzle
from nonopress.batch.rows import ResultRow
from nonopress.batch.run import BatchOptions, run_batch
from nonopress.batch.store import ResultStore

ROOT = Path(__file__).resolve().parents[1]
BUNDLED = ROOT / "puzzles" / "mosaic"


def random_mosaics(count: int, side: int, seed: int) -> list[MosaicPuzzle]:
    """Mosaics of random pictures with most clues shown: some unique, some ambiguous."""
    rng = np.random.default_rng(seed)
    found = []
    for i in range(count):
        picture = rng.random((side, side)) < 0.5
        shown = rng.random((side, side)) < 0.8
        puzzle = MosaicPuzzle(MosaicPuzzle.from_picture(picture, shown).clues)
        found.append(puzzle.with_meta(title=f"random {seed}-{i}"))
    return found


def stored(out: Path) -> list[ResultRow]:
    with ResultStore.open_existing(out) as store:
        assert store.integrity_ok()
        return list(store.rows())


def test_a_folder_of_mosaics_and_nonograms_is_graded_once_and_a_rerun_skips_it(
        tmp_path: Path) -> None:
    folder = tmp_path / "in"
    folder.mkdir()
    (heart,) = formats.read(BUNDLED / "heart.yaml")
    (folder / "heart.yaml").write_bytes(formats.write([heart], "yaml"))
    bundle = random_mosaics(4, 8, seed=3)
    (folder / "four.mosaic").write_bytes(formats.write(bundle, "tatham"))  # game IDs
    (house,) = bw_formats.read_any(ROOT / "puzzles" / "house.yaml")
    (folder / "house.yaml").write_bytes(bw_formats.write([house], "yaml"))
    options = BatchOptions(paths=(str(folder),), out=tmp_path / "out", jobs=1)
    log = io.StringIO()
    run_batch(options, log=log, tty=False)
    assert "6 puzzles in 3 files; 0 already done, 6 to grade" in log.getvalue()
    rows = {row.key: row for row in stored(tmp_path / "out")}
    assert set(rows) == {p.key() for p in (heart, *bundle, house)}
    mine = rows[heart.key()]
    assert (mine.status, mine.verdict) == ("graded", "unique")
    assert mine.level and mine.stars and mine.rungs
    assert mine.solution == tuple(heart.solution or ())
    assert mine.palette == {}  # '#'/'.' rows draw without a palette, as black and white's
    for puzzle in bundle:
        row = rows[puzzle.key()]
        assert row.status == "graded" and row.verdict in ("unique", "multiple"), row
        if row.verdict == "multiple":  # a defect is not a difficulty
            assert row.score is None and row.stars is None and row.error
    again = io.StringIO()
    run_batch(options, log=again, tty=False)
    assert "6 already done, 0 to grade" in again.getvalue()
    assert len(stored(tmp_path / "out")) == 6


def _count_rows(database: Path) -> int:
    if not database.exists():
        return 0
    try:
        with sqlite3.connect(database, timeout=0.2) as db:
            return int(db.execute("SELECT count(*) FROM results").fetchone()[0])
    except sqlite3.OperationalError:
        return 0


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="uses SIGKILL")
def test_sigkill_mid_run_of_mosaics_and_a_rerun_completes_each_once(tmp_path: Path) -> None:
    total = 30
    folder = tmp_path / "in"
    folder.mkdir()
    puzzles = random_mosaics(total, 14, seed=54)
    for i, puzzle in enumerate(puzzles[:10]):
        (folder / f"m{i:02d}.yaml").write_bytes(formats.write([puzzle], "yaml"))
    (folder / "rest.mosaic").write_bytes(formats.write(puzzles[10:], "tatham"))
    out = tmp_path / "out"
    database = out / "results.sqlite"
    command = [sys.executable, "-m", "nonopress", "batch", str(folder), "--out", str(out),
               "--jobs", "1", "--timeout", "20"]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    process = subprocess.Popen(command, cwd=ROOT, env=env, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 240
    while _count_rows(database) < 3 and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.01)
    process.send_signal(signal.SIGKILL)
    process.wait()
    partial = _count_rows(database)
    assert 3 <= partial < total, f"the batch finished {partial} puzzles before the kill"
    rerun = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True,
                           timeout=600)
    assert rerun.returncode in (0, 1), rerun.stderr  # 1: some random mosaics are ambiguous
    assert (f"{total} puzzles in 11 files; {partial} already done, {total - partial} to grade"
            in rerun.stderr)
    with sqlite3.connect(database) as db:
        assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        rows = db.execute("SELECT key, status, verdict FROM results").fetchall()
    assert sorted(key for key, *_ in rows) == sorted(p.key() for p in puzzles)
    assert all(status == "graded" and verdict in ("unique", "multiple")
               for _, status, verdict in rows)
