"""The studio over a catalogue (``nonopress studio --db``): the library's listing, filters,
duplicates and last printings come from the catalogue's own functions; an entry opens in the
editor; catalogue puzzles picked into an issue give an ordinary manifest the CLI reads, and
the issue is recorded in the catalogue's history. On SQLite, and on PostgreSQL when
NONOPRESS_TEST_POSTGRES_URL names a server (as tests/test_catalogue.py)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("uvicorn")
httpx = pytest.importorskip("httpx")

from studio_support import client, make_stock, running_studio  # noqa: E402
from test_catalogue import _postgres_database  # noqa: E402

from grader.errors import NonopressError  # noqa: E402
from grader.formats import read_any  # noqa: E402
from grader.model import Puzzle  # noqa: E402
from nonopress.catalogue import (  # noqa: E402
    Filters,
    ImportOptions,
    add_files,
    find,
    history,
    open_catalogue,
)
from nonopress.studio.config import StudioConfig  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
LIBRARY = ROOT / "puzzles"


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def location(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
             ) -> Iterator[str]:
    base = tmp_path_factory.mktemp(f"catalogue-{request.param}")
    if request.param == "sqlite":
        url = str(base / "stock.sqlite")
        make_stock(url, base)
        yield url
    else:
        for url in _postgres_database():
            make_stock(url, base)
            yield url


@pytest.fixture(scope="module")
def folder(location: str, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("studio-work")


@pytest.fixture(scope="module")
def studio(folder: Path, location: str) -> Iterator[StudioConfig]:
    with running_studio(StudioConfig(folder=folder, catalogue=location)) as config:
        yield config


@pytest.fixture
def http(studio: StudioConfig) -> Iterator[httpx.Client]:
    with client(studio) as session:
        yield session


def by_title(entries: list[dict[str, object]]) -> dict[object, dict[str, object]]:
    return {entry["title"]: entry for entry in entries}


def test_the_library_lists_the_catalogue_as_library_find_does(
        http: httpx.Client, location: str) -> None:
    answer = http.get("/api/puzzles")
    assert answer.status_code == 200, answer.text
    record = answer.json()
    assert record["source"] == "catalogue" and record["pending"] == 0
    with open_catalogue(location, create=False) as catalogue:
        expected = find(catalogue, Filters())
    assert [e["id"] for e in record["entries"]] == [e.id for e in expected]
    entries = by_title(record["entries"])
    assert set(entries) == {"Heart", "House", "Mirror house"}
    for entry in expected:
        shown = entries[entry.title]
        assert shown["label"] == f"catalogue:{entry.id}"
        assert (shown["level"], shown["stars"], shown["verdict"]) == \
            (entry.level, entry.stars, entry.verdict)
        assert shown["effort_minutes"] == entry.minutes
        assert shown["width"] == entry.width and shown["height"] == entry.height
    heart, house, mirror = entries["Heart"], entries["House"], entries["Mirror house"]
    assert heart["verdict"] == "unique" and heart["level"] and heart["stars"]
    assert heart["tags"] == ["love"] and house["tags"] == []
    # the mirrored house is the same design: each names the other, the heart neither
    assert house["duplicates"] == [mirror["label"]]
    assert mirror["duplicates"] == [house["label"]]
    assert heart["duplicates"] == []
    assert heart["last_printed"] == "2026-03-01"
    assert house["last_printed"] is None and mirror["last_printed"] is None
    assert heart["thumbnail"] == list(read_any(LIBRARY / "heart.yaml")[0].solution or [])


def test_filters_are_the_catalogues_filters(http: httpx.Client) -> None:
    def titles(**params: object) -> set[object]:
        answer = http.get("/api/puzzles", params=params)  # type: ignore[arg-type]
        assert answer.status_code == 200, answer.text
        return set(by_title(answer.json()["entries"]))

    heart = read_any(LIBRARY / "heart.yaml")[0]
    house = read_any(LIBRARY / "house.yaml")[0]
    assert titles(tag="love") == {"Heart"}
    assert titles(unused_for="1") == {"House", "Mirror house"}
    assert titles(never_printed="1") == {"House", "Mirror house"}
    assert titles(size=f"{heart.width}x{heart.height}") == {"Heart"}
    assert titles(size=f"{house.width}x{house.height}") == {"House", "Mirror house"}
    levels = by_title(http.get("/api/puzzles").json()["entries"])
    level = levels["Heart"]["level"]
    assert titles(level=level) == {t for t, e in levels.items() if e["level"] == level}
    assert titles(level="no-such-level") == set()


@pytest.mark.parametrize(("params", "named"), [
    ({"size": "big"}, "size"), ({"unused_for": "many"}, "unused_for"),
    ({"colour": "red"}, "colour"), ({"kind": "square"}, "kind")])
def test_a_bad_filter_is_a_json_error_naming_it(http: httpx.Client, params: dict[str, str],
                                                named: str) -> None:
    answer = http.get("/api/puzzles", params=params)
    assert answer.status_code == 400
    assert named in answer.json()["error"]


def test_a_catalogue_entry_opens_in_the_editor(http: httpx.Client) -> None:
    heart = by_title(http.get("/api/puzzles").json()["entries"])["Heart"]
    answer = http.get("/api/puzzle", params={"path": heart["label"]})
    assert answer.status_code == 200, answer.text
    record = answer.json()
    original = read_any(LIBRARY / "heart.yaml")[0]
    assert isinstance(original, Puzzle)
    assert record["catalogue_id"] == heart["id"]
    assert record["rows"] == [list(r) for r in original.rows]
    assert record["columns"] == [list(c) for c in original.columns]
    missing = http.get("/api/puzzle", params={"path": "catalogue:9999"})
    assert missing.status_code == 400 and "9999" in missing.json()["error"]


def test_catalogue_puzzles_picked_into_an_issue(http: httpx.Client, folder: Path,
                                                location: str) -> None:
    from layout.manifest import load_manifest

    entries = by_title(http.get("/api/puzzles").json()["entries"])
    picked = [entries["House"]["label"], entries["Heart"]["label"]]
    body = {"name": "from-stock", "title": "Stock", "puzzles": picked, "profile": "none"}
    answer = http.post("/api/issue", json=body, timeout=300)
    assert answer.status_code == 200, answer.text
    record = answer.json()
    assert record["order"] == picked
    # the heart was printed in Issue 1: the studio warns as `nonopress issue` does
    assert any("Heart" in w and "Issue 1" in w for w in record["warnings"])
    manifest = load_manifest(folder / "from-stock.yaml")
    files = [Path(ref.path) for ref in manifest.puzzles]
    assert [f.parent.name for f in files] == ["from-stock-puzzles"] * 2
    assert [read_any(f)[0].key() for f in files] == \
        [read_any(LIBRARY / n)[0].key() for n in ("house.yaml", "heart.yaml")]
    assert (folder / "from-stock.pdf").read_bytes().startswith(b"%PDF")
    with open_catalogue(location, create=False) as catalogue:
        house = next(e for e in find(catalogue) if e.title == "House")
        printed = history(catalogue, house.key, house.shape_key)
    assert [(p.issue, p.position) for p in printed] == [("Stock from-stock", 1)]
    listed = by_title(http.get("/api/puzzles").json()["entries"])
    assert listed["House"]["last_printed"] == dt.date.today().isoformat()
    # the mirrored house is that design: printed too, as far as the catalogue knows
    assert listed["Mirror house"]["last_printed"] == dt.date.today().isoformat()
    again = http.post("/api/issue", json=body)
    assert again.status_code == 409


def test_the_folders_own_catalogue_opens_by_default(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NONOPRESS_LIBRARY", raising=False)
    folder = tmp_path / "work"
    folder.mkdir()
    (folder / "heart.yaml").write_bytes((LIBRARY / "heart.yaml").read_bytes())
    with running_studio(StudioConfig(folder=folder)) as config, client(config) as http:
        assert http.get("/api/puzzles").json()["source"] == "folder"
    with open_catalogue(str(folder / "nonopress-library.sqlite")) as catalogue:
        add_files(catalogue, [str(folder / "heart.yaml")], ImportOptions(jobs=1))
    with running_studio(StudioConfig(folder=folder)) as config, client(config) as http:
        record = http.get("/api/puzzles").json()
        assert record["source"] == "catalogue"
        assert [e["title"] for e in record["entries"]] == ["Heart"]


def test_a_missing_catalogue_is_one_clear_error(tmp_path: Path) -> None:
    from nonopress.studio.catalogue_source import open_source

    with pytest.raises(NonopressError, match="no catalogue here"):
        open_source(str(tmp_path / "none.sqlite"), tmp_path)


def test_studio_db_names_a_missing_catalogue_and_exits_2(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from nonopress.cli import main

    missing = tmp_path / "nowhere.sqlite"
    status = main(["studio", str(tmp_path), "--db", str(missing), "--no-browser",
                   "--port", "0"])
    assert status == 2
    error = capsys.readouterr().err
    assert str(missing) in error and "no catalogue here" in error
    assert "Traceback" not in error and not missing.exists()
