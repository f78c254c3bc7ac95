"""A wall-clock budget shared by the steps of one authoring job, and its progress line."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from grader.results import Budget

Progress = Callable[[str], None]


def quiet(_message: str) -> None:
    """The progress callback that says nothing."""


@dataclass
class Clock:
    """``seconds`` from creation (None: no limit); ``progress`` hears what is being done."""

    seconds: float | None
    progress: Progress = quiet
    started: float = field(default_factory=time.monotonic)

    def elapsed(self) -> float:
        return time.monotonic() - self.started

    def left(self) -> float | None:
        return None if self.seconds is None else max(self.seconds - self.elapsed(), 0.0)

    def out(self) -> bool:
        left = self.left()
        return left is not None and left <= 0.0

    def budget(self, most: float) -> Budget:
        """A solver budget: at most ``most`` seconds, and never past the job's end."""
        left = self.left()
        return Budget(seconds=max(min(most, left) if left is not None else most, 0.01))

    def say(self, message: str) -> None:
        self.progress(f"[{self.elapsed():6.1f} s] {message}")
