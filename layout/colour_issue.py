"""Colour issues, for callers not yet moved to the shared pipeline.

Colour puzzles print through the one page pipeline (``layout.build``, ``layout.plan``,
``layout.pdf``, ``layout.latex``; their clue squares, colours and legend in
``layout.colourdraw``), alone or mixed with black-and-white ones. These names keep older
callers working on top of it; new code calls :func:`layout.build.build_issue` directly.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from grader.colour.model import ColourPuzzle
from grader.errors import NonopressError
from grader.results import Budget
from layout.issue import Issue
from layout.manifest import Manifest
from layout.plan import IssuePlan
from layout.puzzlefiles import PuzzleFiles


def manifest_has_colour(manifest: Manifest, files: PuzzleFiles | None = None) -> bool:
    """Whether any puzzle of the issue is a colour puzzle (read errors are left to the
    build, which names them all). ``files`` reads each file once for the whole build."""
    files = files if files is not None else PuzzleFiles()
    for ref in manifest.puzzles:
        if ref.missing:
            continue
        try:
            puzzles = files.read_any(ref.path)
        except NonopressError:
            return False
        chosen = puzzles if ref.index is None else puzzles[ref.index - 1:ref.index]
        if any(isinstance(p, ColourPuzzle) for p in chosen):
            return True
    return False


def build_colour_issue(manifest: Manifest, budget: Budget,
                       progress: Callable[[str], None] = lambda _: None,
                       files: PuzzleFiles | None = None) -> Issue:
    """The issue, built by :func:`layout.build.build_issue` (no grade cache)."""
    from layout.build import build_issue
    from layout.gradecache import GradeCache

    return build_issue(manifest, cache=GradeCache(None), budget=budget, progress=progress,
                       files=files)


@dataclass(frozen=True)
class PlannedIssue:
    """An issue with its pages; ``len()`` is its page count."""

    issue: Issue
    plan: IssuePlan

    def __len__(self) -> int:
        return len(self.plan.pages)


def plan_colour_issue(issue: Issue, manifest: Manifest) -> PlannedIssue:
    from layout.plan import plan_issue

    return PlannedIssue(issue, plan_issue(issue))


def render_colour_pdf(planned: PlannedIssue, manifest: Manifest) -> bytes:
    from layout.pdf import render_pdf

    return render_pdf(planned.issue, planned.plan)


def render_colour_latex(planned: PlannedIssue, manifest: Manifest, jobname: str = "issue"
                        ) -> str:
    from layout.latex import render_latex

    return render_latex(planned.issue, planned.plan, jobname=jobname)


__all__ = ["PlannedIssue", "build_colour_issue", "manifest_has_colour", "plan_colour_issue",
           "render_colour_latex", "render_colour_pdf"]
