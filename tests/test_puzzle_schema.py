"""The player's JSON against its written format (nonopress/assets/puzzle.schema.json): every
puzzle page of every bundled issue and the studio's Play answer validate; what a hostile host
could put in one (a colour that fetches, a cell range that freezes the tab, a grid too large
to draw) does not; and the JSDoc types the player's scripts are checked against
(puzzle.d.ts) name the schema's fields."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from grader.formats import read_any
from grader.results import Budget
from nonopress.app.play import play_record
from nonopress.assets import FOLDER, SCHEMA, board_file

jsonschema = pytest.importorskip("jsonschema")

ROOT = Path(__file__).resolve().parent.parent
ISSUES = sorted(path.name for path in (ROOT / "puzzles" / "issues").glob("*.yaml"))


@pytest.fixture(scope="module")
def validator() -> Any:
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def _problems(validator: Any, record: Any) -> list[str]:
    return [f"{'/'.join(map(str, error.absolute_path))}: {error.message[:160]}"
            for error in validator.iter_errors(record)]


def test_every_bundled_issue_is_there() -> None:
    assert {"sample.yaml", "colour-sample.yaml", "words-and-pictures.yaml"} <= set(ISSUES)


@pytest.mark.parametrize("manifest", ISSUES)
def test_every_puzzle_json_of_a_bundled_issue_validates(
        manifest: str, issue_site: Callable[[str], Path], validator: Any) -> None:
    site = issue_site(manifest)
    files = sorted(site.glob("puzzle-*.json"))
    assert files, f"{manifest}: no puzzle published"
    for path in files:
        record = json.loads(path.read_text(encoding="utf-8"))
        assert _problems(validator, record) == [], path.name
        # the page holds the same record, and loads the board its kind names
        board = board_file(record["kind"])
        assert board is not None and (site / board).is_file(), record["kind"]
        page = path.with_suffix(".html").read_text(encoding="utf-8")
        assert f'<script src="{board}" defer></script>' in page


@pytest.mark.parametrize("name", ["house.yaml", "colour/ladybird.yaml"])
def test_the_studio_play_answer_validates(name: str, validator: Any) -> None:
    puzzle = read_any(ROOT / "puzzles" / name)[0]
    record = play_record(puzzle, Budget(seconds=30))
    assert _problems(validator, record) == []


def _bw() -> dict[str, Any]:
    return {"format": 1, "kind": "bw", "key": "0123456789abcdef01234567", "width": 2,
            "height": 1, "solution": "AAA=", "grade": {"level": "easy", "grader_version": "x"},
            "rows": [[1]], "columns": [[1], []], "givens": [],
            "hints": {"rungs": ["simple-boxes"], "where": ["An easy step in the rows"],
                      "bracket": True,
                      "steps": [{"r": 0, "w": 0, "s": "a step", "c": "0", "a": "row", "i": 0,
                                 "p": ""}]}}


def _colour() -> dict[str, Any]:
    record = _bw()
    record.update(kind="colour", palette=[{"name": "red", "rgb": "#cc0000"}],
                  rows=[[[1, 1]]], columns=[[[1, 1]], []])
    return record


def _mosaic() -> dict[str, Any]:
    record = {k: v for k, v in _bw().items() if k not in ("rows", "columns", "givens")}
    record.update(kind="mosaic", clues=["1."],
                  hints={"rungs": ["completing-clues"], "where": ["An easy step: one clue"],
                         "bracket": True,
                         "steps": [{"r": 0, "w": 0, "s": "a step", "c": "1", "p": "",
                                    "k": "0"}]})
    return record


def test_the_hand_made_records_validate(validator: Any) -> None:
    assert _problems(validator, _bw()) == []
    assert _problems(validator, _colour()) == []
    assert _problems(validator, _mosaic()) == []


@pytest.mark.parametrize("change", [
    lambda r: r.update(clues=["1<"]),  # a clue row is digits and dots only
    lambda r: r.update(rows=[[1]]),  # a nonogram's field on a mosaic
    lambda r: r["hints"]["steps"][0].pop("k"),  # a step names the clues it read
    lambda r: r["hints"]["steps"][0].update(a="row", i=0),  # not a line step
    lambda r: r["hints"]["steps"][0].update(k="0-200000000"),
])
def test_a_bad_mosaic_record_is_refused(change: Callable[[dict[str, Any]], Any],
                                        validator: Any) -> None:
    record = _mosaic()
    change(record)
    assert _problems(validator, record) != []


@pytest.mark.parametrize("change", [
    # a colour value that would make the page fetch from a third host (issue 57, item 10)
    lambda r: r["palette"][0].update(rgb="url(https://third.example/x.png)"),
    lambda r: r["palette"][0].update(rgb="red; background: url(x)"),
    # a cell range that would spell out 200 million cells (issue 57, item 10)
    lambda r: r["hints"]["steps"][0].update(c="0-200000000"),
    lambda r: r["hints"]["steps"][0].update(p="0-3,x"),
    lambda r: r.update(width=5000),
    lambda r: r.update(kind="../../evil"),
    lambda r: r.update(key="<script>"),
    lambda r: r.update(unknown_field=1),
    lambda r: r.update(site={"collect": "javascript:alert(1)"}),
    lambda r: r["rows"][0][0].__setitem__(1, 0),       # a colour index outside the palette
    lambda r: r.update(palette=[{"name": "c", "rgb": "#000000"}] * 36),
])
def test_what_a_hostile_host_could_send_is_refused(change: Callable[[dict[str, Any]], Any],
                                                   validator: Any) -> None:
    record = _colour()
    change(record)
    assert _problems(validator, record) != []


def _fields(text: str) -> dict[str, set[str]]:
    """Each interface of puzzle.d.ts: its field names, with those it extends."""
    found: dict[str, tuple[str | None, set[str]]] = {}
    for match in re.finditer(r"export interface (\w+)(?: extends (\w+))? \{\n(.*?)\n\}", text,
                             re.S):
        names = set(re.findall(r"^  (\w+)\??:", match.group(3), re.M))
        found[match.group(1)] = (match.group(2), names)

    def all_of(name: str) -> set[str]:
        parent, names = found[name]
        return names | (all_of(parent) if parent else set())

    return {name: all_of(name) for name in found}


def test_the_scripts_types_name_the_schemas_fields() -> None:
    """The JSDoc types `tsc --checkJs` holds the scripts to (puzzle.d.ts) and the schema name
    the same fields, kind by kind: a field added to one is added to the other."""
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    defs = schema["$defs"]
    types = _fields((FOLDER / "puzzle.d.ts").read_text(encoding="utf-8"))
    common = set(defs["common"]["properties"])
    branches = {"bw": "BwPuzzle", "colour": "ColourPuzzle", "fillin": "FillinPuzzle",
                "mosaic": "MosaicPuzzle"}
    assert [ref["$ref"].rsplit("/", 1)[-1] for ref in schema["oneOf"]] == list(branches)
    for kind, interface in branches.items():
        assert common | set(defs[kind]["properties"]) == types[interface], kind
    assert set(defs["grade"]["properties"]) == types["Grade"]
    assert set(defs["site"]["properties"]) == types["Site"]
    assert set(defs["hints"]["properties"]) == types["HintTable"]
    # the player's own caches on a step (_c, _p) are not part of the format
    assert set(defs["hintStep"]["properties"]) == types["HintStep"] - {"_c", "_p"}
    assert set(defs["clueHints"]["properties"]) == types["ClueHintTable"]
    assert set(defs["clueHintStep"]["properties"]) == types["ClueHintStep"] - {"_c", "_p"}
    assert set(defs["colour"]["properties"]["palette"]["items"]["properties"]) \
        == types["PaletteColour"]


def test_every_kind_of_the_schema_has_its_board() -> None:
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    for ref in schema["oneOf"]:
        kind = schema["$defs"][ref["$ref"].rsplit("/", 1)[-1]]["properties"]["kind"]["const"]
        assert board_file(kind) == f"boards/{kind}.js"


def test_the_shell_names_no_kind() -> None:
    """The shell (player.js) asks the board for everything a kind decides: no kind's tag
    appears in it, and it compares no record's kind."""
    shell = (FOLDER / "player.js").read_text(encoding="utf-8")
    code = "\n".join(line for line in shell.splitlines() if not line.lstrip().startswith("//"))
    tags = [path.stem for path in (FOLDER / "boards").glob("*.js")]
    assert sorted(tags) == ["bw", "colour", "fillin", "mosaic"]
    for tag in tags:
        assert f"'{tag}'" not in code and f'"{tag}"' not in code, tag
    typed = re.sub(r"typeof\s+[\w.]+", "", code)  # `typeof d.kind === 'string'` is no branch
    assert not re.search(r"\.kind\s*[!=]==?", typed)


def test_a_puzzle_wider_than_the_player_draws_is_refused_in_one_line(tmp_path: Path) -> None:
    """The studio's Play answer never holds a grid the schema (and the player) refuses."""
    from grader.errors import NonopressError

    path = tmp_path / "wide.non"
    path.write_text("width 201\nheight 1\nrows\n201\ncolumns\n" + "1\n" * 201)
    with pytest.raises(NonopressError, match=r"201x1 is larger than the web player draws"):
        play_record(read_any(path)[0], Budget(seconds=30))
