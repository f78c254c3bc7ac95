"""``nonopress issue`` end to end: manifest in, PDF (and LaTeX) out, errors as exit 2."""

from __future__ import annotations

import io
import json
import re
import shutil
from pathlib import Path

import numpy as np
import pytest
import yaml
from pypdf import PdfReader

from grader import formats
from grader.errors import FormatError
from grader.model import Metadata, Puzzle
from layout.build import build_issue
from layout.manifest import load_manifest
from nonopress.cli import main

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "puzzles" / "issues" / "sample.yaml"
HAVE_TEX = shutil.which("latexmk") is not None and shutil.which("pdflatex") is not None

PICTURES = {
    "plus": ["..#..", "..#..", "#####", "..#..", "..#.."],
    "heart": [".##.##.", "#######", "#######", ".#####.", "..###..", "...#..."],
    "arrow": ["...#....", "...##...", "########", "########", "...##...", "...#...."],
}


def library(folder: Path, *, with_solutions: bool = True) -> None:
    for name, picture in PICTURES.items():
        puzzle = Puzzle.from_picture(picture, Metadata(title=name.title(), author="Ann"))
        if not with_solutions:
            puzzle = puzzle.with_solution(None)
        (folder / f"{name}.yaml").write_bytes(formats.write([puzzle], "yaml"))


def manifest(folder: Path, body: str = "") -> Path:
    library(folder)
    path = folder / "issue.yaml"
    path.write_text(
        "title: Test Weekly\nissue: 3\ndate: 2026-11-21\nworked: [2]\n" + body
        + "puzzles:\n  - plus.yaml\n  - {file: heart.yaml, note: A classic}\n"
        "  - {file: arrow.yaml, hide_title: false}\n"
    )
    return path


