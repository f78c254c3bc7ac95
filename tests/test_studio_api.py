"""The studio's HTTP API against a real uvicorn server: every endpoint, the security
limits (Host, Origin/token, paths, body and pixel caps, budgets) and concurrent requests."""

from __future__ import annotations

import base64
import io
import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("uvicorn")
httpx = pytest.importorskip("httpx")

from studio_support import client, puzzle_folder, running_studio  # noqa: E402

from grader.model import Puzzle  # noqa: E402
from nonopress.cli import main  # noqa: E402
from nonopress.studio.config import StudioConfig  # noqa: E402

AMBIGUOUS = ["#.", ".#"]  # two solutions: every cell differs
HEART = [".##.##.", "#######", ".#####.", "..###..", "...#..."]


def random_grid(size: int, seed: int, density: float = 0.5) -> list[str]:
    rng = np.random.default_rng(seed)
    picture = rng.random((size, size)) < density
    return ["".join("#" if v else "." for v in row) for row in picture]


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return puzzle_folder(tmp_path_factory.mktemp("studio"))


@pytest.fixture(scope="module")
def studio(folder: Path) -> Iterator[StudioConfig]:
    with running_studio(StudioConfig(folder=folder)) as config:
        yield config


@pytest.fixture
def http(studio: StudioConfig) -> Iterator[httpx.Client]:
    with client(studio) as session:
        yield session


def cli_json(*args: str) -> dict[str, object]:
    """What the CLI prints for one puzzle with --json."""
    out = io.StringIO()
    from contextlib import redirect_stdout

    with redirect_stdout(out):
        main(list(args))
    return json.loads(out.getvalue().strip().splitlines()[0])  # type: ignore[no-any-return]


# -- check and grade answer what the CLI answers ----------------------------------------------
def test_check_answers_the_fields_of_check_json(http: httpx.Client, tmp_path: Path) -> None:
    answer = http.post("/api/check", json={"grid": HEART}).json()
    path = tmp_path / "heart.yaml"
    path.write_bytes(__import__("grader.formats", fromlist=["write"]).write(
        Puzzle.from_picture(HEART), "yaml"))
    cli = cli_json("check", "--json", str(path))
    assert answer["verdict"] == cli["verdict"] == "unique"
    assert set(cli) - {"file", "label"} <= set(answer)
    assert answer["solutions"] == [HEART]


def test_check_of_clues_and_of_an_ambiguous_grid(http: httpx.Client) -> None:
    multiple = http.post("/api/check", json={"grid": AMBIGUOUS}).json()
    assert multiple["verdict"] == "multiple"
    assert sorted(map(tuple, multiple["differing_cells"])) == [(0, 0), (0, 1), (1, 0), (1, 1)]
    clues = http.post("/api/check", json={"rows": [[1], [1]], "columns": [[1], [1]]}).json()
    assert clues["verdict"] == "multiple"


def test_check_names_the_line_that_breaks(http: httpx.Client) -> None:
    # clue totals that disagree are refused before any solve, naming both
    answer = http.post("/api/check", json={"rows": [[1], [1]], "columns": [[2], [1]]})
    assert answer.status_code == 400 and "row clues fill 2" in answer.json()["error"]
    # column 1 needs both rows to start there, and then column 2 gets two cells, not one
    answer = http.post("/api/check", json={"rows": [[2], [2]], "columns": [[2], [1], [1]]})
    record = answer.json()
    assert record["verdict"] == "none"
    assert "cannot be satisfied" in record["reason"]
    assert record["broken"]["axis"] in ("row", "column")


def test_grade_answers_the_fields_of_grade_json_and_a_heat_map(
        http: httpx.Client, tmp_path: Path) -> None:
    answer = http.post("/api/grade", json={"grid": HEART, "title": "Heart"}).json()
    path = tmp_path / "heart.yaml"
    path.write_bytes(__import__("grader.formats", fromlist=["write"]).write(
        Puzzle.from_picture(HEART), "yaml"))
    cli = cli_json("grade", "--json", str(path))
    for key in ("verdict", "level", "score", "stars", "rungs", "steps", "grid"):
        assert answer[key] == cli[key], key
    assert len(answer["heat"]) == 5 and len(answer["heat"][0]) == 7
    assert min(min(row) for row in answer["heat"]) >= 0  # every cell decided by some rung
    assert answer["rung_order"][0] == "simple-boxes"


