"""Fuzz matrix: hostile inputs (nesting depth, size, encodings, special files) against every
reader and every command.

Each input runs in a child process with the bound the README states: 1 GB of address space
and 10 s of CPU time for all the commands on it together (exceeding either kills the child,
and the test fails). Every command must end with exit status 2 and one line naming the
file; a crash (segfault), a traceback or a second line fails the test.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

# the hostile PDFs and pictures are made where their own tests live (tests/ is on the path)
import hostile_pictures
import pytest
import test_hostile_preflight as hostile_pdfs
from bench_support import bench_module

from grader import formats
from grader.inputs import MAX_INPUT_BYTES
from nonopress.cli import COMMANDS

MEMORY_BOUND = 1 << 30  # bytes of address space
CPU_BOUND_S = 10  # seconds of CPU for every command on one input
DEEP = 25_000
READERS = sorted(formats.FORMATS)
HEART = "title: Heart\nrows: [[2, 2], [7], [5], [3], [1]]\ncolumns: [[1], [3], [4], [4], [4], [3], [1]]\n"  # noqa: E501

# The child: run each argv through main(), collect (status, stderr), print them as JSON.
DRIVER = r"""
import contextlib, io, json, sys
from grader import inputs
from nonopress.cli import main
inputs.WAIT_SECONDS = 0.3  # a FIFO nobody writes to: refused after 0.3 s, not 10
results = []
for argv in json.loads(sys.argv[1]):
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        status = main(argv)
    results.append([argv, status, err.getvalue()])
