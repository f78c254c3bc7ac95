"""`nonopress web` without a browser: the files it writes, the hint table drawn from the
grader's log, the schedule, the collector switch, and bad input."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from grader.formats import read_any
from grader.results import Budget
from nonopress.app.hints import ranges_text
from nonopress.app.play import compute_hints, obfuscate, reveal
from nonopress.cli import main

ROOT = Path(__file__).resolve().parent.parent
PUZZLES = ROOT / "puzzles"


def _ranges(text: str) -> list[int]:
    out: list[int] = []
    for part in filter(None, text.split(",")):
        first, _, last = part.partition("-")
        out.extend(range(int(first), int(last or first) + 1))
    return out


def _premises(step: dict[str, Any], width: int, height: int) -> set[int]:
    if step.get("g"):
        return set()
    if step["a"] == "row":
        line = [step["i"] * width + c for c in range(width)]
    else:
        line = [r * width + step["i"] for r in range(height)]
    return {line[p] for p in _ranges(step["p"])} | set(_ranges(step.get("px", "")))


def _hint_for(steps: list[dict[str, Any]], board: set[int], width: int, height: int) -> int:
    """The player's rule, in Python: the earliest step whose premises are all on the board
    and whose conclusion is not."""
    all_before = True
    for k, step in enumerate(steps):
        if set(_ranges(step["c"])) <= board:
            continue
        ok = all_before if step.get("g") else _premises(step, width, height) <= board
        all_before = False
        if ok:
            return k
    return -1


@pytest.mark.parametrize("name", ["house.yaml", "moon.yaml", "clock.yaml",
                                  "colour/ladybird.yaml", "colour/sailboat-at-dusk.yaml"])
def test_hint_premises_stand_on_earlier_conclusions(name: str) -> None:
    puzzle = read_any(PUZZLES / name)[0]
    table = compute_hints(puzzle, Budget(seconds=60))
    steps, width, height = table["steps"], puzzle.width, puzzle.height
    known: set[int] = set()
    for k, step in enumerate(steps):
        premises = _premises(step, width, height)
        assert premises <= known, f"step {k} stands on cells no earlier step decided"
        conclusion = set(_ranges(step["c"]))
        assert conclusion and not conclusion & known
        known |= conclusion
        # on a board holding exactly the earlier conclusions, this step is the hint
        assert _hint_for(steps, known - conclusion, width, height) <= k
    assert known == set(range(width * height))  # the log decides every cell
    assert all(table["rungs"][s["r"]] for s in steps)


def test_moon_needs_a_grid_step_and_its_hint_waits_for_everything_before_it() -> None:
    puzzle = read_any(PUZZLES / "moon.yaml")[0]
    table = compute_hints(puzzle, Budget(seconds=60))
    steps = table["steps"]
    rungs = {table["rungs"][s["r"]] for s in steps}
    assert rungs - {"simple-boxes", "simple-gaps", "extreme-owners"}, "moon needs more"


def test_ranges_text_round_trips() -> None:
    assert ranges_text([9, 0, 1, 2, 3, 7, 10, 11, 12]) == "0-3,7,9-12"
    assert _ranges(ranges_text([5, 1, 2])) == [1, 2, 5]


def test_obfuscation_round_trips_and_hides_the_picture() -> None:
    key = "1bd44edd68c492e9c89e217a"
    text = "0110" * 25
    blob = obfuscate(text, key)
    assert reveal(blob, key) == text and "0110" not in blob


@pytest.fixture(scope="module")
def dated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("web-dated")
    (folder / "daily.yaml").write_text(
        "title: Daily <Puzzle>\ndate: 2026-12-01\npuzzles:\n"
        f"  - file: {PUZZLES / 'house.yaml'}\n"
        f"  - file: {PUZZLES / 'heart.yaml'}\n    date: 2026-12-02\n"
        f"  - file: {PUZZLES / 'cat.yaml'}\n    date: 2026-12-03\n")
    return folder


def _build(folder: Path, *extra: str) -> Path:
    out = folder / "site"
    assert main(["web", str(folder / "daily.yaml"), "-o", str(out), "-q",
                 "--cache-dir", str(folder), *extra]) == 0
    return out


def test_until_publishes_what_is_due_and_latest_names_today(dated: Path) -> None:
    out = _build(dated, "--until", "2026-12-02")
    assert (out / "puzzle-02.html").exists() and not (out / "puzzle-03.html").exists()
    latest = json.loads((out / "latest.json").read_text())
    assert latest["date"] == "2026-12-02" and latest["page"] == "puzzle-02.html"
    archive = (out / "archive.html").read_text()
    assert archive.index("2026-12-02") < archive.index("2026-12-01")  # newest first
    index = (out / "index.html").read_text()
    assert "Daily &lt;Puzzle&gt;" in index and "<Puzzle>" not in index
    assert re.search(r"easy \u00b7 \u2605+ \u00b7 about", index)


def test_an_earlier_until_withdraws_what_is_not_yet_due_and_only_what_the_site_wrote(
        dated: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 56 item 6: a rebuild with an earlier --until removes the pages and data of the
    puzzles no longer due; a file the site did not write (or one changed since) stays."""
    out = dated / "withdrawn"
    args = ["web", str(dated / "daily.yaml"), "-o", str(out), "--cache-dir", str(dated)]
    assert main([*args, "-q"]) == 0
    assert (out / "puzzle-03.html").exists() and (out / "puzzle-02.json").exists()
    (out / "about.html").write_text("<p>ours</p>")          # the publisher's own page
    (out / "puzzle-09.html").write_text("<p>not the site's</p>")  # a site-like name
    capsys.readouterr()
    assert main([*args, "--until", "2026-12-02"]) == 0
    assert "file(s) of puzzles no longer due removed" in capsys.readouterr().out
    assert not (out / "puzzle-03.html").exists() and not (out / "puzzle-03.json").exists()
    assert (out / "puzzle-02.html").exists() and (out / "player.js").exists()
    assert (out / "about.html").read_text() == "<p>ours</p>"
    assert (out / "puzzle-09.html").exists()
    assert "puzzle-03" not in (out / "index.html").read_text()
    assert "puzzle-03" not in (out / "archive.html").read_text()
    # a withdrawn page someone edited after the build is theirs now: left alone
    assert main([*args, "-q"]) == 0
    (out / "puzzle-03.html").write_text("edited by hand")
    assert main([*args, "-q", "--until", "2026-12-01"]) == 0
    assert (out / "puzzle-03.html").read_text() == "edited by hand"
    assert not (out / "puzzle-02.html").exists() and not (out / "puzzle-03.json").exists()
    ledger = json.loads((out / ".nonopress-site.json").read_text())
    assert "puzzle-01.html" in ledger["files"] and "puzzle-03.html" not in ledger["files"]
    assert "about.html" not in ledger["files"]


