"""The ladder table: one row per rung, read by the engine, scoring and the explanations."""

from __future__ import annotations

import os
import re
import string
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from grader.engine import Engine
from grader.explain import FIELDS, sentence
from grader.ladder import Ladder, default_ladder
from grader.model import UNKNOWN, Puzzle
from grader.scoring import RATED_LEVELS, default_weights
from grader.techniques.base import LineRef, Step

LADDER = default_ladder()


def _line_sentences(rung: str, clue: tuple[int, ...], line: str) -> list[str]:
    cells = [{"#": 2, ".": 1, "?": UNKNOWN}[ch] for ch in line]
    ref = LineRef("row", 2)
    return [
        sentence(
            Step(rung, d.technique, tuple((2, p, s) for p, s in d.changes), ref, clue, None,
                 d.facts)
        )
        for d in LADDER[rung].finder()(clue, cells)
    ]


def test_every_template_uses_known_phrases_only() -> None:
    for technique, template in LADDER.templates.items():
        fields = {name for _, name, _, _ in string.Formatter().parse(template) if name}
        assert fields <= set(FIELDS), (technique, fields - set(FIELDS))


def test_the_kinds_column_says_which_rungs_serve_colour() -> None:
    """Colour's rungs are rows of the one table: the same weights and levels score them."""
    from grader.colour import techniques
    from grader.colour.grading import COLOUR_FIELDS, colour_rungs

    assert [r.name for r in LADDER.serving("black-and-white")] == list(LADDER.names)
    assert [r.name for r in colour_rungs()] == [
        "simple-boxes", "extreme-owners", "line-analysis", "cell-branching", "recursion"]
    for rung in colour_rungs():
        assert rung.colour_techniques, rung.name
        for name in rung.colour_techniques if rung.scope == "line" else ():
            assert callable(getattr(techniques, name.replace("-", "_"))), name
    # every sentence a colour step may need is a row's, none is assembled in Python
    assert set(LADDER.colour_templates) == {
        "colour-absent", "colour-at-intersection", "colour-empty-line", "colour-overlap",
        "colour-overlap-touching", "colour-reach", "colour-extreme-owners",
        "colour-line-analysis", "colour-probe", "colour-guess"}
    for technique, template in LADDER.colour_templates.items():
        fields = {name for _, name, _, _ in string.Formatter().parse(template) if name}
        assert fields <= set(COLOUR_FIELDS), (technique, fields - set(COLOUR_FIELDS))


def test_a_colour_rung_without_colour_techniques_is_refused() -> None:
    row = {"name": "x", "family": 1, "scope": "line", "level": "easy", "weight": 1.0,
           "finder": "grader.techniques.simple", "kinds": ["black-and-white", "colour"]}
    with pytest.raises(ValueError, match="colour techniques"):
        Ladder.from_mapping({"rungs": [row]})
    with pytest.raises(ValueError, match="kinds must list"):
        Ladder.from_mapping({"rungs": [{**row, "kinds": ["sepia"]}]})
    plain = Ladder.from_mapping({"rungs": [{**row, "kinds": ["black-and-white"]}]})
    assert plain.serving("colour") == ()
    unsaid = {**row, "colour": {"techniques": ["colour-reach"], "explain": {}}}
    with pytest.raises(ValueError, match="no sentence for colour-reach"):
        Ladder.from_mapping({"rungs": [unsaid]})


def test_a_colour_sentence_comes_from_the_table(tmp_path: Path) -> None:
    """Another table's sentence is the one a colour explanation prints (NONOPRESS_LADDER)."""
    text = (Path(__file__).resolve().parents[1] / "grader" / "ladder.yaml").read_text()
    old = 'colour-reach: "{head}{reaches}"'
    assert text.count(old) == 1
    table = tmp_path / "ladder.yaml"
    table.write_text(text.replace(old, 'colour-reach: "{head}REACH: {reaches}"'))
    env = {**os.environ, "NONOPRESS_LADDER": str(table)}
    done = subprocess.run([sys.executable, "-m", "nonopress", "grade", "--explain",
                           "puzzles/colour/flowerpot.yaml"], capture_output=True, text=True,
                          env=env, cwd=Path(__file__).resolve().parents[1], timeout=300)
    assert done.returncode == 0, done.stderr
    assert re.search(r"\. Row \d+, clue [^:]+: REACH: no ", done.stdout), done.stdout[-800:]


