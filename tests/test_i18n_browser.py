"""The web player in the reader's language, in a real headless Chromium: in the pseudo-locale
(en-XA) no visible text and no accessible name escapes the catalogue at any hint stage; a
German page plays in German; axe-core finds nothing on a German or a Japanese page; the
player's plural rule (words.js, no eval) agrees with gettext's for every shipped language."""

from __future__ import annotations

import gettext
import json
import re
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

sync_api = pytest.importorskip("playwright.sync_api")

from grader import i18n  # noqa: E402
from nonopress.cli import main  # noqa: E402

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="Chromium is not installed")
ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "puzzles" / "issues" / "sample.yaml"


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Callable[..., Path]:
    """An issue's site in a language (the sample by default), built once a module (one
    grade cache)."""
    folder = tmp_path_factory.mktemp("i18n-sites")
    built: dict[tuple[str, Path], Path] = {}

    def build(language: str, manifest: Path = SAMPLE) -> Path:
        if (language, manifest) not in built:
            out = folder / f"{manifest.stem}-{language}"
            assert main(["web", str(manifest), "-o", str(out), "-q", "--language", language,
                         "--cache-dir", str(folder)]) == 0
            built[language, manifest] = out
        return built[language, manifest]

    return build


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    ctx = browser.new_context(viewport={"width": 1100, "height": 900})
    errors: list[str] = []
    ctx.on("weberror", lambda error: errors.append(str(error.error)))
    yield ctx.new_page()
    ctx.close()
    assert errors == []


#: every text a reader sees or hears on the player: visible text nodes, accessible names
#: (aria-label), the live region (read out even when not shown)
_SEEN = """() => {
  const root = document.querySelector('nonopress-puzzle');
  const out = [];
  const walk = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node = walk.nextNode(); node; node = walk.nextNode()) {
    const box = node.parentElement;
    const shown = box && box.closest('[hidden]') === null;
    if (shown && node.textContent.trim()) out.push(node.textContent);
  }
  for (const e of root.querySelectorAll('[aria-label]')) out.push(e.getAttribute('aria-label'));
  out.push(root.querySelector('.np-status').textContent);
  return out;
}"""


def _escaped(page: Any, content: list[str]) -> list[str]:
    """The texts of the player that hold an unaccented letter once the puzzle's own words
    (``content``: its heading's size, author, note) are taken out: English that skipped
    the catalogue."""
    page.wait_for_timeout(60)  # the live region is re-set after 20 ms
    bad = []
    for text in page.evaluate(_SEEN):
        rest = text
        for own in content:
            rest = rest.replace(own, "")
        rest = re.sub(r"\d+x\d+", "", rest)  # a size label, 15x15
        if re.search(r"[A-Za-z]", rest):
            bad.append(text)
    return bad


def test_no_english_escapes_the_catalogue_in_the_player_at_any_hint_stage(
        page: Any, site: Callable[[str], Path]) -> None:
    out = site("en-XA")
    page.goto((out / "puzzle-01.html").as_uri())
    page.wait_for_selector(".np-cell")
    assert page.evaluate("document.documentElement.lang") == "en-XA"
    content = ["The Nonopress developers", "Nonopress", "A warm-up. Start with the 5s."]
    assert _escaped(page, content) == []
    hint = page.locator(".np-hint-button")
    for stage in range(1, 5):
        hint.click()
        # stage 4 keeps stage 3's sentence above its own
        text = page.locator(".np-hint-stage").last.inner_text()
        assert text.startswith(f"[Ĥîñţ {stage}: "), text
        assert _escaped(page, content) == [], stage
    page.locator(".np-hint button").first.click()  # accept the step's cells
    # a wrong mark: the check's status, then the hint's two stages for it
    answer = page.evaluate("Array.from(document.querySelector('nonopress-puzzle').player.solution)")
    wrong = answer.index(0)
    page.locator(f'.np-cell[data-i="{wrong}"]').click()
    page.get_by_role("button", name=i18n.pseudo("Check")).click()
    assert _escaped(page, content) == []
    for _stage in range(2):
        hint.click()
        assert _escaped(page, content) == []
    # revealed to the end: the solved panel, its title the puzzle's own
    page.get_by_role("button", name=i18n.pseudo("Reveal all")).click()
    dialog = page.get_by_role("dialog")
    assert _escaped(page, [*content, "House"]) == []  # the question and its buttons
    dialog.get_by_role("button", name=i18n.pseudo("Reveal"), exact=True).click()
    assert page.locator(".np-solved").is_visible()
    assert _escaped(page, [*content, "House"]) == []
    page.get_by_role("button", name=i18n.pseudo("Pause")).click()
    assert _escaped(page, [*content, "House"]) == []


