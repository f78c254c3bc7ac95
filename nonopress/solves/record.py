"""One solve record as the web player sends it, validated field by field.

The record (agreed with the player, ``nonopress/web``; field names never change within
``v: 1``)::

    {"v": 1, "record_id": uuid4, "solver_id": uuid4, "puzzle_key": Puzzle.key(),
     "grader_version": str, "seconds_active": number, "completed": bool, "checks": int,
     "reveals": int, "errors_found": int, "hints": {"1": int, "2": int, "3": int, "4": int},
     "hint_rungs": [rung names], "device": "phone"|"tablet"|"desktop",
     "started_at": "2026-11-28T02:30Z", "player": "nonopress-player/<version>",
     "finish": "unaided"|"hinted"|"revealed"}

Every field is required but ``finish`` and no other is accepted; ``finish`` (how the
attempt was finished, or got so far: by the solver alone, with a hint accepted or shown
down to its cells, or with a cell revealed) came in issue 56, and a record of an older
player without it is read as before. A record with a reveal is ``revealed`` whatever it
says: a player cannot make a revealed solve clean by naming it so. Each field is checked
for its type (a JSON ``true`` is not a number), its range and its size. The first fault
found is the one line a refused record gets back, naming the field.
"""

from __future__ import annotations

import datetime as dt
import json
import math
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from grader.errors import NonopressError

VERSION = 1
DEVICES = ("phone", "tablet", "desktop")
HINT_STAGES = ("1", "2", "3", "4")
#: a solve measured for longer than a week of active time is not a measurement
MAX_SECONDS = 7 * 24 * 3600.0
#: a completed solve shorter than this (active seconds) is not a person solving: the
#: fastest finish of the smallest puzzle the player shows takes longer than this
MIN_COMPLETED_SECONDS = 5.0
#: checks, reveals, hints of one stage, errors found: more than this is not one person
MAX_COUNT = 100_000
MAX_RUNGS = 500
#: the body of one record; a record is about 500 bytes with a few dozen rungs named
MAX_BYTES = 16_384
_UUID4 = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$")
_KEY = re.compile(r"^[0-9a-f]{8,64}$")
_RUNG = re.compile(r"^[a-z0-9][a-z0-9-]{0,47}$")
_VERSION_TEXT = re.compile(r"^[\x21-\x7e]{1,64}$")
_PLAYER = re.compile(r"^nonopress-player/[0-9A-Za-z.+-]{1,40}$")
_STARTED = re.compile(r"^(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d)(?::(\d\d)(?:\.\d{1,6})?)?Z$")
#: the earliest start a record may give (before the player existed: a wrong clock)
EARLIEST = dt.datetime(2026, 1, 1, tzinfo=dt.UTC)
#: a device clock ahead of ours by up to a day is tolerated
CLOCK_SLACK = dt.timedelta(days=1)

FIELDS = ("v", "record_id", "solver_id", "puzzle_key", "grader_version", "seconds_active",
          "completed", "checks", "reveals", "errors_found", "hints", "hint_rungs", "device",
          "started_at", "player")
#: fields a record may leave out (a player before issue 56 sends no ``finish``)
OPTIONAL = ("finish",)
#: how an attempt was finished: alone, with a hint accepted (or shown down to its cells),
#: with a cell revealed; only an unaided finish is a clean solve
FINISHES = ("unaided", "hinted", "revealed")


class RecordRefused(NonopressError):
    """A record not stored, with the one line that says why and the HTTP status."""

    def __init__(self, message: str, status: int = 422, retry_after: int | None = None):
        super().__init__(message)
        self.status = status
        self.retry_after = retry_after  # seconds, for a 429


