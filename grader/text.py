"""Text from files made safe to keep, print and encode.

* :func:`clean`: what a Puzzle or a manifest keeps. Surrogate halves (``"\\ud83d"`` in JSON,
  or a pair that YAML read as two characters) cannot be encoded as UTF-8 and would break
  every later print or write: pairs become the character they stand for, lone halves
  U+FFFD.
* :func:`shown` (one line) and :func:`shown_lines` (a grid, an explanation): what reaches
  a terminal. Escape codes in a title must not move the
  cursor, recolour the screen or retitle the window, so control characters (C0, DEL, C1)
  and bidirectional overrides are shown as ``\\x1b``-style escapes, and long text is cut.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

#: Longest error line the CLI prints (a message quoting a 200 KB line is cut to this).
MAX_LINE = 300
#: Titles longer than this are cut in one-line-per-puzzle output.
TITLE_WIDTH = 60

_SURROGATES = re.compile("[\ud800-\udfff]")
# C0 controls but tab, DEL, C1 controls, and the bidi embeddings, overrides and isolates
_UNSAFE = re.compile("[\x00-\x08\x0a-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def clean(text: str) -> str:
    """``text`` with surrogate pairs joined and lone surrogates replaced by U+FFFD."""
    if not _SURROGATES.search(text):
        return text
    return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def shown(text: str, limit: int | None = None) -> str:
    """``text`` safe for a terminal: controls escaped, surrogates replaced, cut at ``limit``."""
    text = _UNSAFE.sub(_escape, clean(text))
    if limit is not None and len(text) > limit:
        text = text[: max(limit - 1, 0)] + "…"
    return text


def shown_lines(text: str | Iterable[str]) -> str:
    """Several lines for a terminal (a grid, an explanation): each line as :func:`shown`
    makes it, joined by newlines. Every text a command prints that holds a name from a
    file (a title, a colour's name or character) goes through here or :func:`shown`."""
    lines = text.split("\n") if isinstance(text, str) else text
    return "\n".join(shown(line) for line in lines)


def error_line(prefix: str, message: str) -> str:
    """One line for stderr: escaped and no longer than :data:`MAX_LINE` characters."""
    return shown(f"{prefix}{message}", MAX_LINE)