def test_builds_an_issue_and_caches_grades(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = manifest(tmp_path)
    out = tmp_path / "issue.pdf"
    assert main(["issue", str(path), "-o", str(out)]) == 0
    reader = PdfReader(io.BytesIO(out.read_bytes()))
    titles = [item.title for item in reader.outline if not isinstance(item, list)]
    assert titles == ["Contents", "No. 1 \u00b7 5x5", "No. 2 \u00b7 7x6",
                      "No. 3 \u00b7 8x6 \u00b7 Arrow", "Solutions", "Worked solution No. 2"]
    assert "wrote" in capsys.readouterr().err
    worked = reader.pages[-1].extract_text()
    assert "Worked solution: No. 2" in worked and "Heart" in worked
    assert "Techniques used:" in worked and re.search(r"(?m)^1\. \S", worked)
    cache = json.loads((tmp_path / "nonopress-grades.json").read_text())
    assert len(cache["grades"]) == 3
    levels = {record["level"] for record in cache["grades"].values()}
    assert levels <= {"easy", "medium", "hard", "fiendish"}

    # A second build takes every grade from the cache: the grader is never called.
    def no_grading(*args: object, **kwargs: object) -> None:
        raise AssertionError("graded again despite the cache")

    monkeypatch.setattr("layout.build.grade_with_ladder", no_grading)
    again = tmp_path / "again.pdf"
    assert main(["issue", str(path), "-o", str(again), "-q"]) == 0
    assert again.read_bytes() == out.read_bytes()


def test_booklet_and_grey_flags(tmp_path: Path) -> None:
    path = manifest(tmp_path)
    out = tmp_path / "issue.pdf"
    assert main(["issue", str(path), "-o", str(out), "--booklet", "--grey", "-q"]) == 0
    reader = PdfReader(io.BytesIO(out.read_bytes()))
    assert len(reader.pages) % 4 == 0
    streams = "".join(p.get_contents().get_data().decode("latin-1") for p in reader.pages)
    assert " rg" not in streams and "0 0 0 1 k" in streams


def test_latex_without_compiling_says_how(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = manifest(tmp_path)
    tex = tmp_path / "issue.tex"
    assert main(["issue", str(path), "--latex", str(tex), "--no-compile"]) == 0
    assert "\\begin{tikzpicture}" in tex.read_text()
    assert not (tmp_path / "issue.pdf").exists()
    assert "latexmk -pdf -no-shell-escape" in capsys.readouterr().err


def test_layout_never_solves_a_graded_puzzle_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import grader.solver

    library(tmp_path, with_solutions=False)
    (guessing,) = formats.read(ROOT / "puzzles" / "television.yaml")  # needs the solver
    (tmp_path / "tv.yaml").write_bytes(formats.write([guessing.with_solution(None)], "yaml"))
    path = tmp_path / "issue.yaml"
    path.write_text("puzzles: [plus.yaml, heart.yaml, tv.yaml]\n")
    calls: list[str] = []
    solve = grader.solver.solve

    def counting_solve(puzzle: Puzzle, *args: object, **kwargs: object) -> object:
        calls.append(puzzle.title)
        return solve(puzzle, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(grader.solver, "solve", counting_solve)
    issue = build_issue(load_manifest(path))
    # the ladder proves the easy ones alone; the grader's one search serves grade and print
    assert calls == [guessing.title]
    assert issue.entries[2].grade.level == "needs-guessing"
    assert np.array_equal(issue.entries[2].solution, guessing.solution_array())


def test_a_grade_that_ran_out_of_time_is_retried_with_more(tmp_path: Path) -> None:
    from grader.errors import ManyProblems
    from grader.results import Budget
    from layout.gradecache import GradeCache

    path = manifest(tmp_path)
    cache = GradeCache(tmp_path / "grades.json")
    # a puzzle whose uniqueness the budget did not prove blocks the issue, but its grade
    # is remembered under that budget
    with pytest.raises(ManyProblems, match="not proved within the budget"):
        build_issue(load_manifest(path), cache=cache, budget=Budget(seconds=1e-9))
    assert {record["level"] for record in cache.entries.values()} == {"undecided"}
    longer = build_issue(load_manifest(path), cache=cache, budget=Budget(seconds=30))
    assert "undecided" not in {e.grade.level for e in longer.entries}
    assert len(cache.entries) == 6  # one grade per puzzle and budget


def test_solutions_come_from_the_solver_when_files_have_none(tmp_path: Path) -> None:
    library(tmp_path, with_solutions=False)
    path = tmp_path / "issue.yaml"
    path.write_text("puzzles: [plus.yaml, heart.yaml]\n")
    issue = build_issue(load_manifest(path))
    for entry, name in zip(issue.entries, ("plus", "heart"), strict=True):
        assert entry.puzzle.solution is None
        expected = np.array([[ch == "#" for ch in row] for row in PICTURES[name]])
        assert np.array_equal(entry.solution, expected)


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ("colour: red\n", "unknown key 'colour'"),
        ("worked: [9]\n", "worked: no puzzle number 9"),
    ],
)
def test_manifest_mistakes_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], body: str, expected: str
) -> None:
    path = manifest(tmp_path, body)
    assert main(["issue", str(path), "-o", str(tmp_path / "x.pdf")]) == 2
    err = capsys.readouterr().err
    assert expected in err and str(path) in err
    assert "Traceback" not in err and not (tmp_path / "x.pdf").exists()


def test_unreadable_puzzles_exit_2_and_unprintable_ones_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "broken.non").write_text("width 5\nheight 5\nrows\n1\n")
    (tmp_path / "twins.yaml").write_text("rows: [[1], [1]]\ncolumns: [[1], [1]]\n")
    for name, expected, status in (("broken.non", "broken.non", 2),
                                   ("twins.yaml", "several solutions", 1)):
        path = tmp_path / f"{name}.issue.yaml"
        path.write_text(f"puzzles: [{name}]\n")
        assert main(["issue", str(path), "-o", str(tmp_path / "x.pdf"), "--no-cache"]) \
            == status
        err = capsys.readouterr().err
        assert expected in err and "Traceback" not in err


def test_output_names_that_collide_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = manifest(tmp_path)
    code = main(["issue", str(path), "-o", str(tmp_path / "a.pdf"), "--latex",
                 str(tmp_path / "a.tex")])
    assert code == 2 and "same file" in capsys.readouterr().err
    assert main(["issue", str(path)]) == 2
    assert "-o FILE.pdf" in capsys.readouterr().err


