"""Worked solutions show a small grid after each hard step (issue 36, item 11)."""

from __future__ import annotations

import io
import re
from pathlib import Path

from pypdf import PdfReader

from grader import formats
from grader.grading import grade
from grader.model import FILLED
from layout.build import ROUTINE_RUNGS, build_issue, worked_grids, worked_lines
from layout.draw import Rects
from layout.latex import render_latex
from layout.manifest import load_manifest
from layout.pdf import GREY_OF, render_pdf
from layout.plan import plan_issue
from layout.preflight import preflight
from layout.stepgrid import GREY_LEGEND, LEGEND
from nonopress.cli import main

CLOCK = Path(__file__).resolve().parents[1] / "puzzles" / "clock.yaml"


def test_grids_follow_the_hard_steps_and_show_what_each_decided() -> None:
    (puzzle,) = formats.read(CLOCK)
    result = grade(puzzle)
    lines = worked_lines(result.steps, puzzle)
    grids = worked_grids(result.steps, puzzle, lines)
    hard = [k for k, s in enumerate(result.steps, 1) if s.rung not in ROUTINE_RUNGS]
    assert grids and len(grids) <= len(hard)
    for index, rows in grids:
        number = int(lines[index].split(".")[0])
        step = result.steps[number - 1]
        assert step.rung not in ROUTINE_RUNGS
        assert len(rows) == puzzle.height and all(len(r) == puzzle.width for r in rows)
        for r, c, state in step.changes:  # the step's own cells are marked
            assert rows[r][c] == ("F" if state == FILLED else "E")
    # later grids know more: fewer unknown cells
    unknown = [sum(row.count("?") for row in rows) for _, rows in grids]
    assert unknown == sorted(unknown, reverse=True)


def test_worked_pages_draw_the_grids(tmp_path: Path) -> None:
    (tmp_path / "clock.yaml").write_bytes(CLOCK.read_bytes())
    (tmp_path / "issue.yaml").write_text("worked: all\npuzzles: [clock.yaml]\n")
    issue = build_issue(load_manifest(tmp_path / "issue.yaml"))
    (entry,) = issue.entries
    assert entry.grade.grids
    plan = plan_issue(issue)
    worked = [page for page in plan.pages if page.kind == "worked"]
    accents = [op for page in worked for op in page.ops
               if isinstance(op, Rects) and op.role == "step" and op.rects]
    assert len(accents) == len(entry.grade.grids)
    texts = [getattr(op, "text", "") for page in worked for op in page.ops]
    assert LEGEND in texts or any(t.startswith("Grids:") for t in texts)


def test_the_latex_back_end_draws_the_same_grids(tmp_path: Path) -> None:
    """The LaTeX issue draws each step grid with TikZ at the plan's coordinates."""
    (tmp_path / "clock.yaml").write_bytes(CLOCK.read_bytes())
    (tmp_path / "issue.yaml").write_text("worked: all\npuzzles: [clock.yaml]\n")
    issue = build_issue(load_manifest(tmp_path / "issue.yaml"))
    (entry,) = issue.entries
    tex = render_latex(issue, plan_issue(issue))
    worked = [part for part in tex.split("% page ")[1:] if part.split("\n")[0].endswith("(worked)")]
    accents = [line for part in worked for line in part.splitlines()
               if line.startswith(r"\fill[np-step]") and "rectangle" in line]
    assert len(accents) == len(entry.grade.grids)
    # grey for the cells not known yet, black for the filled ones, as in the PDF
    assert sum(line.startswith(r"\fill[np-tint]") for part in worked
               for line in part.splitlines()) >= len(entry.grade.grids)
    assert r"\definecolor{np-step}" in tex and r"Grids:\ black\ =\ filled" in tex


def test_grey_print_marks_the_steps_cells_in_a_grey_of_their_own(tmp_path: Path) -> None:
    """In grey (K-only) print the accent is black, like the filled cells around the step's
    own: the step's cells print a mid grey instead, distinct from both the black filled
    cells and the light grey unknown ones, and the legend says so."""
    (tmp_path / "clock.yaml").write_bytes(CLOCK.read_bytes())
    (tmp_path / "issue.yaml").write_text("worked: all\nink: grey\npuzzles: [clock.yaml]\n")
    issue = build_issue(load_manifest(tmp_path / "issue.yaml"))
    assert issue.manifest.grey
    plan = plan_issue(issue)
    worked = [k for k, page in enumerate(plan.pages) if page.kind == "worked"]
    texts = [getattr(op, "text", "") for k in worked for op in plan.pages[k].ops]
    assert GREY_LEGEND in texts and LEGEND not in texts
    reader = PdfReader(io.BytesIO(render_pdf(issue, plan)))
    inks = set()
    for k in worked:
        stream = reader.pages[k].get_contents().get_data().decode("latin-1")
        inks |= {float(v) for v in re.findall(r"0 0 0 ([\d.]+) k", stream)}
    step, filled, unknown = GREY_OF["step"], GREY_OF["ink"], GREY_OF["tint"]
    assert {step, filled, unknown} <= inks
    assert abs(step - filled) >= 0.3 and abs(step - unknown) >= 0.3
    # the LaTeX source defines the same grey for the step's cells
    assert r"\definecolor{np-step}{cmyk}{0,0,0,0.5}" in render_latex(issue, plan)


def test_step_grids_keep_the_profiles_thinnest_line(tmp_path: Path) -> None:
    """Under KDP (0.75 pt at least) a step grid's rules are the profile's lines, not the
    0.25 pt of a plain page: the book passes the preflight's line rule."""
    (tmp_path / "clock.yaml").write_bytes(CLOCK.read_bytes())
    (tmp_path / "issue.yaml").write_text("worked: all\npuzzles: [clock.yaml]\n")
    out = tmp_path / "book.pdf"
    status = main(["issue", str(tmp_path / "issue.yaml"), "-o", str(out), "--profile", "kdp",
                   "--page", "8.5x11in", "--pad", "-q"])
    report = preflight(out, "kdp")
    widths = {r.rule: r for r in report.results}["line-widths"]
    assert status == 0 and widths.status == "pass", report.lines()
