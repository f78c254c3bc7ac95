"""The LaTeX back end: escaping, the template, and (when TeX is installed) compiling."""

from __future__ import annotations

import io
import os
import re
import shutil
import subprocess
from dataclasses import replace
from pathlib import Path

import pytest
from pypdf import PdfReader

from grader.errors import NonopressError
from layout.issue import Issue
from layout.latex import (
    compile_latex,
    latex_compiler,
    outline_text,
    render_latex,
    template_source,
    tex_escape,
)
from layout.manifest import Manifest
from layout.pdf import render_pdf
from layout.plan import plan_issue
from layout.synthetic import issue_of, random_puzzle
from layout.units import MM

HOSTILE = r"""\ {} $&#^_~%"<>| \input{/etc/passwd}"""
HAVE_TEX = shutil.which("latexmk") is not None and shutil.which("pdflatex") is not None
needs_tex = pytest.mark.skipif(not HAVE_TEX, reason="latexmk/pdflatex not installed")


def hostile_issue(**settings: object) -> Issue:
    manifest = Manifest(
        source=Path("m.yaml"), puzzles=(), title="Hostile", issue=HOSTILE, author=HOSTILE,
        **settings,  # type: ignore[arg-type]
    )
    issue = issue_of([random_puzzle(6, 6, 1), random_puzzle(8, 5, 2)], manifest)
    first = replace(issue.entries[0], title=HOSTILE, note=HOSTILE, hide_title=False)
    return replace(issue, entries=(first, *issue.entries[1:]))


def test_every_special_character_is_escaped() -> None:
    escaped = tex_escape(HOSTILE)
    # No TeX command survives but the ones the escaper itself writes.
    commands = set(re.findall(r"\\([A-Za-z]+)", escaped))
    assert commands <= {"textbackslash", "textasciicircum", "textasciitilde", "textquotedbl",
                        "textless", "textgreater", "textbar"}
    assert "\\input" not in escaped
    # Every brace, $, &, #, ^, _, ~, % left is escaped or part of an escape's own {}.
    bare = re.sub(r"\\(textbackslash|textasciicircum|textasciitilde|textquotedbl|textless"
                  r"|textgreater|textbar)\{\}", "", escaped)
    bare = re.sub(r"\\[{}$&#_%]", "", bare)
    bare = bare.replace("\\ ", "")
    assert not set(bare) & set("\\{}$&#^_~%\"<>|")
    assert tex_escape("caf\u00e9 \u2605") == "caf\u00e9\\ ?"


def test_bookmark_text_is_plain_ascii() -> None:
    text = outline_text("No. 1 \u00b7 " + HOSTILE + " (x)")
    assert all(ch.isascii() and (ch.isalnum() or ch in " .,:;!?+=/-") for ch in text)
    assert text.startswith("No. 1 - ")


def test_template_is_found_and_never_asks_for_shell_escape() -> None:
    source = template_source("issue.tex.j2")
    assert "\\begin{document}" in source
    tex = render_latex(hostile_issue(), plan_issue(hostile_issue()))
    assert "write18" not in tex and "\\input{/etc" not in tex
    assert "\\immediate" not in tex
    command = latex_compiler()
    if command is not None:
        assert "-no-shell-escape" in command


def test_pdf_back_end_prints_hostile_strings_literally() -> None:
    issue = hostile_issue()
    data = render_pdf(issue, plan_issue(issue))
    reader = PdfReader(io.BytesIO(data))
    text = "\n".join(page.extract_text() for page in reader.pages)
    assert f"Issue {HOSTILE}" in text  # contents page
    assert HOSTILE in text.replace(f"Issue {HOSTILE}", "")  # the note and the header
    assert reader.metadata is not None and reader.metadata.author == HOSTILE


@needs_tex
def test_latex_back_end_compiles_and_prints_hostile_strings_literally(tmp_path: Path) -> None:
    issue = hostile_issue(bleed=3 * MM, grey=True, booklet=True, impose=True)
    plan = plan_issue(issue)
    data = compile_latex(render_latex(issue, plan))
    reader = PdfReader(io.BytesIO(data))
    assert len(reader.pages) * 2 == len(plan.pages)  # two pages a sheet side
    assert reader.metadata is not None and reader.metadata.author == HOSTILE
    titles = [item.title for item in reader.outline if not isinstance(item, list)]
    assert titles == [outline_text(b.title) for p in plan.pages for b in p.bookmarks]
    page = reader.pages[1]
    trim = [float(v) for v in page.trimbox]
    bleed = [float(v) for v in page.bleedbox]
    assert trim[0] == pytest.approx(3 * MM, abs=0.02) and bleed[0] == pytest.approx(0, abs=0.02)
    assert trim[2] - trim[0] == pytest.approx(2 * plan.pages[1].width, abs=0.02)
    assert float(page.mediabox.width) == pytest.approx(2 * plan.pages[1].width + 6 * MM, abs=0.02)
    path = tmp_path / "issue.pdf"
    path.write_bytes(data)
    if shutil.which("pdftotext"):
        out = subprocess.run(["pdftotext", str(path), "-"], capture_output=True, text=True,
                             check=True).stdout
        assert f"Issue {HOSTILE}" in out
        assert "root:" not in out  # /etc/passwd was never read


