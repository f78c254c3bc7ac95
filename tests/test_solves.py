"""Issue 49: solve records validated, stored once, collected over HTTP, reported, refitted.

The collector is exercised through Starlette's test client (the same ASGI app uvicorn
runs); the load test and the browser test live in test_solves_load.py and
test_solves_browser.py.
"""

from __future__ import annotations

import datetime as dt
import json
import math
import random
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
import yaml
from starlette.testclient import TestClient
from test_catalogue import _postgres_database  # one scratch schema per test, as there

from grader.kinds import write_puzzles
from grader.minutes import TimeModel, default_model
from grader.model import Metadata, Puzzle
from grader.scoring import RATED_LEVELS, default_weights
from nonopress.catalogue import ImportOptions, add_files, open_catalogue, schema
from nonopress.catalogue.database import Catalogue
from nonopress.cli import main
from nonopress.solves import RecordRefused, parse_record, store_solve
from nonopress.solves.collector import CollectorSettings, create_app
from nonopress.solves.record import MIN_COMPLETED_SECONDS
from nonopress.solves.refit import Observed, features, held_out, numeric_id, predicted

ROOT = Path(__file__).resolve().parents[1]
SITE = "https://puzzles.example"


def record(key: str, **changes: Any) -> dict[str, Any]:
    """A valid record of one attempt at the puzzle ``key``."""
    base: dict[str, Any] = {
        "v": 1, "record_id": str(uuid.uuid4()), "solver_id": str(uuid.uuid4()),
        "puzzle_key": key, "grader_version": "0.9.0+abc123", "seconds_active": 312.5,
        "completed": True, "checks": 1, "reveals": 0, "errors_found": 2,
        "hints": {"1": 1, "2": 1, "3": 0, "4": 0}, "hint_rungs": ["simple-boxes", "glue"],
        "device": "phone", "started_at": "2026-11-28T02:30Z",
        "player": "nonopress-player/0.9.0",
    }
    return {**base, **changes}


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield str(tmp_path / "catalogue.sqlite")
    else:
        yield from _postgres_database()


@pytest.fixture()
def catalogue(db_url: str, tmp_path: Path) -> Iterator[Catalogue]:
    with open_catalogue(db_url) as opened:
        add_files(opened, [str(ROOT / "puzzles" / "cat.yaml"),
                           str(ROOT / "puzzles" / "heart.yaml")], ImportOptions(jobs=1))
        yield opened


def keys(catalogue: Catalogue) -> list[str]:
    with catalogue.reading() as connection:
        return list(connection.execute(
            sa.select(schema.puzzles.c.key).order_by(schema.puzzles.c.id)).scalars())


def stored(catalogue: Catalogue) -> list[Any]:
    with catalogue.reading() as connection:
        return list(connection.execute(sa.select(schema.solves)).all())


# -- the record ---------------------------------------------------------------------------------
KEY = "9f4f7c27d02e3e3f2b56f183"


def known(key: str) -> bool:
    return key == KEY


@pytest.mark.parametrize(("change", "field"), [
    ({"checks": True}, "checks"), ({"checks": 1.5}, "checks"), ({"checks": -1}, "checks"),
    ({"reveals": 10**30}, "reveals"), ({"seconds_active": "12"}, "seconds_active"),
    ({"seconds_active": 1e308}, "seconds_active"), ({"seconds_active": -3}, "seconds_active"),
    ({"completed": 1}, "completed"), ({"record_id": "not-a-uuid"}, "record_id"),
    ({"record_id": str(uuid.uuid1())}, "record_id"), ({"solver_id": None}, "solver_id"),
    ({"hints": {"1": 1}}, "hints"), ({"hints": {"1": 0, "2": 0, "3": 0, "4": "x"}}, "hints.4"),
    ({"hints": [1, 2, 3, 4]}, "hints"), ({"hint_rungs": "glue"}, "hint_rungs"),
    ({"hint_rungs": ["<script>"]}, "hint_rungs[0]"), ({"hint_rungs": ["glue"] * 501},
                                                     "hint_rungs"),
    ({"device": "fridge"}, "device"), ({"started_at": "2026-11-28 02:30"}, "started_at"),
    ({"started_at": "2019-01-01T00:00Z"}, "started_at"),
    ({"started_at": "2026-02-30T00:00Z"}, "started_at"), ({"player": "curl/8"}, "player"),
    ({"v": 2}, "v"), ({"v": True}, "v"), ({"grader_version": "x" * 65}, "grader_version"),
    ({"puzzle_key": "ZZZ"}, "puzzle_key"), ({"puzzle_key": "ab" * 12}, "puzzle_key"),
    ({"extra": 1}, "unknown field"),
])
def test_a_record_at_fault_is_refused_naming_its_field(change: dict[str, Any],
                                                       field: str) -> None:
    with pytest.raises(RecordRefused) as refused:
        parse_record(json.dumps(record(KEY, **change)).encode(), known)
    message = str(refused.value)
    assert message.startswith(field) and "\n" not in message and len(message) < 300
    assert 400 <= refused.value.status < 500


