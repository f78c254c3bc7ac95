"""The contract every kind of puzzle meets, and the registry entry that names a kind.

Like the ``struct game`` of Simon Tatham's collection: every kind answers the same slots,
and a command asks ``kind_of(puzzle)`` (grader.kinds.registry) instead of asking which kind
it holds. The contract has two parts: :class:`Kind`, the core every kind meets (its tag and
name, its size, its grade), and :class:`PuzzleKind`, the slots of the line puzzles (rows and
columns of clues: solve and count, clue texts, explain, the picture). Each kind's module
(``bw``, ``colour``, ``fillin``) fills them and gives a :class:`KindEntry`, which the one
list in grader.kinds.registry names.

Engines are imported inside the slots, so reading this package stays light (the CLI's
start-up does not load numba).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, TextIO

from grader.colour.model import ColourPuzzle
from grader.model import Puzzle

if TYPE_CHECKING:
    import numpy as np

    from grader.explain_html import Replay
    from grader.minutes import ClueFacts
    from grader.results import Budget, SolveResult
    from grader.solve_shape import SolveShape
    from grader.sweeps import Sweeps
    from grader.techniques.base import LineRef, Step

#: a puzzle of either kind
AnyPuzzle = Puzzle | ColourPuzzle


class Rating(Protocol):
    """What every grade tells a reader: its level on the ladder, score and stars."""

    @property
    def level(self) -> str: ...
    @property
    def score(self) -> float | None: ...
    @property
    def stars(self) -> int | None: ...


class MinuteFigures(Rating, Protocol):
    """The figures and the minutes a solve takes, as the player's solved panel and the
    index print them (a fresh grade, or the grade an issue cached)."""

    @property
    def minutes(self) -> float | None: ...
    @property
    def minutes_low(self) -> float | None: ...
    @property
    def minutes_high(self) -> float | None: ...


class CoreGrade(Rating, Protocol):
    """What the grade of a kind of any shape tells (a fill-in's grade as well)."""

    @property
    def verdict(self) -> str: ...
    @property
    def rungs(self) -> dict[str, int]: ...
    @property
    def time_s(self) -> float: ...


class KindGrade(CoreGrade, MinuteFigures, Protocol):
    """What a nonogram kind's grade tells (``grader.grading.Grade``, ``ColourGrade``)."""

    @property
    def problem(self) -> str: ...
    @property
    def size(self) -> str: ...
    @property
    def steps(self) -> tuple[Step, ...]: ...
    @property
    def effort_minutes(self) -> float: ...
    @property
    def graded(self) -> bool: ...
    def to_json(self) -> dict[str, Any]: ...


class Kind(Protocol):
    """The core every kind meets, whatever its grid holds."""

    @property
    def name(self) -> str:
        """``black-and-white``, ``colour``, ``fill-in`` (the ladder table's ``kinds``
        column names the line puzzles so)."""
        ...

    @property
    def tag(self) -> str:
        """The kind's short name in records, caches and the catalogue (``bw``, ``colour``)."""
        ...

    @property
    def puzzle(self) -> Any: ...

    def summary(self) -> dict[str, Any]:
        """What a JSON record says of the puzzle after its title and size (the palette)."""
        ...

    def size_label(self) -> str:
        """The size column of a table (``15x10``, ``15x10 3col``)."""
        ...

    def grade(self, max_rung: str | None, budget: Budget) -> CoreGrade: ...

    @property
    def drawing(self) -> str:
        """The name of the drawing layout prints the kind with (layout owns the drawings
        under layout/kinds/; the kind only names its own)."""
        ...


class PuzzleKind(Kind, Protocol):
    """The line puzzles' part: a grid of cells with rows and columns of clues (nonograms in
    black and white or in colour)."""

    @property
    def puzzle(self) -> AnyPuzzle: ...

    def clue_texts(self) -> tuple[list[Any], list[Any]]:
        """The row and column clues as JSON shows them."""
        ...

    def block_lengths(self) -> tuple[list[list[int]], list[list[int]]]:
        """The lengths of the blocks of each row and column clue, colours left out."""
        ...

    def solve(self, limit: int, budget: Budget, first: bool = False) -> SolveResult:
        """Count the solutions up to ``limit`` (never a wrong verdict)."""
        ...

    def solution_rows(self, result: SolveResult) -> list[list[str]]:
        """The solutions as rows of text (``#``/``.``, or the palette's characters)."""
        ...

    def legend(self) -> str:
        """What the characters of a solution mean, '' where that is plain."""
        ...

    def cell_colours(self) -> dict[str, str]:
        """The colour (``#rrggbb``) of each character a solution row holds (``?``, a cell
        still open, is not among them): how a picture of the grid paints it."""
        ...

    def with_solution(self, solution: Any) -> AnyPuzzle: ...

    def no_solution(self) -> NoSolution:
        """For a puzzle without a solution: why, and the line (or cell) that breaks."""
        ...

    def warnings(self) -> list[str]:
        """What is worth saying of a puzzle that is not a defect (an empty border)."""
        ...

    def grade(self, max_rung: str | None, budget: Budget) -> KindGrade: ...

    def prepare(self, notice: TextIO | None = None) -> float:
        """Compile the kind's kernels (or load them from the cache) before any puzzle's
        clock starts, once a process; seconds spent. A compile is announced on ``notice``."""
        ...

    def grid_rows(self, grade: KindGrade) -> tuple[str, ...] | None:
        """The grid a grade proved or reached, as solution rows (``?`` where still open);
        None when there is none."""
        ...

    def sweeps(self, deadline: float | None = None) -> int:
        """Passes of the complete line solve over all rows, then all columns, ... that
        changed something (grader/sweeps.py: what the minutes read, and calibration)."""
        ...

    def sweep_passes(self, deadline: float | None = None) -> Sweeps:
        """The sweep count and the share of the grid the first sweep settles."""
        ...

    def clue_facts(self, passes: Sweeps) -> ClueFacts:
        """What the time model reads of the clues (grader/minutes.py), with the sweeps."""
        ...

    def explain(self, grade: KindGrade, name: str) -> str:
        """The step-by-step explanation, with its heading and closing paragraph."""
        ...

    def replay(self, label: str, grade: KindGrade) -> Replay:
        """The solve step by step for the HTML replay (grader.explain_html)."""
        ...

    def colours(self) -> int:
        """How many colours the puzzle uses beside the background (1 for black and white)."""
        ...

    def palette(self) -> list[dict[str, str]] | None:
        """The palette as JSON shows it; None for black and white."""
        ...

    def picture(self, rows: Sequence[str]) -> np.ndarray[Any, Any]:
        """A solution's rows as the picture array (bool, or the palette index of a cell)."""
        ...

    def rows_of(self, picture: np.ndarray[Any, Any]) -> tuple[str, ...]:
        """A picture as solution rows (the inverse of :meth:`picture`), whether or not it
        solves the clues."""
        ...

    def editor_record(self) -> dict[str, Any]:
        """The clues, palette and givens as the studio's editor draws them."""
        ...

    def with_givens(self, givens: Sequence[tuple[int, int, bool]]) -> AnyPuzzle:
        """The puzzle with these cells given (a kind without givens refuses any)."""
        ...

    def black_and_white(self) -> Puzzle | None:
        """The puzzle for the engines that work on black and white only (authoring's
        repair), None for a puzzle in colours."""
        ...

    def in_colour(self) -> ColourPuzzle | None:
        """The puzzle for the engines that work on colour puzzles only (authoring's colour
        repair), None for a black-and-white one: the twin of :meth:`black_and_white`."""
        ...

    def sentence(self, step: Step) -> str:
        """One step of a solve as a sentence in the kind's words."""
        ...

    def start_cells(self) -> np.ndarray[Any, Any]:
        """The grid before a solve's first step as bit sets (bit 0 empty, bit v colour v:
        a black-and-white cell is 1 empty, 2 filled, 3 open), the givens decided. A step's
        changes are bit sets of the same kind."""
        ...

    def proved_rows(self, grade: KindGrade) -> tuple[str, ...] | None:
        """The solution the grade proved unique, as solution rows; None when it proved
        none (what an issue prints: never solved again)."""
        ...

    def solve_shape(self, grade: KindGrade) -> SolveShape | None:
        """What the solve drew (grader/solve_shape.py: the picture, the strokes, the
        order), which the minutes read; None when the grade proved no solution."""
        ...

    def givens(self) -> tuple[tuple[int, int, bool], ...]:
        """The cells given in the grid (row, column, filled); none for a kind without."""
        ...

@dataclass(frozen=True)
class BoardRecord:
    """What a kind that lays out pages of its own gives its player board (the fill-in's
    blocks, letters given and word list): the player's JSON adds the figures, the
    title and the answer obfuscated with ``key`` (nonopress.app.play)."""

    key: str
    width: int
    height: int
    #: the board's own fields, in the order the JSON lists them
    fields: dict[str, Any]
    #: the solution as one string the board compares, cell by cell
    answer: str


class PagedKind(Kind, Protocol):
    """A kind that lays out pages of its own (no rows and columns of clues): the fill-in."""

    def board_record(self) -> BoardRecord:
        """The puzzle as its player board reads it."""
        ...


@dataclass(frozen=True)
class NoSolution:
    """Why a puzzle of either kind has no solution: the line that breaks and the grid when
    it broke (or, for black and white, a cell that breaks both ways), where known."""

    why: str
    line: LineRef | None = None
    cell: tuple[int, int] | None = None
    rows: tuple[str, ...] = ()  #: the grid when the line broke (``?`` still open)

    def lines(self) -> list[str]:
        """What ``solve`` prints: why, and the grid when the line broke with that line
        marked (``>`` before a row, ``v`` over a column)."""
        lines = [f"no solution: {self.why}"]
        line = self.line
        if line is None:
            return lines
        lines.append("the grid when it broke (? = still open, > marks the line):")
        if line.axis == "row":
            lines.extend((">" if r == line.index else " ") + row
                         for r, row in enumerate(self.rows))
        else:
            lines.extend([" " + " " * line.index + "v", *(" " + row for row in self.rows)])
        return lines

    def where(self) -> dict[str, Any] | None:
        """What the studio marks: ``{"axis", "index"}`` of the line or ``{"cell"}``."""
        if self.line is not None:
            return {"axis": self.line.axis, "index": self.line.index}
        if self.cell is not None:
            return {"cell": list(self.cell)}
        return None



class StoredKind(Protocol):
    """A kind as library and catalogue records store it, by its tag: what a listing asks of
    a stored row without rebuilding the puzzle from its YAML (every row read back would cost
    a parse). ``STORED[row.kind]``; each kind's class fills it."""

    @property
    def tag(self) -> str: ...

    @property
    def rows_need_palette(self) -> bool:
        """The stored solution rows are the palette's characters, so drawing them needs the
        puzzle's palette (black and white's ``#``/``.`` draw alone)."""
        ...

    def stored_picture(self, rows: Sequence[str], puzzle: Callable[[], AnyPuzzle]
                       ) -> np.ndarray[Any, Any]:
        """Stored solution rows as the picture array (:meth:`PuzzleKind.picture`);
        ``puzzle`` rebuilds the stored puzzle, called only when the rows alone do not say."""
        ...


@dataclass(frozen=True)
class KindEntry:
    """One kind as the registry names it: everything the rest of the house asks of a kind
    without holding one of its puzzles (python-chess's variant class attributes, Tatham's
    ``struct game`` header). Engines are named as modules, imported when a slot needs them."""

    #: the short name in records, caches, the catalogue and the player's JSON ``kind``
    tag: str
    #: the name the ladder table's ``kinds`` column and ``calibrate --kind`` use
    name: str
    #: ``module:Class`` of the kind's puzzle (its model); :func:`kind_of` asks it only once
    #: the module is loaded, so a kind never loaded costs no import
    model: str
    #: the kind's contract of one puzzle (``BlackAndWhite(puzzle)``, ...)
    contract: Callable[[Any], Kind]
    #: the file formats that read and write the kind's puzzles (grader.formats, words.formats)
    formats: tuple[str, ...]
    #: the module of the complete solver that counts its solutions
    solver: str
    #: the module of the grader that rates it on a ladder of human steps
    grader: str
    #: the ladder table rows it serves (its ``kinds`` value), or a table of its own
    ladder: str
    #: the drawing layout prints it with (layout/kinds/), the same name as ``Kind.drawing``
    drawing: str
    #: the player's board for it (nonopress/assets/boards/), the JSON's ``kind``
    board: str
    #: the studio's editor draws and edits it
    editor: bool
    #: what the catalogue stores of it beyond the common columns; None: not catalogued
    catalogue: tuple[str, ...] | None
    #: the facts its minutes read (grader/minutes.py ``ClueFacts`` constructor), '' none
    minutes: str
    #: the manifest's list of it (``puzzles``: a puzzle file read by grader.formats)
    manifest_key: str = "puzzles"
    #: what a heading puts before the size (``Colour `` 15x10), '' for none
    label: str = ""
    #: read back from a stored row without the puzzle (library and catalogue listings)
    stored: StoredKind | None = None
    #: its puzzles have rows and columns of clues (the :class:`PuzzleKind` part: block
    #: lengths, sweeps, the replay); False for a kind that meets the core only
    lines: bool = True
    #: its grade's step log gives the player's hints (the fill-in's grade logs no steps)
    hints: bool = True
    #: it prints cells given in the grid: the studio's editor proposes givens for it
    givens: bool = False
    #: the studio's editor can check its clues alone, with no picture drawn (a colour
    #: clue's colours travel only as a picture)
    clues_alone: bool = False
    #: whether a file's bytes (and name) hold this kind's puzzles, for a kind whose files
    #: grader.formats does not read; asked before grader.formats
    claims: Callable[[bytes, str | None], bool] | None = None
    #: file suffixes of its own formats that grader.formats does not know (a folder's
    #: ``.mosaic`` game IDs), so ``batch`` and ``library add`` look at those files too
    suffixes: tuple[str, ...] = ()
    #: the format its own ``suffixes`` name, so ``convert x.yaml y.mosaic`` writes it
    #: without ``--to`` ('' for none)
    suffix_format: str = ""
    #: the reader of the files it claims: ``read(data, name, format)``
    read: Callable[[bytes, str, str | None], list[Any]] | None = None
    #: the writer of its puzzles: ``write(puzzles, format)``
    write: Callable[[Sequence[Any], str], bytes] | None = None
    #: its maker from a picture, for a kind that ``nonopress make --kind`` makes beside
    #: the nonograms' own authoring: ``make(picture, level, stars, seed, title, seconds)``
    #: gives the puzzle, whether it is proved unique, and its report record
    make: Callable[[Any, str | None, int | None, int, str, float],
                   tuple[Any, bool, dict[str, Any]]] | None = None
    #: its steering of a puzzle being edited, for a kind the studio steers by its clues
    #: rather than by changing cells (the mosaic): ``steer(puzzle, level, stars,
    #: seconds)`` gives the proposal the studio's editor shows (its clue rows, picture and
    #: what changed); None: the nonograms' repair
    steer: Callable[[Any, str | None, int | None, float], dict[str, Any]] | None = None
    #: the catalogue's key for one puzzle under the 8 symmetries of the square, for a kind
    #: whose clue grid is the puzzle (the mosaic's); None: the key of its solution picture
    design_key: Callable[[Any], str] | None = None

    def distance(self, puzzle: object) -> int | None:
        """How far up ``puzzle``'s class tree the kind's model is (0: its very class), None
        when it is not of this kind (or the model's module is not loaded: then no puzzle
        can be of it)."""
        import sys

        module, _, name = self.model.partition(":")
        loaded = sys.modules.get(module)
        model = None if loaded is None else getattr(loaded, name)
        mro = type(puzzle).__mro__
        return mro.index(model) if model in mro else None
