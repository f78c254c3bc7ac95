"""YAML with the safe loader, after a streaming look at its shape.

The C loader builds nested nodes by recursion: 25,000 opening brackets in 50 KB crash the
process (a segfault, no message). Aliases let 100 KB stand for gigabytes once a reader
walks them. So every YAML input is first read as a stream of events, which needs no
recursion and no memory, and refused when it nests deeper than :data:`MAX_DEPTH`, when
its aliases would add more than :data:`MAX_ALIAS_NODES` nodes, or when a number is longer
than the bound every reader shares (:data:`grader.safe_json.MAX_NUMBER_CHARS`); only then
is it loaded.
"""

from __future__ import annotations

import re
from typing import Any

import yaml

from grader.safe_json import MAX_NUMBER_CHARS

#: Puzzles and manifests nest four or five levels; nothing honest needs more than this.
MAX_DEPTH = 50
#: Nodes aliases may stand for beyond the document's own (honest files use few aliases).
MAX_ALIAS_NODES = 100_000

# The C build of the same safe loader when libyaml is present: identical safety (no
# arbitrary objects), several times faster on the 1,000-puzzle tournament sets.
SafeLoader: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

_OPENING = (yaml.SequenceStartEvent, yaml.MappingStartEvent)
_CLOSING = (yaml.SequenceEndEvent, yaml.MappingEndEvent)
_NODES = (yaml.ScalarEvent, *_OPENING)
_RESOLVER = yaml.resolver.Resolver()
_NUMBER_TAGS = ("tag:yaml.org,2002:int", "tag:yaml.org,2002:float")


class ShapeError(ValueError):
    """YAML nested too deeply or inflated by aliases; ``line`` is 1-based."""

    def __init__(self, message: str, line: int | None):
        super().__init__(message)
        self.message = message
        self.line = line


def _key_of(text: str, target: int) -> str:
    """The dotted keys above the ``target``-th event (for an error message only)."""
    keys: list[str | None] = []  # per open collection: its current key (None: a list)
    expecting: list[bool] = []  # per open collection: whether the next node is a key
    for number, event in enumerate(yaml.parse(text, Loader=SafeLoader)):
        if number == target:
            break
        if isinstance(event, _CLOSING):
            keys.pop()
            expecting.pop()
            continue
        if not isinstance(event, (*_NODES, yaml.AliasEvent)):
            continue
        is_key = bool(expecting) and expecting[-1]
        if (expecting and keys[-1] is not None) or is_key:
            if is_key:
                keys[-1] = str(getattr(event, "value", "?"))[:40]
            expecting[-1] = not expecting[-1]
        if isinstance(event, yaml.MappingStartEvent):
            keys.append("")
            expecting.append(True)
        elif isinstance(event, yaml.SequenceStartEvent):
            keys.append(None)
            expecting.append(False)
    return ".".join(k for k in keys if k)


def _is_number(event: yaml.ScalarEvent) -> bool:
    """Whether the loader would make an int or a float of this scalar (plain, untagged)."""
    if event.tag is not None or not event.implicit[0]:
        return False
    tag = _RESOLVER.resolve(yaml.ScalarNode, event.value, (True, False))  # type: ignore[no-untyped-call]
    return tag in _NUMBER_TAGS


def _line(event: yaml.Event) -> int | None:
    mark = event.start_mark
    return None if mark is None else int(mark.line) + 1


def check_shape(text: str) -> None:
    """Raise ShapeError for a document too deep or too inflated (yaml.YAMLError if invalid)."""
    try:
        _check_events(text)
    except yaml.MarkedYAMLError as exc:
        # libyaml 0.2.5 and later (PyYAML 6.0.4 wheels) refuse deep nesting themselves,
        # in their scanner, before the events reach the count below: same words either way
        if "nesting depth" not in str(exc.problem):
            raise
        mark = exc.problem_mark
        line = None if mark is None else int(mark.line) + 1
        raise ShapeError(f"nested more than {MAX_DEPTH} levels deep", line) from None


