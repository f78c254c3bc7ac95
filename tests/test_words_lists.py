"""The word lists: the built-in list is one a family magazine prints (checked against the
standard dictionaries wamerican + wbritish), names and abbreviations only when asked, the
blocklist with its inflections, and the list cache keyed by content and options."""

from __future__ import annotations

import gzip
import os
from pathlib import Path

import pytest

from grader.errors import FormatError
from nonopress.cli import main
from words import normalise, parse_grid
from words.blocklist import default_blocklist, inflections, parse_blocklist
from words.listcache import cache_key
from words.wordlist import ListOptions, WordList, default_word_list, load_word_list

DICTIONARIES = (Path("/usr/share/dict/american-english"), Path("/usr/share/dict/british-english"))
DATA = Path(__file__).parent / "data" / "words"
PACKAGE_DATA = Path(__file__).resolve().parents[1] / "words" / "data"


@pytest.fixture(autouse=True)
def own_cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path_factory.getbasetemp() / "list-cache"
    monkeypatch.setenv("NONOPRESS_CACHE_DIR", str(folder))
    return folder


def dictionary_forms() -> tuple[set[str], set[str]]:
    """(lower-case entries, capitalised entries) of wamerican + wbritish, normalised."""
    lower: set[str] = set()
    upper: set[str] = set()
    for path in DICTIONARIES:
        if not path.exists():
            pytest.fail(f"{path} is missing: .ci/run installs wamerican and wbritish")
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.endswith("'s"):
                continue
            word = normalise(line)
            if word is not None:
                (lower if line[:1].islower() else upper).add(word)
    return lower, upper


def test_default_list_is_dictionary_words_without_names_or_blocked_words() -> None:
    words = default_word_list()
    lower, upper = dictionary_forms()
    outside = [w for w in words if w not in lower and w not in upper]
    proper = [w for w in words if w not in lower and w in upper]
    assert len(words) > 50_000
    assert len(outside) < 0.05 * len(words), outside[:20]
    assert len(proper) < 0.02 * len(words), proper[:20]
    blocked = default_blocklist()
    assert not [w for w in words if w in blocked]
    # the words the issue found in fills of the old (web-frequency) default
    for noise in ("AADHAR", "AANHOLT", "AARON", "ABIGAIL", "ADIDAS", "SHIT", "ARSE", "TURD",
                  "STFU", "NPC", "MLM", "ITLL"):
        assert noise not in words, noise


def test_default_scores_rank_common_words_first() -> None:
    words = default_word_list()
    assert words.score("THE") > words.score("HOUSE") > words.score("BEFOG") > 0
    assert all(0 <= s <= 100 for s in words.scores.values())
    three = words.table(3)
    assert list(three.scores) == sorted(three.scores, reverse=True)


def test_names_only_when_asked() -> None:
    plain = default_word_list()
    named = default_word_list(options=ListOptions(names=True))
    assert "PARIS" not in plain and "PARIS" in named and "EUROPE" in named
    assert len(named) > len(plain) and set(plain) <= set(named)
    assert named.score("EUROPE") < 100


def test_dictionary_style_file_drops_names_abbreviations_and_possessives(tmp_path: Path) -> None:
    path = tmp_path / "dict.txt"
    path.write_text("apple\napple's\nAaron\nNASA\nbanana\ncafé\nshit\nshits\n", "utf-8")
    words = load_word_list(path)
    assert set(words) == {"APPLE", "BANANA", "CAFE"}
    named = load_word_list(path, options=ListOptions(names=True))
    assert set(named) == {"APPLE", "BANANA", "CAFE", "AARON", "NASA"}


def test_crossword_style_file_in_capitals_keeps_every_entry(tmp_path: Path) -> None:
    path = tmp_path / "xw.txt"
    path.write_text("AARON;40\nAPPLE;60\nOREO;30\n", "utf-8")
    assert set(load_word_list(path)) == {"AARON", "APPLE", "OREO"}


def test_blocklist_blocks_inflections_and_nothing_innocent() -> None:
    blocked = default_blocklist()
    for word in ("SHIT", "SHITS", "SHITTY", "SHITTIER", "ARSE", "TURDS", "FARTING", "RAPIST"):
        assert word in blocked, word
    for word in ("SHIRT", "ASSESS", "CLASS", "ARSENAL", "SCRAPE", "THERAPIST", "ESSEX",
                 "SEXTANT", "TITLE", "HANDICAP", "CRACKER", "PANSY", "SPICY", "SPICES",
                 "TITTER", "JAPES", "DICKER"):
        assert word not in blocked, word
    assert inflections("URINATE") >= {"URINATING", "URINATED", "URINATES"}
    with pytest.raises(FormatError, match=r"b\.txt:2"):
        parse_blocklist("ok\n4ever\n", "b.txt")
    own = parse_blocklist("spic\n!spicy\n", "b.txt")
    assert "SPICS" in own and "SPICY" not in own
    assert "SPICY" not in default_blocklist() | own