@dataclass(frozen=True)
class SolveRecord:
    """A valid record (``started_at`` kept to the minute: ``2026-11-28T02:30Z``)."""

    record_id: str
    solver_id: str
    puzzle_key: str
    grader_version: str
    seconds_active: float
    completed: bool
    checks: int
    reveals: int
    errors_found: int
    hints: tuple[int, int, int, int]
    hint_rungs: tuple[str, ...]
    device: str
    started_at: str
    player: str
    #: who sent it (nonopress/solves/senders.py; not part of the record sent, the collector
    #: adds it from the request's address); None when not known
    sender: str | None = None
    #: how it was finished (FINISHES); None from a player that does not say
    finish: str | None = None

    def row(self) -> dict[str, Any]:
        """The ``solves`` table's columns (without the times the collector adds)."""
        return {
            "record_id": self.record_id, "solver_id": self.solver_id,
            "puzzle_key": self.puzzle_key, "grader_version": self.grader_version,
            "seconds_active": self.seconds_active, "completed": self.completed,
            "checks": self.checks, "reveals": self.reveals, "errors_found": self.errors_found,
            "hints_1": self.hints[0], "hints_2": self.hints[1], "hints_3": self.hints[2],
            "hints_4": self.hints[3],
            "hint_rungs": json.dumps(list(self.hint_rungs), separators=(",", ":")),
            "device": self.device, "started_at": self.started_at, "player": self.player,
            "sender": self.sender, "finish": self.finish,
        }

    def to_json(self) -> dict[str, Any]:
        """The record as the player sends it."""
        return {
            "v": VERSION, "record_id": self.record_id, "solver_id": self.solver_id,
            "puzzle_key": self.puzzle_key, "grader_version": self.grader_version,
            "seconds_active": self.seconds_active, "completed": self.completed,
            "checks": self.checks, "reveals": self.reveals, "errors_found": self.errors_found,
            "hints": dict(zip(HINT_STAGES, self.hints, strict=True)),
            "hint_rungs": list(self.hint_rungs), "device": self.device,
            "started_at": self.started_at, "player": self.player,
            **({"finish": self.finish} if self.finish is not None else {}),
        }


def _refuse(message: str, status: int = 422) -> RecordRefused:
    return RecordRefused(message, status)