print(json.dumps(results))
"""


def _limits() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_BOUND, MEMORY_BOUND))
    resource.setrlimit(resource.RLIMIT_CPU, (CPU_BOUND_S, CPU_BOUND_S))


def run_bounded(calls: list[list[str]], cwd: Path) -> list[tuple[list[str], int, str]]:
    child = subprocess.run(
        [sys.executable, "-c", DRIVER, json.dumps(calls)],
        cwd=cwd, capture_output=True, text=True, preexec_fn=_limits,
        timeout=300,  # only a hang detector: the CPU limit is the bound
        check=False,
    )
    assert child.returncode == 0, (child.returncode, child.stderr[-3000:])
    return [(argv, status, err) for argv, status, err in json.loads(child.stdout)]


def write_deep(path: Path, text: str) -> None:
    path.write_text(text)


def sparse(size: int) -> Callable[[Path], None]:
    def make(path: Path) -> None:
        with open(path, "wb") as handle:
            handle.truncate(size)
    return make


def data(content: bytes) -> Callable[[Path], None]:
    return lambda path: path.write_bytes(content)


def symlink_loop(path: Path) -> None:
    os.symlink(path.name, path)


def dangling(path: Path) -> None:
    os.symlink("nothing-here", path)


def fifo(path: Path) -> None:
    os.mkfifo(path)


def folder(path: Path) -> None:
    path.mkdir()


#: name -> (file name, how to make it); each is refused by every reader and command
HOSTILE: dict[str, tuple[str, Callable[[Path], None]]] = {
    # nesting depth
    "yaml-flow-25000": ("deep.yaml", data(b"title: " + b"[" * DEEP + b"]" * DEEP + b"\n")),
    "yaml-block-25000": ("deep-block.yaml", data(b"rows:\n" + b"- " * DEEP + b"1\n")),
    "yaml-maps-5000": ("deep-map.yaml", data(b"rows: " + b"{a: " * 5000 + b"1" + b"}" * 5000)),
    "json-25000": ("deep.json", data(b'{"rows": ' + b"[" * DEEP + b"]" * DEEP + b"}")),
    "xml-25000": ("deep.xml", data(b"<puzzleset><puzzle>" + b"<a>" * DEEP + b"</a>" * DEEP
                                   + b"</puzzle></puzzleset>")),
    "yaml-alias-bomb": ("bomb.yaml", data(
        b"a: &a [1,1,1,1,1,1,1,1,1]\n"
        + b"".join(f"l{i}: &l{i} [{','.join(['*' + ('a' if i == 0 else f'l{i - 1}')] * 9)}]\n"
                   .encode() for i in range(9))
        + b"rows: *l8\ncolumns: *l8\n")),
    # size
    "over-the-cap": ("huge.non", sparse(MAX_INPUT_BYTES + 1)),
    "9MB-clue-line": ("long.non", data(b"width 4096\nheight 1024\n\nrows\n"
                                       + b"1," * (4_500_000) + b"1\n")),
    "9MB-xml": ("many.xml", data(b"<puzzleset><puzzle><clues type='rows'><line>"
                                 + b"<count>1</count>" * 560_000
                                 + b"</line></clues></puzzle></puzzleset>")),
    "9MB-picture-row": ("wide.txt", data(b"#" * 9_000_000 + b"\n")),
    # encodings
    "invalid-utf8": ("latin.non", data(b"width 2\nheight 2\ntitle \xff\xfe\x80\n")),
    "utf16": ("utf16.yaml", data("rows: [[1]]\ncolumns: [[1]\n".encode("utf-16"))),
    "nul-bytes": ("nul.yaml", data(b"rows: [[1]]\x00\x00\ncolumns: [[1]]\n")),
    "binary-png": ("junk.png", data(b"\x89PNG\r\n\x1a\n" + os.urandom(200))),
    "empty": ("empty.non", data(b"")),
    # special files
    "symlink-loop": ("loop.non", symlink_loop),
    "dangling-symlink": ("gone.non", dangling),
    "fifo-without-writer": ("pipe.non", fifo),
    "folder": ("dir.yaml", folder),
}

_SMALL = {"yaml-flow-25000", "yaml-block-25000", "json-25000", "xml-25000", "yaml-alias-bomb",
          "invalid-utf8", "utf16", "nul-bytes", "empty", "symlink-loop", "folder"}


def calls_for(case: str, name: str) -> list[list[str]]:
    calls = [[command, name] for command in ("info", "check", "solve", "grade")]
    calls.append(["convert", name, "out.yaml"])
    calls.append(["issue", "manifest.yaml", "-o", "out.pdf", "--no-cache", "-q"])
    calls.append(["issue", name, "-o", "out.pdf", "--no-cache", "-q"])  # as the manifest
    calls.append(["preflight", name, "--profile", "kdp"])  # as a PDF
    if case in _SMALL:  # every reader, forced: the size cases would only repeat the cap
        calls.extend(["info", "--from", reader, name] for reader in READERS)
    return calls


@pytest.mark.slow
@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_every_command_refuses_hostile_input_in_one_line_within_bounds(
    case: str, tmp_path: Path
) -> None:
    name, make = HOSTILE[case]
    make(tmp_path / name)
    (tmp_path / "manifest.yaml").write_text(f"title: T\npuzzles: [{name}]\n")
    for argv, status, err in run_bounded(calls_for(case, name), tmp_path):
        lines = err.strip().splitlines()
        assert status == 2, (argv, status, err[-2000:])
        assert len(lines) == 1 and "Traceback" not in err, (argv, err[-2000:])
        assert name in lines[0] and len(lines[0]) <= 300, (argv, lines[0])
    assert not (tmp_path / "out.yaml").exists() and not (tmp_path / "out.pdf").exists()


def test_a_batch_over_a_folder_of_hostile_files_finishes(tmp_path: Path) -> None:
    archive = tmp_path / "archive"
    archive.mkdir()
    for name, make in HOSTILE.values():
        make(archive / name)
    (archive / "heart.yaml").write_text(HEART)
    [(_, status, err)] = run_bounded(
        [["batch", str(archive), "--out", str(tmp_path / "out"), "--jobs", "1"]], tmp_path
    )
    assert status == 0, err[-3000:]
    import sqlite3

    db = sqlite3.connect(tmp_path / "out" / "results.sqlite")
    rows = {Path(file).name: status for file, status in
            db.execute("SELECT file, status FROM results")}
    assert rows.pop("heart.yaml") == "graded"
    assert "pipe.non" not in rows and "dir.yaml" not in rows  # never opened
    assert set(rows.values()) == {"failed"}
    assert len(rows) >= 14


# -- Round three (issue 34): the newer surfaces, one case a hole --------------------------
# Each case makes its inputs in a fresh folder, runs ONE command in a child process under
# the same bound (1 GB, 10 s of CPU; a wall-clock timeout catches a hang that spends no
# CPU) and checks: the exit status of the README's table (0 done; 1 not what a publisher
# needs; 2 bad input), no traceback, one line on stderr that names the file (or, for a
# warning, a warning line naming it), and no raw terminal control character on stdout.

CHILD = r"""
import sys
from grader import inputs
inputs.WAIT_SECONDS = 0.3
from nonopress.cli import main
sys.exit(main(sys.argv[1:]))
"""
NOBODY = 65534
#: raw characters that would drive a terminal: ESC, BEL, CSI (C1) and the bidi override
TERMINAL_CONTROLS = ("\x1b", "\x07", "\x9b", "\u202e")
Maker = Callable[[Path], None]


@dataclass(frozen=True)
class Case:
    make: Maker  #: writes the inputs into the folder the command runs in
    argv: tuple[str, ...]
    status: int
    words: tuple[str, ...]  #: what the stderr line holds: the file's name first
    stdout: str = "pipe"  #: or a path standard output is opened on (/dev/full)
    warning: bool = False  #: the line is a warning among progress lines, not an error
    as_nobody: bool = False  #: run without write access (root can write anywhere)
    hold_lock: str = ""  #: a results location whose batch lock the test holds meanwhile


def files(**contents: bytes | str) -> Maker:
    def make(folder: Path) -> None:
        for name, content in contents.items():
            path = folder / name.replace("__", ".")
            path.parent.mkdir(parents=True, exist_ok=True)
            if isinstance(content, str):
                path.write_text(content, encoding="utf-8")
            else:
                path.write_bytes(content)
    return make


def both(*makers: Maker) -> Maker:
    def make(folder: Path) -> None:
        for maker in makers:
            maker(folder)
    return make


IPUZ_HEAD = '{"version": "http://ipuz.org/v2", "kind": ["http://ipuz.org/crossword#1"], '
DEEP_IPUZ = IPUZ_HEAD + '"dimensions": ' + "[" * DEEP + "]" * DEEP + "}"
LONG_IPUZ = IPUZ_HEAD + '"dimensions": {"width": ' + "9" * 5000 + ', "height": 3}}'
HUGE_FLOAT_IPUZ = IPUZ_HEAD + '"dimensions": {"width": 1e99999, "height": 3}}'
MANIFEST_WITH = "title: T\npuzzles: [heart.yaml]\nfillins: [{}]\n".format
# a colour puzzle (unique) whose colour names hold an OSC retitle, a CSI and a bidi override
ESCAPED_NAMES = (
    'title: "Esc\\e[2J"\n'
    "palette:\n"
    '  - {name: "bl\\e]0;pwned\\aack\\u202e", rgb: "1a1a1a", char: k}\n'
    '  - {name: "r\\e[31med\\x9b", rgb: "d7261e", char: r}\n'
    'solution: "kr\\nrk\\n"\n'
)
ESCAPED_CHAR = ESCAPED_NAMES.replace("char: k", 'char: "\\e"')
WEBPBN_COLOURS = (
    "<puzzleset><puzzle {}><color name='red' char='r'>f00</color>"
    "<clues type='rows'><line><count>1</count></line></clues>"
    "<clues type='columns'><line><count>1</count></line></clues></puzzle></puzzleset>"
).format


def random_puzzle(side: int) -> bytes:
    """A random picture's puzzle: far from solved within a millisecond."""
    import numpy as np

    from grader.model import Puzzle

    rng = np.random.default_rng(34)
    return formats.write(Puzzle.from_picture(rng.random((side, side)) < 0.5), "non")