def test_colour_puzzles_are_checked_and_graded(http: httpx.Client) -> None:
    palette = [{"name": "red", "rgb": "d7261e", "char": "r"},
               {"name": "blue", "rgb": "1e40d7", "char": "b"}]
    grid = ["rr.", ".bb", "r.b"]
    check = http.post("/api/check", json={"grid": grid, "palette": palette}).json()
    assert check["verdict"] == "unique" and check["colours"] == 2
    grade = http.post("/api/grade", json={"grid": grid, "palette": palette}).json()
    assert grade["level"] == "easy" and grade["stars"] >= 1


def test_the_editor_is_told_what_it_may_ask_of_the_kind(http: httpx.Client) -> None:
    """Every check and every opened puzzle carries its kind's registry entry as the editor
    asks it (``editing``): black and white takes givens and clues alone, colour neither."""
    bw = http.post("/api/check", json={"grid": HEART}).json()["editing"]
    assert bw == {"tag": "bw", "name": "black-and-white", "givens": True, "clues_alone": True,
                  "lines": True}
    palette = [{"name": "red", "rgb": "d7261e", "char": "r"}]
    colour = http.post("/api/check", json={"grid": ["r.", ".r"], "palette": palette}).json()
    assert colour["editing"]["tag"] == "colour"
    assert not colour["editing"]["givens"] and not colour["editing"]["clues_alone"]
    opened = http.get("/api/puzzle", params={"path": "house.yaml"}).json()
    assert opened["editing"] == bw


def test_replay_is_the_explain_html_page(http: httpx.Client) -> None:
    answer = http.post("/api/replay", json={"grid": HEART}).json()
    assert answer["html"].startswith("<!DOCTYPE html>")
    assert 'id="replay-data"' in answer["html"] and answer["steps"] > 0


# -- fix, steer, make ---------------------------------------------------------------------------
def test_repair_proposes_the_fewest_flips(http: httpx.Client) -> None:
    grid = ["#.#.", ".#.#", "#.#.", ".#.#"]
    answer = http.post("/api/repair", json={"grid": grid}).json()
    assert answer["unique"] and answer["flips"]
    after = [list(row) for row in grid]
    for r, c in answer["flips"]:
        after[r][c] = "." if after[r][c] == "#" else "#"
    assert ["".join(row) for row in after] == answer["grid"]
    check = http.post("/api/check", json={"grid": answer["grid"]}).json()
    assert check["verdict"] == "unique"


def test_repair_with_givens_keeps_the_picture(http: httpx.Client) -> None:
    grid = ["#.#.", ".#.#", "#.#.", ".#.#"]
    answer = http.post("/api/repair", json={"grid": grid, "mode": "givens"}).json()
    assert answer["grid"] == grid and answer["givens"] and answer["flips"] == []
    check = http.post("/api/check", json={"grid": grid, "givens": answer["givens"]}).json()
    assert check["verdict"] == "unique"


def test_steering_proposes_toward_the_stars_asked_or_says_it_is_out_of_reach(
        http: httpx.Client) -> None:
    house = http.get("/api/puzzle", params={"path": "house.yaml"}).json()
    graded = http.post("/api/grade", json={"grid": house["grid"]}).json()
    harder = min(5, graded["stars"] + 1)
    answer = http.post("/api/repair", json={"grid": house["grid"], "stars": harder}).json()
    assert answer["unique"] and answer["report"]["target"].startswith(f"{harder} star")
    check = http.post("/api/grade", json={"grid": answer["grid"],
                                          "givens": answer["givens"]}).json()
    assert check["stars"] == answer["report"]["stars"]
    if not answer["reached"]:
        assert any("out of reach" in line for line in answer["lines"])
    refused = http.post("/api/repair", json={"grid": house["grid"], "stars": 9})
    assert refused.status_code == 400 and "stars" in refused.json()["error"]


def test_make_turns_a_picture_into_a_unique_puzzle(http: httpx.Client) -> None:
    from PIL import Image, ImageDraw

    image = Image.new("L", (120, 120), 255)
    ImageDraw.Draw(image).ellipse((20, 20, 100, 100), fill=0)
    data = io.BytesIO()
    image.save(data, "PNG")
    body = {"picture": base64.b64encode(data.getvalue()).decode(), "width": 12, "height": 12}
    answer = http.post("/api/make", json=body).json()
    assert answer["unique"] and len(answer["grid"]) == 12
    assert sum(row.count("#") for row in answer["original"]) > 30  # the disc, read


