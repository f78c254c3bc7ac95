"""JSON from files, with its numbers bounded where text becomes numbers.

``json.loads`` turns a 4,000-digit number into an int (a 5,000-digit one raises a bare
``ValueError`` from the interpreter's own limit), ``1e999`` into ``inf`` and ``NaN`` into a
float no reader expects; a document nested 100,000 deep raises ``RecursionError``. Every
reader of JSON from outside goes through :func:`parse` (exceptions) or :func:`load` (one
:class:`~grader.errors.FormatError` naming the file and line), so none of that reaches a
puzzle, a grid or a traceback.
"""

from __future__ import annotations

import math
import re
from typing import Any

from grader.errors import FormatError

#: The longest number (characters, sign and exponent included) any input may hold. Puzzle
#: clues have at most 6 digits, seeds and counts at most 20: nothing honest comes near.
MAX_NUMBER_CHARS = 40

# A cheap look for anything the hooks below would refuse: a run of 12 digits (a number
# over the bound has one, in its whole or its fractional part; a run in a string only costs
# the slower parse) or an exponent of three digits or more.
_SUSPECT = re.compile(r"[0-9]{12}|[eE][-+]?[0-9]{3}")


class NumberError(ValueError):
    """A number in the text that no reader should see: too long or not finite."""

    def __init__(self, message: str, token: str):
        super().__init__(message)
        self.token = token  #: the number as written, to find its line


def _constant(name: str) -> float:
    raise NumberError(f"{name} is not a number a file may hold", name)


def _whole(text: str) -> int:
    if len(text) > MAX_NUMBER_CHARS:
        raise NumberError(f"number {text[:12]}... is longer than {MAX_NUMBER_CHARS} "
                          "characters", text)
    return int(text)


def _real(text: str) -> float:
    if len(text) > MAX_NUMBER_CHARS:
        raise NumberError(f"number {text[:12]}... is longer than {MAX_NUMBER_CHARS} "
                          "characters", text)
    value = float(text)
    if not math.isfinite(value):
        raise NumberError(f"number {text[:20]} is too large", text)
    return value


def parse(text: str) -> Any:
    """``json.loads`` with bounded numbers; raises json.JSONDecodeError, NumberError or
    RecursionError."""
    import json  # here: the YAML reader shares this module's bound, not its JSON

    if _SUSPECT.search(text) is None:  # the common case: the C scanner's own numbers
        return json.loads(text, parse_constant=_constant)
    return json.loads(text, parse_constant=_constant, parse_int=_whole, parse_float=_real)


def load(text: str, source: str, first_line: int = 1) -> Any:
    """The JSON document in ``text``; anything wrong is a FormatError naming ``source``."""
    import json

    try:
        return parse(text)
    except json.JSONDecodeError as exc:
        raise FormatError(f"not valid JSON: {exc.msg}", source,
                          first_line + exc.lineno - 1) from None
    except RecursionError:
        raise FormatError("JSON nested too deeply", source, first_line) from None
    except NumberError as exc:
        line = first_line + text[: max(text.find(exc.token), 0)].count("\n")
        raise FormatError(f"not valid JSON: {exc}", source, line) from None
