"""The player's JSON as cases: one file a kind under tests/data/player_json/, each naming a
bundled issue's puzzle page (a short header) and holding the record ``nonopress web``
writes for it, so a change to what the player reads shows as a changed case. The grade's
figures and the site's player version are left out: they move with every refit and
release, the rest (clues, givens, palette, word list, key, the hint table, the answer
veiled) moves only when what the player reads changes.

``python tests/test_player_cases.py`` writes the cases again from fresh builds; read the
diff before committing it.
"""

from __future__ import annotations

import json
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from grader.kinds import KINDS

ROOT = Path(__file__).resolve().parents[1]
CASES = ROOT / "tests" / "data" / "player_json"
#: what moves without the player's format changing: the grade's figures, the player version
VOLATILE = ("grade", "site")


def stable(record: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in record.items() if key not in VOLATILE}


def _case(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text(encoding="utf-8"))  # type: ignore[no-any-return]


@pytest.mark.parametrize("name", sorted(p.stem for p in CASES.glob("*.json")))
def test_the_player_json_of_each_kind_is_its_case(
        name: str, issue_site: Callable[[str], Path]) -> None:
    case = _case(CASES / f"{name}.json")
    page = issue_site(case["issue"]) / case["puzzle"]
    record = json.loads(page.read_text(encoding="utf-8"))
    assert record["kind"] == name
    assert stable(record) == case["record"], (
        f"{case['issue']} {case['puzzle']} differs from tests/data/player_json/{name}.json: "
        "python tests/test_player_cases.py writes it again")


def test_every_board_of_the_registry_has_a_case() -> None:
    assert sorted(p.stem for p in CASES.glob("*.json")) == sorted(
        {kind.board for kind in KINDS})


def _write_again() -> None:
    from nonopress.cli import main

    with tempfile.TemporaryDirectory() as folder:
        for path in sorted(CASES.glob("*.json")):
            case = _case(path)
            out = Path(folder) / case["issue"].removesuffix(".yaml")
            if not out.is_dir():
                assert main(["web", str(ROOT / "puzzles" / "issues" / case["issue"]), "-o",
                             str(out), "-q", "--cache-dir", folder]) == 0
            record = json.loads((out / case["puzzle"]).read_text(encoding="utf-8"))
            case["record"] = stable(record)
            path.write_text(json.dumps(case, indent=1, ensure_ascii=False) + "\n",
                            encoding="utf-8")
            print(f"wrote {path.relative_to(ROOT)}", file=sys.stderr)


if __name__ == "__main__":
    _write_again()