def undecided_puzzle(folder: Path) -> None:
    (folder / "random.non").write_bytes(random_puzzle(30))


def picture(name: str, shade: int, square: bool = False) -> Maker:
    def make(folder: Path) -> None:
        from PIL import Image

        image = Image.new("L", (40, 40), shade)
        if square:
            image.paste(0, (10, 5, 30, 35))
        image.save(folder / name)
    return make


def odd_results_table(folder: Path) -> None:
    import sqlite3

    (folder / "odd").mkdir()
    db = sqlite3.connect(folder / "odd" / "results.sqlite")
    db.execute("CREATE TABLE results (key TEXT PRIMARY KEY, file TEXT, extra TEXT NOT NULL)")
    db.commit()
    db.close()


def read_only_results(folder: Path) -> None:
    """A good results database with one row, in a folder nobody may write (archived
    results on read-only media)."""
    from nonopress.batch.rows import ResultRow
    from nonopress.batch.store import ResultStore

    archive = folder / "archive"
    with ResultStore.create(archive) as store:
        store.record(ResultRow(key="k1", file="heart.yaml", index=1, title="Heart",
                               status="graded", width=7, height=5, verdict="unique",
                               level="easy", score=0.0, stars=1, time_s=0.1,
                               finished_at="2026-11-26T00:00:00Z"))
    for path in (archive / "results.sqlite", archive):
        path.chmod(0o555)


