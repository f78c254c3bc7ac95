"""Progress of a batch: a bar with count, rate and ETA on a terminal, sparse log lines elsewhere."""

from __future__ import annotations

import sys
import time
from collections import Counter
from typing import TextIO

from grader.text import error_line
from grader.wording import plural
from nonopress.batch.rows import ResultRow

_BAR_WIDTH = 28
_REDRAW_S = 0.2


def format_duration(seconds: float) -> str:
    seconds = max(0, round(seconds))
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


class Progress:
    """Counts finished puzzles; draws a bar on a TTY, else logs every ``log_every_s`` seconds."""

    def __init__(
        self,
        total: int,
        stream: TextIO | None = None,
        *,
        tty: bool | None = None,
        log_every_s: float = 10.0,
    ):
        self.total = total
        self.stream = stream if stream is not None else sys.stderr
        self.tty = self.stream.isatty() if tty is None else tty
        self.log_every_s = log_every_s
        self.done = 0
        self.by_status: Counter[str] = Counter()
        self.by_verdict: Counter[str] = Counter()
        self.started = time.monotonic()
        # A bar appears at the first puzzle; log lines only after log_every_s.
        self._last_output = 0.0 if self.tty else self.started
        self._bar_shown = False

    @property
    def elapsed_s(self) -> float:
        return time.monotonic() - self.started

    @property
    def rate(self) -> float:
        """Puzzles finished per second so far."""
        elapsed = self.elapsed_s
        return self.done / elapsed if elapsed > 0 else 0.0

    def eta_s(self) -> float | None:
        rate = self.rate
        return (self.total - self.done) / rate if rate > 0 else None

    def status_line(self) -> str:
        eta = self.eta_s()
        eta_text = format_duration(eta) if eta is not None else "?"
        return (
            f"{self.done}/{plural(self.total, 'puzzle')}, {self.rate:.2f}/s, "
            f"elapsed {format_duration(self.elapsed_s)}, ETA {eta_text}"
        )

    def update(self, row: ResultRow) -> None:
        self.done += 1
        self.by_status[row.status] += 1
        if row.verdict:
            self.by_verdict[row.verdict] += 1
        if row.status == "failed":
            self._log(error_line("failed: ", f"{row.label}: {row.error}"))
        now = time.monotonic()
        if self.tty:
            if now - self._last_output >= _REDRAW_S or self.done == self.total:
                self._draw_bar()
                self._last_output = now
        elif now - self._last_output >= self.log_every_s:
            self._log(self.status_line())
            self._last_output = now

    def _draw_bar(self) -> None:
        filled = _BAR_WIDTH * self.done // self.total if self.total else _BAR_WIDTH
        bar = "#" * filled + "-" * (_BAR_WIDTH - filled)
        self.stream.write(f"\r[{bar}] {self.status_line()}\x1b[K")
        self.stream.flush()
        self._bar_shown = True

    def _log(self, message: str) -> None:
        if self._bar_shown:  # keep the bar below the message
            self.stream.write("\r\x1b[K")
        self.stream.write(message + "\n")
        self.stream.flush()
        if self._bar_shown:
            self._draw_bar()

    def finish(self) -> None:
        if self._bar_shown:
            self.stream.write("\n")
            self._bar_shown = False
        self.stream.flush()
