"""The one place standard output is written safely.

A command's result goes to standard output, which may be a full disk (``> /dev/full``), a
closed pipe (``| head -1``) or a vanished terminal. Every command writes through
``sys.stdout`` (text) or ``sys.stdout.buffer`` (bytes); while a command runs,
:func:`guarded_stdout` puts a thin guard in front of both, so a failed write becomes one
:class:`StdoutError` (one error line, exit status 2) instead of a traceback, wherever in
the command it happens. Output still buffered when the command ends is flushed inside the
guard, not by the interpreter on its way out (which would print a traceback-like
"Exception ignored" and exit 120), and after a failure the unwritable descriptor is pointed
at ``/dev/null`` so that nothing tries again.
"""

from __future__ import annotations

import contextlib
import errno
import os
import sys
from collections.abc import Iterator
from typing import IO, Any

from grader.errors import NonopressError


class StdoutError(NonopressError):
    """Standard output could not be written."""

    def __init__(self, error: OSError):
        reason = error.strerror or str(error) or type(error).__name__
        super().__init__(f"cannot write standard output: {reason}")
        self.broken_pipe = isinstance(error, BrokenPipeError) or error.errno == errno.EPIPE


class _Guard:
    """``stream`` with OSError on write or flush turned into StdoutError."""

    def __init__(self, stream: Any):  # a text stream, or the binary one behind it
        self._stream = stream

    def write(self, data: Any) -> int:
        try:
            return int(self._stream.write(data) or 0)
        except OSError as exc:
            raise StdoutError(exc) from None

    def writelines(self, lines: Any) -> None:
        for line in lines:
            self.write(line)

    def flush(self) -> None:
        try:
            self._stream.flush()
        except OSError as exc:
            raise StdoutError(exc) from None

    @property
    def buffer(self) -> _Guard:
        return _Guard(self._stream.buffer)

    def __getattr__(self, name: str) -> Any:  # isatty, encoding, fileno, ...
        return getattr(self._stream, name)


def _silence(stream: IO[Any]) -> None:
    """Point a failed stream's descriptor at /dev/null and drop what it still buffers."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        fd = stream.fileno()
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, fd)
        os.close(null)
        stream.flush()  # now into /dev/null: the buffer is emptied without an error


@contextlib.contextmanager
def guarded_stdout() -> Iterator[None]:
    """Run the body with ``sys.stdout`` guarded; flush it before leaving."""
    original = sys.stdout
    guard = _Guard(original)
    sys.stdout = guard  # type: ignore[assignment]
    try:
        yield
        guard.flush()
    except StdoutError:
        _silence(original)
        raise
    except BaseException:  # the command's own error: still flush what it printed
        try:
            guard.flush()
        except StdoutError:
            _silence(original)
        raise
    finally:
        sys.stdout = original
