"""The bundled issues' notes say what the grader finds (issue 46, item 12: the sample
printed "Line logic alone will not finish this one" under the Moon, which line logic
finishes). Each note about line logic or the hardest puzzle is checked against the grades."""

from __future__ import annotations

from pathlib import Path

from grader import safe_yaml
from grader.grading import grade
from grader.kinds import read_puzzles
from grader.ladder import default_ladder
from grader.model import Puzzle

ROOT = Path(__file__).resolve().parents[1]
#: the line logic rungs: a puzzle they finish needs nothing that looks ahead
LINE_RUNGS = set(default_ladder().names[: default_ladder().names.index("line-analysis") + 1]) \
    - {"owner-branching"}


def _entries(manifest: Path) -> list[tuple[Path, str]]:
    data = safe_yaml.load(manifest.read_text(encoding="utf-8"))
    found = []
    for item in data.get("puzzles", []):
        if isinstance(item, dict):
            found.append((manifest.parent / item["file"], str(item.get("note", ""))))
        else:
            found.append((manifest.parent / item, ""))
    return found


def test_the_bundled_notes_are_true() -> None:
    checked = 0
    for manifest in sorted((ROOT / "puzzles" / "issues").glob("*.yaml")):
        entries = _entries(manifest)
        puzzles = {path: read_puzzles(str(path))[0] for path, _ in entries}
        grades = {path: grade(p) for path, p in puzzles.items() if isinstance(p, Puzzle)}
        for path, note in entries:
            lowered = note.lower()
            if "line logic" in lowered and path in grades:
                lines_do = set(grades[path].rungs) <= LINE_RUNGS
                assert lines_do == ("not" not in lowered), (manifest.name, path.name, note)
                checked += 1
            if "hardest" in lowered and path in grades:
                hardest = max(grades.values(), key=lambda g: (
                    ("easy", "medium", "hard", "fiendish").index(g.level), g.score or 0.0))
                assert grades[path] is hardest, (manifest.name, path.name, note)
                checked += 1
    assert checked >= 2