def symlinked_results(folder: Path) -> None:
    (folder / "first").mkdir()
    (folder / "second").mkdir()
    os.symlink("../first/results.sqlite", folder / "second" / "results.sqlite")


HEART_FILE = files(heart__yaml=HEART)

#: item -> case; every case of issue 34 that is this file's to hold
SURFACE_CASES: dict[str, Case] = {
    # 5: tracebacks
    "fill-deep-ipuz": Case(files(deep__ipuz=DEEP_IPUZ), ("fill", "deep.ipuz"), 2,
                           ("deep.ipuz", "nested")),
    "fillin-deep-ipuz": Case(files(deep__ipuz=DEEP_IPUZ), ("fillin", "deep.ipuz"), 2,
                             ("deep.ipuz", "nested")),
    "issue-fillins-deep-ipuz": Case(
        both(HEART_FILE, files(deep__ipuz=DEEP_IPUZ, issue__yaml=MANIFEST_WITH("deep.ipuz"))),
        ("issue", "issue.yaml", "-o", "out.pdf", "--no-cache", "-q"), 2,
        ("deep.ipuz", "nested")),
    "fill-5000-digits-ipuz": Case(files(long__ipuz=LONG_IPUZ), ("fill", "long.ipuz"), 2,
                                  ("long.ipuz", "longer than")),
    "fillin-5000-digits-ipuz": Case(files(long__ipuz=LONG_IPUZ), ("fillin", "long.ipuz"),
                                    2, ("long.ipuz", "longer than")),
    "issue-fillins-5000-digits": Case(
        both(HEART_FILE, files(long__ipuz=LONG_IPUZ, issue__yaml=MANIFEST_WITH("long.ipuz"))),
        ("issue", "issue.yaml", "-o", "out.pdf", "--no-cache", "-q"), 2,
        ("long.ipuz", "longer than")),
    "fill-1e99999-ipuz": Case(files(inf__ipuz=HUGE_FLOAT_IPUZ), ("fill", "inf.ipuz"), 2,
                              ("inf.ipuz", "too large")),
    "json-puzzle-5000-digits": Case(
        files(long__json='{"rows": [[' + "9" * 5000 + ']], "columns": [[1]]}'),
        ("check", "long.json"), 2, ("long.json:1:", "longer than")),
    "json-puzzle-4000-digits": Case(  # under the interpreter's own limit: ours holds
        files(long__json='{"rows": [[' + "9" * 4000 + ']], "columns": [[1]]}'),
        ("info", "long.json"), 2, ("long.json:1:", "longer than")),
    "json-puzzle-nan": Case(files(nan__json='{"rows": [[NaN]], "columns": [[1]]}'),
                            ("info", "nan.json"), 2, ("nan.json", "NaN")),
    "yaml-puzzle-5000-digits": Case(
        files(long__yaml="rows: [[1]]\ncolumns:\n  - [" + "9" * 5000 + "]\n"),
        ("grade", "long.yaml"), 2, ("long.yaml:3:", "columns", "longer than")),
    "colour-json-5000-digits": Case(
        files(long__json='{"palette": [{"name": "red", "rgb": "f00", "char": "r"}], '
                         '"rows": [[' + "9" * 5000 + ']], "columns": [[1]]}'),
        ("info", "long.json"), 2, ("long.json", "longer than")),
    "manifest-5000-digits": Case(
        both(HEART_FILE, files(issue__yaml="title: T\npuzzles: [heart.yaml]\nbleed: "
                                           + "9" * 5000 + "\n")),
        ("issue", "issue.yaml", "-o", "out.pdf", "--no-cache", "-q"), 2,
        ("issue.yaml:3:", "bleed", "longer than")),
    "batch-results-table-with-other-columns": Case(
        both(HEART_FILE, odd_results_table),
        ("batch", "heart.yaml", "--out", "odd", "--jobs", "1"), 2,
        ("odd/results.sqlite", "other columns")),
    "report-results-table-with-other-columns": Case(
        odd_results_table, ("report", "odd", "-o", "-"), 2,
        ("odd/results.sqlite", "other columns")),
    "info-to-dev-full": Case(HEART_FILE, ("info", "heart.yaml"), 2,
                             ("standard output", "No space left"), stdout="/dev/full"),
    "convert-to-dev-full": Case(HEART_FILE, ("convert", "heart.yaml", "-", "--to", "non"), 2,
                                ("standard output", "No space left"), stdout="/dev/full"),
    "make-to-dev-full": Case(picture("square.png", 255, square=True),
                             ("make", "square.png", "--size", "10x10", "-q"), 2,
                             ("standard output", "No space left"), stdout="/dev/full"),
    # 6: terminal escapes in colour names: printed escaped (the check is on stdout)
    "solve-colour-names-escaped": Case(files(esc__yaml=ESCAPED_NAMES), ("solve", "esc.yaml"),
                                       0, ()),
    "grade-explain-colour-names-escaped": Case(
        files(esc__yaml=ESCAPED_NAMES), ("grade", "--explain", "esc.yaml"), 0, ()),
    "check-colour-names-escaped": Case(files(esc__yaml=ESCAPED_NAMES), ("check", "esc.yaml"),
                                       0, ()),
    "colour-char-escape-refused": Case(files(esc__yaml=ESCAPED_CHAR), ("solve", "esc.yaml"),
                                       2, ("esc.yaml", "printable")),
    # 7: wrong or silent
    "webpbn-undeclared-defaultcolor": Case(
        files(w__xml=WEBPBN_COLOURS('defaultcolor="purple"')), ("check", "w.xml"), 2,
        ("w.xml", "defaultcolor 'purple'")),
    "webpbn-undeclared-backgroundcolor": Case(
        files(w__xml=WEBPBN_COLOURS('backgroundcolor="purple"')), ("info", "w.xml"), 2,
        ("w.xml", "backgroundcolor 'purple'")),
    "webpbn-default-is-background": Case(
        files(w__xml=WEBPBN_COLOURS('defaultcolor="red" backgroundcolor="red"')),
        ("info", "w.xml"), 2, ("w.xml", "both 'red'")),
    # trimming (make's default) finds no ink to keep: refused as bad input, with what to try
    "make-white-picture-refused": Case(picture("white.png", 255),
                                       ("make", "white.png", "--size", "10x10", "-o", "w.non"),
                                       2, ("white.png", "the picture is blank", "--threshold")),
    "make-white-picture-untrimmed-warns": Case(
        picture("white.png", 255),
        ("make", "white.png", "--size", "10x10", "--no-trim", "-o", "w.non"),
        0, ("white.png", "every cell is empty"), warning=True),
    "make-black-picture-warns": Case(picture("black.png", 0),
                                     ("make", "black.png", "--size", "10x10", "-o", "b.non"),
                                     0, ("black.png", "every cell is filled"), warning=True),
    "solve-undecided-exits-1": Case(undecided_puzzle,
                                    ("solve", "--timeout", "0.001", "random.non"), 1, ()),
    "grade-undecided-exits-1": Case(undecided_puzzle,
                                    ("grade", "--seconds", "0.001", "random.non"), 1, ()),
    "check-undecided-exits-1": Case(undecided_puzzle,
                                    ("check", "--timeout", "0.001", "random.non"), 1, ()),
    "report-read-only-results": Case(read_only_results,
                                     ("report", "archive", "-o", "-", "--format", "csv"), 0,
                                     (), as_nobody=True),
    "batch-same-database-through-a-symlink": Case(
        both(HEART_FILE, symlinked_results),
        ("batch", "heart.yaml", "--out", "second", "--jobs", "1"), 2,
        ("second/results.sqlite", "another batch"), hold_lock="first"),
}

