"""The words a reader sees come from catalogues (grader/i18n.py): each shipped catalogue is
complete and keeps every placeholder and plural form; the pseudo-locale, the manifest key and
--language choose the language; English stays the text in the code."""

from __future__ import annotations

import re
import string
from pathlib import Path

import pytest
from babel.messages.catalog import Message
from babel.messages.extract import extract_from_dir
from babel.messages.plurals import get_plural
from babel.messages.pofile import read_po

from grader import i18n
from grader.errors import NonopressError
from nonopress.cli import main

ROOT = Path(__file__).resolve().parent.parent
CATALOGUES = sorted(i18n.LOCALE_DIR.glob("*/LC_MESSAGES/nonopress.po"))


def _template() -> list[Message]:
    with (i18n.LOCALE_DIR / "nonopress.pot").open("rb") as handle:
        return [m for m in read_po(handle) if m.id]


def _fields(text: str) -> set[str]:
    return {name.split(".")[0].split("[")[0] for _, name, _, _ in string.Formatter().parse(text)
            if name is not None}


def _forms(value: object) -> list[str]:
    return list(value) if isinstance(value, (list, tuple)) else [str(value)]


def test_the_template_holds_every_message_the_code_marks() -> None:
    """A string marked in the code (or a ladder sentence) but not in nonopress.pot would
    reach no translator: docs/languages.md says how to extract again."""
    method_map = [("grader/ladder.yaml", "grader.i18n_extract:extract_ladder"),
                  ("grader/mosaic/ladder.yaml", "grader.i18n_extract:extract_ladder"),
                  ("grader/**.py", "python"), ("layout/**.py", "python"),
                  ("words/**.py", "python"), ("nonopress/**.py", "python"),
                  ("nonopress/assets/**.js", "javascript")]
    keywords = {"_": None, "gettext": None, "ngettext": (1, 2), "pgettext": ((1, "c"), 2),
                "N_": None, "NP_": ((1, "c"), 2)}
    found = set()
    for _file, _line, message, _comments, context in extract_from_dir(
        str(ROOT), method_map, keywords=keywords,
        options_map={"grader/ladder.yaml": {}, "grader/mosaic/ladder.yaml": {}},
    ):
        singular = message[0] if isinstance(message, tuple) else message
        found.add((context, singular))
    template = {(m.context, _forms(m.id)[0]) for m in _template()}
    assert found == template


@pytest.mark.parametrize("path", CATALOGUES, ids=lambda p: p.parent.parent.name)
def test_a_shipped_catalogue_is_complete(path: Path) -> None:
    """Every message translated, none fuzzy, every placeholder kept (and none made up),
    as many plural forms as the language has."""
    language = path.parent.parent.name
    with path.open("rb") as handle:
        catalogue = read_po(handle)
    assert catalogue.num_plurals == get_plural(language).num_plurals  # gettext's own table
    problems = []
    for message in _template():
        entry = catalogue.get(message.id, context=message.context)
        name = _forms(message.id)[0]
        if entry is None or entry.fuzzy:
            problems.append(f"{name!r}: missing or fuzzy")
            continue
        english = set().union(*(_fields(form) for form in _forms(message.id)))
        forms = _forms(entry.string)
        if isinstance(message.id, (list, tuple)) and len(forms) != catalogue.num_plurals:
            problems.append(f"{name!r}: {len(forms)} plural forms")
        for form in forms:
            if not form:
                problems.append(f"{name!r}: untranslated")
            elif _fields(form) != english:
                problems.append(f"{name!r}: placeholders {_fields(form)} for {english}")
    assert not problems, "\n".join(problems)


def test_plural_forms_follow_the_language() -> None:
    de, ja, en = i18n.translator("de"), i18n.translator("ja"), i18n.translator("en")
    assert de.ngettext("{count} letter", "{count} letters", 1) == "1 Buchstabe"
    assert de.ngettext("{count} letter", "{count} letters", 5) == "5 Buchstaben"
    assert ja.ngettext("{count} letter", "{count} letters", 5) == "5文字"
    assert en.ngettext("{count} letter", "{count} letters", 1) == "1 letter"
    pl = i18n.translator("pl")  # three forms: 1, 2-4 (but not 12-14), the rest
    assert [pl.ngettext("{count} cell", "{count} cells", n) for n in (1, 3, 5, 12, 22)] == [
        "1 pole", "3 pola", "5 pól", "12 pól", "22 pola"]


def test_the_pseudo_locale_accents_every_letter_and_keeps_placeholders() -> None:
    assert i18n.pseudo("Hint") == "[Ĥîñţ]"
    assert i18n.pseudo("No. {number:>3}") == "[Ñö. {number:>3}]"
    xa = i18n.translator("en-XA")
    assert xa.gettext("No. {number}", number=12) == "[Ñö. 12]"
    assert xa.ngettext("{count} cell", "{count} cells", 2) == "[2 çéļļš]"


