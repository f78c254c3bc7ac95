"""The held-out rule: puzzles whose id ends in 7 are never read by a fitting script (a fit
run on a folder made here opens none of them), and the check of a fit reads only them."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from bench_support import bench_module

from grader import formats
from grader.model import Puzzle

ROOT = Path(__file__).resolve().parents[1]


held_out = bench_module("held_out")
calibrate_human = bench_module("calibrate_human")
calibrate_times = bench_module("calibrate_times")

#: every file opened while a test watches (an audit hook cannot be removed: it only
#: records while a list is set here)
_OPENED: list[list[str]] = []


def _audit(event: str, args: tuple[object, ...]) -> None:
    if event == "open" and _OPENED and isinstance(args[0], (str, Path)):
        _OPENED[-1].append(str(args[0]))


sys.addaudithook(_audit)


@contextmanager
def watching() -> Iterator[list[str]]:
    """The paths opened inside the block."""
    seen: list[str] = []
    _OPENED.append(seen)
    try:
        yield seen
    finally:
        _OPENED.remove(seen)


def test_the_rule_is_the_last_digit_of_the_id() -> None:
    assert held_out.held_out(98947) and held_out.held_out("7") and held_out.held_out("1007")
    assert not held_out.held_out(98946) and not held_out.held_out("70")
    assert not held_out.held_out(None) and not held_out.held_out("b7")
    assert held_out.file_id(Path("98947_Holly__Berries.non")) == 98947
    assert held_out.file_id(Path("Holly.non")) is None


def test_the_refit_on_real_solves_asks_the_same_rule() -> None:
    from grader.held_out import held_out as rule
    from nonopress.solves.refit import held_out as refit_held_out

    for name in ("98947_Holly.non", "1234.non", "17_a.non", "170_b.non"):
        number = held_out.file_id(Path(name))
        assert refit_held_out("key", name) == rule(number) == held_out.held_out_path(Path(name))


PICTURES = (["#.#", ".#.", "#.#"], ["##.", ".##", "..#"], ["###", "#..", "#.."],
            [".#.", "###", ".#."])


def scrape(folder: Path, ids: range, extra: str) -> list[Path]:
    """A folder shaped like the scrape: ``<id>_<title>.non`` with an ``id`` line and the
    site's figure (``extra``) in each file."""
    paths = []
    for number in ids:
        picture = PICTURES[number % len(PICTURES)]
        text = formats.write([Puzzle.from_picture(picture)], "non").decode()
        path = folder / ("sub" if number % 2 else "") / f"{number}_Puzzle.non"
        path.parent.mkdir(exist_ok=True)
        path.write_text(f"id {number}\n{extra}\n{text}")
        paths.append(path)
    return paths


def test_a_time_fit_never_opens_a_held_out_file(tmp_path: Path) -> None:
    folder = tmp_path / "griddlers"
    folder.mkdir()
    paths = scrape(folder, range(100, 124), 'medium_time "0:01:30"')
    held = {str(p) for p in paths if p.name.split("_")[0].endswith("7")}
    assert len(held) == 2
    # a file whose name hides the id: its id line keeps it out once read
    renamed = folder / "Renamed.non"
    renamed.write_text(paths[0].read_text().replace("id 100", "id 2027"))
    with watching() as opened:
        status = calibrate_times.main([str(folder), "--out", str(tmp_path / "out"), "--all",
                                       "--grade-only"])
    assert status == 0
    read = {path for path in opened if path.endswith(".non")}
    assert read and not read & held
    store = tmp_path / "out" / "steps.sqlite"
    import sqlite3

    graded = sqlite3.connect(store).execute("SELECT count(*) FROM logs").fetchone()[0]
    assert graded == len(PICTURES)  # one row a distinct puzzle
    assert str(renamed) in read  # read for its id line, and then left out
    timed = calibrate_times.find_timed(folder)
    assert {str(t.path) for t in timed} == {str(p) for p in paths} - held  # not renamed
    checked = calibrate_times.find_timed(folder, held=True)
    assert {str(t.path) for t in checked} == held


def test_a_vote_fit_never_opens_a_held_out_file(tmp_path: Path) -> None:
    paths = scrape(tmp_path, range(1, 40), "difficulty 2.5")
    held = {str(p) for p in paths if p.name.split("_")[0].endswith("7")}
    with watching() as opened:
        rated = calibrate_human.find_rated(tmp_path)
    assert {str(r.path) for r in rated} == {str(p) for p in paths} - held
    assert not {path for path in opened if path.endswith(".non")} & held
