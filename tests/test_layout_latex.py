"""The LaTeX back end: escaping, the template, and (when TeX is installed) compiling."""

from __future__ import annotations

import io
import re
import shutil
import subprocess
from dataclasses import replace
from pathlib import Path

import pytest
from pypdf import PdfReader

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
