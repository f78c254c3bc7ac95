"""Issue 11, hostile files and hostile places: one regression test per hole that was found.

Every hostile file is made here, small (a sparse file stands for a big one). The fuzz
matrix over every reader and command is in test_hostile_matrix.py.
"""

from __future__ import annotations

import contextlib
import csv
import importlib
import io
import json
import os
import signal
import sqlite3
import stat
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pikepdf
import pytest

from grader import formats, inputs
from grader.atomic import atomic_write
from grader.model import Metadata, Puzzle
from grader.results import Budget
from grader.text import MAX_LINE
from nonopress.batch.export import to_csv
from nonopress.batch.lock import batch_lock
from nonopress.batch.rows import ResultRow
from nonopress.cli import main

HEART = Puzzle.from_picture(
    [".##.##.", "#######", ".#####.", "..###..", "...#..."], Metadata(title="Heart")
)
HEART_YAML = formats.write(HEART, "yaml")
DEEP = 25_000
COMMANDS = ("info", "check", "grade", "solve")


def one_error_line(err: str, *names: str) -> str:
    """The single line a refused input gives: naming the file, bounded, no traceback."""
    lines = err.strip().splitlines()
    assert len(lines) == 1, err[:2000]
    assert "Traceback" not in err
    assert len(lines[0]) <= MAX_LINE
    for name in names:
        assert name in lines[0], lines[0]
    return lines[0]


def run_all(path: Path, capsys: pytest.CaptureFixture[str], *words: str) -> None:
    """Every puzzle command refuses ``path`` with exit 2 and one line naming it."""
    for command in COMMANDS:
        assert main([command, str(path)]) == 2, command
        one_error_line(capsys.readouterr().err, path.name, *words)
    assert main(["convert", str(path), str(path.with_suffix(".out.non"))]) == 2
    one_error_line(capsys.readouterr().err, path.name, *words)


# -- 1. deep nesting ---------------------------------------------------------------------
@pytest.mark.parametrize(
    ("suffix", "text", "line"),
    [
        (".yaml", "title: " + "[" * DEEP + "]" * DEEP + "\nrows: [[1]]\ncolumns: [[1]]\n", 1),
        (".yaml", "rows:\n" + "- " * DEEP + "1\ncolumns: [[1]]\n", 2),
        (".json", '{"title": ' + "[" * DEEP + "]" * DEEP + ', "rows": [[1]]}', 1),
    ],
)
def test_deeply_nested_input_is_one_line_not_a_segfault(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], suffix: str, text: str, line: int
) -> None:
    path = tmp_path / f"deep{suffix}"
    path.write_text(text)
    run_all(path, capsys, f":{line}:", "nested")


