"""Start-up: a command imports what it runs and nothing else (bench/bench_startup.py times it)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from grader import formats
from grader.model import Puzzle

RING = [".###.", "#.#.#", "#####", "#.#.#", ".###."]


def run_and_list_modules(code: str) -> subprocess.CompletedProcess[str]:
    script = f"import sys; from nonopress.cli import main; code = main({code}); " \
        "print(' '.join(sorted(m for m in sys.modules if '.' not in m)), file=sys.stderr); " \
        "sys.exit(code)"
    return subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=120)


def test_checking_an_easy_puzzle_loads_neither_numba_nor_layout(tmp_path: Path) -> None:
    path = tmp_path / "ring.non"
    path.write_bytes(formats.write(Puzzle.from_picture(RING), "non"))
    done = run_and_list_modules(repr(["check", str(path)]))
    assert done.returncode == 0, done.stderr
    assert "unique" in done.stdout
    loaded = done.stderr.split()
    assert "numba" not in loaded and "layout" not in loaded and "reportlab" not in loaded


def test_version_imports_no_command() -> None:
    done = run_and_list_modules("['--version']")
    assert done.returncode == 0 and "nonopress" in done.stdout
    assert not {"numba", "layout", "reportlab", "yaml", "PIL"} & set(done.stderr.split())


def test_help_still_lists_every_command() -> None:
    from nonopress.cli import COMMANDS

    done = subprocess.run([sys.executable, "-m", "nonopress", "--help"], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0
    assert all(name in done.stdout for name in COMMANDS)
