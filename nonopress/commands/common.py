"""Helpers the subcommands share: the arguments every command takes, reading the command
line's files with each unreadable one reported (the loading itself is the application
layer's, :mod:`nonopress.app.loading`), JSON lines."""

from __future__ import annotations

import argparse
import math
import re
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, TypeVar

from grader import formats
from grader.errors import BundleError, NonopressError
from grader.text import clean, error_line
from nonopress.app.loading import expand_paths

Loaded = TypeVar("Loaded")


# -- numbers on the command line: bounded where the text becomes a number ------------------
def positive_float(text: str) -> float:
    """A number of seconds: above 0 and finite (``nan`` and ``inf`` are refused)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not 0 < value < math.inf:
        raise argparse.ArgumentTypeError(f"must be a number of seconds above 0, got {text}")
    return value


def positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {text}")
    return value


def add_language_argument(parser: argparse.ArgumentParser, manifest: bool = False) -> None:
    """``--language TAG``: the words a reader sees in that language (nonopress.cli puts it
    in force round the command; docs/languages.md)."""
    parser.add_argument(
        "--language", metavar="TAG",
        help="the reader's language, a BCP 47 tag: en, de, ja, ... or en-XA, the pseudo-locale"
        + (" (overrides the manifest's language:)" if manifest else "")
        + "; default English",
    )


def add_colour_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--colours", "--colors", dest="colours", type=int, default=None, metavar="N",
        help="read pictures (PNG, GIF, BMP) as colour puzzles of at most N colours",
    )


def iter_puzzles_reporting(
    paths: Sequence[str],
    command: str,
    iterate: Callable[[list[str]], Iterable[Loaded]],
) -> Iterator[Loaded | None]:
    """Each puzzle of each file (folders: of each puzzle file under them), read by
    ``iterate`` (:func:`iter_puzzles`); a file that
    cannot be read is reported on stderr (a line per unreadable puzzle) and yields None,
    and the other files are still read."""
    for path in paths:
        try:
            files = expand_paths([path])
        except NonopressError as exc:
            print(error_line(f"nonopress {command}: ", str(exc)), file=sys.stderr, flush=True)
            yield None
            continue
        for file in files:
            try:
                yield from iterate([file])
            except BundleError as exc:  # the readable puzzles came first; each bad one now
                for line in exc.lines():
                    print(error_line(f"nonopress {command}: ", line), file=sys.stderr,
                          flush=True)
                yield None
            except NonopressError as exc:
                print(error_line(f"nonopress {command}: ", str(exc)), file=sys.stderr, flush=True)
                yield None


def add_input_arguments(parser: argparse.ArgumentParser, *, many: bool = True) -> None:
    """``FILE...`` (or one ``FILE``) and ``--from FORMAT``."""
    parser.add_argument(
        "files",
        metavar="FILE",
        nargs="+" if many else None,
        help="puzzle file ('-' for standard input) or folder of puzzle files; the format "
        "comes from the suffix or the content",
    )
    parser.add_argument(
        "--from",
        dest="input_format",
        metavar="FORMAT",
        choices=sorted(formats.FORMAT_NAMES),  # the names alone: no format module loaded
        help="read the input as FORMAT instead of detecting it",
    )


def json_default(value: Any) -> Any:
    """Make tuples, sets and numpy scalars JSON-friendly."""
    if isinstance(value, (set, frozenset)):
        return sorted(value)
    if hasattr(value, "tolist"):
        return value.tolist()
    raise TypeError(f"cannot write {type(value).__name__} as JSON")


# JSON escapes C0 controls itself; these reach a terminal raw unless escaped too
_TERMINAL_UNSAFE = re.compile("[\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def json_line(obj: Any) -> str:
    """One line of JSON, readable (not ASCII-escaped) but safe to print on a terminal."""
    import json  # here: only --json needs it, and every command imports this module

    text = json.dumps(obj, ensure_ascii=False, default=json_default, separators=(", ", ": "))
    return _TERMINAL_UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", clean(text))


def print_json_line(obj: Any) -> None:
    """One JSON object on one line of standard output (the ``--json`` convention)."""
    print(json_line(obj), flush=True)