def test_a_language_tag_resolves_to_a_shipped_catalogue() -> None:
    assert i18n.resolve("de-AT") == "de"
    assert i18n.resolve("ja_JP") == "ja"
    assert i18n.resolve("EN-xa") == "en-XA"
    assert i18n.resolve("en-GB") == "en"
    with pytest.raises(NonopressError, match="unknown language 'xx'"):
        i18n.resolve("xx")


def test_numbers_and_dates_in_the_readers_locale() -> None:
    import datetime

    assert i18n.translator("de").number(0.25, 1) == "0,2"
    assert i18n.translator("en").number(0.25, 1) == f"{0.25:.1f}"  # as Python writes it
    assert i18n.translator("de").date(datetime.date(2026, 3, 12)) == "12. März 2026"
    assert i18n.translator("ja").date(datetime.date(2026, 3, 12)) == "2026年3月12日"


def test_a_manifests_day_prints_as_the_language_writes_dates() -> None:
    with i18n.use("ja"):
        assert i18n.shown_day("2026-11-21") == "2026年11月21日"
        assert i18n.shown_day("Winter 2026") == "Winter 2026"  # free text as written
    with i18n.use("de"):
        assert i18n.shown_day("2026-11-21") == "21. November 2026"
    assert i18n.shown_day("2026-11-21") == "2026-11-21"  # English as written


def test_the_language_in_force_is_scoped() -> None:
    with i18n.use("de"):
        assert i18n._("Solutions") == "Lösungen"
        with i18n.use("ja"):
            assert i18n._("Solutions") == "解答"
        assert i18n.level_name("easy") == "leicht"
    assert i18n._("Solutions") == "Solutions"
    assert i18n.level_name("easy") == "easy"


def test_the_players_catalogue_comes_from_the_same_files() -> None:
    de = i18n.catalogue_json("de")
    assert de["messages"]["Solutions"] == "Lösungen"
    assert de["messages"]["level\x04easy"] == "leicht"
    assert de["messages"]["{count} cell"] == ["{count} Kästchen", "{count} Kästchen"]
    assert "n != 1" in de["plural"]
    xa = i18n.catalogue_json("en-XA")
    assert xa["messages"]["Archive"] == "[Åŕçĥîṽé]"
    assert set(xa["messages"]) == set(de["messages"])


HEART = str(ROOT / "puzzles" / "heart.yaml")


def test_grade_explains_in_german(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["grade", "--explain", HEART, "--language", "de"]) == 0
    text = capsys.readouterr().out
    assert "Heart: 7x5, leicht, Wertung" in text
    assert "Zeile 2 (7): die 7 muss Kästchen 1-7 bedecken" in text
    assert "must cover" not in text


def test_grade_explains_in_japanese(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["grade", "--explain", HEART, "--language", "ja"]) == 0
    text = capsys.readouterr().out
    assert "2行目（7）：「7」はどこに置いてもマス1-7を覆う" in text