# -- 2 and 3: symlink loops and FIFOs in batch folders and as inputs ---------------------
def test_batch_records_symlink_loops_and_never_opens_a_fifo(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "archive"
    folder.mkdir()
    (folder / "heart.yaml").write_bytes(HEART_YAML)
    os.symlink("loop-b.non", folder / "loop-a.non")
    os.symlink("loop-a.non", folder / "loop-b.non")
    os.symlink(".", folder / "itself")  # a folder loop: os.walk does not follow it
    os.mkfifo(folder / "pipe.non")  # nothing writes to it: opening it would block
    status = main(["batch", str(folder), "--out", str(tmp_path / "out"), "--jobs", "1"])
    assert status == 0
    db = sqlite3.connect(tmp_path / "out" / "results.sqlite")
    rows = {Path(f).name: (s, e) for f, s, e in db.execute("SELECT file, status, error "
                                                           "FROM results")}
    assert rows["heart.yaml"][0] == "graded"
    assert rows["loop-a.non"][0] == rows["loop-b.non"][0] == "failed"
    assert "symbolic links" in rows["loop-a.non"][1]
    assert "pipe.non" not in rows


def test_a_fifo_nobody_writes_to_is_refused_after_the_wait(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(inputs, "WAIT_SECONDS", 0.2)
    fifo = tmp_path / "silent.non"
    os.mkfifo(fifo)
    assert main(["info", str(fifo)]) == 2
    one_error_line(capsys.readouterr().err, "silent.non", "FIFO", "nothing wrote")


def test_a_named_fifo_with_a_writer_is_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """What ``nonopress info <(generate)`` hands over: a pipe, named on the command line."""
    fifo = tmp_path / "piped.yaml"
    os.mkfifo(fifo)

    def write() -> None:
        with open(fifo, "wb") as handle:
            handle.write(HEART_YAML)

    writer = threading.Thread(target=write)
    writer.start()
    assert main(["check", str(fifo)]) == 0
    writer.join()
    assert "\tunique\t" in capsys.readouterr().out


def test_folders_and_devices_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["info", str(tmp_path)]) == 2
    one_error_line(capsys.readouterr().err, str(tmp_path), "folder")
    assert main(["info", "/dev/zero"]) == 2  # a device that never ends: the cap ends it
    one_error_line(capsys.readouterr().err, "/dev/zero", "limit")


# -- 4. the size cap, checked before reading -------------------------------------------------
def test_a_file_over_the_cap_is_refused_before_it_is_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    big = tmp_path / "big.non"
    with open(big, "wb") as handle:  # sparse: takes no disk
        handle.truncate(inputs.MAX_INPUT_BYTES + 1)

    def no_reading(*args: object, **kwargs: object) -> None:
        raise AssertionError("the file was opened")

    monkeypatch.setattr(inputs, "read_capped", no_reading)
    run_all(big, capsys, "larger than the input limit")


def test_a_yaml_alias_bomb_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lines = ["l0: &l0 [1, 1, 1, 1, 1, 1, 1, 1, 1]"]
    for level in range(1, 9):
        nine = ", ".join([f"*l{level - 1}"] * 9)
        lines.append(f"l{level}: &l{level} [{nine}]")
    lines += ["rows: *l8", "columns: *l8"]
    path = tmp_path / "bomb.yaml"
    path.write_text("\n".join(lines) + "\n")
    run_all(path, capsys, "aliases expand")


# -- 5. budgets are kept inside the compiled loops ----------------------------------------
def big_random_puzzle(side: int, seed: int = 1) -> Puzzle:
    rng = np.random.default_rng(seed)
    return Puzzle.from_picture(rng.random((side, side)) < 0.5).with_solution(None)


def test_the_stop_flag_ends_propagation_and_the_conflict_search() -> None:
    from grader.solver import kernels
    from grader.solver.learning import ConflictSearch
    from grader.solver.workspace import Workspace

    puzzle = big_random_puzzle(60)
    ws = Workspace(puzzle)
    ws.counters[kernels.STOP] = 1
    assert ws.propagate_all(ws.blank()) == kernels.CONTRADICTION
    assert ws.line_solves == 0  # stopped before the first line
    grid = ws.blank()
    ws.clear_queue()
    ws.enqueue_all()
    kernels.reset_probe_state(ws.probe_state)
    ws.probe(grid, 1 << 40)  # what it returns once stopped means nothing (solve ignores it)
    assert ws.line_solves == 0 and (grid == kernels.UNKNOWN).all()
    learner = Workspace(puzzle)
    learner.counters[kernels.STOP] = 1
    search = ConflictSearch(learner, learner.blank())
    search.step(1 << 40)
    assert search.decisions == 0 and learner.line_solves == 0


def test_a_time_budget_ends_a_long_first_propagation() -> None:
    """A 400x400 random grid: its first propagation alone outlasts a millisecond."""
    from grader.solver import solve

    result = solve(big_random_puzzle(400), budget=Budget(seconds=0.001))
    assert result.verdict == "undecided"
    assert "time budget" in result.reason
    assert result.stats["line_solves"] < 800  # not even one pass over the 800 lines


def test_one_watchdog_thread_serves_every_solve() -> None:
    """Every solve with a time budget is watched by the same thread (a thread a solve
    cost more than many a small solve), and a finished solve is forgotten by it."""
    from grader.solver import search, solve

    for _ in range(20):
        assert solve(Puzzle(((1,), (1,)), ((1,), (1,))), budget=Budget(seconds=60)).verdict \
            == "multiple"
    watchdogs = [t for t in threading.enumerate() if t.name == "nonopress-watchdog"]
    assert len(watchdogs) == 1 and watchdogs[0].daemon
    assert search._WATCHDOG._deadlines == {}


def _stopped_in_first_pass() -> bool:
    """A 10 ms solve of a 400x400 grid is stopped inside its first propagation: only the
    watchdog can do that (the Python loop looks at the clock between chunks)."""
    from grader.solver import solve

    result = solve(big_random_puzzle(400), budget=Budget(seconds=0.01))
    return (result.verdict == "undecided" and "time budget" in result.reason
            and result.stats["line_solves"] < 800)


def test_an_earlier_deadline_wakes_the_watchdog() -> None:
    """The watchdog sleeps until the earliest deadline it knows: a clock due in an hour,
    then a solve due in 10 ms, whose first propagation the watchdog must stop itself."""
    from grader.solver import search

    later = search._Clock(Budget(seconds=3600))
    later.start()
    try:
        assert _stopped_in_first_pass()
    finally:
        later.close()
    assert not later.stopped


@pytest.mark.skipif(not hasattr(os, "fork"), reason="fork is POSIX only")
def test_a_forked_worker_gets_a_watchdog_of_its_own() -> None:
    """Batch workers are forked after the parent may have started its watchdog thread,
    which the child does not inherit: the child starts its own."""
    import multiprocessing

    assert _stopped_in_first_pass()  # the parent's watchdog is running now
    context = multiprocessing.get_context("fork")
    with context.Pool(1) as pool:
        assert pool.apply(_stopped_in_first_pass)


def test_root_probing_that_stalls_gives_way_to_search() -> None:
    """A permutation matrix (one 1 in every row and column) has n! solutions; probing its
    n*n cells one by one decides nothing, so the search must start early (it used to spend
    over 60 s probing a 200x200 one)."""
    from grader.solver import search

    side = 120
    puzzle = Puzzle(((1,),) * side, ((1,),) * side)
    result = search.solve(puzzle, budget=Budget(seconds=120))
    assert result.verdict == "multiple"
    # a full probing cycle is about side**3 line solves; stopping early is far less
    assert result.stats["line_solves"] < 4 * search.ROOT_STALL_WORK


def test_huge_node_budgets_are_taken_as_unlimited(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "two.non"
    path.write_text("width 2\nheight 2\n\nrows\n1\n1\n\ncolumns\n1\n1\n")
    # exit 1: the puzzle is not unique (check's gate), not a refused budget (2)
    assert main(["check", "--nodes", str(2**63 - 1), str(path)]) == 1
    assert "\tmultiple\t" in capsys.readouterr().out


def test_solve_all_is_capped_by_limit_and_memory(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from grader.solver import search

    assert main(["solve", "--all", "--limit", "100000000", "x.non"]) == 2
    assert "at most" in capsys.readouterr().err
    big = Puzzle(((1,),) * 2048, ((1,),) * 2048)
    assert search.solution_cap(big) == 31  # 8 MB a solution: 31 fit the 256 MB


# -- 6. lone surrogates and emoji ----------------------------------------------------------
def test_lone_surrogates_and_emoji_pass_through_every_command(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "odd.json"
    path.write_text('{"title": "\\ud83d half \\ud83d\\ude00 whole", "author": "\\udc00",'
                    ' "rows": [[1]], "columns": [[1]]}')
    (puzzle,) = formats.read(path)
    assert puzzle.title == "\ufffd half \U0001f600 whole" and puzzle.meta.author == "\ufffd"
    for command in COMMANDS:
        assert main([command, str(path)]) == 0, command
    assert main(["convert", str(path), str(tmp_path / "odd.yaml")]) == 0
    assert formats.read(tmp_path / "odd.yaml")[0].title == puzzle.title
    capsys.readouterr()


def test_a_manifest_written_by_json_dump_with_an_emoji_builds(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "heart.yaml").write_bytes(HEART_YAML)
    manifest = tmp_path / "issue.yaml"
    manifest.write_text(json.dumps({"title": "Puzzles \U0001f600", "author": "Zo\u00eb",
                                    "puzzles": ["heart.yaml"]}))  # "\ud83d\ude00" escapes
    assert main(["issue", str(manifest), "-o", str(tmp_path / "out.pdf"), "--no-cache"]) == 0
    err = capsys.readouterr().err
    assert "U+1F600" in err  # the font has no emoji: said, not silently '?'


# -- 7. manifest mistakes -----------------------------------------------------------------
@pytest.mark.parametrize(
    ("body", "words"),
    [
        ("date: 2024-13-45\n", (":2:", "month")),
        ("bleed: .nan\n", (":2:", "bleed")),
        ("margins: {top: .inf}\n", (":2:", "margins.top")),
        ("bleed: " + "9" * 400 + "\n", (":2:", "bleed")),
        ("author: " + "[" * DEEP + "]" * DEEP + "\n", (":2:", "nested")),
    ],
)
def test_manifest_mistakes_are_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], body: str, words: tuple[str, ...]
) -> None:
    (tmp_path / "heart.yaml").write_bytes(HEART_YAML)
    manifest = tmp_path / "issue.yaml"
    manifest.write_text("title: T\n" + body + "puzzles: [heart.yaml]\n")
    assert main(["issue", str(manifest), "-o", str(tmp_path / "out.pdf"), "--no-cache"]) == 2
    one_error_line(capsys.readouterr().err, "issue.yaml", *words)


# -- 9. latexmk option injection ------------------------------------------------------------
def test_the_output_name_never_reaches_the_tex_command_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from layout import latex

    seen: list[list[str]] = []

    class FakeTex:
        def __init__(self, command: list[str], cwd: str, **kwargs: object) -> None:
            seen.append(command)
            assert kwargs.get("start_new_session") is True
            pikepdf.new().save(Path(cwd, "issue.pdf"))  # read back for its fonts
            self.returncode = 0
            self.pid = os.getpid()

        def communicate(self, timeout: float) -> tuple[bytes, bytes]:
            return b"", b""

    monkeypatch.setattr(latex, "latex_compiler", lambda: ["latexmk", "-pdf"])
    monkeypatch.setattr(latex.subprocess, "Popen", FakeTex)
    assert latex.compile_latex("x", jobname="-pdflatex=cd ..;touch X;echo").startswith(b"%PDF")
    assert seen == [["latexmk", "-pdf", "./issue.tex"]]
    assert latex.safe_file_name("-pdflatex=cd ..;touch X;echo") == "_pdflatex_cd_.._touch_X_echo"


def test_tex_is_ended_with_its_children_on_a_timeout(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from layout import latex

    pid_file = tmp_path / "child.pid"
    monkeypatch.setattr(latex, "COMPILE_TIMEOUT_S", 0.5)
    script = f"sleep 60 & echo $! > {pid_file}; wait"
    with pytest.raises(latex.NonopressError, match="longer than"):
        latex._run_tex(["sh", "-c", script], str(tmp_path), dict(os.environ))
    child = int(pid_file.read_text())
    for _ in range(50):  # the kill is sent; give the kernel a moment to reap
        try:
            os.kill(child, 0)
        except ProcessLookupError:
            break
        time.sleep(0.05)
    else:
        pytest.fail("TeX's child process outlived the timeout")


# -- 10. outputs never replace special files or symlinks ------------------------------------
def test_writing_to_dev_null_keeps_the_device(capsys: pytest.CaptureFixture[str]) -> None:
    atomic_write("/dev/null", b"ignored")
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)


def test_writing_through_a_symlink_keeps_the_link(tmp_path: Path) -> None:
    (tmp_path / "real.non").write_text("old")
    os.symlink("real.non", tmp_path / "link.non")
    atomic_write(tmp_path / "link.non", "new")
    assert os.path.islink(tmp_path / "link.non")
    assert (tmp_path / "real.non").read_text() == "new"


def test_writing_to_a_fifo_writes_into_it(tmp_path: Path) -> None:
    fifo = tmp_path / "out.fifo"
    os.mkfifo(fifo)
    with pytest.raises(OSError, match="nothing reads"):
        atomic_write(fifo, "x")  # no reader: an error now, not a hang
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()))
    reader.start()
    for _ in range(100):
        try:
            atomic_write(fifo, "through the pipe")
            break
        except OSError:  # the reader has not opened it yet
            time.sleep(0.02)
    reader.join()
    assert got == [b"through the pipe"]
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)


