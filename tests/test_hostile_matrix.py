"""Fuzz matrix: hostile inputs (nesting depth, size, encodings, special files) against every
reader and every command.

Each input runs in a child process with the bound the README states: 1 GB of address space
and 10 s of CPU time for all the commands on it together (exceeding either kills the child,
and the test fails). Every command must end with exit status 2 and one line naming the
file; a crash (segfault), a traceback or a second line fails the test.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from grader import formats
from grader.inputs import MAX_INPUT_BYTES

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
