"""One registry of kinds (grader/kinds/registry.py): each entry carries what the house asks of
a kind, every kind's drawing is a module under layout/kinds/, fill-ins are a kind like the
others, and the caches keep a puzzle's grade and hints under its kind's tag.

A fresh ``nonopress web`` grades each puzzle once: the grade cache keeps the hint table of
the grade it keeps (the site used to grade every puzzle a second time for its hints)."""

from __future__ import annotations

import importlib.util
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from grader.formats import FORMATS, colour_capable, read_any
from grader.kinds import (
    BY_TAG,
    KINDS,
    STORED,
    TAGS,
    BlackAndWhite,
    Colour,
    any_kind_of,
    cache_key,
    entry_of,
    kind_of,
)
from grader.kinds.mosaic import MosaicKind
from grader.ladder import KINDS as LADDER_KINDS
from nonopress.cli import main

ROOT = Path(__file__).resolve().parents[1]


def _fillin() -> Any:
    """A 2x2 fill-in with its across word written in: one solution."""
    from words.fillin import FillIn
    from words.grid import parse_grid

    square = parse_grid("AB\nCD\n")
    return FillIn(square, square.find_slot("1A").index)


def test_every_entry_names_engines_and_a_drawing_that_exist() -> None:
    from layout.kinds import drawing_module

    # the house's kinds, in the registry's order; a new kind is one more entry, not an edit
    assert [k.tag for k in KINDS][:4] == ["bw", "colour", "fillin", "mosaic"]
    assert len(BY_TAG) == len(KINDS)
    for kind in KINDS:
        for module in (kind.solver, kind.grader, kind.model.partition(":")[0]):
            assert importlib.util.find_spec(module) is not None, (kind.tag, module)
        drawing = drawing_module(kind.drawing)
        assert hasattr(drawing, "DRAWING") or hasattr(drawing, "PAGED"), kind.tag
        assert kind.ladder in LADDER_KINDS or (ROOT / kind.ladder).is_file(), kind.tag
        contract: Any = kind.contract  # the kind's class: its identity as class attributes
        assert (contract.tag, contract.name,
                contract.drawing) == (kind.tag, kind.name, kind.drawing)


def test_the_formats_an_entry_names_are_the_ones_that_read_it() -> None:
    named = {name for kind in KINDS for name in kind.formats}
    assert set(FORMATS) <= named  # every format reads some kind's puzzles
    assert set(BY_TAG["bw"].formats) <= set(FORMATS)
    assert set(BY_TAG["colour"].formats) == set(colour_capable())
    from words.formats import format_of

    assert {format_of(f"x.{ext}") for ext in ("txt", "ipuz", "puz")} == set(
        BY_TAG["fillin"].formats)


def test_the_stored_kinds_are_the_catalogued_ones() -> None:
    # the catalogue's kind column: the kinds with catalogue fields (fill-ins are not stored)
    assert all(BY_TAG[tag].catalogue is not None for tag in TAGS)
    assert TAGS[:3] == ("bw", "colour", "mosaic") and "fillin" not in TAGS
    assert [entry.tag for entry in KINDS if entry.catalogue is not None] == list(TAGS)
    stored: dict[str, Any] = dict(STORED)
    assert {"bw": BlackAndWhite, "colour": Colour, "mosaic": MosaicKind}.items() \
        <= stored.items()


def test_each_puzzle_finds_its_kind_through_the_registry() -> None:
    (house,) = read_any(ROOT / "puzzles" / "house.yaml")
    (ladybird,) = read_any(ROOT / "puzzles" / "colour" / "ladybird.yaml")
    fillin = _fillin()
    assert [entry_of(p).tag for p in (house, ladybird, fillin)] == ["bw", "colour", "fillin"]
    assert isinstance(kind_of(house), BlackAndWhite) and isinstance(kind_of(ladybird), Colour)
    core = any_kind_of(fillin)
    assert (core.tag, core.size_label()) == ("fillin", fillin.size)
    assert core.grade(None, budget=_budget()).verdict == "unique"