def test_an_unknown_language_is_one_line_and_status_2(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["grade", "--explain", HEART, "--language", "xx"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "unknown language 'xx'" in err


def test_a_manifests_language_is_checked_where_it_is_written(tmp_path: Path) -> None:
    from layout.manifest import parse_manifest

    text = "title: T\nlanguage: klingon\npuzzles:\n  - file: heart.yaml\n"
    with pytest.raises(NonopressError) as caught:
        parse_manifest(text, tmp_path / "m.yaml")
    assert "m.yaml:2: unknown language 'klingon'" in str(caught.value)
    good = parse_manifest(text.replace("klingon", "ja-JP"), tmp_path / "m.yaml")
    assert good.language == "ja"


# -- the printed issue ------------------------------------------------------------------------
def _tool(name: str) -> str:
    import shutil

    path = shutil.which(name)
    if path is None:
        pytest.skip(f"{name} (poppler-utils) is not installed")
    return path


def _issue(tmp_path: Path, language: str) -> tuple[str, str]:
    """The sample issue printed in ``language``: its text and pdffonts' table."""
    import subprocess

    pdf = tmp_path / f"{language}.pdf"
    assert main(["issue", str(ROOT / "puzzles/issues/sample.yaml"), "-o", str(pdf),
                 "--language", language, "-q"]) == 0
    text = subprocess.run([_tool("pdftotext"), str(pdf), "-"], capture_output=True,
                          text=True, check=True).stdout
    fonts = subprocess.run([_tool("pdffonts"), str(pdf)], capture_output=True, text=True,
                           check=True).stdout
    return text, fonts


def _all_embedded(fonts: str) -> bool:
    rows = fonts.splitlines()[2:]
    return bool(rows) and all(row.split()[-5] == "yes" for row in rows)


def test_a_japanese_issue_prints_japanese_with_every_font_embedded(tmp_path: Path) -> None:
    from layout.fonts import SCRIPT_FACES

    file, folders, _package = SCRIPT_FACES["ja"]
    if not any(Path(folder, file).is_file() for folder in folders):
        pytest.skip("fonts-ipaexfont-gothic is not installed")
    text, fonts = _issue(tmp_path, "ja")
    assert "解答" in text and "解き方" in text and "難易度：" in text and "2026年11月21日" in text
    assert "IPAexGothic" in fonts and _all_embedded(fonts), fonts
    for english in ("Solutions", "Worked solution", "Level:", "Contents", "Step by step"):
        assert english not in text


def test_no_english_heading_escapes_the_catalogue_in_print(tmp_path: Path) -> None:
    """In en-XA every word the catalogue holds prints accented: an English word of the
    catalogue left in the PDF's text is a string that skipped it (the puzzles' own words,
    from the manifest and the puzzle files, excepted)."""
    text, fonts = _issue(tmp_path, "en-XA")
    assert _all_embedded(fonts)
    english = {word for m in _template() for form in _forms(m.id)
               for word in re.findall(r"[A-Za-z]{3,}", re.sub(r"\{[^}]*\}", "", form))}
    content = " ".join(path.read_text(encoding="utf-8")
                       for path in (ROOT / "puzzles").glob("**/*.yaml"))
    allowed = set(re.findall(r"[A-Za-z]{3,}", content))
    escaped = sorted(set(re.findall(r"[A-Za-z]{3,}", text)) & english - allowed)
    assert not escaped, escaped
    assert "[Šöļûţîöñš]" in text


# -- the site ---------------------------------------------------------------------------------
def _site(tmp_path: Path, language: str) -> Path:
    manifest = tmp_path / "issue.yaml"
    manifest.write_text(f"title: Heart Weekly\nissue: 3\nlanguage: {language}\n"
                        f"puzzles:\n  - file: {HEART}\n", encoding="utf-8")
    out = tmp_path / "site"
    assert main(["web", str(manifest), "-o", str(out), "-q", "--no-cache"]) == 0
    return out


def test_the_sites_pages_are_in_the_manifests_language(tmp_path: Path) -> None:
    out = _site(tmp_path, "de")
    index = (out / "index.html").read_text(encoding="utf-8")
    assert '<html lang="de">' in index
    assert "Ausgabe 3" in index and "Archiv" in index and "leicht" in index
    assert "Nr. 1" in index and "Archive<" not in index and "easy" not in index
    # latest.json's text, the puzzle page's and the archive's dates in the language too
    import json

    assert json.loads((out / "latest.json").read_text(encoding="utf-8"))["heading"].startswith(
        "Nr. 1")
    dated = tmp_path / "dated.yaml"
    dated.write_text(f"title: T\ndate: 2026-03-12\nlanguage: de\npuzzles:\n  - file: {HEART}\n",
                     encoding="utf-8")
    assert main(["web", str(dated), "-o", str(tmp_path / "dated"), "-q", "--no-cache"]) == 0
    for page in ("puzzle-01.html", "archive.html"):
        text = (tmp_path / "dated" / page).read_text(encoding="utf-8")
        shown = re.sub(r'<script type="application/json".*?</script>', "", text, flags=re.S)
        assert "12. März 2026" in shown and "2026-03-12" not in shown, page


def test_no_english_escapes_the_catalogue_on_the_sites_pages(tmp_path: Path) -> None:
    """en-XA: every text node of the index and archive outside the puzzles' own words
    (the manifest's title) carries a pseudo-accented letter."""
    from html.parser import HTMLParser

    out = _site(tmp_path, "en-XA")

    class Texts(HTMLParser):
        def __init__(self) -> None:
            super().__init__()
            self.texts: list[str] = []

        def handle_data(self, data: str) -> None:
            if re.search(r"[A-Za-z]", data) and data.strip() != "Heart Weekly":
                self.texts.append(data.strip())

    for page in ("index.html", "archive.html"):
        parser = Texts()
        parser.feed((out / page).read_text(encoding="utf-8"))
        bare = [t for t in parser.texts if not re.search(r"[^\x00-\x7f]", t)]
        assert not bare, (page, bare)
        assert '<html lang="en-XA">' in (out / page).read_text(encoding="utf-8")


def test_hungarian_keeps_a_counted_noun_singular(capsys: pytest.CaptureFixture[str]) -> None:
    """Hungarian has two plural forms by gettext's rule, but a noun after a number stays
    singular ("5 mező"), and the explanation reads as a Grafilogika editor writes it."""
    hu = i18n.translator("hu")
    assert [hu.ngettext("{count} cell", "{count} cells", n) for n in (1, 5)] == [
        "1 mező", "5 mező"]
    assert main(["grade", "--explain", HEART, "--language", "hu"]) == 0
    text = capsys.readouterr().out
    assert "Heart: 7x5, könnyű, pontszám" in text
    assert "[egyszerű átfedés] 2. sor (7): a(z) 7 hosszú blokk, bárhol is fekszik" in text


def test_a_colour_explanation_is_translated_whole(capsys: pytest.CaptureFixture[str]) -> None:
    """The colour grader's sentences and heading come from the catalogues too: in en-XA
    no English word is left but the puzzle's own (its title and colour names)."""
    flowerpot = str(ROOT / "puzzles" / "colour" / "flowerpot.yaml")
    assert main(["grade", "--explain", flowerpot, "--language", "de"]) == 0
    text = capsys.readouterr().out
    assert "Flowerpot: 12x13, 4 Farben (yellow, pink, green, terracotta), leicht" in text
    assert "Zeile 1, Zahlen 3 pink: kein Block in yellow, green oder terracotta" in text
    assert "ihre Zeile erlaubt keine der Farben dieser Spalte" in text
    assert main(["grade", "--explain", flowerpot, "--language", "en-XA"]) == 0
    text = capsys.readouterr().out
    own = {"Flowerpot", "yellow", "pink", "green", "terracotta", "x"}
    assert set(re.findall(r"[A-Za-z]+", text)) <= own, set(re.findall(r"[A-Za-z]+", text)) - own


def test_a_familys_name_in_a_heading_is_the_languages() -> None:
    with i18n.use("de"):
        assert i18n.kind_label("Mosaic ") == "Mosaik "
        assert i18n.kind_label("Fill-in ") == "Einsetzrätsel "
        assert i18n.kind_label("") == ""
    with i18n.use("hu"):
        assert i18n.kind_label("Colour ") == "Színes "
    assert i18n.kind_label("Colour ") == "Colour "


def test_latex_keeps_polish_hungarian_and_in_a_japanese_issue_japanese() -> None:
    from layout.latex import tex_escape

    assert tex_escape("łąę őű") == "łąę\\ őű"  # Latin Extended-A: T1 and UTF-8 input print it
    assert tex_escape("解答") == "??"  # not in a Latin issue: no font for it
    with i18n.use("ja"):
        assert tex_escape("解答、「7」") == "解答、「7」"
    assert tex_escape("\u2605") == "?"


def test_a_japanese_latex_issue_says_in_one_line_what_tex_lacks(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from layout.latex import missing_tex_files

    with i18n.use("ja"):
        if not missing_tex_files():
            pytest.skip("TeX here has the CJK package and IPAex Type 1 fonts")
    tex = tmp_path / "ja.tex"
    assert main(["issue", str(ROOT / "puzzles/issues/sample.yaml"), "--latex", str(tex),
                 "--language", "ja", "-q"]) == 0
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "LaTeX output in Japanese needs the CJK package" in err
    assert "解答" in tex.read_text(encoding="utf-8") and not tex.with_suffix(".pdf").exists()


def test_a_mosaic_explanation_is_translated_whole(capsys: pytest.CaptureFixture[str]) -> None:
    mosaic = str(ROOT / "puzzles" / "mosaic" / "cat-picture.yaml")
    assert main(["grade", "--explain", mosaic, "--language", "de"]) == 0
    text = capsys.readouterr().out
    assert "[Nullen und Neunen] die 0 in Zeile 1, Spalte 8 hat kein gefülltes Kästchen" in text
    assert main(["grade", "--explain", mosaic, "--language", "en-XA"]) == 0
    words = set(re.findall(r"[A-Za-z]+", capsys.readouterr().out))
    assert words <= {"Cat", "x"}, words


def test_every_message_the_players_scripts_mark_is_extracted() -> None:
    """Babel reads no message inside a template literal (`${_('Share')}`) or given as an
    expression (_(a ? 'Row {n}' : 'Column {n}')): such a word would show in English."""
    from nonopress.app.words import player_messages

    marked = set()
    for script in sorted((ROOT / "nonopress" / "assets").glob("**/*.js")):
        text = script.read_text(encoding="utf-8").split("'use strict';", 1)[-1]
        assert not re.search(r"`[^`]*\$\{[^}`]*\b(_|ngettext|pgettext)\(", text), script.name
        assert not re.search(r"\b(_|ngettext)\((?!')", text), script.name
        marked |= set(re.findall(r"\b_\('((?:[^'\\]|\\.)*)'", text))
    assert marked and marked <= player_messages()
