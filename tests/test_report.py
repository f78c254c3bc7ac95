"""``nonopress report``: HTML, CSV and JSON exports of a results database."""

from __future__ import annotations

import base64
import csv
import io
import json
import re
import subprocess
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from nonopress.batch.export import report_order
from nonopress.batch.html_report import READY_MARKER
from nonopress.batch.pictures import score_bins, thumbnail_data_uri
from nonopress.batch.rows import ResultRow
from nonopress.batch.store import ResultStore
from nonopress.cli import main

CHROMIUM = Path("/usr/bin/chromium")
EVIL = '<script>alert("x")</script> & "quotes"'


def sample_rows() -> list[ResultRow]:
    """One of each kind a report must show, with hostile text where strings go."""
    cross = ("#.#", ".#.", "#.#")
    return [
        ResultRow("k-easy", "a/easy.non", 1, "Easy one", "graded", 3, 3, "unique", "easy",
                  0.4, 1, {"simple-boxes": 9}, 9, 0.01, "", ("###", "#.#", "###"), "t"),
        ResultRow("k-hard", "a/hard.non", 1, EVIL, "graded", 3, 3, "unique", "hard",
                  7.5, 4, {"simple-boxes": 3, "cell-branching": 2}, 5, 0.5, "", cross, "t"),
        ResultRow("k-amb", "b/bundle.yaml", 2, "Twins", "graded", 2, 2, "multiple",
                  "ambiguous", 5.0, 5, {}, 0, 0.02, "", ("??", "??"), "t"),
        ResultRow("k-slow", "b/bundle.yaml", 3, "Slow", "undecided", 30, 30, "undecided",
                  "undecided", None, None, {}, None, 60.0, "ran out of its time budget", None, "t"),
        ResultRow("unreadable-1", "c/broken.non", 0, "", "failed", error=f"cannot read: {EVIL}",
                  finished_at="t"),
    ]  # fmt: skip


@pytest.fixture
def results(tmp_path: Path) -> Path:
    out = tmp_path / "results"
    with ResultStore.create(out) as store:
        for row in sample_rows():
            store.record(row)
    return out


def test_the_store_round_trips_rows_and_replaces_by_key(tmp_path: Path) -> None:
    rows = sample_rows()
    with ResultStore.create(tmp_path) as store:
        for row in rows:
            store.record(row)
        store.record(rows[0])  # recorded again (a retried puzzle): still one row
        assert sorted(store.rows(), key=lambda r: r.key) == sorted(rows, key=lambda r: r.key)
        assert store.keys(["failed"]) == {"unreadable-1"}
        assert store.integrity_ok()


def test_report_order_puts_problems_first_then_the_hardest(results: Path) -> None:
    with ResultStore.open_existing(results) as store:
        order = [row.key for row in report_order(store.rows())]
    assert order == ["unreadable-1", "k-amb", "k-slow", "k-hard", "k-easy"]


def test_json_report_is_an_array_of_one_object_per_puzzle(results: Path, tmp_path: Path) -> None:
    target = tmp_path / "report.json"
    assert main(["report", str(results), "--format", "json", "-o", str(target)]) == 0
    data = json.loads(target.read_text())
    assert data[0]["key"] == "unreadable-1"
    by_key = {item["key"]: item for item in data}
    assert len(by_key) == 5
    hard = by_key["k-hard"]
    assert {k: hard[k] for k in ("file", "title", "status", "verdict", "level", "score")} == {
        "file": "a/hard.non",
        "title": EVIL,
        "status": "graded",
        "verdict": "unique",
        "level": "hard",
        "score": 7.5,
    }
    assert hard["rungs"] == {"simple-boxes": 3, "cell-branching": 2}
    assert hard["solution"] == ["#.#", ".#.", "#.#"]
    assert by_key["k-slow"]["score"] is None
    # an ambiguous puzzle has no difficulty, even where an old database stored one
    assert (by_key["k-amb"]["score"], by_key["k-amb"]["stars"]) == (None, None)
    assert by_key["unreadable-1"]["index"] is None  # no puzzle, so no position


