"""The default word list built by ``pip install .`` (issue 58): the first fill reads it."""

from __future__ import annotations

from pathlib import Path

import pytest

from nonopress.cli import build_parser
from nonopress.commands.words_options import word_list_from
from words import listcache, wordlist


def test_the_first_fill_reads_the_list_the_build_made(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NONOPRESS_CACHE_DIR", str(tmp_path / "build-cache"))
    wordlist._default.cache_clear()  # as in setup.py's fresh process: nothing loaded yet
    seed = tmp_path / "wordlists_seed"
    assert listcache.write_seed(seed) == 1
    built = wordlist.default_word_list()
    assert not (tmp_path / "build-cache" / listcache.SUBFOLDER).exists()  # none left behind

    # a new user: an empty cache, the seed in the package, and no building allowed
    monkeypatch.setenv("NONOPRESS_CACHE_DIR", str(tmp_path / "user-cache"))
    monkeypatch.setattr(listcache, "SEED_FOLDER", seed)

    def no_build(*_: object) -> None:
        raise AssertionError("the default list was built again")

    monkeypatch.setattr(wordlist, "_build_default", no_build)
    wordlist._default.cache_clear()
    args = build_parser(["fill", "grid.txt"]).parse_args(["fill", "grid.txt"])
    words = word_list_from(args)  # the options fill uses by default
    assert list(words.ordered_items()) == list(built.ordered_items())
    assert words.name == built.name
    wordlist._default.cache_clear()