def _budget() -> Any:
    from grader.results import Budget

    return Budget(seconds=60)


def test_cache_keys_carry_the_kind_tag() -> None:
    (house,) = read_any(ROOT / "puzzles" / "house.yaml")
    (ladybird,) = read_any(ROOT / "puzzles" / "colour" / "ladybird.yaml")
    assert cache_key(house) == f"bw:{house.key()}"
    assert cache_key(ladybird) == f"colour:{ladybird.key()}"


def _counting_grades(monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    graded: Counter[str] = Counter()
    for kind in (BlackAndWhite, Colour):
        original = kind.grade

        def grade(self: Any, max_rung: Any, budget: Any, original: Any = original) -> Any:
            graded[cache_key(self.puzzle)] += 1
            return original(self, max_rung, budget)

        monkeypatch.setattr(kind, "grade", grade)
    return graded


def test_a_fresh_web_build_grades_each_puzzle_once(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    graded = _counting_grades(monkeypatch)
    site, cache = tmp_path / "site", tmp_path / "cache"
    manifest = ROOT / "puzzles" / "issues" / "sample.yaml"
    assert main(["web", str(manifest), "-o", str(site), "--cache-dir", str(cache), "-q"]) == 0
    pages = sorted(site.glob("puzzle-*.json"))
    assert len(pages) >= 10 and len(graded) == len(pages)
    assert set(graded.values()) == {1}, graded  # once each: the hints came with the grade
    graded.clear()
    assert main(["web", str(manifest), "-o", str(site), "--cache-dir", str(cache), "-q"]) == 0
    assert not graded  # a rebuild reads grades and hint tables from the one cache
    assert not (cache / "nonopress-hints.json").exists()


#: the product modules outside words/ and the kinds folders that may name fill-ins: the
#: command that makes one, the command table, its --json record and its player record
#: the product files outside words/ and the kinds' folders that may name fill-ins: the
#: command table and the ``fillin`` command, the player's schema (one branch a kind) and its
#: style sheet; the player's JSON, the records and the pages ask the fill-in kind
NAMES_FILLINS = {"nonopress/cli.py", "nonopress/commands/fillin.py",
                 "nonopress/assets/puzzle.schema.json", "nonopress/assets/player.css"}
KIND_FOLDERS = ("grader/kinds/", "layout/kinds/", "nonopress/assets/boards/")


def test_fill_ins_are_named_only_by_their_kind_and_their_command() -> None:
    import re

    word = re.compile(r"fill[-_]?ins?(?![a-z])", re.IGNORECASE)  # not filling, fillIndex
    naming = {path.relative_to(ROOT).as_posix()
              for package in ("grader", "layout", "nonopress")
              for path in (ROOT / package).rglob("*")
              if path.suffix in {".py", ".js", ".json", ".css", ".html"}
              and not path.relative_to(ROOT).as_posix().startswith(KIND_FOLDERS)
              and word.search(path.read_text(encoding="utf-8"))}
    assert naming <= NAMES_FILLINS, sorted(naming - NAMES_FILLINS)
    assert len(NAMES_FILLINS) <= 4  # the bound (issue 53)


def test_the_studio_pages_ask_the_kind_entry_not_its_tag() -> None:
    """The editor reads what the server says of a kind (``editing``: the registry entry's
    givens and clues_alone), never compares a kind's tag: a new kind edits without a
    branch in the page."""
    import re

    tags = "|".join(re.escape(tag) for tag in TAGS)
    tag = rf"""['"](?:{tags})['"]"""
    compare = re.compile(rf"(?:===?|!==?)\s*{tag}|{tag}\s*(?:===?|!==?)")
    scripts = sorted((ROOT / "nonopress" / "studio" / "static").glob("*.js"))
    assert scripts
    found = [f"{path.name}:{n}" for path in scripts
             for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if compare.search(line)]
    assert not found, found