def test_csv_report_has_a_header_and_one_line_per_puzzle(
    results: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["report", str(results), "--format", "csv", "-o", "-"]) == 0
    table = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert len(table) == 5
    hard = next(row for row in table if row["key"] == "k-hard")
    assert (hard["title"], hard["score"], hard["level"]) == (EVIL, "7.5", "hard")
    assert json.loads(hard["rungs"]) == {"cell-branching": 2, "simple-boxes": 3}
    assert next(row for row in table if row["key"] == "k-slow")["score"] == ""
    ambiguous = next(row for row in table if row["key"] == "k-amb")
    assert (ambiguous["score"], ambiguous["stars"]) == ("", "")
    unreadable = next(row for row in table if row["key"] == "unreadable-1")
    assert (unreadable["index"], unreadable["status"]) == ("", "failed")


def test_the_format_follows_the_output_suffix(results: Path, tmp_path: Path) -> None:
    assert main(["report", str(results), "-o", str(tmp_path / "r.csv")]) == 0
    assert (tmp_path / "r.csv").read_text().startswith("key,file,index,title,")


def test_a_missing_database_is_a_clear_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["report", str(tmp_path), "-o", "-"]) == 2
    assert "no results database here" in capsys.readouterr().err


def _html(results: Path, tmp_path: Path) -> str:
    target = tmp_path / "report.html"
    assert main(["report", str(results), "-o", str(target)]) == 0
    return target.read_text()


def test_html_report_escapes_strings_and_needs_no_network(results: Path, tmp_path: Path) -> None:
    page = _html(results, tmp_path)
    assert "<script>alert" not in page
    assert "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt; &amp; &#34;quotes&#34;" in page
    assert page.count("<script>") == 1  # only the page's own sorting script
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", page)
    assert "@import" not in page


def test_html_report_has_histograms_thumbnails_and_problems_first(
    results: Path, tmp_path: Path
) -> None:
    page = _html(results, tmp_path)
    assert page.count('<svg xmlns="http://www.w3.org/2000/svg" class="histogram"') == 2
    for level in ("easy", "hard", "ambiguous", "undecided"):
        assert f'class="tick">{level}</text>' in page
    assert page.count('src="data:image/png;base64,') == 3  # the rows with a grid
    body = page[page.index("<tbody>") :]
    labels = [body.index(label) for label in ("c/broken.non", "b/bundle.yaml#2", ">a/hard.non<")]
    assert labels == sorted(labels)
    assert "a/hard.non#1" not in page  # "#N" only for files that hold several puzzles
    # the ambiguous row: '-' for its score and stars, and what is wrong in its place
    twins = body[body.index(">Twins<") : body.index("</tr>", body.index(">Twins<"))]
    cells = re.findall(r"<td[^>]*>([^<]*)</td>", twins)
    assert cells[-5:-3] == ["-", "-"]
    assert "5 puzzles" in page and "1 puzzles" not in page


def test_thumbnails_show_filled_empty_and_unknown_cells() -> None:
    uri = thumbnail_data_uri(["#.?", "..#"])
    image = Image.open(io.BytesIO(base64.b64decode(uri.split(",", 1)[1])))
    assert image.size == (3, 2)
    black, white, grey = [0, 0, 0], [255, 255, 255], [170, 170, 170]
    assert np.asarray(image.convert("RGB")).tolist() == [[black, white, grey],
                                                         [white, white, black]]
    assert thumbnail_data_uri(["##", "#"]) == ""  # not a rectangle: nothing drawn


def test_a_colour_thumbnail_paints_each_cell_in_its_palette_colour() -> None:
    palette = {".": "#ffffff", "r": "#d62728", "k": "#000000"}
    uri = thumbnail_data_uri(["r.k", "?rr"], palette)
    image = np.asarray(Image.open(io.BytesIO(base64.b64decode(uri.split(",", 1)[1])))
                       .convert("RGB")).tolist()
    red = [0xD6, 0x27, 0x28]
    assert image == [[red, [255, 255, 255], [0, 0, 0]], [[170, 170, 170], red, red]]


def test_score_bins_count_every_score_once() -> None:
    scores = [0.0, 0.1, 5.0, 9.9, 10.0]
    bins = score_bins(scores, count=4)
    assert [n for _, n in bins] == [2, 0, 1, 2]
    assert score_bins([3.0, 3.0]) == [("3", 2)]
    assert score_bins([]) == []


