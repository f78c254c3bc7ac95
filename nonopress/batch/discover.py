"""Find the puzzle files under the paths a batch is given, and read them into Tasks.

Folders are walked (sorted, hidden entries skipped, symlinked folders not followed) for
files whose suffix a format of the registry knows, and for ``.txt`` files whose content
looks like a puzzle format (several formats use .txt, and so do READMEs); YAML issue
manifests (which list puzzle files) are passed over. Files named on the command line are
read whatever their suffix. A file that cannot be read becomes a
``failed`` row keyed by a hash of its path and bytes, so a rerun does not retry it until
the file changes.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from grader.errors import NonopressError
from grader.inputs import is_regular_file, read_input_bytes
from nonopress.batch.rows import ResultRow, Task, utc_now

UNREADABLE_PREFIX = "unreadable-"
#: Suffixes that no format claims but puzzle files often have: the content decides.
SNIFFED_SUFFIXES = frozenset({".txt"})
#: Suffixes shared by puzzle files and issue manifests.
YAML_SUFFIXES = frozenset({".yaml", ".yml"})
_SNIFF_BYTES = 64 * 1024


def known_suffixes() -> frozenset[str]:
    """Lower-case suffixes (with the dot) of every format in the registry, and of the
    kinds' own formats (a mosaic's game IDs)."""
    from grader.formats import FORMATS
    from grader.kinds import KINDS

    suffixes: set[str] = set()
    for fmt in FORMATS.values():
        suffixes.update(s.lower() for s in fmt.suffixes)
    for entry in KINDS:
        suffixes.update(s.lower() for s in entry.suffixes)
    return frozenset(suffixes)


def find_puzzle_files(paths: Sequence[str | Path], suffixes: Iterable[str]) -> list[Path]:
    """Every file to read, in a stable order, each once; an error for a path that is missing."""
    wanted = {s.lower() for s in suffixes}
    found: list[Path] = []
    seen: set[Path] = set()
    for given in paths:
        path = Path(given)
        if path.is_dir():
            candidates = _walk(path, wanted)
        elif path.exists():  # named: a file, a FIFO, a device (read capped, with a deadline)
            candidates = [path]
        else:
            raise NonopressError(f"{path}: no such file or folder")
        for candidate in candidates:
            # realpath never raises (a symlink loop resolves to itself and fails when read)
            resolved = Path(os.path.realpath(candidate))
            if resolved not in seen:
                seen.add(resolved)
                found.append(candidate)
    return found


def _walk(folder: Path, suffixes: set[str]) -> list[Path]:
    files: list[Path] = []
    for root, dirs, names in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in sorted(names):
            if name.startswith("."):
                continue
            suffix = Path(name).suffix.lower()
            path = Path(root, name)
            if suffix not in suffixes and suffix not in SNIFFED_SUFFIXES:
                continue
            if not is_regular_file(path) and os.path.lexists(path):
                # FIFOs, devices and sockets are never opened (a FIFO would block the
                # batch); symlink loops and dangling links become 'failed' rows.
                if _is_broken_link(path):
                    files.append(path)
                continue
            if suffix in YAML_SUFFIXES and is_issue_manifest(path):
                continue
            if suffix in suffixes or (suffix in SNIFFED_SUFFIXES and looks_like_puzzle(path)):
                files.append(path)
    return files


def _is_broken_link(path: Path) -> bool:
    """A symlink whose target cannot be reached (a loop, or nothing there)."""
    try:
        os.stat(path)
    except OSError:
        return os.path.islink(path)
    return False


def is_issue_manifest(path: Path) -> bool:
    """Whether a YAML file is an issue manifest rather than puzzles."""
    from grader.formats.yaml_format import is_issue_manifest as manifest_data

    try:
        return manifest_data(read_input_bytes(path, named=False))
    except NonopressError:
        return False


def looks_like_puzzle(path: Path) -> bool:
    """Whether the start of a file's content matches a format the registry can read."""
    from grader.formats import detect

    if not is_regular_file(path):
        return False
    try:
        with path.open("rb") as handle:
            head = handle.read(_SNIFF_BYTES)
        detect(head)
    except (NonopressError, OSError):
        return False
    return True


@dataclass
class Discovery:
    """What reading the files produced: puzzles to grade and files that failed."""

    tasks: list[Task] = field(default_factory=list)
    unreadable: list[ResultRow] = field(default_factory=list)
    readable_files: list[str] = field(default_factory=list)
    duplicates: int = 0  # puzzles whose clues already appeared earlier in the batch
    #: each duplicate as 'file #index is file #index', to say which were ignored
    duplicate_names: list[str] = field(default_factory=list)


def read_tasks(
    files: Iterable[Path], timeout_s: float, named: frozenset[Path] = frozenset()
) -> Discovery:
    """Read every file; one Task per distinct puzzle (bundles give one per puzzle).

    Only the files in ``named`` (given on the command line) may be FIFOs or devices.
    Colour puzzles are read too (a one-colour file comes back black and white).
    """
    from grader.kinds import read_puzzles

    result = Discovery()
    keys: dict[str, str] = {}  # puzzle key -> where it was first seen
    for path in files:
        name = str(path)
        try:
            data = read_input_bytes(path, name, named=path in named)
            puzzles = read_puzzles(data, name=name)
        except (NonopressError, OSError, UnicodeDecodeError) as exc:
            result.unreadable.append(_unreadable_row(path, exc))
            continue
        result.readable_files.append(name)
        for index, puzzle in enumerate(puzzles, start=1):
            key = puzzle.key()
            where = f"{name} #{index}"
            if key in keys:
                result.duplicates += 1
                result.duplicate_names.append(f"{where} is the same puzzle as {keys[key]}")
                continue
            keys[key] = where
            result.tasks.append(Task(key, name, index, puzzle.title, puzzle, timeout_s))
    return result


def _unreadable_row(path: Path, exc: BaseException) -> ResultRow:
    # The path and the bytes: a fixed (or replaced) file gets a fresh key and is read again.
    digest = hashlib.sha256(str(path).encode() + b"\0")
    with contextlib.suppress(NonopressError):
        digest.update(read_input_bytes(path, named=False))
    return ResultRow(
        key=UNREADABLE_PREFIX + digest.hexdigest()[:24],
        file=str(path),
        index=0,
        title="",
        status="failed",
        error=str(exc) if isinstance(exc, NonopressError) else f"cannot read: {exc}",
        finished_at=utc_now(),
    )
