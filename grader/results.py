"""Result types shared by the complete solver, the grader and the front ends."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, Literal, TypeVar, overload

from grader.model import as_row_strings

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from grader.colour.palette import Palette

#: ``solved``: a solution was found and the search stopped there, as asked (``first=True``);
#: whether it is the only one was not checked
Verdict = Literal["unique", "multiple", "none", "undecided", "solved"]
VERDICTS: tuple[Verdict, ...] = ("unique", "multiple", "none", "undecided", "solved")


#: a grid as a search holds it, and a solution picture taken from it (either kind)
GridT = TypeVar("GridT", bound="np.ndarray[Any, Any]")
PictureT = TypeVar("PictureT", bound="np.ndarray[Any, Any]")


class EnoughSolutions(Exception):
    """The pool holds as many solutions as were asked for: the search stops there."""


@dataclass
class SolutionPool(Generic[GridT, PictureT]):
    """Distinct solutions in the order found (probes and branches may meet the same one),
    for the complete solver of either kind: ``picture_of`` takes the picture from a solved
    grid, ``clues_of`` gives a picture's (rows, columns) clues to check it against."""

    clues: tuple[Any, Any]
    picture_of: Callable[[GridT], PictureT]
    clues_of: Callable[[PictureT], tuple[Any, Any]]
    target: int
    found: dict[bytes, PictureT] = field(default_factory=dict)

    def add(self, grid: GridT) -> None:
        picture = self.picture_of(grid)
        key = picture.tobytes()
        if key in self.found:
            return
        # a solution the kernels report must satisfy every clue; anything else is a bug
        if self.clues_of(picture) != self.clues:
            raise RuntimeError("solver bug: a reported solution does not satisfy the clues")
        self.found[key] = picture
        if len(self.found) >= self.target:
            raise EnoughSolutions


@dataclass(frozen=True)
class Budget:
    """How much a search may spend; None means no limit on that axis."""

    seconds: float | None = 10.0
    nodes: int | None = None

    @classmethod
    def unlimited(cls) -> Budget:
        return cls(seconds=None, nodes=None)

    def key(self) -> str:
        """A stable text for cache keys: a grade that ran out of one budget is not the
        answer for a larger one."""
        seconds = "none" if self.seconds is None else format(self.seconds, "g")
        return f"seconds={seconds},nodes={self.nodes}"

    def less(self, spent_s: float) -> Budget:
        """This budget with ``spent_s`` seconds already used (reading the puzzle, say)."""
        if self.seconds is None:
            return self
        return Budget(seconds=max(self.seconds - spent_s, 0.0), nodes=self.nodes)


@dataclass(frozen=True)
class PictureRows:
    """Black-and-white solutions as rows of booleans (True = filled), from a proof made in
    plain Python (:mod:`grader.solver.quick`): numpy is not imported to hold them."""

    pictures: tuple[tuple[tuple[bool, ...], ...], ...]


class _Solutions:
    """The ``solutions`` field of :class:`SolveResult`: arrays, always, to whoever reads it;
    given as :class:`PictureRows`, made into arrays on the first read. A ``check`` that
    prints a verdict (or the rows, :meth:`SolveResult.solution_rows`) never imports numpy."""

    def __set_name__(self, owner: type, name: str) -> None:
        self.slot = f"_{name}"

    @overload
    def __get__(self, result: None, owner: type) -> tuple[npt.NDArray[Any], ...]: ...
    @overload
    def __get__(self, result: SolveResult, owner: type) -> tuple[npt.NDArray[Any], ...]: ...
    def __get__(self, result: SolveResult | None, owner: type
                ) -> tuple[npt.NDArray[Any], ...]:
        if result is None:
            return ()  # the field's default
        held = result.__dict__[self.slot]
        if isinstance(held, PictureRows):
            import numpy as np

            held = tuple(np.array(picture, dtype=bool) for picture in held.pictures)
            result.__dict__[self.slot] = held
        arrays: tuple[npt.NDArray[Any], ...] = held
        return arrays

    def __set__(self, result: SolveResult,
                value: tuple[npt.NDArray[Any], ...] | PictureRows) -> None:
        result.__dict__[self.slot] = value if isinstance(value, PictureRows) else tuple(value)


@dataclass(frozen=True)
class SolveResult:
    """What the complete solver proved about a puzzle of either kind.

    ``verdict`` is never wrong: when the budget runs out before a proof it is
    ``undecided`` (``solutions`` then holds whatever was found so far). A solution is
    a (height, width) array: booleans for black and white, colour indices (0 = background)
    for colour.
    """

    verdict: Verdict
    solutions: _Solutions = _Solutions()
    time_s: float = 0.0
    nodes: int = 0
    complete: bool = True  # False when --all stopped at the limit or the budget
    reason: str = ""
    stats: dict[str, int] = field(default_factory=dict)
    #: CPU seconds of this puzzle's solve alone (the solving thread's, kernels included;
    #: not the process's: compiling, loading and other threads are not the puzzle's)
    cpu_s: float = 0.0

    @property
    def differing_cells(self) -> list[tuple[int, int]]:
        """(row, column) cells, 0-based, where the first two solutions differ."""
        held = self.__dict__["_solutions"]
        if isinstance(held, PictureRows):
            if len(held.pictures) < 2:
                return []
            first, second = held.pictures[:2]
            return [(r, c) for r, (a, b) in enumerate(zip(first, second, strict=True))
                    for c, (x, y) in enumerate(zip(a, b, strict=True)) if x != y]
        if len(self.solutions) < 2:
            return []
        import numpy as np

        rows, cols = np.nonzero(self.solutions[0] != self.solutions[1])
        return list(zip(rows.tolist(), cols.tolist(), strict=True))

    def solution_rows(self, palette: Palette | None = None) -> list[list[str]]:
        """Each solution as rows of text: ``#``/``.`` for black and white, the palette's
        characters for colour."""
        held = self.__dict__["_solutions"]
        if palette is None and isinstance(held, PictureRows):
            return [["".join("#" if v else "." for v in row) for row in picture]
                    for picture in held.pictures]
        if palette is None:
            return [list(as_row_strings(s)) for s in self.solutions]
        from grader.colour.model import colour_array_to_rows

        return [list(colour_array_to_rows(s, palette)) for s in self.solutions]