def test_the_sample_issue_builds_as_pdf_and_compiles_as_latex(tmp_path: Path) -> None:
    items = yaml.safe_load(SAMPLE.read_text())["puzzles"]
    files = [item if isinstance(item, str) else item["file"] for item in items]
    missing = [f for f in files if not (SAMPLE.parent / f).exists()]
    if missing:
        pytest.skip(f"the library puzzles {missing} are not in puzzles/")
    manifest_data = load_manifest(SAMPLE)
    assert len(manifest_data.puzzles) >= 6
    out, tex = tmp_path / "issue.pdf", tmp_path / "issue-tex.tex"
    args = ["issue", str(SAMPLE), "-o", str(out), "--cache-dir", str(tmp_path), "-q"]
    if HAVE_TEX:
        args += ["--latex", str(tex)]
    assert main(args) == 0
    pages = len(PdfReader(io.BytesIO(out.read_bytes())).pages)
    if not HAVE_TEX:
        pytest.skip("latexmk/pdflatex not installed: the LaTeX output was not compiled")
    compiled = PdfReader(io.BytesIO(tex.with_suffix(".pdf").read_bytes()))
    assert len(compiled.pages) == pages


def test_missing_output_folder_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = manifest(tmp_path)
    assert main(["issue", str(path), "-o", str(tmp_path / "nowhere" / "x.pdf")]) == 2
    assert "does not exist" in capsys.readouterr().err
    assert not (tmp_path / "nowhere").exists()


def test_files_with_several_puzzles_and_index(tmp_path: Path) -> None:
    puzzles = [Puzzle.from_picture(PICTURES[name], Metadata(title=name)) for name in PICTURES]
    (tmp_path / "three.yaml").write_bytes(formats.write(puzzles, "yaml"))
    path = tmp_path / "issue.yaml"
    path.write_text("puzzles:\n  - three.yaml\n  - {file: three.yaml, index: 2, title: Again}\n")
    issue = build_issue(load_manifest(path))
    assert [e.title for e in issue.entries] == ["plus", "heart", "arrow", "Again"]
    assert [e.number for e in issue.entries] == [1, 2, 3, 4]
    assert issue.entries[3].puzzle == puzzles[1].with_meta(title="heart")
    path.write_text("puzzles:\n  - three.yaml\n  - {file: three.yaml, index: 4}\n")
    with pytest.raises(FormatError, match=r"index 4: three\.yaml holds only 3") as caught:
        build_issue(load_manifest(path))
    assert caught.value.line == 3


def test_a_damaged_cache_is_ignored_with_a_warning(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = manifest(tmp_path)
    (tmp_path / "nonopress-grades.json").write_text("{not json")
    assert main(["issue", str(path), "-o", str(tmp_path / "issue.pdf"), "-q"]) == 0
    assert "grade cache ignored" in capsys.readouterr().err
    cache = json.loads((tmp_path / "nonopress-grades.json").read_text())
    assert len(cache["grades"]) == 3  # rewritten whole


def test_a_cached_grade_reads_back_as_the_grade_that_was_printed(tmp_path: Path) -> None:
    from grader.grading import grade
    from grader.results import Budget
    from layout.build import grade_with_ladder
    from layout.gradecache import GradeCache

    (television,) = formats.read(ROOT / "puzzles" / "television.yaml")
    graded = grade(television.with_solution(None), budget=Budget(seconds=30))
    printed = grade_with_ladder(television.with_solution(None), Budget(seconds=30))
    assert printed.solution == graded.solution_rows() and printed.solution is not None
    assert printed.level == graded.level and printed.rungs == graded.rungs
    cache = GradeCache(tmp_path / "grades.json")
    cache.put("tv", Budget(seconds=30), printed)
    cache.save()
    assert GradeCache(tmp_path / "grades.json").get("tv", Budget(seconds=30)) == printed
    assert GradeCache(tmp_path / "grades.json").get("tv", Budget(seconds=60)) is None
