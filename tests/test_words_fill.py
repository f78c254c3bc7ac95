"""The filler: every fill valid against the list and the crossings, seeds reproducible,
'no fill' proved and named, locks honoured, budgets respected."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from grader.errors import FormatError, NonopressError
from grader.results import Budget
from words import WordList, default_word_list, fill, normalise, parse_grid
from words.fill import FillResult
from words.grid import Grid
from words.search import luby
from words.wordlist import parse_word_list

DATA = Path(__file__).parent / "data" / "words"
SHARED = Path(__file__).resolve().parents[2] / "shared" / "crossword-grids" / "txt"


def assert_valid_fill(grid: Grid, result: FillResult, words: WordList) -> None:
    """Every slot holds a listed word, crossing slots agree on their shared cell, no word
    twice, and the letters the grid had are still there."""
    assert result.status == "filled"
    filled = result.grid
    assert filled.is_complete or filled.unchecked_cells
    assert len(result.entries) == len(grid.slots)
    for slot, word in zip(grid.slots, result.entries, strict=True):
        assert word in words, f"{slot.label}: {word} is not in the list"
        assert filled.entry(slot) == word
        assert len(word) == slot.length
    letter_of: dict[tuple[int, int], str] = {}
    for slot, word in zip(grid.slots, result.entries, strict=True):
        for cell, letter in zip(slot.cells, word, strict=True):
            assert letter_of.setdefault(cell, letter) == letter, f"crossing at {cell}"
    assert max(Counter(result.entries).values()) == 1, "a word is used twice"
    for r, row in enumerate(grid.rows):
        for c, ch in enumerate(row):
            if ch == "#":
                assert filled.at(r, c) == "#"
            elif ch != ".":
                assert filled.at(r, c) == ch


@pytest.fixture(scope="module")
def english() -> WordList:
    return default_word_list()


def test_slots_are_numbered_like_a_crossword() -> None:
    grid = parse_grid("#..\n...\n..#\n")
    labels = [(s.short, s.row, s.column, s.length) for s in grid.slots]
    assert labels == [
        ("1A", 0, 1, 2), ("3A", 1, 0, 3), ("4A", 2, 0, 2),
        ("1D", 0, 1, 3), ("2D", 0, 2, 2), ("3D", 1, 0, 2),
    ]
    assert grid.find_slot("3 across").index == 1


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [("...\n..\n", 2, "this row has 2 cells"), ("..\n.*\n", 2, "unexpected character"),
     ("\n\n", None, "no grid found"), ("#.#\n", 1, "no entry")],
)
def test_bad_grids_name_the_line(text: str, line: int | None, message: str) -> None:
    with pytest.raises(FormatError) as caught:
        parse_grid(text, "g.txt")
    assert caught.value.line == line
    assert message in str(caught.value) and "g.txt" in str(caught.value)


def test_normalise_folds_case_accents_and_punctuation() -> None:
    assert normalise("Café au lait") == "CAFEAULAIT"
    assert normalise("don't") == "DONT"
    assert normalise("Straße") == "STRASSE"
    assert normalise("x-ray") == "XRAY"
    assert normalise("4ever") is None
    assert normalise("naïve") == "NAIVE"


def test_word_list_file_scores_and_errors() -> None:
    words = parse_word_list("Cat;80\ncat 20\nDog\n# comment\nice cream\t60\n", "w.txt")
    assert words.score("CAT") == 80 and words.score("DOG") == 50
    assert words.score("ICECREAM") == 60  # phrases are run together, as in crosswords
    assert words.table(3).words == ("CAT", "DOG")  # best score first
    with pytest.raises(FormatError, match=r"w\.txt:1"):
        parse_word_list("cat;high\n", "w.txt")
    with pytest.raises(FormatError, match="no usable words"):
        parse_word_list("123\n", "w.txt")


def test_default_list_is_scored_english(english: WordList) -> None:
    assert "THE" in english and "CROSSWORD" in english
    assert english.score("THE") > english.score("CROSSWORD") > 0
    assert all(w.isascii() and w.isalpha() and w.isupper() for w in list(english)[:1000])


@pytest.mark.parametrize("name", ["ginsberg-20.txt"])
def test_fill_is_valid_with_the_default_list(name: str, english: WordList) -> None:
    grid = parse_grid((DATA / name).read_text())
    result = fill(grid, english, seed=0, budget=Budget(seconds=30))
    assert_valid_fill(grid, result, english)
    assert 0 < result.score <= 100


@pytest.mark.skipif(not SHARED.is_dir(), reason="benchmark grids not beside the checkout")
@pytest.mark.parametrize("name", ["herald-15.01", "herald-23.02", "legal5x5-05.01", "puzzle08"])
def test_benchmark_grids_fill_validly(name: str, english: WordList) -> None:
    grid = parse_grid((SHARED / f"{name}.txt").read_text())
    result = fill(grid, english, seed=0, budget=Budget(seconds=60))
    assert_valid_fill(grid, result, english)


def test_same_seed_same_fill_other_seed_other_fill(english: WordList) -> None:
    grid = parse_grid((DATA / "ginsberg-20.txt").read_text())
    first = fill(grid, english, seed=7, budget=Budget(seconds=30))
    again = fill(grid, english, seed=7, budget=Budget(seconds=30))
    other = [fill(grid, english, seed=s, budget=Budget(seconds=30)) for s in (1, 2, 3)]
    assert first.grid == again.grid and first.nodes == again.nodes
    assert any(o.grid != first.grid for o in other)
    for result in [first, *other]:
        assert_valid_fill(grid, result, english)


def test_prefilled_letters_and_locks_are_kept(english: WordList) -> None:
    grid = parse_grid((DATA / "ginsberg-20.txt").read_text())
    grid = grid.with_letters({grid.find_slot("6A").cells[0]: "P"})
    result = fill(grid, english, locks={"1A": "SPQ"}, budget=Budget(seconds=30))
    assert result.status == "filled"
    assert result.entries[grid.find_slot("1A").index] == "SPQ"  # not an English word
    assert result.grid.entry(grid.find_slot("6A")).startswith("P")
    assert_valid_fill(grid, result, english.with_words(["SPQ"]))


def test_bad_locks_are_refused(english: WordList) -> None:
    grid = parse_grid((DATA / "ginsberg-20.txt").read_text())
    with pytest.raises(NonopressError, match="has 2 letters"):
        fill(grid, english, locks={"1A": "NO"})
    with pytest.raises(NonopressError, match="no slot"):
        fill(grid, english, locks={"99A": "CAT"})


def test_small_list_fills_and_proves_no_fill() -> None:
    words = parse_word_list((DATA / "mini.txt").read_text())
    square = parse_grid("...\n...\n...\n")
    result = fill(square, words, budget=Budget(seconds=10))
    # a 3x3 word square needs six different words whose rows and columns agree
    if result.status == "filled":
        assert_valid_fill(square, result, words)
    else:
        assert result.status == "none" and result.failed_slot is not None
    blocked = parse_grid("Q..\n...\n...\n")
    none = fill(blocked, words)
    assert none.status == "none"
    assert none.failed_slot is not None and none.failed_slot.short in ("1A", "1D")
    assert "Q??" in none.reason


def test_exhaustive_search_agrees_with_brute_force() -> None:
    """On a 2x3 grid, the filler finds a fill exactly when brute force does."""
    words = parse_word_list("cat\ncar\ntar\narc\nat\nar\nta\ntr\nca\n")
    grid = parse_grid("...\n...\n")
    three = [w for w in words if len(w) == 3]
    brute = [
        (a, b) for a in three for b in three if a != b
        and all(a[k] + b[k] in words for k in range(3))
        and len({a, b, *(a[k] + b[k] for k in range(3))}) == 5
    ]
    result = fill(grid, words, budget=Budget(seconds=10))
    assert (result.status == "filled") == bool(brute)
    if brute:
        assert_valid_fill(grid, result, words)
        assert (result.entries[0], result.entries[1]) in brute


def test_budget_ends_in_undecided() -> None:
    words = default_word_list()
    grid = parse_grid((DATA / "ginsberg-20.txt").read_text())
    result = fill(grid, words, budget=Budget(seconds=None, nodes=2))
    assert result.status == "undecided" and "budget" in result.reason


def test_luby_sequence() -> None:
    assert [luby(i) for i in range(1, 16)] == [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]


def test_quality_mode_fills_validly_and_reproducibly(english: WordList) -> None:
    grid = parse_grid((DATA / "ginsberg-20.txt").read_text())
    first = fill(grid, english, seed=5, quality=True, budget=Budget(seconds=30))
    again = fill(grid, english, seed=5, quality=True, budget=Budget(seconds=30))
    assert_valid_fill(grid, first, english)
    assert first.grid == again.grid
    # this grid fills from the common-word tier: every word at Zipf 3 (score 37.5) or more
    assert first.min_score >= 37.5


def test_lone_white_cell_is_named() -> None:
    from words.fillin import make_fillin

    grid = parse_grid("AB#\nCD#\n##E\n")
    assert grid.unchecked_cells == ((2, 2),)
    with pytest.raises(NonopressError, match="row 3, column 3 is in no entry"):
        make_fillin(grid)


def test_a_repeated_given_word_is_named(english: WordList) -> None:
    # rows and columns of this square are the same three words: each would be used twice
    result = fill(parse_grid("CAT\nARE\nTEA\n"), english)
    assert result.status == "none" and "no word may be used twice" in result.reason


def test_missing_length_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from nonopress.cli import main

    grid = tmp_path / "two.txt"
    grid.write_text("..#\n...\n#..\n")
    assert main(["fill", str(grid), "--min-length", "3"]) == 1
    assert "the list has no 2-letter words, and 1 Across needs one" in capsys.readouterr().err


def test_report_names_weakest_entries_and_better_corners(english: WordList) -> None:
    from words.report import corner_grid, crossing_slots, fill_report

    grid = parse_grid((DATA / "ginsberg-20.txt").read_text())
    result = fill(grid, english, seed=0, budget=Budget(seconds=30))
    report = fill_report(result, english, count=3, seconds=2.0)
    scores = sorted(result.scores)
    assert [e.score for e in report] == scores[:3]
    assert any(e.rewrites for e in report)
    for entry in report:
        rubbed = corner_grid(result.grid, entry.slot)
        assert rubbed.entry(entry.slot) == "." * entry.slot.length
        assert all("." in rubbed.entry(s) for s in crossing_slots(grid, entry.slot))
        # the slots a rewrite may change: those with a rubbed-out cell
        corner = {s.index for s in grid.slots if "." in rubbed.entry(s)}
        for rewrite in entry.rewrites:
            new = dict(enumerate(result.entries))
            for slot, word, score in rewrite.changes:
                assert slot.index in corner and score > entry.score  # better words only
                new[slot.index] = word
            assert new[entry.slot.index] != entry.word
            refilled = grid
            for slot in grid.slots:
                refilled = refilled.with_entry(slot, new[slot.index])  # crossings agree
            assert all(refilled.entry(s) == new[s.index] for s in grid.slots)
            assert len(set(new.values())) == len(new)


def test_compiled_search_agrees_with_the_python_search() -> None:
    """Random small grids over random small lists, unscored and scored (where the
    compiled search tries a slot's last word first: progress saving): the compiled search
    (with its backjumping) and the Python reference (words.search) find a fill, or prove
    none, alike."""
    import random
    import time

    from words.compiled_fill import CompiledSearch
    from words.fill import _fill_compiled
    from words.search import Search

    rng = random.Random(5)
    tried = {"filled": 0, "none": 0}
    for _ in range(120):
        width, height = rng.randint(3, 5), rng.randint(3, 5)
        rows = ["".join("#" if rng.random() < 0.15 else "." for _ in range(width))
                for _ in range(height)]
        try:
            grid = parse_grid("\n".join(rows) + "\n")
        except FormatError:
            continue
        pool = ["".join(rng.choice("ABET") for _ in range(n)) for n in range(2, 6)
                for _ in range(rng.randint(8, 30))]
        scored = rng.random() < 0.5
        words = WordList.from_scores([(w, rng.uniform(30, 90)) for w in pool] if scored
                                     else pool)
        for seed in (0, 1):
            search = CompiledSearch(grid, words, {})
            assert len(search.saved) == (len(grid.slots) if scored else 0)
            result = _fill_compiled(search, words, time.perf_counter(), Budget(seconds=10),
                                    seed, True, False)
            reference = Search(grid, words)
            root = reference.root()
            found = not isinstance(root, int) and reference.dfs(root[0], root[1],
                                                                lambda _: True)
            assert result.status == ("filled" if found else "none"), (rows, seed)
            tried[result.status] += 1
            if found:
                assert_valid_fill(grid, result, words)
    assert tried["filled"] > 20 and tried["none"] > 20


def test_the_python_try_stops_at_its_work_limit(english: WordList) -> None:
    """The Python search's try before the compiled one is bounded by the propagation work
    it does, not only by nodes: past its work limit it stops (a restart, which
    words.fill answers by handing over to the compiled search), and without one the same
    search fills the grid."""
    from words.search import Search, Stop

    grid = parse_grid(".....\n.....\n.....\n.....\n.....\n")
    capped = Search(grid, english)
    root = capped.root()
    assert not isinstance(root, int)
    assert capped.work > 0  # the root's propagation is counted
    capped.work_limit = capped.work + 1
    with pytest.raises(Stop) as stop:
        capped.dfs(root[0][:], root[1][:], lambda _: True)
    assert stop.value.why == "restart"
    assert capped.nodes == 2  # the first node's propagation passed the limit
    free = Search(grid, english)
    root = free.root()
    assert not isinstance(root, int)
    assert free.dfs(root[0], root[1], lambda _: True)