def _preflight_case(maker: Callable[[Path], Path], says: str, profile: str) -> Case:
    def make(folder: Path) -> None:
        maker(folder / "hostile.pdf")
    return Case(make, ("preflight", "hostile.pdf", "--profile", profile), 2,
                ("hostile.pdf", says))


def _make_case(name: str, maker: Maker, says: str) -> Case:
    def make(folder: Path) -> None:
        maker(folder / name)
    return Case(make, ("make", name, "--size", "20x20", "-q"), 2, (name, says))


# -- items 1, 2 and the PDF numbers of 5: preflight streams, budgets, /FirstChar and
#    MediaBox numbers (the PDFs are made in tests/test_hostile_preflight.py), both profiles
PREFLIGHT_CASES: dict[str, Case] = {
    f"preflight-{profile}-{name}": _preflight_case(maker, says, profile)
    for name, (maker, says) in hostile_pdfs.REFUSED.items() for profile in ("kdp", "pdfx")
}

# -- items 3 and 4: pictures checked by pixels, decoded 8-bit at the working size, a FIFO
#    through grader/inputs.py (the pictures are made in tests/test_hostile_make.py)
MAKE_CASES: dict[str, Case] = {
    f"make-{case}": _make_case(name, maker, says)
    for case, (name, maker, says) in hostile_pictures.CASES.items()
}