def test_no_english_escapes_the_catalogue_on_a_mosaic_at_any_hint_stage(
        page: Any, site: Callable[..., Path]) -> None:
    out = site("en-XA", ROOT / "puzzles" / "issues" / "mosaic-sample.yaml")
    record = json.loads((out / "puzzle-03.json").read_text(encoding="utf-8"))
    assert record["kind"] == "mosaic"
    page.goto((out / "puzzle-03.html").as_uri())
    page.wait_for_selector(".np-cell")
    content = [record.get("author") or "", record.get("note") or ""]
    content = [text for text in content if text]
    assert _escaped(page, content) == []
    for stage in range(1, 5):
        page.locator(".np-hint-button").click()
        assert page.locator(".np-hint-stage").last.inner_text().startswith(f"[Ĥîñţ {stage}: ")
        assert _escaped(page, content) == [], stage


def test_a_german_page_plays_in_german(page: Any, site: Callable[[str], Path]) -> None:
    out = site("de")
    page.goto((out / "puzzle-01.html").as_uri())
    page.wait_for_selector(".np-cell")
    toolbar = page.get_by_role("toolbar").inner_text()
    for word in ("Rückgängig", "Prüfen", "Tipp", "Zeile aufdecken", "Alles aufdecken", "Pause"):
        assert word in toolbar
    assert page.locator('.np-cell[data-i="0"]').get_attribute("aria-label") == \
        "Zeile 1, Spalte 1, offen"
    hint = page.locator(".np-hint-stage")
    page.get_by_role("button", name="Tipp", exact=True).click()
    assert hint.inner_text() == "Tipp 1: Ein Schritt in den Zeilen (leicht)"
    page.get_by_role("button", name="Tipp: mehr verraten").click()
    assert hint.inner_text() == "Tipp 2: Zeile 3"
    page.get_by_role("button", name="Tipp: mehr verraten").click()
    assert hint.inner_text().startswith("Tipp 3: [einfache Überdeckung] Zeile 3 (5): die 5 muss")
    page.locator(".np-cell").first.click()
    page.locator(".np-cell").nth(1).click()
    page.get_by_role("button", name="Prüfen").click()
    page.wait_for_timeout(60)
    assert page.locator(".np-status").inner_text() in (
        "Bisher kein Fehler.", "1 falsche Markierung, rot gezeigt.",
        "2 falsche Markierungen, rot gezeigt.")
    # the answer printed from the page is captioned in German too
    page.evaluate("() => { window.print = () => {}; }")
    page.get_by_label("Was drucken").select_option("answer")
    page.get_by_role("button", name="Drucken", exact=True).click()
    caption = page.locator(".np-print-caption").text_content()
    assert caption is not None and caption.startswith("Lösung: "), caption


def _axe(page: Any) -> list[str]:
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page)
    return [f"{v['id']}: {v['help']} ({len(v['nodes'])} nodes)"
            for v in results.response["violations"]]


@pytest.mark.parametrize("language", ["de", "ja"])
def test_axe_finds_no_violation_on_a_translated_page(page: Any, site: Callable[[str], Path],
                                                     language: str) -> None:
    pytest.importorskip("axe_playwright_python")
    out = site(language)
    page.goto((out / "index.html").as_uri())
    assert _axe(page) == []
    page.goto((out / "puzzle-03.html").as_uri())
    page.wait_for_selector(".np-cell")
    page.locator(".np-hint-button").click()
    page.locator(".np-cell").first.click()
    assert page.evaluate("document.querySelector('nonopress-puzzle').lang") == language
    assert _axe(page) == []


def test_the_players_plural_rule_is_gettexts(page: Any, site: Callable[[str], Path]) -> None:
    """words.js reads a catalogue's plural expression with its own small parser (a page
    allows no eval): the form it picks is gettext's, for every shipped language."""
    out = site("en-XA")
    page.goto((out / "puzzle-01.html").as_uri())
    page.wait_for_selector(".np-cell")
    counts = [*range(0, 130), 1000, 1001, 1002, 1012, 1022, 1000000, 2000000]
    for language in i18n.shipped():
        if language in (i18n.SOURCE, i18n.PSEUDO):
            continue
        expression = i18n.catalogue_json(language)["plural"]
        want = [gettext.c2py(expression)(n) for n in counts]
        got = page.evaluate("([e, ns]) => { const r = NonopressWords.pluralRule(e);"
                            " return r && ns.map(r); }", [expression, counts])
        assert got == want, language
    assert page.evaluate("NonopressWords.pluralRule('n; alert(1)')") is None
    assert page.evaluate("NonopressWords.pluralRule('(n == 1 ? 0 : 1')") is None
