"""A rebuild is the same PDF (issue 46, item 5): the first build grades, the second reads
the grade cache, and the two files are byte for byte the same, for every bundled manifest.
The cache is written with sorted keys; "Techniques used" once came back alphabetical."""

from __future__ import annotations

from pathlib import Path

import pytest

from layout.gradecache import GradeCache
from layout.issue import GradeInfo
from nonopress.cli import main

ROOT = Path(__file__).resolve().parents[1]
MANIFESTS = sorted((ROOT / "puzzles" / "issues").glob("*.yaml"))


def test_rung_counts_come_back_from_the_cache_in_ladder_order(tmp_path: Path) -> None:
    from grader.results import Budget

    rungs = {"simple-gaps": 3, "line-analysis": 1, "extreme-owners": 9, "capped-runs": 2}
    cache = GradeCache(tmp_path / "cache.json")
    cache.put("k", Budget(seconds=5.0), GradeInfo("hard", 1.5, 4, rungs=rungs))
    cache.save()
    back = GradeCache(tmp_path / "cache.json").get("k", Budget(seconds=5.0))
    assert back is not None
    assert list(back.rungs) == ["simple-gaps", "extreme-owners", "capped-runs",
                                "line-analysis"]
    assert back.rungs == rungs


@pytest.mark.parametrize("manifest", MANIFESTS, ids=[m.stem for m in MANIFESTS])
def test_two_builds_of_a_bundled_manifest_are_byte_identical(
        manifest: Path, tmp_path: Path) -> None:
    assert MANIFESTS  # the bundled issues are there to build
    cache = tmp_path / "cache"
    built = []
    for name in ("first.pdf", "again.pdf"):
        out = tmp_path / name
        assert main(["issue", str(manifest), "-o", str(out), "--cache-dir", str(cache),
                     "-q"]) == 0
        built.append(out.read_bytes())
    assert any(cache.iterdir())  # the second build read the grades the first one cached
    assert built[0] == built[1]
