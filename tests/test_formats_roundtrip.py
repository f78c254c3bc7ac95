"""Every format round-trips: read -> write -> read gives the same puzzle.

Formats differ in what they can carry, so each comparison is made on the fields the
format preserves (``PRESERVES``): clues always; the known solution and the metadata only
where the format has room for them. Picture formats hold only puzzles with a known
solution; TAAI text holds only square puzzles.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from grader import formats
from grader.model import Metadata, Puzzle

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"
LIBRARY = Path(__file__).resolve().parents[1] / "puzzles"

CLUES, SOLUTION, TITLE, META = "clues", "solution", "title", "meta"

#: What survives a round trip through each format (clues always do).
PRESERVES: dict[str, frozenset[str]] = {
    "yaml": frozenset({CLUES, SOLUTION, META}),
    "json": frozenset({CLUES, SOLUTION, META}),
    "non": frozenset({CLUES, SOLUTION, META}),
    "xml": frozenset({CLUES, SOLUTION, META}),
    "picross": frozenset({CLUES, TITLE}),
    "g": frozenset({CLUES, TITLE}),
    "mk": frozenset({CLUES}),
    "nin": frozenset({CLUES}),
    "tatham": frozenset({CLUES}),
    "pynogram": frozenset({CLUES}),
    "taai": frozenset({CLUES}),
    "pbm": frozenset({CLUES, SOLUTION}),
    "pbm4": frozenset({CLUES, SOLUTION}),
    "png": frozenset({CLUES, SOLUTION}),
    "gif": frozenset({CLUES, SOLUTION}),
    "bmp": frozenset({CLUES, SOLUTION}),
    "picture": frozenset({CLUES, SOLUTION}),
}
PICTURE_FORMATS = frozenset({"pbm", "pbm4", "png", "gif", "bmp", "picture"})
MULTI_FORMATS = sorted(name for name, spec in formats.FORMATS.items() if spec.holds_many)


def test_every_writable_format_is_described() -> None:
    writable = {name for name, spec in formats.FORMATS.items() if spec.can_write}
    assert writable == set(PRESERVES)


def can_hold(puzzle: Puzzle, name: str) -> bool:
    if name in PICTURE_FORMATS:
        return puzzle.solution is not None
    if name == "taai":
        return puzzle.width == puzzle.height
    return True


def expected_after(puzzle: Puzzle, name: str) -> Puzzle:
    """``puzzle`` as it must come back from ``name``: only the preserved fields."""
    kept = PRESERVES[name]
    if META in kept:
        meta = puzzle.meta
    elif TITLE in kept:
        meta = Metadata(title=puzzle.meta.title)
    else:
        meta = Metadata()
    solution = puzzle.solution if SOLUTION in kept else None
    return Puzzle(puzzle.rows, puzzle.columns, solution, meta)


def assert_round_trip(puzzles: list[Puzzle], name: str, *, reread: bool = True) -> None:
    data = formats.write(puzzles, name)
    again = formats.read(data, format=name, name=f"written.{name}")
    assert again == [expected_after(p, name) for p in puzzles]
    # The content alone (no name, no format) is recognised as a format that reads it
    # back the same way; ambiguous pairs (pbm/pbm4) read the same.
    detected = formats.detect(data)
    if reread:
        assert formats.read(data, format=detected.name) == again
    else:
        assert detected.name == name


def round_trip_every_format(puzzles: list[Puzzle]) -> None:
    for name in PRESERVES:
        holdable = [p for p in puzzles if can_hold(p, name)]
        if not holdable:
            continue
        if formats.FORMATS[name].holds_many:
            assert_round_trip(holdable, name)
        else:
            for puzzle in holdable:
                assert_round_trip([puzzle], name)


# -- the project's library -----------------------------------------------------------------
def is_puzzle_file(path: Path) -> bool:
    """Puzzle files, not the other YAML beside them (an issue manifest, say)."""
    document = yaml.safe_load(path.read_text(encoding="utf-8"))
    if not isinstance(document, dict):
        return False
    return bool({"rows", "columns", "solution"} & set(document)) or set(document) <= {
        "puzzles", "notes"
    }


LIBRARY_FILES = (
    [p for p in sorted(LIBRARY.glob("*.yaml")) if is_puzzle_file(p)] if LIBRARY.is_dir() else []
)


@pytest.mark.parametrize("path", LIBRARY_FILES, ids=lambda p: p.name)
def test_library_puzzle_round_trips(path: Path) -> None:
    round_trip_every_format(formats.read_file(path))


def test_library_is_not_empty_when_present() -> None:
    if not LIBRARY.is_dir():
        pytest.skip("no puzzles/ folder")
    if not LIBRARY_FILES:
        pytest.skip("puzzles/ has no YAML files yet")
    assert all(formats.read_file(p) for p in LIBRARY_FILES)


# -- the whole public corpus ---------------------------------------------------------------
#: Files the corpus holds that are not black-and-white puzzles we must read.
REFUSED = {
    "olsak/acorn.g", "olsak/alladin.g", "olsak/bird2.g", "olsak/rose.g",
    "olsak/spaceShuttle.g", "pynogram/apples.txt", "pynogram/hello.txt", "pynogram/uk.txt",
    "patterns/invalid_input.txt",
}
NOT_PUZZLES = {"verdicts.json"}
BIG = ("tournaments/question/", "tournaments/solution/")


def corpus_files() -> list[str]:
    if not CORPUS.is_dir():
        return []
    names = []
    for path in sorted(CORPUS.rglob("*")):
        rel = path.relative_to(CORPUS).as_posix()
        if path.is_file() and path.suffix != ".md" and "README" not in path.name:
            names.append(rel)
    return [n for n in names if n not in NOT_PUZZLES]


SMALL_FILES = [n for n in corpus_files() if n not in REFUSED and not n.startswith(BIG)]
BIG_FILES = [n for n in corpus_files() if n.startswith(BIG)]


def test_corpus_lists_are_complete(corpus_dir: Path) -> None:
    assert len(SMALL_FILES) >= 240 and len(BIG_FILES) == 4
    assert all((corpus_dir / name).is_file() for name in REFUSED)


@pytest.mark.parametrize("name", SMALL_FILES)
def test_corpus_file_round_trips(corpus_dir: Path, name: str) -> None:
    round_trip_every_format(formats.read_file(corpus_dir / name))


@pytest.mark.slow
@pytest.mark.parametrize("name", BIG_FILES)
def test_tournament_set_round_trips_through_multi_puzzle_formats(
    corpus_dir: Path, name: str
) -> None:
    puzzles = formats.read_file(corpus_dir / name)
    assert len(puzzles) == 1000
    for fmt in MULTI_FORMATS:
        holdable = [p for p in puzzles if can_hold(p, fmt)]
        if holdable:
            assert_round_trip(holdable, fmt, reread=False)


# -- property tests: random pictures -> clues -> every writer and reader -------------------
titles = st.text(
    st.characters(min_codepoint=32, max_codepoint=0x2FFF, exclude_characters="\x7f"),
    max_size=20,
).map(lambda s: " ".join(s.split()))


@st.composite
def random_puzzles(draw: st.DrawFn) -> Puzzle:
    width = draw(st.integers(1, 12))
    height = draw(st.integers(1, 12))
    rows = draw(
        st.lists(st.text("#.", min_size=width, max_size=width), min_size=height,
                 max_size=height)
    )
    meta = Metadata(title=draw(titles), author=draw(titles), license=draw(titles))
    puzzle = Puzzle.from_picture(rows, meta)
    if draw(st.booleans()):
        puzzle = puzzle.with_solution(None)
    return puzzle


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(random_puzzles())
def test_random_puzzle_round_trips_through_every_format(puzzle: Puzzle) -> None:
    round_trip_every_format([puzzle])


@settings(max_examples=15, deadline=None)
@given(st.lists(random_puzzles(), min_size=2, max_size=4))
def test_random_puzzle_sets_round_trip_through_multi_puzzle_formats(
    puzzles: list[Puzzle],
) -> None:
    for fmt in MULTI_FORMATS:
        holdable = [p for p in puzzles if can_hold(p, fmt)]
        if holdable:
            assert_round_trip(holdable, fmt)