def test_html_report_runs_in_headless_chromium(results: Path, tmp_path: Path) -> None:
    if not CHROMIUM.exists():
        pytest.skip(f"{CHROMIUM} is not installed (Debian package chromium)")
    page = tmp_path / "report.html"
    assert main(["report", str(results), "-o", str(page)]) == 0
    flags = [
        str(CHROMIUM), "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
        "--no-first-run", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--window-size=1200,1600",
    ]  # fmt: skip
    dom = subprocess.run(
        [*flags, f"--user-data-dir={tmp_path / 'profile-dom'}", "--dump-dom", page.as_uri()],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert f'id="{READY_MARKER}"' in dom.stdout, dom.stderr[-2000:]  # the script ran to the end

    shot = tmp_path / "shot.png"
    subprocess.run(
        [*flags, f"--user-data-dir={tmp_path / 'profile-shot'}", f"--screenshot={shot}",
         page.as_uri()],
        capture_output=True,
        timeout=120,
        check=True,
    )  # fmt: skip
    image = np.asarray(Image.open(shot).convert("RGB"))
    assert image.shape[:2] == (1600, 1200)
    # Not blank: the histogram bars' blue and the thumbnails' black are on the page.
    bar_blue = (np.abs(image.astype(int) - (0x4A, 0x6F, 0xA5)).sum(axis=2) < 30).sum()
    black = (image.sum(axis=2) < 40).sum()
    assert bar_blue > 2000
    assert black > 500


def test_a_unique_puzzle_whose_grade_ran_out_of_time_comes_before_graded_ones() -> None:
    proved = ResultRow("k-proved", "d.non", 1, "", "undecided", verdict="unique", level="undecided")
    graded = sample_rows()[1]
    assert [r.key for r in report_order([graded, proved])] == ["k-proved", "k-hard"]


def test_the_report_says_which_grader_made_the_rows(tmp_path: Path) -> None:
    from dataclasses import replace

    from nonopress.batch.html_report import render_html

    rows = sample_rows()
    old = render_html(rows)  # an older database: no grader recorded
    assert "did not record its" in old and "run the batch again" in old
    same = render_html([replace(row, grader="0.1.0+abc") if row.index else row for row in rows])
    assert "Graded by nonopress 0.1.0+abc" in same and "2 graders" not in same
    mixed = render_html([replace(rows[0], grader="0.1.0+new"), *rows[1:]])
    assert "Graded by 2 graders" in mixed and "0.1.0+new: 1" in mixed
    assert "unknown (an older database): 3" in mixed


def test_a_colour_row_shows_in_its_colours_in_headless_chromium(tmp_path: Path) -> None:
    """Both kinds in one report, as a reader sees it: the colour puzzle's thumbnail in its
    palette's red beside the black-and-white ones, and the kinds counted."""
    if not CHROMIUM.exists():
        pytest.skip(f"{CHROMIUM} is not installed (Debian package chromium)")
    red = "#d7261e"
    flag = ResultRow("k-flag", "c/flag.yaml", 1, "Flag", "graded", 4, 4, "unique", "easy",
                     0.2, 1, {"simple-boxes": 4}, 4, 0.01, "",
                     ("rrrr", "r..r", "r..r", "rrrr"), "t",
                     palette={".": "#ffffff", "r": red})
    out = tmp_path / "results"
    with ResultStore.create(out) as store:
        for row in [*sample_rows(), flag]:
            store.record(row)
    page = tmp_path / "report.html"
    assert main(["report", str(out), "-o", str(page)]) == 0
    text = page.read_text()
    assert "kind: black-and-white 4, colour 1" in text
    assert '<span class="colours">1 colour</span>' in text
    shot = tmp_path / "shot.png"
    subprocess.run(
        [str(CHROMIUM), "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--window-size=1200,1600", f"--user-data-dir={tmp_path / 'profile'}",
         f"--screenshot={shot}", page.as_uri()],
        capture_output=True, timeout=120, check=True)
    image = np.asarray(Image.open(shot).convert("RGB")).astype(int)
    reds = (np.abs(image - (0xD7, 0x26, 0x1E)).sum(axis=2) < 30).sum()
    assert reds > 500  # the flag's 12 red cells, scaled up to a thumbnail