def test_a_record_missing_a_field_or_not_an_object_is_refused() -> None:
    whole = record(KEY)
    for name in list(whole):
        partial = {k: v for k, v in whole.items() if k != name}
        with pytest.raises(RecordRefused, match=f"^{name}: missing"):
            parse_record(json.dumps(partial).encode(), known)
    for body in (b"[1]", b"nul", b"\xff\xfe", b"{" * 100_000):
        with pytest.raises(RecordRefused):
            parse_record(body, known)


def test_a_valid_record_keeps_its_figures_and_its_start_to_the_minute() -> None:
    parsed = parse_record(json.dumps(record(KEY, started_at="2026-11-28T02:30:59.123Z"))
                          .encode(), known)
    assert parsed.started_at == "2026-11-28T02:30Z"
    assert parsed.hints == (1, 1, 0, 0) and parsed.hint_rungs == ("simple-boxes", "glue")
    again = parse_record(json.dumps(parsed.to_json()).encode(), known)
    assert again == parsed


# -- stored once --------------------------------------------------------------------------------
def test_a_record_is_stored_once_and_moves_only_forward(catalogue: Catalogue) -> None:
    key = keys(catalogue)[0]
    check = catalogue_known(catalogue)
    first = record(key, completed=False, seconds_active=60.0, checks=0)
    assert store_solve(catalogue, parse_record(json.dumps(first).encode(), check)) == "new"
    assert store_solve(catalogue, parse_record(json.dumps(first).encode(), check)) == \
        "unchanged"  # a retry
    further = {**first, "seconds_active": 90.0, "checks": 1}
    assert store_solve(catalogue, parse_record(json.dumps(further).encode(), check)) == \
        "updated"
    assert store_solve(catalogue, parse_record(json.dumps(first).encode(), check)) == \
        "unchanged"  # an older record arriving late changes nothing
    done = {**further, "completed": True, "seconds_active": 120.0}
    assert store_solve(catalogue, parse_record(json.dumps(done).encode(), check)) == "updated"
    after = {**done, "completed": False, "seconds_active": 500.0}
    assert store_solve(catalogue, parse_record(json.dumps(after).encode(), check)) == \
        "unchanged"  # a completed attempt is final
    rows = stored(catalogue)
    assert len(rows) == 1
    assert (rows[0].completed, rows[0].seconds_active, rows[0].checks) == (True, 120.0, 1)
    forged = {**first, "solver_id": str(uuid.uuid4())}
    with pytest.raises(RecordRefused, match="another solve attempt") as refused:
        store_solve(catalogue, parse_record(json.dumps(forged).encode(), check))
    assert refused.value.status == 409


def catalogue_known(catalogue: Catalogue) -> Any:
    from nonopress.solves import KnownPuzzles

    return KnownPuzzles(catalogue)


# -- the collector over HTTP --------------------------------------------------------------------
def client_of(db_url: str, **settings: Any) -> TestClient:
    values: dict[str, Any] = {"origins": frozenset({SITE, "null"}), **settings}
    return TestClient(create_app(CollectorSettings(**values), db_url))