def test_a_dash_writes_standard_output(capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    atomic_write("-", b"to stdout")
    assert capsysbinary.readouterr().out == b"to stdout"


# -- also: terminal escapes, error lines, .non rows, batches, signals, reports -----------
def test_escape_codes_in_titles_are_printed_escaped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "esc.json"
    path.write_text(json.dumps({"title": "\x1b]0;owned\x07\x1b[31mred\u202e\x9b",
                                "rows": [[1]], "columns": [[1]]}))
    for command in COMMANDS:
        assert main([command, str(path)]) == 0
        out = capsys.readouterr().out
        assert "\x1b" not in out and "\x07" not in out and "\u202e" not in out
        assert "\x9b" not in out
        assert "\\x1b]0;owned" in out, command


def test_an_error_line_is_bounded_and_located(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "long.non"
    path.write_text("width 2\nheight 2\n\nrows\n1\n" + "x" * 200_000 + "\n")
    assert main(["check", str(path)]) == 2
    one_error_line(capsys.readouterr().err, "long.non:6:")


def test_extra_non_rows_are_an_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "extra.non"
    path.write_text("width 2\nheight 2\n\nrows\n1\n1\n1\n\ncolumns\n1\n1\n")
    assert main(["info", str(path)]) == 2
    one_error_line(capsys.readouterr().err, "extra.non:7:", "height 2")


def test_a_second_batch_on_the_same_out_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "heart.yaml").write_bytes(HEART_YAML)
    out = tmp_path / "out"
    with batch_lock(out):
        assert main(["batch", str(tmp_path / "heart.yaml"), "--out", str(out)]) == 2
        one_error_line(capsys.readouterr().err, "another batch")
    assert main(["batch", str(tmp_path / "heart.yaml"), "--out", str(out), "-j", "1"]) == 0


def test_sigterm_unwinds_and_removes_the_temporary_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "heart.yaml").write_bytes(HEART_YAML)
    import grader.atomic

    def killed(fd: int) -> None:  # the signal arrives while the output is being written
        os.kill(os.getpid(), signal.SIGTERM)

    monkeypatch.setattr(grader.atomic.os, "fsync", killed)
    status = main(["convert", str(tmp_path / "heart.yaml"), str(tmp_path / "out.non")])
    assert status == 128 + signal.SIGTERM
    assert sorted(p.name for p in tmp_path.iterdir()) == ["heart.yaml"]
    assert signal.getsignal(signal.SIGTERM) is signal.SIG_DFL  # put back after main()