# -- the folder --------------------------------------------------------------------------------
def test_puzzles_lists_the_folder_with_grades_and_duplicates(
        http: httpx.Client, folder: Path) -> None:
    # the heart mirrored is the same design
    mirrored = [row[::-1] for row in HEART[::-1]]
    (folder / "heart-turned.yaml").write_bytes(
        __import__("grader.formats", fromlist=["write"]).write(
            Puzzle.from_picture(mirrored), "yaml"))
    deadline = time.monotonic() + 120
    while True:
        listing = http.get("/api/puzzles").json()
        if listing["pending"] == 0 or time.monotonic() > deadline:
            break
        time.sleep(0.5)
    entries = {entry["label"]: entry for entry in listing["entries"]}
    assert {"heart.yaml", "house.yaml", "loaded-die.yaml", "colour/ladybird.yaml"} <= set(entries)
    heart = entries["heart.yaml"]
    assert (heart["verdict"], heart["level"], heart["width"], heart["height"]) == (
        "unique", "easy", 7, 5)
    assert heart["stars"] >= 1 and heart["thumbnail"] == HEART
    assert entries["loaded-die.yaml"]["level"] == "ambiguous"
    assert entries["colour/ladybird.yaml"]["kind"] == "colour"
    assert heart["duplicates"] == ["heart-turned.yaml"]
    (folder / "heart-turned.yaml").unlink()


def test_puzzle_opens_black_and_white_and_colour(http: httpx.Client) -> None:
    heart = http.get("/api/puzzle", params={"path": "heart.yaml"}).json()
    assert heart["kind"] == "bw" and heart["grid"] == HEART and heart["from"] == "file"
    ladybird = http.get("/api/puzzle", params={"path": "colour/ladybird.yaml"}).json()
    assert ladybird["kind"] == "colour" and len(ladybird["palette"]) == 2
    assert len(ladybird["grid"]) == ladybird["height"] == 10


def test_open_reads_a_file_sent_by_the_page_in_any_format(http: httpx.Client) -> None:
    from grader import formats

    text = formats.write(Puzzle.from_picture(HEART).with_solution(None), "non")
    body = {"name": "heart.non", "content": base64.b64encode(text).decode()}
    record = http.post("/api/open", json=body).json()
    assert record["kind"] == "bw" and record["path"] is None and record["name"] == "heart.non"
    assert record["grid"] == HEART and record["from"] == "solver"
    broken = http.post("/api/open", json={"name": "x.non", "content":
                                          base64.b64encode(b"width 2\nheight x\n").decode()})
    assert broken.status_code == 400 and "x.non" in broken.json()["error"]
    assert http.post("/api/open", json={"name": "../x.non", "content": ""}).status_code == 400


def test_save_writes_a_file_the_cli_reads_and_never_overwrites_silently(
        http: httpx.Client, folder: Path) -> None:
    answer = http.post("/api/save", json={"grid": HEART, "title": "Saved heart",
                                          "path": "saved.yaml"})
    assert answer.status_code == 200, answer.text
    assert main(["check", str(folder / "saved.yaml")]) == 0
    before = (folder / "saved.yaml").read_bytes()
    again = http.post("/api/save", json={"grid": AMBIGUOUS, "path": "saved.yaml"})
    assert again.status_code == 409 and "already" in again.json()["error"]
    assert (folder / "saved.yaml").read_bytes() == before
    (folder / "saved.yaml").unlink()


def test_issue_writes_manifest_pdf_and_preflight(http: httpx.Client, folder: Path) -> None:
    body = {"name": "api-issue", "title": "Test", "puzzles": ["house.yaml", "heart.yaml"],
            "order": "level", "profile": "kdp", "page": "Letter"}
    answer = http.post("/api/issue", json=body, timeout=300)
    assert answer.status_code == 200, answer.text
    record = answer.json()
    assert record["preflight"]["passed"] and record["pages"] >= 24
    assert (folder / "api-issue.pdf").read_bytes().startswith(b"%PDF")
    assert main(["preflight", "--profile", "kdp", str(folder / "api-issue.pdf")]) == 0
    page = http.get(record["previews"][0])
    assert page.headers["content-type"] == "image/png" and page.content.startswith(b"\x89PNG")
    pdf = http.get("/api/file", params={"path": record["pdf"]})
    assert pdf.content.startswith(b"%PDF")
    refused = http.post("/api/issue", json=body)
    assert refused.status_code == 409