def test_the_collector_stores_a_beacon_once_and_answers_cors(catalogue: Catalogue,
                                                             db_url: str) -> None:
    key = keys(catalogue)[0]
    body = json.dumps(record(key))
    with client_of(db_url) as client:
        preflight = client.options("/api/solves", headers={
            "origin": SITE, "access-control-request-method": "POST",
            "access-control-request-headers": "content-type"})
        assert preflight.status_code == 204
        assert preflight.headers["access-control-allow-origin"] == SITE
        assert "POST" in preflight.headers["access-control-allow-methods"]
        for attempt in range(3):  # sendBeacon's text/plain, then retries as JSON
            kind = "text/plain;charset=UTF-8" if attempt == 0 else "application/json"
            answer = client.post("/api/solves", content=body,
                                 headers={"origin": SITE, "content-type": kind})
            assert answer.status_code == (201 if attempt == 0 else 200)
            assert answer.headers["access-control-allow-origin"] == SITE
        foreign = client.options("/api/solves", headers={
            "origin": "https://evil.example", "access-control-request-method": "POST"})
        assert foreign.status_code == 403
        assert "access-control-allow-origin" not in foreign.headers
    assert len(stored(catalogue)) == 1


def test_hostile_requests_are_refused_in_one_json_line_each(catalogue: Catalogue,
                                                            db_url: str) -> None:
    key = keys(catalogue)[0]
    good = record(key)
    plain = {"origin": SITE, "content-type": "text/plain"}
    cases: list[tuple[dict[str, str], bytes, int]] = [
        ({"origin": "https://evil.example", "content-type": "text/plain"},
         json.dumps(good).encode(), 403),
        ({"content-type": "text/plain"}, json.dumps(good).encode(), 403),
        ({**plain, "origin": SITE + ".evil.example"}, json.dumps(good).encode(), 403),
        ({**plain, "content-type": "application/x-www-form-urlencoded"},
         json.dumps(good).encode(), 415),
        (plain, b"x" * 100_000, 413),
        (plain, json.dumps(record(key, hint_rungs=["glue"] * 3000)).encode(), 413),
        (plain, json.dumps(record("ab" * 12)).encode(), 404),
        (plain, json.dumps(record(key, checks=10**40)).encode(), 422),
        (plain, json.dumps(record(key, seconds_active=float("nan"))).encode(), 422),
        (plain, b'{"v": 1', 400),
    ]
    with client_of(db_url) as client:
        for headers, body, status in cases:
            answer = client.post("/api/solves", content=body, headers=headers)
            assert answer.status_code == status, (headers, body[:80], answer.text)
            assert answer.text.count("\n") == 1 and list(answer.json()) == ["error"]
        assert client.get("/api/solves").status_code == 405
    assert stored(catalogue) == []


def test_a_client_over_its_rate_waits(catalogue: Catalogue, db_url: str) -> None:
    key = keys(catalogue)[0]
    headers = {"origin": SITE, "content-type": "application/json"}
    with client_of(db_url, rate=0.5, burst=3) as client:
        answers = [client.post("/api/solves", content=json.dumps(record(key)), headers=headers)
                   for _ in range(5)]
    assert [a.status_code for a in answers] == [201, 201, 201, 429, 429]
    assert int(answers[3].headers["retry-after"]) >= 1
    assert len(stored(catalogue)) == 3


# -- reports and the refit on simulated solves --------------------------------------------------
def test_held_out_is_a_numeric_id_ending_in_7_else_the_key_hash() -> None:
    assert numeric_id("griddlers/98947_Holly__Berries.non") == 98947
    assert held_out("0" * 24, "98947_Holly.non") and not held_out("0" * 24, "98946_x.non")
    assert numeric_id("cat.yaml") is None
    share = sum(held_out(f"{n:024x}", "cat.yaml") for n in range(5000)) / 5000
    assert 0.08 < share < 0.12
    assert held_out(f"{4:024x}", "cat.yaml") == held_out(f"{4:024x}", "other.yaml")


def _rated_puzzles(make: Any, count_fit: int, count_held: int) -> list[Any]:
    """Puzzles ``make(number)`` draws, graded unique at a rated level, ``count_fit`` fitted
    and ``count_held`` held out by the rule."""
    from grader.kinds import kind_of
    from grader.results import Budget

    fit: list[Any] = []
    held: list[Any] = []
    for number in range(3000):
        if len(fit) >= count_fit and len(held) >= count_held:
            break
        puzzle = make(number)
        group = held if held_out(puzzle.key()) else fit
        if len(group) >= (count_held if group is held else count_fit):
            continue
        grade = kind_of(puzzle).grade(None, Budget(seconds=10))
        if grade.verdict == "unique" and grade.level in RATED_LEVELS:
            group.append(puzzle)
    assert len(fit) == count_fit and len(held) == count_held
    return fit + held