def test_a_forged_site_record_removes_nothing_outside_the_site(dated: Path) -> None:
    """The record is read as data: a name that leaves the folder is never removed."""
    out = dated / "forged"
    outside = dated / "precious.txt"
    outside.write_text("keep")
    import hashlib

    out.mkdir()
    (out / ".nonopress-site.json").write_text(json.dumps({"format": 1, "files": {
        "../precious.txt": hashlib.sha256(b"keep").hexdigest()}}))
    assert main(["web", str(dated / "daily.yaml"), "-o", str(out), "--cache-dir", str(dated),
                 "-q"]) == 0
    assert outside.read_text() == "keep"


def test_a_page_holds_its_data_the_csp_and_no_answer_in_plain_sight(dated: Path) -> None:
    out = _build(dated)
    page = (out / "puzzle-03.html").read_text()
    record = json.loads((out / "puzzle-03.json").read_text())
    assert record["kind"] == "bw" and record["width"] == 10 and record["grade"]["level"]
    solution = read_any(PUZZLES / "cat.yaml")[0].solution
    assert solution is not None
    for row in solution:
        assert row.replace("#", "1").replace(".", "0") not in page
        assert row not in page
    csp = re.search(r'http-equiv="Content-Security-Policy" content="([^"]+)"', page)
    assert csp and "script-src 'self'" in csp.group(1) and "connect-src 'none'" in csp.group(1)
    scripts = re.findall(r"<script([^>]*)>", page)
    # the player's shell, its words, its kind's board and its extras, beside it; the data as data
    assert sorted(s for s in scripts if "src=" in s) == [' src="boards/bw.js" defer',
                                                         ' src="habits.js" defer',
                                                         ' src="player.js" defer',
                                                         ' src="print.js" defer',
                                                         ' src="words.js" defer']
    assert all("src=" in s or 'type="application/json"' in s for s in scripts)
    assert record["site"]["collect"] is None
    assert record["site"]["player"].startswith("nonopress-player/")
    assert not re.search(r"https?://", page.replace("http-equiv", ""))