def test_an_issue_mixing_both_kinds_goes_through_the_one_pipeline(
        http: httpx.Client, folder: Path) -> None:
    """A colour puzzle beside a black-and-white one: the same build, plan and warnings (the
    studio once built colour issues apart, passing every progress line on as a warning)."""
    body = {"name": "mixed", "title": "Mixed", "puzzles": ["heart.yaml", "colour/ladybird.yaml"],
            "profile": "pdfx", "page": "A4"}
    answer = http.post("/api/issue", json=body, timeout=300)
    assert answer.status_code == 200, answer.text
    record = answer.json()
    assert record["preflight"]["passed"], record["preflight"]
    assert not any(w.startswith("grading") for w in record["warnings"]), record["warnings"]
    text = subprocess.run(["pdftotext", str(folder / "mixed.pdf"), "-"], check=True,
                          capture_output=True, text=True).stdout
    assert "Ladybird" in text and "Heart" in text


# -- security ----------------------------------------------------------------------------------
def test_a_foreign_host_header_is_refused(studio: StudioConfig) -> None:
    answer = httpx.get(f"{studio.origin}/api/health", headers={"Host": "evil.example:80"})
    assert answer.status_code == 421 and "Host" in answer.json()["error"]
    assert httpx.get(f"{studio.origin}/", headers={"Host": "rebound.example"}).status_code == 421


def test_a_cross_origin_post_is_refused(studio: StudioConfig) -> None:
    url = f"{studio.origin}/api/check"
    evil = httpx.post(url, json={"grid": HEART}, headers={"Origin": "http://evil.example"})
    assert evil.status_code == 403
    bare = httpx.post(url, json={"grid": HEART})  # neither Origin nor token
    assert bare.status_code == 403
    same = httpx.post(url, json={"grid": HEART}, headers={"Origin": studio.origin})
    assert same.status_code == 200
    wrong = httpx.post(url, json={"grid": HEART}, headers={"X-Studio-Token": "guess"})
    assert wrong.status_code == 403


@pytest.mark.parametrize("path", ["../secret.yaml", "/etc/passwd", "a/../../secret.yaml",
                                  "link-out/secret.yaml", "file-link.yaml", ".hidden/x.yaml"])
def test_paths_outside_the_folder_are_refused(
        http: httpx.Client, folder: Path, path: str) -> None:
    outside = folder.parent / "outside"
    outside.mkdir(exist_ok=True)
    (outside / "secret.yaml").write_text((folder / "heart.yaml").read_text())
    (folder.parent / "secret.yaml").write_text((folder / "heart.yaml").read_text())
    for name, target in (("link-out", outside), ("file-link.yaml", outside / "secret.yaml")):
        if not (folder / name).is_symlink():
            os.symlink(target, folder / name)
    answer = http.get("/api/puzzle", params={"path": path})
    assert answer.status_code == 400 and "folder" in answer.json()["error"]
    assert http.get("/api/file", params={"path": path}).status_code == 400
    saved = http.post("/api/save", json={"grid": HEART, "path": path})
    assert saved.status_code == 400
    assert (outside / "secret.yaml").read_text() == (folder / "heart.yaml").read_text()


def test_the_library_does_not_follow_links_out_of_the_folder(http: httpx.Client) -> None:
    labels = {entry["label"] for entry in http.get("/api/puzzles").json()["entries"]}
    assert not any("secret" in label or "link" in label for label in labels)


def test_folder_files_never_run_as_the_studios_own_page(
        http: httpx.Client, folder: Path) -> None:
    (folder / "evil.html").write_text("<script>fetch('/api/save')</script>")
    answer = http.get("/api/file", params={"path": "evil.html"})
    assert answer.headers["content-type"].startswith("text/plain")
    assert answer.headers["content-disposition"].startswith("attachment")
    assert "script-src 'self'" in answer.headers["content-security-policy"]
    (folder / "evil.html").unlink()