def test_scoring_reads_level_and_weight_from_the_table() -> None:
    weights = default_weights()
    for rung in LADDER.rungs:
        assert weights.levels[rung.name] == rung.level
        assert weights.step_weights[rung.name] == rung.weight
        assert rung.level in RATED_LEVELS  # the calibrated model rates every rung's level


def test_the_gap_rule_explains_itself() -> None:
    assert _line_sentences("simple-gaps", (3,), "???.?.???") == [
        "Row 3 (3): cell 5 lies in a gap of 1 cell (between empty cell 4 and empty cell 6), "
        "shorter than the 3, the only block that could reach it: it is empty"
    ]
    assert _line_sentences("simple-gaps", (2, 2), "?????.?.?????") == [
        "Row 3 (2 2): cell 7 lies in a gap of 1 cell (between empty cell 6 and empty cell 8), "
        "shorter than the first 2 and the second 2, every block that could reach it: it is empty"
    ]


def test_the_cap_rule_explains_itself() -> None:
    assert _line_sentences("capped-runs", (1, 1, 1), "???#?????") == [
        "Row 3 (1 1 1): the filled cell 4 is as long as every block that could own it "
        "(each a 1), so cells 3, 5 beside it are empty"
    ]
    assert _line_sentences("capped-runs", (2, 1), "??##????") == [
        "Row 3 (2 1): the filled cells 3-4 are as long as the 2, the only block that could "
        "own it, so cells 2, 5 beside it are empty"
    ]


def test_a_disabled_rung_is_never_taken() -> None:
    capped = Puzzle.from_picture(
        ["##.##..", "...#..#", "###....", "#...###", "..#..#.", ".#####.", "..#..##", "#..#..#"]
    )
    assert "capped-runs" in {s.rung for s in Engine(capped).run().steps}
    rows = tuple(replace(r, enabled=r.name != "capped-runs") for r in LADDER.rungs)
    result = Engine(capped, ladder=Ladder(rows)).run()
    assert result.outcome == "solved"
    assert "capped-runs" not in {s.rung for s in result.steps}


def test_rows_must_come_cheapest_family_first() -> None:
    rows = [
        {"name": "b", "family": 2, "scope": "line", "level": "easy", "weight": 1, "finder": "m"},
        {"name": "a", "family": 1, "scope": "line", "level": "easy", "weight": 1, "finder": "m"},
    ]
    with pytest.raises(ValueError, match="family order"):
        Ladder.from_mapping({"rungs": rows})


BLOCK_NUMBA = """
import importlib.abc, sys

class NoNumba(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name == "numba" or name.startswith("numba."):
            raise ImportError("numba is blocked in this test")
        return None

sys.meta_path.insert(0, NoNumba())
import grader.explain, grader.grading, grader.ladder, grader.model, grader.scoring
import grader.techniques, grader.techniques.base, grader.engine
import layout.build, layout.plan
grader.ladder.default_ladder()
grader.scoring.default_weights()
assert not any(m == "numba" or m.startswith("grader.solver") for m in sys.modules), sorted(
    m for m in sys.modules if m.startswith(("numba", "grader.solver"))
)
print("ok")
"""


def test_the_core_imports_without_numba() -> None:
    done = subprocess.run(
        [sys.executable, "-c", BLOCK_NUMBA], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok"


@pytest.mark.parametrize("content", [None, "rungs: 3\n", "a: [[[\n", "\xff\xfe"])
def test_a_bad_table_named_by_the_environment_is_one_line_and_status_2(
        tmp_path: Path, content: str | None) -> None:
    table = tmp_path / "ladder.yaml"
    if content is not None:
        table.write_bytes(content.encode("latin-1"))
    env = {**os.environ, "NONOPRESS_LADDER": str(table)}
    done = subprocess.run([sys.executable, "-m", "nonopress", "grade", "puzzles/cat.yaml"],
                          capture_output=True, text=True, env=env, timeout=300,
                          cwd=Path(__file__).resolve().parents[1])
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and str(table) in lines[0] and "NONOPRESS_LADDER" in lines[0]
    assert "Traceback" not in done.stderr
