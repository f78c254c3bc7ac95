"""The solver is compiled before any puzzle's clock starts, and a cold start says so once."""

from __future__ import annotations

import io
import subprocess
import sys
import time

import pytest

import grader.solver
import grader.solver.warmup as warmup
from grader.grading import grade
from grader.model import Puzzle
from grader.solver import ensure_compiled, solve

#: the real compiling stages, saved before any test replaces them
REAL_STAGES = warmup.STAGES


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.fixture
def cold(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """A process that has not compiled yet, with an empty cache; records the stages run."""
    ran: list[str] = []
    stages = tuple((name, (lambda n=name: ran.append(n))) for name, _ in warmup.STAGES)
    monkeypatch.setattr(warmup, "STAGES", stages)
    monkeypatch.setattr(warmup, "_compiled", False)
    monkeypatch.setattr(warmup, "is_cold", lambda folder: True)
    monkeypatch.setattr(warmup.jit_cache, "needs_compiling", lambda sources: True)
    monkeypatch.setattr(grader.solver, "_cache_ready", False)
    monkeypatch.setattr(warmup.jit_cache, "compile_notice", None)  # no command announced
    return ran


def test_a_cold_start_is_announced_once_on_the_stream(cold: list[str]) -> None:
    stream = io.StringIO()
    ensure_compiled(stream)
    assert cold == [name for name, _ in warmup.STAGES]
    lines = stream.getvalue().splitlines()
    assert lines[0].startswith("nonopress: compiling the solver (once after installing")
    assert lines[-1].startswith("nonopress: solver compiled in ")
    assert len(lines) == 2 and "\r" not in stream.getvalue()  # no progress off a terminal
    again = io.StringIO()
    assert ensure_compiled(again) == 0.0 and again.getvalue() == ""
    assert len(cold) == len(warmup.STAGES)  # nothing compiled twice


def test_a_terminal_sees_the_stage_in_progress(cold: list[str]) -> None:
    stream = Terminal()
    ensure_compiled(stream)
    text = stream.getvalue()
    assert "\rnonopress: compiling the solver (once after installing): 1/5 line solve" in text
    assert "4/5 conflict search" in text
    assert "5/5 the grader's line ranges" in text
    assert text.endswith("(cached for later runs)\x1b[K\n")


def test_a_warm_cache_is_silent(monkeypatch: pytest.MonkeyPatch, cold: list[str]) -> None:
    monkeypatch.setattr(warmup, "is_cold", lambda folder: False)
    stream = io.StringIO()
    ensure_compiled(stream)
    assert stream.getvalue() == "" and cold  # loaded from the cache, quietly


def test_compiling_is_not_counted_in_a_puzzles_time(
    monkeypatch: pytest.MonkeyPatch, cold: list[str]
) -> None:
    for _, stage in REAL_STAGES:  # the kernels themselves compiled (or loaded) beforehand
        stage()
    # a compile that takes 2 s: the puzzle's own time and budget must not include it
    monkeypatch.setattr(warmup, "STAGES", (("slow", lambda: time.sleep(2.0)),))
    puzzle = Puzzle.from_picture(["#.", "##"])
    result = grade(puzzle)
    assert result.verdict == "unique" and result.time_s < 1.5
    monkeypatch.setattr(warmup, "_compiled", False)
    assert solve(puzzle).time_s < 1.5


def test_a_closed_notice_stream_never_stops_the_work(cold: list[str]) -> None:
    stream = io.StringIO()
    stream.close()
    ensure_compiled(stream)
    assert cold == [name for name, _ in warmup.STAGES]


def test_a_ready_cache_is_not_loaded_before_a_puzzle_that_needs_no_kernel() -> None:
    """Grading an easy puzzle loads neither the kernels nor numba once they are cached
    (the user's cache, which the first process fills: loading every kernel up front cost
    each ``nonopress grade`` half a second)."""
    script = (
        "import sys\n"
        "from grader.grading import grade\n"
        "from grader.model import Puzzle\n"
        "from grader.solver import ensure_compiled\n"
        "if sys.argv[1] == 'fill':\n"
        "    ensure_compiled()\n"
        "else:\n"
        "    g = grade(Puzzle.from_picture(['.##.', '####', '.##.']))\n"
        "    assert g.verdict == 'unique', g\n"
        "    print(sorted(m for m in sys.modules if m.startswith(('numba', 'grader.solver.'))))\n"
    )
    run = [sys.executable, "-c", script]
    subprocess.run([*run, "fill"], check=True, timeout=600)
    loaded = subprocess.run([*run, "grade"], check=True, timeout=600,
                            capture_output=True, text=True).stdout
    assert "numba" not in loaded and "kernels" not in loaded, loaded