# -- outline fonts, with and without Latin Modern ---------------------------------------------

def _kpsewhich(name: str, env: dict[str, str] | None = None) -> str:
    return subprocess.run(["kpsewhich", name], capture_output=True, text=True, env=env,
                          check=False).stdout.strip()


def tex_without_lmodern() -> dict[str, str]:
    """An environment in which TeX cannot find lmodern.sty, as on a plain TeX install: the
    search path for TeX inputs with the one tree that holds Latin Modern's package split
    into its other subfolders (kpathsea finds nothing it is not pointed at)."""
    found = _kpsewhich("lmodern.sty")
    assert found, "lmodern is installed by .ci/run: the test hides it"
    hidden = Path(found).parent
    shown = subprocess.run(["kpsewhich", "--show-path=tex"], capture_output=True, text=True,
                           check=True).stdout.strip().split(":")
    entries: list[str] = []
    for entry in shown:
        root = Path(entry.lstrip("!").rstrip("/") or ".")
        recursive = entry.endswith("//")
        if not (recursive and root in hidden.parents):
            entries.append(entry)
            continue
        # walk from root down to the hidden folder, keeping every sibling on the way
        folder = root
        while folder != hidden:
            entries.append(str(folder))  # its own files, no subfolders
            step = hidden.relative_to(folder).parts[0]
            entries += [f"{child}//" for child in sorted(folder.iterdir())
                        if child.is_dir() and child.name != step]
            folder = folder / step
    env = dict(os.environ, TEXINPUTS=":".join(entries))
    assert _kpsewhich("lmodern.sty", env) == ""
    assert _kpsewhich("tikz.sty", env) != ""
    return env


def font_types(pdf: Path) -> list[tuple[str, str]]:
    """(name, type) of each font ``pdffonts`` lists."""
    lines = subprocess.run(["pdffonts", str(pdf)], capture_output=True, text=True,
                           check=True).stdout.splitlines()[2:]
    rows = []
    for line in lines:
        match = re.match(r"(\S+)\s+(Type 3|Type 1C?|TrueType|CID \S+|Type 1)\s", line)
        assert match, line
        rows.append((match.group(1), match.group(2)))
    return rows


@needs_tex
@pytest.mark.parametrize("lmodern", [True, False], ids=["lmodern", "plain TeX"])
def test_latex_writes_outline_fonts_only(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                         lmodern: bool) -> None:
    """pdffonts shows no Type 3 (bitmap) font, with Latin Modern and without it; hostile
    text (^ ~ " < > | and a backslash) still prints literally."""
    if not lmodern:
        for key, value in tex_without_lmodern().items():
            monkeypatch.setenv(key, value)
    issue = hostile_issue(bleed=3 * MM)
    plan = plan_issue(issue)
    path = tmp_path / "issue.pdf"
    path.write_bytes(compile_latex(render_latex(issue, plan)))
    fonts = font_types(path)
    assert fonts and not [f for f in fonts if f[1] == "Type 3"], fonts
    names = " ".join(name for name, _ in fonts)
    assert ("LMSans" in names) == lmodern, names
    out = subprocess.run(["pdftotext", str(path), "-"], capture_output=True, text=True,
                         check=True).stdout
    assert f"Issue {HOSTILE}" in out


@needs_tex
def test_a_bitmap_font_stops_the_build_and_names_the_package(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """TeX asked for a font only the bitmap EC fonts have (T1 without Latin Modern): the
    build stops and says what to install, rather than writing a blurry book."""
    for key, value in tex_without_lmodern().items():
        monkeypatch.setenv(key, value)
    tex = ("\\documentclass{article}\\usepackage[T1]{fontenc}\\begin{document}"
           "Bitmap\\end{document}\n")
    with pytest.raises(NonopressError, match="apt install lmodern"):
        compile_latex(tex)
