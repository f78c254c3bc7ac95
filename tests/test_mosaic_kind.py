"""The mosaic wired in as a kind: the commands reach its engine through the registry."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from grader.kinds import BY_TAG, entry_of, read_puzzles, write_puzzles
from grader.mosaic_model import MosaicPuzzle
from nonopress.cli import main

ROOT = Path(__file__).resolve().parents[1]
HEART = str(ROOT / "puzzles" / "mosaic" / "heart.yaml")


def _json_lines(text: str) -> list[dict[str, object]]:
    return [json.loads(line) for line in text.splitlines() if line.startswith("{")]


def test_the_registry_names_the_kind_and_reads_its_files() -> None:
    (puzzle,) = read_puzzles(HEART)
    assert isinstance(puzzle, MosaicPuzzle)
    assert entry_of(puzzle) is BY_TAG["mosaic"]
    assert not BY_TAG["mosaic"].lines


def test_game_ids_are_claimed_but_pattern_ids_are_not(tmp_path: Path) -> None:
    ids = tmp_path / "ids.txt"
    ids.write_text("3x3:a0g\n")
    (puzzle,) = read_puzzles(ids)
    assert isinstance(puzzle, MosaicPuzzle) and puzzle.clue_count() == 1
    pattern = tmp_path / "pattern.txt"
    pattern.write_text("2x2:1/1/1/1\n")
    assert not isinstance(read_puzzles(pattern, format="tatham")[0], MosaicPuzzle)


def test_nonogram_yaml_is_not_claimed() -> None:
    (puzzle,) = read_puzzles(ROOT / "puzzles" / "cat.yaml")
    assert entry_of(puzzle).tag == "bw"


def test_check_and_grade_json_carry_the_nonogram_fields(capsys: pytest.CaptureFixture[str]
                                                         ) -> None:
    assert main(["check", "--json", HEART]) == 0
    (checked,) = _json_lines(capsys.readouterr().out)
    assert checked["verdict"] == "unique" and checked["kind"] == "mosaic"
    assert main(["grade", "--json", HEART]) == 0
    (graded,) = _json_lines(capsys.readouterr().out)
    for field in ("verdict", "solutions", "cpu_s", "level", "stars", "rungs"):
        assert field in graded
    assert graded["solutions"] == [[".##.##.", "#######", ".#####.", "..###..", "...#..."]]


def test_explain_says_each_step(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["grade", "--explain", HEART]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Heart: 7x5, medium")
    assert "1. [zeros-and-nines] the 9 at row 3, column 4 fills its whole block" in out


def test_a_folder_of_mosaics_checks(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", str(ROOT / "puzzles" / "mosaic")]) == 0
    assert capsys.readouterr().out.count("\tunique\t") == 6


def test_info_counts_clues(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["info", "--json", HEART]) == 0
    (record,) = _json_lines(capsys.readouterr().out)
    assert record["blocks"] == 14 and record["filled"] == 20 and record["columns"] == []


def test_convert_to_game_id_and_back(tmp_path: Path) -> None:
    out = tmp_path / "heart.ids"
    assert main(["convert", HEART, "--to", "tatham", str(out)]) == 0
    assert out.read_text().strip() == "7x5:e5a47888a4a6a9a6b36c1c4c"
    (back,) = read_puzzles(out)
    assert isinstance(back, MosaicPuzzle) and back.rows_text() == read_puzzles(HEART)[0].rows_text()


def test_convert_picks_game_ids_from_the_mosaic_suffix(tmp_path: Path) -> None:
    """`convert X.yaml Y.mosaic` writes game IDs with no --to, and Y.mosaic reads back by
    its suffix to the same clues (a game ID holds no title or solution)."""
    ids = tmp_path / "heart.mosaic"
    assert main(["convert", HEART, str(ids)]) == 0
    assert ids.read_text().strip() == "7x5:e5a47888a4a6a9a6b36c1c4c"
    back = tmp_path / "back.yaml"
    assert main(["convert", str(ids), str(back)]) == 0
    assert "kind: mosaic" in back.read_text()
    (again,) = read_puzzles(back)
    assert isinstance(again, MosaicPuzzle)
    assert again.rows_text() == read_puzzles(HEART)[0].rows_text()
    twice = tmp_path / "twice.mosaic"
    assert main(["convert", str(back), str(twice)]) == 0
    assert twice.read_bytes() == ids.read_bytes()


def test_a_nonogram_is_not_written_as_a_mosaic_file(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "cat.mosaic"
    assert main(["convert", str(ROOT / "puzzles" / "cat.yaml"), str(out)]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "cat.mosaic" in err and "mosaic" in err
    assert not out.exists()


def test_one_file_holds_one_kind() -> None:
    from grader.errors import FormatError

    mixed = [read_puzzles(HEART)[0], read_puzzles(ROOT / "puzzles" / "cat.yaml")[0]]
    with pytest.raises(FormatError, match="one kind"):
        write_puzzles(mixed, "json")


def test_bad_mosaic_is_one_line_and_status_2(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text('kind: mosaic\nclues:\n  - "9.."\n  - "..."\n')
    assert main(["check", str(bad)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "bad.yaml:3" in err and "clue 9 cannot fit" in err


def test_an_issue_prints_mosaics_after_the_nonograms(tmp_path: Path) -> None:
    from layout.build import build_issue
    from layout.draw import Lines, Text
    from layout.manifest import load_manifest
    from layout.plan import plan_issue

    issue = build_issue(load_manifest(ROOT / "puzzles" / "issues" / "mosaic-sample.yaml"))
    assert [e.noun for e in issue.entries][-3:] == ["mosaic"] * 3
    pages = plan_issue(issue).pages
    fish = next(p for p in pages if any(isinstance(op, Text) and "Mosaic 20x15" in op.text
                                        for op in p.ops))
    from collections import Counter

    sizes = Counter(op.size for op in fish.ops if isinstance(op, Text) and op.text.isdigit())
    assert max(sizes.values()) == 74  # every clue of fish.yaml is a digit in its cell, as text
    widths = sorted({op.width for op in fish.ops if isinstance(op, Lines)})
    assert len(widths) == 3  # thin rules, a thicker one every 5 cells, the border
    solutions = [p for p in pages if any(isinstance(op, Text) and op.text == "Mosaic solutions"
                                         for op in p.ops)]
    assert len(solutions) == 1


@pytest.mark.parametrize("large_print", [False, True])
def test_mosaic_solutions_are_ruled_at_the_nonograms_scale(large_print: bool) -> None:
    """A mosaic's solution picture is ruled as a nonogram solution is (grey rules a cell, ink
    rules every 5 cells), so a reader can count cells to check a row, and its cells are the
    size of the nonograms' solution cells on the same profile (they were an unruled
    silhouette, at a fixed size whatever the profile)."""
    from dataclasses import replace

    from layout.build import build_issue
    from layout.draw import Lines, Rects, Text
    from layout.manifest import load_manifest
    from layout.plan import plan_issue

    manifest = load_manifest(ROOT / "puzzles" / "issues" / "mosaic-sample.yaml")
    manifest = replace(manifest, profile=replace(manifest.profile, large_print=large_print))
    pages = plan_issue(build_issue(manifest)).pages
    page = next(p for p in pages if any(isinstance(op, Text) and op.text == "Mosaic solutions"
                                        for op in p.ops))
    nonogram_cells = {b.cell for p in pages if p.kind == "solutions" for b in p.blocks}
    assert len(nonogram_cells) == 1
    cell = nonogram_cells.pop()
    heading = next(op for op in page.ops if isinstance(op, Text) and op.text == "4. Fish")
    after = page.ops[page.ops.index(heading) + 1:]
    picture = next(op for op in after if isinstance(op, Rects))
    assert {(round(w, 3), round(h, 3)) for _x, _y, w, h in picture.rects} == {
        (round(cell, 3), round(cell, 3))}
    lines = [op for op in after[:4] if isinstance(op, Lines)]
    by_role = {op.role: op for op in lines}
    thick = [op for op in lines if op.role == "ink" and len(op.segments) == 3 + 2]
    assert thick, [(op.role, len(op.segments)) for op in lines]  # 20x15: 3 + 2 rules
    if "rule" in by_role:  # thin rules, unless they would darken a small picture
        assert len(by_role["rule"].segments) == 19 + 14 - 5


def test_make_kind_mosaic_writes_a_unique_mosaic_of_the_picture(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "cat.yaml"
    picture = str(ROOT / "puzzles" / "pictures" / "cat.png")
    assert main(["make", picture, "--kind", "mosaic", "--size", "15x15", "--level", "easy",
                 "-o", str(out), "--title", "Cat", "--seconds", "30"]) == 0
    assert "mosaic" in capsys.readouterr().err
    (made,) = read_puzzles(out)
    assert isinstance(made, MosaicPuzzle) and made.title == "Cat"
    assert made.solution is not None and 0 < made.clue_count() < made.width * made.height
    assert main(["check", str(out)]) == 0
    assert main(["make", picture, "--kind", "nope", "--size", "15x15"]) == 2


def test_web_publishes_a_mosaic_for_its_board(tmp_path: Path) -> None:
    """A mosaic's page loads boards/mosaic.js with its clue rows, its answer veiled, its title
    kept for the solved panel, and hints from the mosaic ladder's step log."""
    import json

    from grader.mosaic.ladder import mosaic_ladder
    from nonopress.app.play import reveal

    manifest = str(ROOT / "puzzles" / "issues" / "mosaic-sample.yaml")
    site = tmp_path / "site"
    assert main(["web", manifest, "-o", str(site), "--no-cache", "-q"]) == 0
    assert (site / "boards" / "mosaic.js").is_file()
    record = json.loads((site / "puzzle-03.json").read_text(encoding="utf-8"))
    (heart,) = read_puzzles(ROOT / "puzzles" / "mosaic" / "heart.yaml")
    assert record["kind"] == "mosaic" and record["clues"] == heart.rows_text()
    assert "Heart" not in record["heading"] and record["title"] == ""
    answer = reveal(record["solution"], record["key"])
    assert answer == "".join("1" if ch == "#" else "0" for row in heart.solution for ch in row)
    hints = record["hints"]
    assert hints["steps"] and set(hints["rungs"]) <= set(mosaic_ladder().names)
    first = hints["steps"][0]
    assert first["k"] and "the 9 at row 3, column 4" in first["s"]
    assert '<script src="boards/mosaic.js" defer></script>' in (
        site / "puzzle-03.html").read_text(encoding="utf-8")


def test_make_kind_bw_is_the_nonograms_make() -> None:
    from nonopress.app.making import by_its_maker

    assert not by_its_maker("bw") and not by_its_maker("colour")
    assert by_its_maker("mosaic") and by_its_maker("fillin") and by_its_maker("nope")