def test_collect_names_the_collector_in_the_data_and_the_policy(dated: Path) -> None:
    out = _build(dated, "--collect", "https://solves.example.org/v1/solves")
    record = json.loads((out / "puzzle-01.json").read_text())
    assert record["site"]["collect"] == "https://solves.example.org/v1/solves"
    assert "connect-src https://solves.example.org;" in (out / "puzzle-01.html").read_text()


@pytest.mark.parametrize("args, message", [
    (["--until", "tomorrow"], "--until: expected a day as YYYY-MM-DD"),
    (["--collect", "ftp://x"], "expected an http(s) URL"),
    (["-o", "/proc/no/such/site", "--no-cache"], "/proc/no/such/site: cannot make the folder"),
])
def test_bad_options_are_one_line_and_status_2(dated: Path, args: list[str], message: str,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["web", str(dated / "daily.yaml"), "-o", str(dated / "x"), *args]) == 2
    err = capsys.readouterr().err.strip()
    assert message in err and "\n" not in err and "Traceback" not in err


def test_a_bad_puzzle_date_names_the_manifest_line(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    manifest = tmp_path / "bad.yaml"
    manifest.write_text(f"puzzles:\n  - file: {PUZZLES / 'house.yaml'}\n    date: soon\n")
    assert main(["web", str(manifest), "-o", str(tmp_path / "site"), "--no-cache"]) == 2
    err = capsys.readouterr().err
    assert "bad.yaml:2: date: expected a day as YYYY-MM-DD" in err


def test_loose_puzzle_files_make_a_site(tmp_path: Path) -> None:
    out = tmp_path / "site"
    assert main(["web", str(PUZZLES / "house.yaml"), str(PUZZLES / "colour" / "ladybird.yaml"),
                 "-o", str(out), "-q", "--no-cache"]) == 0
    kinds = [json.loads((out / f"puzzle-0{n}.json").read_text())["kind"] for n in (1, 2)]
    assert kinds == ["bw", "colour"]
    # loose files print without titles (they give the picture away): nowhere in the page,
    # its data or the index until solved; the player unveils it then
    for number, title in ((1, "House"), (2, "Ladybird")):
        page = (out / f"puzzle-0{number}.html").read_text()
        data = (out / f"puzzle-0{number}.json").read_text()
        assert title not in page and title not in data, title
        record = json.loads(data)
        assert reveal(record["veiled_title"], record["key"][8:]) == title
    assert "House" not in (out / "index.html").read_text()


def test_a_from_library_issue_is_published_as_issue_picked_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`web` publishes the puzzles `issue` picked from the catalogue (its `chosen:`), and
    refuses, in one line, a section nothing has picked yet (the web does not book)."""
    import shutil

    for name in ("house", "heart", "key"):
        shutil.copy(PUZZLES / f"{name}.yaml", tmp_path / f"{name}.yaml")
    db = str(tmp_path / "stock.sqlite")
    stock = [str(tmp_path / f"{name}.yaml") for name in ("house", "heart", "key")]
    assert main(["library", "--db", db, "add", *stock, "-j", "1"]) == 0
    manifest = tmp_path / "next.yaml"
    manifest.write_text("title: Next\ndate: 2026-12-01\n"
                        "from_library: {levels: {easy: 2}, seed: 7}\n", encoding="utf-8")
    capsys.readouterr()
    assert main(["web", str(manifest), "-o", str(tmp_path / "early"), "--db", db]) == 2
    err = capsys.readouterr().err
    assert "no chosen puzzles yet" in err and len(err.strip().splitlines()) == 1
    assert main(["issue", str(manifest), "-o", str(tmp_path / "next.pdf"), "--db", db,
                 "-q"]) == 0
    chosen = {line.split("key: ")[1].split(",")[0]
              for line in manifest.read_text(encoding="utf-8").splitlines() if "key:" in line}
    assert len(chosen) == 2
    site = tmp_path / "site"
    assert main(["web", str(manifest), "-o", str(site), "--db", db, "-q"]) == 0
    pages = sorted(site.glob("puzzle-*.json"))
    assert len(pages) == 2
    keys = {json.loads(p.read_text(encoding="utf-8"))["key"] for p in pages}
    assert keys == chosen
