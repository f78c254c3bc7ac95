"""``grade --explain --html``: the step-by-step replay of both kinds, in a real headless
Chromium (Debian's ``chromium``, driven by Playwright): what a reader sees after each step."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest

from grader.colour.model import ColourPuzzle
from grader.formats import read_any
from nonopress.cli import main

sync_api = pytest.importorskip("playwright.sync_api")

ROOT = Path(__file__).resolve().parents[1]
LADYBIRD = ROOT / "puzzles" / "colour" / "ladybird.yaml"
CAT = ROOT / "puzzles" / "cat.yaml"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


def _replay(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    page = tmp_path / "replay.html"
    assert main(["grade", "--explain", "--html", str(page), str(LADYBIRD), str(CAT)]) == 0
    assert capsys.readouterr().err == ""  # no puzzle is left out of the page
    return page


def _data(page: Path) -> list[dict[str, Any]]:
    block = re.search(r'id="replay-data">(.*?)</script>', page.read_text(), re.S)
    assert block is not None
    data: list[dict[str, Any]] = json.loads(block.group(1))
    return data


def test_the_page_holds_both_kinds_with_their_palettes_and_coloured_clues(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ladybird, cat = _data(_replay(tmp_path, capsys))
    assert (ladybird["title"], cat["title"]) == ("Ladybird", "Cat")
    assert ladybird["palette"] == [{"name": "white", "rgb": "#ffffff"},
                                   {"name": "black", "rgb": "#1a1a1a"},
                                   {"name": "red", "rgb": "#d7261e"}]
    assert len(cat["palette"]) == 2  # black and white: the palette of one colour
    assert ladybird["summary"].startswith("10x10, 2 colours, easy, score ")
    # row 1 '....kk....': one block of 2 black; row 3 '..rrkkrr..': 2 red, 2 black, 2 red
    assert ladybird["rows"][0] == [[2, 1]] and ladybird["rows"][2] == [[2, 2], [2, 1], [2, 2]]
    assert cat["rows"][0] == [[1, 1], [1, 1]]
    assert all(step["text"] and step["changes"] for step in ladybird["steps"])
    assert "red" in ladybird["steps"][0]["text"] or "black" in ladybird["steps"][0]["text"]


CELL_COLOURS = """section => Array.from(section.querySelectorAll('tr')).filter(
  tr => tr.querySelector('td.cell')).map(tr => Array.from(tr.querySelectorAll('td.cell')).map(
  td => getComputedStyle(td).backgroundColor))"""

CLUE = """section => Array.from(section.querySelectorAll('tr')).filter(
  tr => tr.querySelector('td.cell'))[%d].querySelector('td.clue').querySelectorAll('span')"""


def _rgb(hex_colour: str) -> str:
    value = int(hex_colour.lstrip("#"), 16)
    return f"rgb({value >> 16}, {value >> 8 & 255}, {value & 255})"


def test_stepping_through_a_colour_solve_paints_the_picture_in_its_colours(
        browser: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    page_file = _replay(tmp_path, capsys)
    ladybird_data, cat_data = _data(page_file)
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(page_file.as_uri())
    ladybird, cat = page.locator("section").nth(0), page.locator("section").nth(1)

    # the empty grid: every cell open, the same grey
    start = ladybird.evaluate(CELL_COLOURS)
    assert {colour for row in start for colour in row} == {"rgb(244, 244, 244)"}
    assert "step 0 of" in ladybird.inner_text()

    # one step on: the sentence of step 1 and its cells highlighted
    ladybird.get_by_role("button", name=">", exact=True).click()
    first = ladybird_data["steps"][0]
    assert first["text"] in ladybird.locator(".step").inner_text()
    lit = ladybird.locator("td.hl")
    assert lit.count() == len(first["changes"])

    # the last step: the solution, each cell in its palette colour
    ladybird.get_by_role("button", name=">|").click()
    assert f"step {len(ladybird_data['steps'])} of" in ladybird.inner_text()
    puzzle = read_any(LADYBIRD)[0]
    assert isinstance(puzzle, ColourPuzzle) and puzzle.solution is not None
    by_char = {puzzle.palette[v].char: _rgb(puzzle.palette[v].hex)
               for v in range(1, puzzle.palette.size + 1)}
    by_char["."] = "rgb(255, 255, 255)"
    expected = [[by_char[char] for char in row] for row in puzzle.solution]
    assert ladybird.evaluate(CELL_COLOURS) == expected

    # the clue numbers in their colours: row 3 is 2 red, 2 black, 2 red
    spans = ladybird.evaluate(f"s => Array.from(({CLUE % 2})(s)).map("
                              "x => [x.textContent, getComputedStyle(x).backgroundColor])")
    red, black = _rgb("d7261e"), _rgb("1a1a1a")
    assert spans == [["2", red], ["2", black], ["2", red]]
    assert "black" in ladybird.locator(".legend").inner_text()

    # black and white through the same page: filled cells dark, the rest white
    cat.get_by_role("button", name=">|").click()
    cat_puzzle = read_any(CAT)[0]
    assert cat_puzzle.solution is not None
    shade = {"#": "rgb(34, 34, 34)", ".": "rgb(255, 255, 255)"}
    assert cat.evaluate(CELL_COLOURS) == [[shade[c] for c in row] for row in cat_puzzle.solution]
    assert cat.locator(".legend").count() == 0 and len(cat_data["steps"]) > 0
    # back to the start
    cat.get_by_role("button", name="|<").click()
    assert "The empty grid" in cat.locator(".step").inner_text()
    assert errors == []
    page.close()