def test_a_damaged_results_database_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "heart.yaml").write_bytes(HEART_YAML)
    out = tmp_path / "out"
    assert main(["batch", str(tmp_path / "heart.yaml"), "--out", str(out), "-j", "1"]) == 0
    db = sqlite3.connect(out / "results.sqlite")
    with db:
        db.execute("UPDATE results SET rungs = 'not json'")
    db.close()
    capsys.readouterr()
    assert main(["report", str(out), "-o", "-", "--format", "csv"]) == 2
    one_error_line(capsys.readouterr().err, "results.sqlite", "damaged")
    junk = tmp_path / "junk.sqlite"
    junk.write_bytes(os.urandom(4096))
    assert main(["report", str(junk), "-o", "-"]) == 2
    one_error_line(capsys.readouterr().err, "junk.sqlite")


def test_csv_cells_that_look_like_formulas_are_quoted() -> None:
    row = ResultRow(key="k", file="=cmd|'/c calc'!A1", index=1, title='@SUM(1+1)',
                    status="failed", error="-2+3")
    cells = next(csv.DictReader(io.StringIO(to_csv([row]))))
    assert cells["file"] == "'=cmd|'/c calc'!A1"
    assert cells["title"] == "'@SUM(1+1)" and cells["error"] == "'-2+3"
    assert cells["index"] == "1"