def test_bodies_over_the_cap_are_refused(studio: StudioConfig, http: httpx.Client) -> None:
    big = b'{"grid": ["' + b"#" * (studio.max_body_bytes + 10) + b'"]}'
    answer = http.post("/api/check", content=big, headers={"Content-Type": "application/json"})
    assert answer.status_code == 413

    def chunks() -> Iterator[bytes]:  # no Content-Length: counted as it arrives
        yield b'{"grid": ["'
        for _ in range(studio.max_body_bytes // 65536 + 2):
            yield b"#" * 65536
        yield b'"]}'

    streamed = http.post("/api/check", content=chunks(),
                         headers={"Content-Type": "application/json"})
    assert streamed.status_code == 413


def test_grids_over_the_size_cap_and_bad_json_get_json_errors(http: httpx.Client) -> None:
    huge = ["#" * 200] * 200
    answer = http.post("/api/check", json={"grid": huge})
    assert answer.status_code == 400 and "120" in answer.json()["error"]
    broken = http.post("/api/check", content=b"{not json",
                       headers={"Content-Type": "application/json"})
    assert broken.status_code == 400 and "JSON" in broken.json()["error"]
    wrong = http.post("/api/check", json={"grid": ["#x"]})
    assert wrong.status_code == 400 and "'#'" in wrong.json()["error"]
    missing = http.get("/api/nowhere")
    assert missing.status_code == 404 and "error" in missing.json()


def test_pictures_over_the_pixel_cap_are_refused_before_decoding(
        studio: StudioConfig, http: httpx.Client) -> None:
    from PIL import Image

    side = int(studio.max_picture_pixels ** 0.5) + 100
    data = io.BytesIO()
    Image.new("1", (side, side), 1).save(data, "PNG")  # small file, many pixels
    body = {"picture": base64.b64encode(data.getvalue()).decode(), "width": 10}
    answer = http.post("/api/make", json=body)
    assert answer.status_code == 413 and "pixels" in answer.json()["error"]


def test_every_solve_has_a_budget(http: httpx.Client, studio: StudioConfig) -> None:
    hard = random_grid(100, seed=1)
    answer = http.post("/api/check", json={"grid": hard, "seconds": 0.002}).json()
    assert answer["verdict"] == "undecided" and "budget" in answer["reason"]
    over = http.post("/api/check", json={"grid": hard, "seconds": studio.check_seconds + 1})
    assert over.status_code == 400 and "seconds" in over.json()["error"]


# -- concurrency -------------------------------------------------------------------------------
def test_ten_hostile_requests_leave_the_server_responsive(studio: StudioConfig) -> None:
    hard = [random_grid(100, seed=s) for s in range(10)]
    results: list[int] = []

    def hostile(grid: list[str]) -> None:
        with client(studio) as session:
            results.append(session.post("/api/check", json={"grid": grid}).status_code)

    threads = [threading.Thread(target=hostile, args=(grid,)) for grid in hard]
    for thread in threads:
        thread.start()
    time.sleep(0.3)
    with client(studio) as session:
        started = time.monotonic()
        health = session.get("/api/health")
        page = session.get("/")
        answered = time.monotonic() - started
        light = session.post("/api/check", json={"grid": HEART}).status_code
    for thread in threads:
        thread.join(120)
    assert health.status_code == 200 and page.status_code == 200
    # the event loop answered while ten budgets' worth of solving ran (each up to 3 s)
    assert answered < 2.0, answered
    assert light in (200, 503)
    assert sorted(set(results)) <= [200, 503] and results.count(200) >= 2


def test_the_newest_request_on_a_channel_wins(studio: StudioConfig) -> None:
    slow = random_grid(100, seed=42)
    answers: dict[str, int] = {}

    def send(name: str, grid: list[str]) -> None:
        with client(studio) as session:
            answers[name] = session.post("/api/check", json={"grid": grid, "channel": "t",
                                                              "seconds": 2.0}).status_code

    first = threading.Thread(target=send, args=("old", slow))
    first.start()
    time.sleep(0.3)
    send("new", HEART)
    first.join(60)
    assert answers == {"old": 409, "new": 200}


def test_the_command_serves_the_folder_and_refuses_a_missing_one(tmp_path: Path) -> None:
    assert main(["studio", str(tmp_path / "missing"), "--no-browser"]) == 2
    folder = puzzle_folder(tmp_path)
    process = subprocess.Popen(
        [sys.executable, "-m", "nonopress", "studio", str(folder), "--port", "0",
         "--no-browser"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None
        address = process.stdout.readline().split()[2]
        token = process.stdout.readline().split()[-1]
        assert address.startswith("http://127.0.0.1:")
        deadline = time.monotonic() + 30
        while True:
            try:
                health = httpx.get(f"{address}api/health")
                break
            except httpx.ConnectError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)
        assert health.json()["ok"]
        check = httpx.post(f"{address}api/check", json={"grid": HEART},
                           headers={"X-Studio-Token": token}, timeout=60)
        assert check.json()["verdict"] == "unique"
    finally:
        process.terminate()
        process.wait(20)


def test_listening_beyond_loopback_warns(tmp_path: Path) -> None:
    folder = puzzle_folder(tmp_path)
    process = subprocess.Popen(
        [sys.executable, "-m", "nonopress", "studio", str(folder), "--host", "0.0.0.0",
         "--port", "0", "--no-browser"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True)
    try:
        assert process.stderr is not None and process.stdout is not None
        warning = process.stderr.readline()
        assert "warning: listening on 0.0.0.0" in warning
        address = process.stdout.readline().split()[2]
        assert address.startswith("http://127.0.0.1:")  # the page is still opened on loopback
    finally:
        process.terminate()
        process.wait(20)