def _check_events(text: str) -> None:
    depth = 0
    own = 0  # nodes written out in the text
    expanded = 0  # nodes the aliases stand for
    sizes: dict[str, int] = {}  # anchor -> nodes under it, aliases included
    open_anchors: list[tuple[str | None, int]] = []
    for number, event in enumerate(yaml.parse(text, Loader=SafeLoader)):
        if isinstance(event, _NODES):
            own += 1
        if isinstance(event, _OPENING):
            depth += 1
            if depth > MAX_DEPTH:
                raise ShapeError(f"nested more than {MAX_DEPTH} levels deep",
                                 _line(event))
            open_anchors.append((event.anchor, own + expanded - 1))
        elif isinstance(event, _CLOSING):
            depth -= 1
            anchor, start = open_anchors.pop()
            if anchor is not None:
                sizes[anchor] = own + expanded - start
        elif isinstance(event, yaml.ScalarEvent):
            if event.anchor is not None:
                sizes[event.anchor] = 1
            if len(event.value) > MAX_NUMBER_CHARS and _is_number(event):
                key = _key_of(text, number)
                raise ShapeError(f"{key + ': ' if key else ''}number {event.value[:12]}... "
                                 f"is longer than {MAX_NUMBER_CHARS} characters",
                                 _line(event))
        elif isinstance(event, yaml.AliasEvent):
            expanded += sizes.get(event.anchor or "", 1)
            if expanded > MAX_ALIAS_NODES:
                raise ShapeError(
                    f"aliases expand to more than {MAX_ALIAS_NODES:,} nodes "
                    "(a YAML bomb?)", _line(event))


# "\ud83d\ude00": how json.dump (ensure_ascii) writes an emoji. JSON is YAML, but YAML
# escapes name code points, so libyaml refuses the surrogate halves: join them first.
_PAIR = re.compile(r"(?<!\\)\\u(d[89ab][0-9a-f]{2})\\u(d[c-f][0-9a-f]{2})", re.IGNORECASE)
_LONE = re.compile(r"(?<!\\)\\ud[89a-f][0-9a-f]{2}", re.IGNORECASE)


def _join_surrogate_escapes(text: str) -> str:
    if "\\u" not in text:
        return text

    def joined(match: re.Match[str]) -> str:
        high, low = int(match.group(1), 16), int(match.group(2), 16)
        return f"\\U{0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00):08x}"

    return _LONE.sub("\\\\ufffd", _PAIR.sub(joined, text))


def load(text: str) -> Any:
    """``yaml.load`` with the safe loader, after :func:`check_shape`.

    Raises ShapeError, yaml.YAMLError, or ValueError/OverflowError for scalars the
    constructor rejects (``2024-13-45``, an integer of 5,000 digits).
    """
    text = _join_surrogate_escapes(text)
    check_shape(text)
    return yaml.load(text, Loader=SafeLoader)


def compose(text: str) -> yaml.Node | None:
    """The node tree of a document already loaded with :func:`load` (for line numbers)."""
    return yaml.compose(text, Loader=yaml.SafeLoader)


def bad_scalar_line(text: str) -> int | None:
    """The 1-based line of the first scalar the safe constructor rejects (``2024-13-45``).

    For an error message only; call it after :func:`check_shape` has passed.
    """
    try:
        root = compose(text)
    except (yaml.YAMLError, RecursionError):
        return None
    constructor = yaml.SafeLoader("")
    pending = [root] if root is not None else []
    while pending:
        node = pending.pop()
        if isinstance(node, yaml.ScalarNode):
            try:
                constructor.construct_object(node)
            except (yaml.YAMLError, ValueError, OverflowError):
                return int(node.start_mark.line) + 1
        elif isinstance(node, yaml.SequenceNode):
            pending.extend(reversed(node.value))
        elif isinstance(node, yaml.MappingNode):
            for key, value in reversed(node.value):
                pending.extend((value, key))
    return None