def _random_puzzles(count_fit: int, count_held: int, seed: int) -> list[Any]:
    """Random black-and-white pictures (see :func:`_rated_puzzles`)."""
    rng = random.Random(seed)

    def make(number: int) -> Puzzle:
        side = rng.choice((5, 8, 10, 12, 15))
        ink = rng.uniform(0.45, 0.7)
        rows = ["".join("#" if rng.random() < ink else "." for _ in range(side))
                for _ in range(side)]
        return Puzzle.from_picture(rows, Metadata(title=f"Random {number}"))

    return _rated_puzzles(make, count_fit, count_held)


def test_reports_and_refit_recover_the_minutes_of_5000_simulated_solves(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    weights = default_weights()
    puzzles = _random_puzzles(22, 4, seed=49)
    source = tmp_path / "random.yaml"
    source.write_bytes(write_puzzles(puzzles, "yaml"))
    db = str(tmp_path / "catalogue.sqlite")
    before = default_model()
    # the audience: slower than the model, and slowed down more by the harder puzzles
    truth = TimeModel(before.intercept * 1.1 + 0.4,
                      {name: value * 1.1 for name, value in before.coefficients.items()},
                      before.low, before.high)
    true_minutes: dict[str, float] = {}
    for puzzle in puzzles:
        facts = features(puzzle, 30.0)
        assert facts is not None
        observed = Observed(0, puzzle.key(), "", "", 1.0, 0, False, *facts)
        true_minutes[puzzle.key()] = predicted(truth, observed, weights)
    rng = random.Random(2026)
    rows = []
    keys_in_order = sorted(true_minutes)
    for _ in range(5000):
        key = rng.choice(keys_in_order)
        completed = rng.random() < 0.9
        revealed = completed and rng.random() < 0.1
        minutes = true_minutes[key] * math.exp(rng.gauss(0.0, 0.25))
        if revealed:
            minutes *= 0.5  # a reveal cuts a solve short: left out of the medians
        if not completed:
            minutes *= rng.uniform(0.1, 0.9)
        hinted = rng.random() < 0.3
        seconds = round(minutes * 60.0, 1)
        if completed:  # the collector's floor for a finished solve (record.py)
            seconds = max(seconds, MIN_COMPLETED_SECONDS)
        rows.append(record(key, seconds_active=seconds, completed=completed,
                           reveals=int(revealed), hints={"1": int(hinted), "2": 0, "3": 0,
                                                         "4": 0},
                           hint_rungs=["simple-spaces"] if hinted else []))
    with open_catalogue(db) as catalogue:
        add_files(catalogue, [str(source)], ImportOptions(jobs=1))
        check = catalogue_known(catalogue)
        parsed = [parse_record(json.dumps(r).encode(), check) for r in rows]
        with catalogue.writing() as connection:
            stamp = dt.datetime.now(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
            connection.execute(schema.solves.insert(), [
                {**p.row(), "received_at": stamp, "updated_at": stamp} for p in parsed])

    assert main(["library", "--db", db, "solves", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["solves"] == 5000 and len(report["puzzles"]) == len(puzzles)
    medians = []
    for row in report["puzzles"]:
        error = abs(row["median_minutes"] / true_minutes[row["key"]] - 1.0)
        assert error < 0.10, (row["title"], row["median_minutes"], true_minutes[row["key"]])
        medians.append(error)
        assert 0.8 < row["completion"] < 0.98 and 0.18 < row["hint_rate"] < 0.42
    assert {"easy"} <= set(report["levels"])

    scoring = tmp_path / "scoring.yaml"
    scoring.write_text((ROOT / "grader" / "scoring.yaml").read_text(encoding="utf-8"))
    installed = (ROOT / "grader" / "scoring.yaml").read_bytes()
    assert main(["calibrate", "--from-solves", "--db", db, "--json",
                 "--write", str(scoring), "--force"]) == 0
    refit = json.loads(capsys.readouterr().out)
    assert refit["training_puzzles"] == 22 and refit["held_out_puzzles"] == 4
    errors_after = [abs(row["after"] / true_minutes[row["key"]] - 1.0)
                    for row in refit["held_out"]["puzzles"]]
    errors_before = [abs(row["before"] / true_minutes[row["key"]] - 1.0)
                     for row in refit["held_out"]["puzzles"]]
    assert max(errors_after) < 0.10, errors_after
    assert min(errors_before) > 0.15  # the model before did not know this audience
    written = TimeModel.from_mapping(yaml.safe_load(scoring.read_text())["minutes"])
    assert written.intercept == refit["after"]["intercept"]
    assert (ROOT / "grader" / "scoring.yaml").read_bytes() == installed
    print(f"library solves: largest error of a puzzle's median {max(medians):.1%}; "
          f"held out: largest error after the refit {max(errors_after):.1%}, before "
          f"{min(errors_before):.1%}..{max(errors_before):.1%}")


# -- the studio mounts the collector and shows the figures --------------------------------------
def test_the_studio_collects_for_its_catalogue_and_its_cards_show_the_solves(
        tmp_path: Path) -> None:
    import httpx
    from studio_support import make_stock, running_studio

    from nonopress.studio.config import StudioConfig

    db = str(tmp_path / "stock.sqlite")
    make_stock(db, tmp_path)
    with open_catalogue(db) as opened, opened.reading() as connection:
        heart_id, heart = connection.execute(sa.select(
            schema.puzzles.c.id, schema.puzzles.c.key)
            .where(schema.puzzles.c.title == "Heart")).one()
    config = StudioConfig(folder=tmp_path, catalogue=db, collect_origins=(SITE,))
    with running_studio(config) as studio:
        url = f"{studio.origin}/api/solves"
        body = json.dumps(record(heart, seconds_active=90.0))
        sent = httpx.post(url, content=body, headers={"origin": SITE,
                                                      "content-type": "text/plain"})
        assert sent.status_code == 201 and sent.headers["access-control-allow-origin"] == SITE
        again = httpx.post(url, content=body, headers={"origin": SITE,
                                                       "content-type": "text/plain"})
        assert again.json() == {"stored": "unchanged"}
        foreign = httpx.post(url, content=body, headers={"origin": "https://evil.example",
                                                         "content-type": "text/plain"})
        assert foreign.status_code == 403
        listing = httpx.get(f"{studio.origin}/api/puzzles",
                            headers={"X-Studio-Token": studio.token}).json()
    cards = {e["title"]: e for e in listing["entries"]}
    assert cards["Heart"]["solves"]["solves"] == 1
    # one address's solve is counted, but a median needs three addresses (reports.py)
    assert cards["Heart"]["solves"]["clean"] == 1
    assert cards["Heart"]["solves"]["addresses"] == 1
    assert cards["Heart"]["solves"]["median_minutes"] is None
    assert cards["Heart"]["solves"]["rungs_hinted"][0]["rung"] in ("simple-boxes", "glue")
    assert cards["House"]["solves"] is None
    assert heart_id == cards["Heart"]["id"]


# -- the commands' bad input: one line, status 2 ------------------------------------------------
def test_the_commands_refuse_bad_input_in_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "stock.sqlite")
    with open_catalogue(db) as opened:
        add_files(opened, [str(ROOT / "puzzles" / "cat.yaml")], ImportOptions(jobs=1))
    capsys.readouterr()
    cases = [
        (["collect", "--db", db, "--origin", "site.example"], "not an origin"),
        (["collect", "--db", db, "--origin", "https://site.example/path"], "not an origin"),
        (["collect", "--db", db, "--origin", SITE, "--workers", "0"], "--workers"),
        (["collect", "--db", db, "--origin", SITE, "--rate", "0"], "rate"),
        (["collect", "--db", str(tmp_path / "none.sqlite"), "--origin", SITE],
         "no catalogue here"),
        (["library", "--db", db, "solves", "--since", "yesterday"], "--since"),
        (["calibrate", "--from-solves", "--db", db], "the fit needs"),
        (["calibrate", "--from-solves", "--db", db, "--write", str(tmp_path / "no.yaml")],
         "no scoring table"),
        (["calibrate", "--from-solves", "--db", db, "--min-solves", "0"], "--min-solves"),
    ]
    for argv, words in cases:
        assert main(argv) == 2, argv
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and words in err, (argv, err)
    assert main(["library", "--db", db, "solves"]) == 0
    out = capsys.readouterr()
    assert "(none yet)" in out.out and "0 solve(s) of 0 puzzle(s)" in out.err


def test_the_batch_writer_stores_a_batch_once_and_outlives_a_dropped_connection(
        catalogue: Catalogue) -> None:
    from nonopress.solves.store import BatchWriter, store_solves

    key = keys(catalogue)[0]
    same = parse_record(json.dumps(record(key)).encode(), None)
    other = parse_record(json.dumps(record(key)).encode(), None)
    assert store_solves(catalogue, [same, other, same]) == ["new", "new", "unchanged"]
    writer = BatchWriter(catalogue)
    try:
        first = parse_record(json.dumps(record(key)).encode(), None)
        assert writer.submit(first).result(timeout=30) == "new"
        if catalogue.dialect == "postgresql":  # the server drops the writer's idle connection
            with catalogue.engine.connect() as admin:
                dropped = admin.execute(sa.text(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE "
                    "pid <> pg_backend_pid() AND query LIKE :insert"),
                    {"insert": "INSERT INTO solves%"}).scalars().all()
                admin.commit()
            assert dropped == [True]
        then = parse_record(json.dumps(record(key)).encode(), None)
        assert writer.submit(then).result(timeout=30) == "new"
        assert writer.submit(then).result(timeout=30) == "unchanged"
    finally:
        writer.close()
    assert len(stored(catalogue)) == 4


def test_a_record_waits_for_a_writer_that_holds_the_sqlite_catalogue(tmp_path: Path) -> None:
    """The studio grading writes to the catalogue the collector stores solves in: a record
    that arrives meanwhile waits for the write lock and is stored (it was refused at once
    with "database is locked" when the other writer committed while it waited)."""
    import sqlite3
    import threading
    import time

    from nonopress.solves.senders import catalogue_secret
    from nonopress.solves.store import BatchWriter

    path = tmp_path / "catalogue.sqlite"
    with open_catalogue(str(path)) as catalogue:
        add_files(catalogue, [str(ROOT / "puzzles" / "heart.yaml")], ImportOptions(jobs=1))
        key = keys(catalogue)[0]
        holder = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        writer = BatchWriter(catalogue)
        try:
            holder.execute("BEGIN IMMEDIATE")
            holder.execute("UPDATE puzzles SET title = title")
            released = threading.Timer(0.8, lambda: holder.execute("COMMIT"))
            released.start()
            started = time.monotonic()
            secret = catalogue_secret(catalogue)
            answer = writer.submit(parse_record(json.dumps(record(key)).encode(), None))
            assert answer.result(timeout=60) == "new"
            assert time.monotonic() - started >= 0.7  # it waited for the holder
            released.join()
            holder.execute("BEGIN IMMEDIATE")
            holder.execute("UPDATE puzzles SET title = title")
            threading.Timer(0.5, lambda: holder.execute("COMMIT")).start()
            assert catalogue_secret(catalogue) == secret
            later = writer.submit(parse_record(json.dumps(record(key)).encode(), None))
            assert later.result(timeout=60) == "new"
        finally:
            writer.close()
            holder.close()
        assert len(stored(catalogue)) == 2


def _random_colour_puzzles(count_fit: int, count_held: int, seed: int) -> list[Any]:
    """Random two-colour pictures (see :func:`_rated_puzzles`)."""
    import numpy as np

    from grader.colour.model import ColourPuzzle
    from grader.colour.palette import Colour, Palette

    palette = Palette((Colour("red", (200, 30, 30), "r"), Colour("blue", (30, 30, 200), "b")))
    rng = np.random.default_rng(seed)

    def make(number: int) -> Any:
        side = int(rng.choice((5, 6, 8, 10)))
        picture = rng.choice(3, size=(side, side), p=(0.35, 0.4, 0.25)).astype(np.uint8)
        return ColourPuzzle.from_picture(picture, palette, Metadata(title=f"Colour {number}"))

    return _rated_puzzles(make, count_fit, count_held)


def test_the_colour_minutes_refit_on_their_own_solves(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``--kind colour`` refits colour_minutes on the colour puzzles' solves, leaves the
    black-and-white puzzles (and the minutes block) alone, and writes the colour block."""
    weights = default_weights()
    puzzles = _random_colour_puzzles(12, 3, seed=47)
    source = tmp_path / "colour.yaml"
    source.write_bytes(write_puzzles(puzzles, "yaml"))
    db = str(tmp_path / "catalogue.sqlite")
    before = default_model("colour")
    truth = TimeModel(before.intercept * 0.9 - 0.3,
                      {name: value * 0.9 for name, value in before.coefficients.items()},
                      before.low, before.high)  # a quicker audience
    true_minutes = {}
    for puzzle in puzzles:
        facts = features(puzzle, 30.0, model="colour")
        assert facts is not None and features(puzzle, 30.0) is None  # not black and white
        observed = Observed(0, puzzle.key(), "", "", 1.0, 0, False, *facts)
        true_minutes[puzzle.key()] = predicted(truth, observed, weights)
    rng = random.Random(47)
    keys = sorted(true_minutes)
    rows = [record(key, seconds_active=round(true_minutes[key] * 60.0
                                             * math.exp(rng.gauss(0.0, 0.2)), 1),
                   reveals=0, completed=True)
            for key in keys for _ in range(15)]
    with open_catalogue(db) as catalogue:
        add_files(catalogue, [str(source), str(ROOT / "puzzles" / "cat.yaml")],
                  ImportOptions(jobs=1))
        check = catalogue_known(catalogue)
        with catalogue.reading() as connection:
            cat_key = connection.execute(sa.select(schema.puzzles.c.key).where(
                schema.puzzles.c.title == "Cat")).scalar_one()
        # a black-and-white puzzle's solves too: its minutes are the other model's
        rows += [record(cat_key, seconds_active=60.0) for _ in range(6)]
        parsed = [parse_record(json.dumps(r).encode(), check) for r in rows]
        with catalogue.writing() as connection:
            stamp = dt.datetime.now(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
            connection.execute(schema.solves.insert(), [
                {**p.row(), "received_at": stamp, "updated_at": stamp} for p in parsed])
    scoring = tmp_path / "scoring.yaml"
    original = (ROOT / "grader" / "scoring.yaml").read_text(encoding="utf-8")
    scoring.write_text(original, encoding="utf-8")
    assert main(["calibrate", "--from-solves", "--kind", "colour", "--db", db, "--json",
                 "--write", str(scoring), "--force"]) == 0
    refit = json.loads(capsys.readouterr().out)
    assert refit["model"] == "colour"
    assert (refit["training_puzzles"], refit["held_out_puzzles"]) == (12, 3)
    assert refit["left_out"].get("timed by another model") == 1  # the cat
    errors = [abs(row["after"] / true_minutes[row["key"]] - 1.0)
              for row in refit["held_out"]["puzzles"]]
    assert max(errors) < 0.10, errors
    written = yaml.safe_load(scoring.read_text(encoding="utf-8"))
    assert TimeModel.from_mapping(written["colour_minutes"]).intercept == (
        refit["after"]["intercept"])
    assert written["minutes"] == yaml.safe_load(original)["minutes"]  # black and white alone
    assert "# Colour minutes fitted by `nonopress calibrate --from-solves`" in (
        scoring.read_text(encoding="utf-8"))


def test_the_refit_reads_clue_facts_through_the_kind_and_leaves_out_another_model() -> None:
    """The black-and-white minutes are refitted: a colour puzzle (timed by colour_minutes)
    is left out before it is graded; a black-and-white one gives the kind's clue facts."""
    from grader.kinds import kind_of, read_puzzles
    from nonopress.solves.refit import refitted_clues

    root = Path(__file__).resolve().parents[1] / "puzzles"
    (ladybird,) = read_puzzles(root / "colour" / "ladybird.yaml")
    (house,) = read_puzzles(root / "house.yaml")
    assert refitted_clues(ladybird) is None and features(ladybird, 5.0) is None
    kind = kind_of(house)
    assert refitted_clues(house) == kind.clue_facts(kind.sweep_passes())


def test_solves_that_do_not_rank_with_the_model_are_refused_not_fitted() -> None:
    """A scale of zero or below (the harder puzzles measured quicker) is no audience: the
    refit says so instead of writing minutes that fall as puzzles grow."""
    from grader.kinds import read_puzzles
    from nonopress.solves.refit import NoFit, refit

    weights = default_weights()
    before = default_model()
    observed = []
    for path in sorted((ROOT / "puzzles").glob("*.yaml")):
        facts = features(read_puzzles(path)[0], 30.0)
        if facts is not None:
            minutes = predicted(before, Observed(0, "", "", "", 1.0, 0, False, *facts), weights)
            observed.append(Observed(0, path.stem, "", "", 100.0 / minutes, 5, False, *facts))
    assert len(observed) >= 10
    with pytest.raises(NoFit, match="do not grow with the model's"):
        refit(observed, before, weights)
    kept = [Observed(o.id, o.key, "", "", 2.0 * predicted(before, o, weights), 5, False,
                     o.terms, o.clues) for o in observed]
    twice = refit(kept, before, weights)  # the same ranking, twice as slow: a shift
    assert twice.intercept == pytest.approx(before.intercept + math.log(2.0), abs=1e-3)


# -- how a solve was finished (issue 56) ----------------------------------------------------------
def test_a_record_says_how_it_was_finished_and_an_old_one_still_reads() -> None:
    hinted = parse_record(json.dumps(record(KEY, finish="hinted")).encode(), known)
    assert hinted.finish == "hinted" and hinted.to_json()["finish"] == "hinted"
    assert parse_record(json.dumps(hinted.to_json()).encode(), known) == hinted
    # a player before issue 56 sends no finish: read as before
    old = parse_record(json.dumps(record(KEY)).encode(), known)
    assert old.finish is None and "finish" not in old.to_json()
    # a reveal is a revealed finish whatever the record says
    claimed = parse_record(json.dumps(record(KEY, reveals=2, finish="unaided")).encode(), known)
    assert claimed.finish == "revealed"
    for bad in ("clean", 1, True, ""):
        with pytest.raises(RecordRefused, match=r"^finish: ") as refused:
            parse_record(json.dumps(record(KEY, finish=bad)).encode(), known)
        assert refused.value.status == 422


def test_a_solve_finished_by_hints_or_a_reveal_is_never_counted_clean(
        catalogue: Catalogue) -> None:
    from nonopress.solves.reports import read_solves

    key = keys(catalogue)[0]
    check = catalogue_known(catalogue)
    finishes = {"unaided": True, "hinted": False, "revealed": False, None: True}
    ids = {}
    for finish in finishes:
        extra = {} if finish is None else {"finish": finish}
        sent = record(key, **extra)
        ids[sent["record_id"]] = finish
        store_solve(catalogue, parse_record(json.dumps(sent).encode(), check))
    rows = {r.record_id: r for r in stored(catalogue)}
    assert {rid: rows[rid].finish for rid in ids} == ids
    clean = {s.order: s.clean for s in read_solves(catalogue)}
    by_row = {rows[rid].id: finish for rid, finish in ids.items()}
    assert {by_row[order]: ok for order, ok in clean.items()} == finishes
    # an abandoned attempt sent again finished by a hint takes the hinted finish
    first = record(key, completed=False, seconds_active=60.0, finish="unaided",
                   solver_id=str(uuid.uuid4()))
    store_solve(catalogue, parse_record(json.dumps(first).encode(), check))
    done = {**first, "completed": True, "seconds_active": 90.0, "finish": "hinted"}
    assert store_solve(catalogue, parse_record(json.dumps(done).encode(), check)) == "updated"
    assert {r.record_id: r.finish for r in stored(catalogue)}[first["record_id"]] == "hinted"


def test_solves_stored_before_the_finish_column_are_kept_by_its_migration(
        db_url: str) -> None:
    from alembic import command
    from alembic.config import Config

    from nonopress.solves.reports import read_solves

    with open_catalogue(db_url) as opened:  # the newest schema, taken back to 0005
        config = Config()
        config.set_main_option("script_location", "nonopress.catalogue:migrations")
        with opened.engine.connect() as connection, connection.begin():
            config.attributes["connection"] = connection
            command.downgrade(config, "0005")
        row = {**parse_record(json.dumps(record(KEY)).encode(), None).row(),
               "received_at": "2026-11-28T03:00:00Z", "updated_at": "2026-11-28T03:00:00Z"}
        row.pop("finish")
        with opened.writing() as connection:
            names = ", ".join(row)
            connection.execute(sa.text(
                f"INSERT INTO solves ({names}) VALUES ({', '.join(':' + k for k in row)})"),
                row)
    with open_catalogue(db_url) as opened:  # opening migrates to the newest
        (old,) = stored(opened)
        assert old.finish is None and old.record_id == row["record_id"]
        (solve,) = read_solves(opened)
        assert solve.clean and solve.finish is None