def test_a_spelled_out_list_and_a_list_taken_back_to_bases_block_the_same_words(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A small list spells its forms out once; a list past the limit takes each word back
    to its bases. Both answer alike, one word at a time and for a whole word list at once."""
    import words.blocklist as blocklist_module

    own = parse_blocklist("spic\n!spicy\nshit\nurinate\nfart\n!farther\n", "b.txt")
    probes = ["SPICS", "SPICY", "SPICE", "SHITTIER", "SHITTY", "SHIRT", "URINATING",
              "URINATE", "FARTHER", "FARTED", "FART", "FARTS", "ART", "SHITS", "ARSENAL"]
    spelled = {word for word in probes if word in own}
    assert spelled == own.among(probes) == {
        "SPICS", "SHITTIER", "SHITTY", "URINATING", "URINATE", "FARTED", "FART", "FARTS",
        "SHITS"}
    monkeypatch.setattr(blocklist_module, "SPELL_OUT_LIMIT", 0)
    by_bases = parse_blocklist("spic\n!spicy\nshit\nurinate\nfart\n!farther\n", "b.txt")
    assert {word for word in probes if word in by_bases} == by_bases.among(probes) == spelled


def test_editors_blocklist_and_avoid_keep_words_out(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    grid = tmp_path / "g.txt"
    grid.write_text("...\n")
    words = tmp_path / "w.txt"
    words.write_text("cat;90\ndog;80\nemu;70\n", "utf-8")
    block = tmp_path / "b.txt"
    block.write_text("# mine\ncat\n", "utf-8")
    assert main(["fill", str(grid), "--words", str(words)]) == 0
    assert capsys.readouterr().out.strip() == "CAT"
    assert main(["fill", str(grid), "--words", str(words), "--block", str(block)]) == 0
    assert capsys.readouterr().out.strip() == "DOG"
    assert main(["fill", str(grid), "--words", str(words), "--block", str(block),
                 "--avoid", "dog"]) == 0
    assert capsys.readouterr().out.strip() == "EMU"
    assert main(["fill", str(grid), "--words", str(words), "--block", "missing.txt"]) == 2
    assert "missing.txt" in capsys.readouterr().err


def test_cache_returns_the_same_list_and_follows_content_and_options(
        tmp_path: Path, own_cache: Path) -> None:
    path = tmp_path / "w.txt"
    path.write_text("alpha;70\nbeta;60\nGamma\n", "utf-8")
    first = load_word_list(path)
    stored = list((own_cache / "wordlists").glob("file-*.npz"))
    assert stored
    again = load_word_list(path)
    assert again.scores == first.scores and list(again.ordered_items()) == list(
        first.ordered_items())
    assert load_word_list(path, options=ListOptions(names=True)).scores.keys() == {
        "ALPHA", "BETA", "GAMMA"}
    path.write_text("alpha;70\ndelta;60\n", "utf-8")  # edited: read again
    assert set(load_word_list(path)) == {"ALPHA", "DELTA"}
    assert cache_key("file", ["a", "b"]) != cache_key("file", ["a", "c"])


def test_broken_cache_entry_is_rebuilt(tmp_path: Path, own_cache: Path) -> None:
    path = tmp_path / "w.txt"
    path.write_text("alpha\nbeta\n", "utf-8")
    load_word_list(path)
    for stored in (own_cache / "wordlists").glob("file-*.npz"):
        stored.write_bytes(b"not a numpy file")
    assert set(load_word_list(path)) == {"ALPHA", "BETA"}


def test_large_list_loads_within_the_input_bound(tmp_path: Path) -> None:
    """A 10 MB list of 1.2 M lines (issue 34 item 9): parsed, then loaded from the cache."""
    import random
    import time

    rng = random.Random(1)
    letters = "abcdefghijklmnopqrstuvwxyz"
    lines = ["".join(rng.choice(letters) for _ in range(rng.randint(3, 11)))
             for _ in range(1_200_000)]
    path = tmp_path / "big.txt"
    path.write_text("\n".join(lines) + "\n", "utf-8")
    assert path.stat().st_size > 8_000_000
    started = time.process_time()
    cold = load_word_list(path)
    cold_s = time.process_time() - started
    started = time.process_time()
    warm = load_word_list(path)
    warm_s = time.process_time() - started
    assert len(warm) == len(cold) > 1_000_000
    assert cold_s < 10.0 and warm_s < cold_s


def test_shipped_files_are_word_lists_with_a_licence() -> None:
    for name in ("english.txt.gz", "names.txt.gz"):
        text = gzip.decompress((PACKAGE_DATA / name).read_bytes()).decode("utf-8")
        assert text.startswith("# Built by bench/build_wordlist.py")
    licence = (PACKAGE_DATA / "LICENSE").read_text("utf-8")
    assert "Kevin Atkinson" in licence and "Permission to use, copy, modify" in licence


def test_blocked_word_is_left_out_by_the_loader_so_no_fill_uses_it() -> None:
    from words import fill

    words = WordList({"SHIT": 90.0, "SHOT": 50.0})
    assert "SHIT" in words  # a WordList itself does not filter; the loaders do
    grid = parse_grid("....\n")
    result = fill(grid, load_like_cli(words), locks={})
    assert result.entries == ("SHOT",)


def load_like_cli(words: WordList) -> WordList:
    text = "\n".join(f"{w};{s:g}" for w, s in words.ordered_items())
    from words.wordlist import parse_word_list

    return parse_word_list(text, "w.txt")


def test_default_list_respects_os_independent_cache_folder(own_cache: Path) -> None:
    default_word_list(options=ListOptions(min_length=3))
    assert any(p.name.startswith("default-") for p in (own_cache / "wordlists").iterdir())
    assert os.environ["NONOPRESS_CACHE_DIR"] == str(own_cache)