@pytest.mark.skipif(not Path("/usr/bin/pdftotext").exists(), reason="needs poppler")
def test_pdf_prints_letters_beyond_latin_1_when_the_font_has_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from layout.fonts import font_files

    if font_files()["NonopressSans"].name != "DejaVuSans.ttf":
        pytest.skip("DejaVu Sans is not installed (fonts-dejavu-core)")
    (tmp_path / "heart.yaml").write_bytes(HEART_YAML)
    manifest = tmp_path / "issue.yaml"
    manifest.write_text("title: Čeština Ελληνικά Кириллица\npuzzles: [heart.yaml]\n",
                        encoding="utf-8")
    pdf = tmp_path / "out.pdf"
    assert main(["issue", str(manifest), "-o", str(pdf), "--no-cache", "-q"]) == 0
    text = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True,
                          check=True).stdout
    assert "Čeština Ελληνικά Кириллица" in text
    assert "has no" not in capsys.readouterr().err


def test_main_leaves_no_signal_handlers_behind() -> None:
    before = signal.getsignal(signal.SIGHUP)
    with contextlib.redirect_stderr(io.StringIO()):
        main(["info", "/nonexistent.non"])
    assert signal.getsignal(signal.SIGHUP) == before
    assert sys.stdout is not None


def test_the_ladder_keeps_its_budget_inside_a_long_refresh(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The first refresh of a 1000x1000 grid is 2,000 line searches: grading with
    --seconds 1 took 16 s before the deadline was looked at between lines."""
    from grader import engine as engine_module
    from grader.errors import BudgetExceeded

    puzzle = big_random_puzzle(40)
    ladder = engine_module.Engine(puzzle, budget=Budget(seconds=3600))
    rung = next(iter(ladder._line_finders))
    searched: list[int] = []
    real = ladder._line_finders[rung]

    def expire_after_one(clue, cells):  # type: ignore[no-untyped-def]
        searched.append(1)
        ladder.context.deadline = time.monotonic() - 1  # the budget runs out during the refresh
        return real(clue, cells)

    monkeypatch.setitem(ladder._line_finders, rung, expire_after_one)
    with pytest.raises(BudgetExceeded):
        ladder.run()
    assert len(searched) == 1  # not the other 79 lines


@pytest.mark.skipif(
    not (Path("/usr/bin/latexmk").exists() and Path("/usr/bin/pdftotext").exists()),
    reason="needs latexmk and poppler",
)
def test_double_quotes_in_title_author_and_note_compile_in_latex(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Item 8: ``\\textquotedbl`` is unavailable in OT1; the template uses T1."""
    (tmp_path / "heart.yaml").write_bytes(HEART_YAML)
    manifest = tmp_path / "issue.yaml"
    manifest.write_text(
        'title: The "Quoted" Issue\nauthor: Ann "Nonny" Gram\npuzzles:\n'
        '  - {file: heart.yaml, title: A "heart", note: Say "hi", hide_title: false}\n'
    )
    tex = tmp_path / "issue.tex"
    assert main(["issue", str(manifest), "--latex", str(tex), "--no-cache", "-q"]) == 0
    text = subprocess.run(["pdftotext", str(tex.with_suffix(".pdf")), "-"],
                          capture_output=True, text=True, check=True).stdout
    for quoted in ('The "Quoted" Issue', 'Ann "Nonny" Gram', 'Say "hi"'):
        assert quoted in text, text[:500]


def test_a_big_puzzle_with_many_solutions_is_graded_ambiguous_not_undecided() -> None:
    """The trivial 200x200 case: the ladder's cell branching over 40,000 cells outlasted the
    default budget; above grading.SOLVER_FIRST_CELLS the solver's verdict comes first."""
    from grader.grading import SOLVER_FIRST_CELLS, grade

    side = 120
    assert side * side > SOLVER_FIRST_CELLS
    result = grade(Puzzle(((1,),) * side, ((1,),) * side))
    assert result.verdict == "multiple" and result.level == "ambiguous"


# -- Issue 34, item 8: start-up is nobody's time -------------------------------------------
def test_the_colour_kernels_are_cached_with_the_solver_not_in_the_package() -> None:
    from grader.colour import kernels
    from grader.colour.solver import warm_up

    warm_up()
    cache_path = Path(kernels.solve_line._cache._cache_path)
    assert Path(os.environ["NUMBA_CACHE_DIR"]) in cache_path.parents
    assert Path(kernels.__file__).resolve().parent not in (cache_path, *cache_path.parents)


def _burn(seconds: float) -> None:
    end = time.thread_time() + seconds
    while time.thread_time() < end:
        pass


def test_a_colour_grade_is_timed_after_the_kernels_are_loaded(
    monkeypatch: pytest.MonkeyPatch
) -> None:
    from grader.colour import grading
    from grader.formats import read_any

    (puzzle,) = read_any(Path(__file__).resolve().parents[1] / "puzzles/colour/ladybird.yaml")
    monkeypatch.setattr(grading, "warm_up", lambda: _burn(0.4))  # a slow first load
    result = grading.grade_colour(puzzle)
    assert result.verdict == "unique" and result.time_s < 0.4


def test_check_json_cpu_is_the_puzzles_not_the_loading(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from grader.solver import search

    path = tmp_path / "random.non"
    path.write_bytes(formats.write(big_random_puzzle(12, seed=7), "non"))
    monkeypatch.setattr(search, "compile_if_needed", lambda: _burn(0.4))  # compiling the kernels
    main(["check", "--json", str(path)])
    record = json.loads(capsys.readouterr().out)
    assert record["cpu_s"] < 0.3 and record["cpu_s"] <= record["time_s"] + 0.05


def test_make_says_compiled_only_when_it_compiled(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from PIL import Image

    make = importlib.import_module("grader.authoring.make")  # the module, not the function

    image = Image.new("L", (20, 20), 255)
    image.paste(0, (5, 2, 15, 18))
    image.paste(255, (5, 2, 10, 10))  # an L, not a rectangle that trimming fills
    image.save(tmp_path / "bar.png")
    monkeypatch.setattr(make, "compile_if_needed", lambda: _burn(1.2))  # a slow cache load
    assert main(["make", str(tmp_path / "bar.png"), "--size", "10x10",
                 "-o", str(tmp_path / "bar.non")]) == 0
    err = capsys.readouterr().err  # (the folder's name holds the word "compiled")
    assert not any(said in err for said in ("compiled the solver", "solver compiled",
                                            "compiling the solver"))


# -- Issue 34: numbers on the command line are bounded where the text becomes a number ------
@pytest.mark.parametrize("argv", [
    ["grade", "--seconds", "nan"], ["grade", "--seconds", "inf"], ["check", "--timeout", "nan"],
    ["make", "x.png", "--size", "5x5", "--seconds", "nan"],
    ["batch", "--timeout", "1e999", "--out", "out"],
    ["issue", "m.yaml", "-o", "x.pdf", "--grade-seconds", "nan"],
])
def test_a_budget_that_is_not_a_finite_positive_number_is_refused(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([*argv, "heart.yaml"] if argv[0] in ("grade", "check", "batch") else argv) == 2
    assert "must be a number of seconds above 0" in capsys.readouterr().err
