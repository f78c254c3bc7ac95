"""The Mosaic of Simon Tatham's collection (kohend/simon-puzzles' ``mosaic.c``) as a peer
in bench/bench_mosaic.py: its own solver and generator, compiled here from a checkout of
the collection with our driver (bench/tatham_mosaic_driver.c) and timed through it.

Its solver only completes clues (a clue with all it needs empties the rest; one with
exactly as many open cells as it needs fills them) and loops for ever when that makes no
progress, so every call has a time limit: a call past it is counted ``stuck`` and the
driver started again. Its generator hides clues from a random picture while that solver
still finishes.
"""

from __future__ import annotations

import select
import shutil
import subprocess
import tempfile
from pathlib import Path

DRIVER = Path(__file__).with_name("tatham_mosaic_driver.c")
#: the collection's files the driver links (the game, its random numbers, memory, the
#: frontend stubs)
SOURCES = ("mosaic.c", "random.c", "misc.c", "malloc.c", "nullfe.c")


class TathamError(Exception):
    """The collection is not at the path given, or does not build here."""


def build(checkout: Path) -> Path:
    """The driver compiled against ``checkout`` (a temporary binary)."""
    missing = [name for name in (*SOURCES, "puzzles.h") if not (checkout / name).is_file()]
    if missing:
        raise TathamError(f"{checkout}: not a checkout of the puzzle collection (no "
                          f"{', '.join(missing)})")
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        raise TathamError("no C compiler (cc) to build the collection's Mosaic")
    binary = Path(tempfile.mkdtemp(prefix="tatham-mosaic-")) / "driver"
    command = [compiler, "-O2", "-std=c99", "-w", f"-I{checkout}", "-o", str(binary),
               str(DRIVER), *(str(checkout / name) for name in SOURCES), "-lm"]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        first = (done.stderr.strip().splitlines() or ["(no message)"])[0]
        raise TathamError(f"{checkout}: the collection's Mosaic does not build here: {first}")
    return binary


class Driver:
    """The compiled driver as a process answering one line a request, each within
    ``limit`` seconds (a request past it: None, and the process is started again)."""

    def __init__(self, binary: Path, limit: float):
        self.binary, self.limit = binary, limit
        self.process = self._start()

    def _start(self) -> subprocess.Popen[str]:
        return subprocess.Popen([str(self.binary)], stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, text=True, bufsize=1)

    def ask(self, line: str, limit: float | None = None) -> str | None:
        stdin, stdout = self.process.stdin, self.process.stdout
        assert stdin is not None and stdout is not None
        stdin.write(line + "\n")
        stdin.flush()
        ready, _, _ = select.select([stdout], [], [], limit or self.limit)
        if not ready:
            self.process.kill()
            self.process.wait()
            self.process = self._start()
            return None
        return stdout.readline().strip()

    def solve(self, game_id: str) -> tuple[str, float]:
        """("solved" | "unsolved" | "stuck", CPU seconds; the limit when stuck)."""
        answer = self.ask(f"solve {game_id}")
        if answer is None:
            return "stuck", self.limit
        word, seconds = answer.split()
        return word, float(seconds)

    def generate(self, width: int, height: int, seed: str, limit: float = 60.0
                 ) -> tuple[str | None, float]:
        """(the game ID its generator made, CPU seconds); (None, ``limit``) when it took
        longer than ``limit`` seconds."""
        answer = self.ask(f"generate {width}x{height} {seed}", limit)
        if answer is None:
            return None, limit
        if answer.startswith("error"):
            raise TathamError(f"its generator refused {width}x{height}: {answer}")
        desc, seconds = answer.split()
        return f"{width}x{height}:{desc}", float(seconds)

    def close(self) -> None:
        self.process.kill()
        self.process.wait()