def _count(value: Any, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise _refuse(f"{name}: a whole number is needed, got {_kind(value)}")
    if not 0 <= value <= MAX_COUNT:
        raise _refuse(f"{name}: {_short(value)} is out of range (0 to {MAX_COUNT:,})")
    return value


def _text(value: Any, name: str, pattern: re.Pattern[str], what: str) -> str:
    if not isinstance(value, str):
        raise _refuse(f"{name}: {what} is needed, got {_kind(value)}")
    if not pattern.match(value):
        raise _refuse(f"{name}: {_short(value)} is not {what}")
    return value


def _kind(value: Any) -> str:
    names = {bool: "true/false", int: "a number", float: "a number", str: "text",
             list: "a list", dict: "an object", type(None): "null"}
    return names.get(type(value), type(value).__name__)


def _short(value: Any) -> str:
    text = json.dumps(value) if not isinstance(value, float) or math.isfinite(value) \
        else str(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _started(value: Any, now: dt.datetime) -> str:
    if not isinstance(value, str):
        raise _refuse(f"started_at: an ISO-8601 UTC time is needed, got {_kind(value)}")
    match = _STARTED.match(value)
    if not match:
        raise _refuse(f"started_at: {_short(value)} is not a UTC time such as "
                      "2026-11-28T02:30Z")
    year, month, day, hour, minute = (int(v) for v in match.groups()[:5])
    try:
        when = dt.datetime(year, month, day, hour, minute, tzinfo=dt.UTC)
    except ValueError:
        raise _refuse(f"started_at: {_short(value)} is not a date") from None
    if not EARLIEST <= when <= now + CLOCK_SLACK:
        raise _refuse(f"started_at: {value} is not a time a solve can have started")
    return when.strftime("%Y-%m-%dT%H:%MZ")


def parse_record(data: bytes | Mapping[str, Any], known_puzzle: Callable[[str], bool] | None,
                 now: dt.datetime | None = None) -> SolveRecord:
    """The record in ``data`` (the request body, or its JSON already read), or
    :class:`RecordRefused` naming the first field at fault. ``known_puzzle(key)`` says
    whether the catalogue holds the puzzle (asked last: the cheap checks come first; None:
    the caller asks, see :func:`unknown_puzzle`)."""
    if isinstance(data, bytes | bytearray):
        if len(data) > MAX_BYTES:
            raise _refuse(f"the record is {len(data):,} bytes, over the limit of "
                          f"{MAX_BYTES:,}", 413)
        try:
            value = json.loads(data)
        except (ValueError, RecursionError):
            raise _refuse("the body is not a JSON object", 400) from None
    else:
        value = data
    if not isinstance(value, Mapping):
        raise _refuse("the body is not a JSON object", 400)
    unknown = sorted(str(k) for k in value if k not in FIELDS and k not in OPTIONAL)
    if unknown:
        raise _refuse(f"unknown field {_short(unknown[0])} (a record has only: "
                      f"{', '.join(FIELDS + OPTIONAL)})")
    missing = [name for name in FIELDS if name not in value]
    if missing:
        raise _refuse(f"{missing[0]}: missing")
    if isinstance(value["v"], bool) or value["v"] != VERSION:
        raise _refuse(f"v: this collector reads records of version {VERSION}, got "
                      f"{_short(value['v'])}")
    record_id = _text(value["record_id"], "record_id", _UUID4, "a random (version 4) UUID")
    solver_id = _text(value["solver_id"], "solver_id", _UUID4, "a random (version 4) UUID")
    key = _text(value["puzzle_key"], "puzzle_key", _KEY, "a puzzle key (hexadecimal)")
    version = _text(value["grader_version"], "grader_version", _VERSION_TEXT,
                    "a grader version (1 to 64 printable characters)")
    seconds = value["seconds_active"]
    if isinstance(seconds, bool) or not isinstance(seconds, int | float):
        raise _refuse(f"seconds_active: a number is needed, got {_kind(seconds)}")
    if not (math.isfinite(seconds) and 0 <= seconds <= MAX_SECONDS):
        raise _refuse(f"seconds_active: {_short(seconds)} is out of range "
                      f"(0 to {MAX_SECONDS:,.0f})")
    if not isinstance(value["completed"], bool):
        raise _refuse(f"completed: true or false is needed, got {_kind(value['completed'])}")
    if value["completed"] and seconds < MIN_COMPLETED_SECONDS:
        raise _refuse(f"seconds_active: {_short(seconds)} for a completed solve is not "
                      f"plausible (a solve takes at least {MIN_COMPLETED_SECONDS:g} s)")
    counts = {name: _count(value[name], name) for name in ("checks", "reveals", "errors_found")}
    hints = value["hints"]
    if not isinstance(hints, Mapping):
        raise _refuse(f"hints: an object of the four stages is needed, got {_kind(hints)}")
    if sorted(hints) != list(HINT_STAGES):
        raise _refuse('hints: the stages "1", "2", "3" and "4", each once, are needed, got '
                      f"{_short(sorted(str(k) for k in hints))}")
    one, two, three, four = (_count(hints[s], f"hints.{s}") for s in HINT_STAGES)
    stages = (one, two, three, four)
    rungs = value["hint_rungs"]
    if not isinstance(rungs, list):
        raise _refuse(f"hint_rungs: a list of rung names is needed, got {_kind(rungs)}")
    if len(rungs) > MAX_RUNGS:
        raise _refuse(f"hint_rungs: {len(rungs):,} names, over the limit of {MAX_RUNGS}")
    names = tuple(_text(r, f"hint_rungs[{i}]", _RUNG, "a rung name such as simple-boxes")
                  for i, r in enumerate(rungs))
    device = value["device"]
    if not isinstance(device, str) or device not in DEVICES:
        raise _refuse(f"device: one of {', '.join(DEVICES)} is needed, got {_short(device)}")
    started = _started(value["started_at"], now or dt.datetime.now(dt.UTC))
    player = _text(value["player"], "player", _PLAYER, "nonopress-player/<version>")
    finish = value.get("finish")
    if finish is not None and (not isinstance(finish, str) or finish not in FINISHES):
        raise _refuse(f"finish: one of {', '.join(FINISHES)} is needed, got {_short(finish)}")
    if counts["reveals"]:
        finish = "revealed"
    if known_puzzle is not None and not known_puzzle(key):
        raise unknown_puzzle(key)
    return SolveRecord(
        record_id=record_id, solver_id=solver_id, puzzle_key=key, grader_version=version,
        seconds_active=float(seconds), completed=value["completed"], hints=stages,
        hint_rungs=names, device=device, started_at=started, player=player,
        checks=counts["checks"], reveals=counts["reveals"],
        errors_found=counts["errors_found"], finish=finish,
    )


def unknown_puzzle(key: str) -> RecordRefused:
    return _refuse(f"puzzle_key: {key} is no puzzle of this catalogue", 404)
