"""``nonopress issue`` as an editor meets it: every blocker at once, worked solutions that
flow over pages, user text printed whole (or refused, never cut), photos refused."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from grader import formats
from grader.model import Metadata, Puzzle
from layout.build import MAX_PRINT_SIDE, build_issue, worked_lines
from layout.draw import Text
from layout.manifest import load_manifest
from layout.plan import plan_issue
from nonopress.cli import main

ROOT = Path(__file__).resolve().parents[1]
PLUS = ["..#..", "..#..", "#####", "..#..", "..#.."]


def _write(folder: Path, name: str, puzzle: Puzzle) -> None:
    (folder / name).write_bytes(formats.write([puzzle], "yaml"))


def _texts(pages: list) -> list[str]:  # type: ignore[type-arg]
    return [op.text for page in pages for op in page.ops if isinstance(op, Text)]


def test_every_puzzle_that_blocks_the_issue_is_named_in_one_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _write(tmp_path, "plus.yaml", Puzzle.from_picture(PLUS))
    (tmp_path / "twins.yaml").write_text("rows: [[1], [1]]\ncolumns: [[1], [1]]\n")
    # rows 1 1 force #.# twice: column 1 would hold 2 cells against its clue 1
    (tmp_path / "broken.non").write_text(
        "width 3\nheight 2\nrows\n1 1\n1 1\ncolumns\n1\n2\n1\n"
    )
    (tmp_path / "typo.non").write_text("width 5\nheight 5\nrows\n1\n")
    side = MAX_PRINT_SIDE + 20
    photo = ["#." * (side // 2)] * (side - 10)
    (tmp_path / "photo.pbm").write_bytes(formats.write([Puzzle.from_picture(photo)], "pbm"))
    manifest = tmp_path / "issue.yaml"
    manifest.write_text(
        "puzzles: [plus.yaml, twins.yaml, broken.non, typo.non, photo.pbm]\n"
    )
    out = str(tmp_path / "x.pdf")
    assert main(["issue", str(manifest), "-o", out, "--no-cache", "-q"]) == 2
    err = capsys.readouterr().err
    assert "4 puzzles of" in err and "Traceback" not in err
    lines = err.splitlines()[1:]
    assert lines[0].startswith("  twins.yaml (puzzle 2 of the issue): several solutions")
    assert lines[1] == (
        "  broken.non (puzzle 3 of the issue): no solution: row 1 (clue 1 1) cannot be "
        "satisfied given the cells decided before it"
    )
    assert "typo.non" in lines[2]
    assert lines[3].startswith(f"  photo.pbm (puzzle 5 of the issue) is {side}x{side - 10}")
    assert "`nonopress make`" in lines[3]
    assert not (tmp_path / "x.pdf").exists()


def test_a_worked_solution_flows_over_as_many_pages_as_it_needs(tmp_path: Path) -> None:
    # an easy 10x10 on A5: its 54 steps, worked in full, take more than a page
    manifest = tmp_path / "issue.yaml"
    manifest.write_text(
        f"page: A5\nworked: all\npuzzles: [{ROOT / 'puzzles' / 'cat.yaml'}]\n"
    )
    issue = build_issue(load_manifest(manifest))
    (entry,) = issue.entries
    plan = plan_issue(issue)
    worked = [page for page in plan.pages if page.kind == "worked"]
    assert len(worked) >= 2
    printed = " ".join(
        op.text for page in worked for op in page.ops
        if isinstance(op, Text) and op.size == 8 and op.role == "ink"  # the solve's lines
    )
    assert "more lines" not in printed
    # every step line is printed, in order, once (the wrapping splits long ones)
    words = printed.split()
    expected = " ".join(entry.grade.steps).split()
    positions = [k for k in range(len(words)) if words[k : k + 3] == expected[:3]]
    assert positions and words[positions[0] : positions[0] + len(expected)] == expected
    assert _texts(worked[1:])[0] == "Worked solution No. 1 (continued)"
    assert re.match(r"54\. ", entry.grade.steps[-1])  # in full: no step summarised


def test_routine_runs_are_summarised_and_hard_steps_kept_in_full() -> None:
    from grader.grading import grade

    # the moon needs no owner branching since the ladder has capped runs: the clock does
    (puzzle,) = formats.read(ROOT / "puzzles" / "clock.yaml")
    steps = grade(puzzle).steps
    lines = worked_lines(steps, puzzle)
    assert not lines[3].startswith("4. ")  # three steps show how it starts, no more
    hard = [f"{k}. " for k, s in enumerate(steps, 1) if s.rung == "owner-branching"]
    assert hard and all(any(line.startswith(h) for line in lines) for h in hard)


def test_a_long_title_on_an_a5_page_prints_whole(tmp_path: Path) -> None:
    _write(tmp_path, "plus.yaml", Puzzle.from_picture(PLUS, Metadata(title="Plus")))
    title = "Small Magazine Puzzle Corner"
    manifest = tmp_path / "issue.yaml"
    manifest.write_text(
        f"title: {title}\nissue: 12\ndate: 2026-03-01\npage: A5\nmargins: 15mm\n"
        "puzzles:\n  - {file: plus.yaml, hide_title: false, "
        "title: The Longest Title An Editor Ever Gave A Small Plus Sign}\n"
    )
    out, tex = tmp_path / "a5.pdf", tmp_path / "a5.tex"
    assert main(["issue", str(manifest), "-o", str(out), "--latex", str(tex),
                 "--no-compile", "-q"]) == 0  # fmt: skip
    plan = plan_issue(build_issue(load_manifest(manifest)))
    texts = _texts(plan.pages)
    assert title in texts and not any(text.endswith("...") for text in texts)
    assert any("The Longest Title An Editor Ever Gave A Small Plus Sign" in t for t in texts)
    source = tex.read_text()
    assert r"Small\ Magazine\ Puzzle\ Corner}" in source
    if shutil.which("pdftotext"):
        text = subprocess.run(
            ["pdftotext", "-layout", str(out), "-"], capture_output=True, text=True, check=True
        ).stdout
        assert title in re.sub(r"\s+", " ", text)


def test_text_that_cannot_fit_even_shrunk_is_refused_not_cut(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _write(tmp_path, "plus.yaml", Puzzle.from_picture(PLUS))
    manifest = tmp_path / "issue.yaml"
    note = "A hint that goes on and on " * 12
    manifest.write_text(f"page: A5\npuzzles:\n  - {{file: plus.yaml, note: {note}}}\n")
    assert main(["issue", str(manifest), "-o", str(tmp_path / "x.pdf"), "--no-cache"]) == 2
    err = capsys.readouterr().err
    assert "the note of puzzle 1 is too long for its place" in err
    assert not (tmp_path / "x.pdf").exists()
