"""``render FILES... --to FOLDER`` (issue 46, item 10): one file per puzzle and per solution
in SVG, PDF and EPS, and a feed describing them (title, date, level, stars, minutes,
author, licence), for a syndication partner. The EPS is drawn by Ghostscript (in CI) and
inks the cells the PNG renderer inks."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest
from defusedxml import ElementTree
from PIL import Image

from grader.colour.model import ColourPuzzle, rows_to_colour_array
from grader.colour.palette import Colour, Palette
from grader.formats import write_any
from grader.grading import grade
from grader.model import Metadata, Puzzle
from layout.render import puzzle_page, render
from nonopress.cli import main

GS = shutil.which("gs")


def _stock(folder: Path) -> dict[str, Puzzle | ColourPuzzle]:
    folder.mkdir()
    picture = np.zeros((6, 6), dtype=bool)
    picture[1:5, 1:5] = True
    picture[2:4, 2:4] = False
    square = Puzzle.from_picture(picture, Metadata(title="Square Ring", author="A. Setter",
                                                   license="CC-BY-4.0"))
    palette = Palette((Colour("red", (200, 30, 30), "r"), Colour("green", (30, 150, 60), "g")))
    flag = ColourPuzzle.from_picture(
        rows_to_colour_array(["rr..g", "rr.gg", "..gg.", "r.g..", "rrr.g"], palette), palette,
        Metadata(title="Flag é", author="B. Setter", license="CC0-1.0"))
    (folder / "square.yaml").write_bytes(write_any(square, "yaml"))
    (folder / "flag.yaml").write_bytes(write_any(flag, "yaml"))
    return {"square-ring": square, "flag-e": flag}


def test_a_set_for_syndication(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    made = _stock(tmp_path / "in")
    out = tmp_path / "out"
    out.mkdir()
    assert main(["render", str(tmp_path / "in"), "--to", str(out), "--date", "2026-12-24"]) == 0
    feed = json.loads((out / "feed.json").read_text(encoding="utf-8"))
    items = {item["id"]: item for item in feed["items"]}
    assert set(items) == set(made)
    square = items["square-ring"]
    graded = grade(made["square-ring"])  # type: ignore[arg-type]
    assert (square["title"], square["date"], square["author"], square["licence"]) == (
        "Square Ring", "2026-12-24", "A. Setter", "CC-BY-4.0")
    assert (square["level"], square["stars"], square["minutes"]) == (
        graded.level, graded.stars, graded.minutes)
    assert items["flag-e"]["kind"] == "colour" and items["flag-e"]["title"] == "Flag é"
    for item in feed["items"]:
        for part in ("puzzle", "solution"):
            names = item["files"][part]
            assert set(names) == {"svg", "pdf", "eps"}
            ElementTree.fromstring((out / names["svg"]).read_bytes())  # well-formed SVG
            assert (out / names["pdf"]).read_bytes().startswith(b"%PDF-")
            eps = (out / names["eps"]).read_bytes()
            assert eps.startswith(b"%!PS-Adobe-3.0 EPSF-3.0") and b"%%BoundingBox: 0 0 " in eps
    # a second run writes the same names, and the feed only changes with the date
    assert main(["render", str(tmp_path / "in"), "--to", str(out), "--date", "2026-12-24"]) == 0
    assert json.loads((out / "feed.json").read_text(encoding="utf-8")) == feed


def test_one_eps_and_bad_requests(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _stock(tmp_path / "in")
    eps = tmp_path / "one.eps"
    assert main(["render", str(tmp_path / "in" / "square.yaml"), str(eps)]) == 0
    assert eps.read_bytes().startswith(b"%!PS-Adobe-3.0 EPSF-3.0")
    capsys.readouterr()
    # a folder not there yet is made (issue 60); a file where the folder should be is refused
    assert main(["render", str(tmp_path / "in"), "--to", str(eps)]) == 2
    assert main(["render", str(tmp_path / "in"), "--to", str(tmp_path), "--formats",
                 "svg,tiff"]) == 2
    assert main(["render", str(tmp_path / "in"), "--to", str(tmp_path), "--date",
                 "Christmas"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 3 and "tiff" in err[1] and "Christmas" in err[2]


@pytest.mark.skipif(GS is None, reason="Ghostscript is not installed (.ci/run installs it)")
def test_the_eps_inks_what_the_png_inks(tmp_path: Path) -> None:
    made = _stock(tmp_path / "in")
    for puzzle in made.values():
        solution = puzzle.solution_array()
        page = puzzle_page(puzzle, solution, "")
        (tmp_path / "p.eps").write_bytes(render(page, "eps"))
        (tmp_path / "p.png").write_bytes(render(page, "png"))  # 2 pixels a point
        subprocess.run([str(GS), "-q", "-dSAFER", "-dBATCH", "-dNOPAUSE", "-dEPSCrop",
                        "-sDEVICE=png16m", "-r144", "-dTextAlphaBits=4", "-dGraphicsAlphaBits=4",
                        f"-sOutputFile={tmp_path / 'e.png'}",
                        str(tmp_path / "p.eps")], check=True, timeout=60)
        ours = np.asarray(Image.open(tmp_path / "p.png").convert("L")) < 128
        theirs = np.asarray(Image.open(tmp_path / "e.png").convert("L")) < 128
        height, width = min(ours.shape[0], theirs.shape[0]), min(ours.shape[1], theirs.shape[1])
        assert abs(ours.shape[0] - theirs.shape[0]) <= 2
        assert abs(ours.shape[1] - theirs.shape[1]) <= 2
        ours, theirs = ours[:height, :width], theirs[:height, :width]
        # the grid, the cells and the clue squares agree (the digits' faces differ a little)
        assert (ours == theirs).mean() > 0.95
        assert abs(int(ours.sum()) - int(theirs.sum())) < 0.15 * ours.sum()