ALL_CASES = {**SURFACE_CASES, **PREFLIGHT_CASES, **MAKE_CASES}


@pytest.fixture(scope="module")
def compiled_kernels() -> None:
    """Compile (or load) the solvers' kernels once here: the bound is the README's for a
    run after installing, and a first compile is not the input's doing."""
    from grader.colour.solver import warm_up
    from grader.solver import ensure_compiled

    ensure_compiled()
    warm_up()


def _as_nobody(case: Case) -> list[str]:
    """The prefix that runs the child without write access: root writes anywhere, so as
    the unprivileged user (util-linux's setpriv; every Debian has it)."""
    if not case.as_nobody or os.geteuid() != 0:
        return []
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        pytest.skip("running as root without setpriv: cannot drop the write access")
    return [setpriv, f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups"]


def run_case(case: Case, folder: Path) -> tuple[int, str, str]:
    """The case's command in a bounded child: (status, stdout, stderr)."""
    from nonopress.batch.lock import batch_lock

    out = open(case.stdout, "wb") if case.stdout != "pipe" else subprocess.PIPE  # noqa: SIM115
    holding = batch_lock(folder / case.hold_lock) if case.hold_lock else contextlib.nullcontext()
    try:
        with holding:
            child = subprocess.run(
                [*_as_nobody(case), sys.executable, "-c", CHILD, *case.argv], cwd=folder,
                stdout=out, stderr=subprocess.PIPE, preexec_fn=_limits, timeout=120,
                check=False,
            )
    finally:
        if case.stdout != "pipe":
            out.close()  # type: ignore[union-attr]
    stdout = (child.stdout or b"").decode("utf-8", "replace")
    return child.returncode, stdout, child.stderr.decode("utf-8", "replace")


@pytest.fixture
def case_folder() -> Iterator[Path]:
    """A folder every user can enter (a case run as nobody reads it)."""
    folder = Path(tempfile.mkdtemp(prefix="hostile-"))
    folder.chmod(0o755)
    try:
        yield folder
    finally:
        for path in (folder, *folder.rglob("*")):
            if path.is_dir() and not path.is_symlink():
                path.chmod(0o755)
        shutil.rmtree(folder)


@pytest.mark.parametrize("name", sorted(ALL_CASES))
def test_each_new_surface_keeps_the_promise(
    name: str, case_folder: Path, compiled_kernels: None
) -> None:
    case = ALL_CASES[name]
    case.make(case_folder)
    status, out, err = run_case(case, case_folder)
    assert status == case.status, (name, status, err[-2000:])
    assert "Traceback" not in err and "Exception ignored" not in err, err[-2000:]
    assert not any(control in out for control in TERMINAL_CONTROLS), out[-2000:]
    lines = err.strip().splitlines()
    if case.warning:
        lines = [line for line in lines if "warning" in line]
    if case.words:
        assert len(lines) == 1, (name, err[-2000:])
        assert all(word in lines[0] for word in case.words), (name, lines[0])
        assert len(lines[0]) <= 300
    elif case.status == 0:
        assert not [line for line in lines if "error" in line.lower()], err[-2000:]


def test_printed_colour_names_are_escaped_once_and_kept_readable(
    case_folder: Path, compiled_kernels: None
) -> None:
    """The escapes are shown as text (\\x1b), so the author can still see the bad name."""
    files(esc__yaml=ESCAPED_NAMES)(case_folder)
    status, out, _ = run_case(Case(lambda _: None, ("grade", "--explain", "esc.yaml"), 0, ()),
                              case_folder)
    assert status == 0
    assert "bl\\x1b]0;pwned\\x07ack\\u202e" in out and "r\\x1b[31med\\x9b" in out


def test_a_read_only_report_holds_the_archived_row(case_folder: Path) -> None:
    read_only_results(case_folder)
    case = SURFACE_CASES["report-read-only-results"]
    status, out, err = run_case(case, case_folder)
    assert status == 0, err
    rows = out.strip().splitlines()
    assert len(rows) == 2 and rows[1].startswith("k1,heart.yaml,1,Heart,7,5,graded,unique")


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_every_command_states_the_one_exit_status_table(command: str) -> None:
    from nonopress.cli import build_parser
    from nonopress.exit_status import HELP

    parser = build_parser([command, "--help"])
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    assert HELP in " ".join(sub.choices[command].format_help().split())


# -- The fuzz run's own parts (bench/fuzz_hostile.py) --------------------------------------
def _fuzz_module() -> Any:
    return bench_module("fuzz_hostile")


def test_the_fuzz_run_counts_each_outcome_by_what_the_child_did() -> None:
    fuzz = _fuzz_module()
    one_line = "nonopress check: x.yaml:3: not valid YAML\n"
    assert fuzz.classify(2 << 8, one_line) == "ok"
    assert fuzz.classify(1 << 8, "") == "ok"
    assert fuzz.classify(2 << 8, one_line * 2) == "not_one_line"
    assert fuzz.classify(70 << 8, "Traceback (most recent call last):\nKeyError: 1\n") \
        == "traceback"
    assert fuzz.classify(70 << 8, "numpy...: _ArrayMemoryError: MemoryError\n") == "over_bound"
    assert fuzz.classify(int(signal.SIGXCPU), "") == "over_bound"
    assert fuzz.classify(int(signal.SIGSEGV), "") == "crash"
    assert fuzz.classify(int(signal.SIGABRT), "what():  std::bad_alloc\n") == "over_bound"
    assert fuzz.classify(3 << 8, "") == "other_status"


def test_a_fuzz_input_is_made_again_from_its_number() -> None:
    fuzz = _fuzz_module()
    seeds = [fuzz.Seed("heart.yaml", HEART.encode(), lambda name: ["check", name]),
             fuzz.Seed("heart.non", b"width 2\nheight 1\nrows\n2\ncolumns\n1\n1\n",
                       lambda name: ["check", name])]
    made = [fuzz.input_of(index, 34, seeds) for index in range(40)]
    assert made == [fuzz.input_of(index, 34, seeds) for index in range(40)]
    assert len({data for _, data in made}) > 30  # and they differ from one another
    assert made != [fuzz.input_of(index, 35, seeds) for index in range(40)]
