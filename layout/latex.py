"""The LaTeX back end: the issue plan as plain TikZ from a jinja2 template, and compiling it.

Every user string goes through :func:`tex_escape`; the template uses ``<< >>`` and
``<% %>`` delimiters so TeX's braces and ``#`` never meet jinja2's. Compiling never enables
shell escape and refuses to let TeX read or write files outside the build folder.
"""

from __future__ import annotations

import contextlib
import io
import os
import shutil
import signal
import subprocess
import tempfile
from importlib import resources
from pathlib import Path
from typing import Any

import jinja2
import pikepdf

from grader import __version__
from grader.errors import NonopressError
from grader.wording import plural
from layout.draw import RGB, ClueText, Lines, Op, Page, Polygons, Rects, Role, Text
from layout.issue import Issue
from layout.pdf import CMYK_OF, GREY_OF, NEUTRAL_ROLES, RGB_OF, neutral_k, rgb_to_cmyk
from layout.pdfx import PDFX_CONFORMANCE, PDFX_VERSION
from layout.plan import IssuePlan
from layout.profiles import ICC_REGISTRY, OUTPUT_CONDITIONS
from layout.sheets import Sheet, crop_marks, media_for, saddle_stitch, single_sheets

_TEX_SPECIALS = {
    "\\": r"\textbackslash{}",
    "{": r"\{",
    "}": r"\}",
    "$": r"\$",
    "&": r"\&",
    "#": r"\#",
    "^": r"\textasciicircum{}",
    "_": r"\_",
    "~": r"\textasciitilde{}",
    "%": r"\%",
    "<": r"\textless{}",
    ">": r"\textgreater{}",
    "|": r"\textbar{}",
    "\u00b7": r"\textperiodcentered{}",
    "-": "-{}",  # no en/em dash ligatures: print what was written
    "`": r"\`{}",
    "'": r"\textquotesingle{}",
    '"': r"\textquotedbl{}",
    " ": "\\ ",  # every space counts, also at the start of a box
}
_OUTLINE_SAFE = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 .,:;!?+=/-")
COMPILE_TIMEOUT_S = 600


#: the TeX files a Japanese issue's LaTeX needs: the CJK package for pdfLaTeX and IPAex
#: Gothic as Type 1 outlines for it (its font family ``ipxg``)
CJK_FILES = ("CJKutf8.sty", "c70ipxg.fd")
CJK_MISSING = ("LaTeX output in Japanese needs the CJK package and IPAex Type 1 fonts "
               "(Debian: apt install latex-cjk-japanese; TeX Live: tlmgr install cjk "
               "ipaex-type1)")


def _japanese() -> bool:
    from grader.i18n import current

    return current().language == "ja"


def _kept(ch: str, cjk: bool) -> bool:
    """A character above Latin-1 LaTeX prints as itself: Latin Extended-A (Polish ł ą,
    Hungarian ő ű) through T1 and LaTeX's UTF-8 input, and in a Japanese issue kana,
    kanji and full-width signs through the CJK package."""
    from layout.linebreak import ideographic

    return 0x100 <= ord(ch) <= 0x17F or (cjk and ideographic(ch))


def tex_escape(text: str) -> str:
    """``text`` as LaTeX that prints it literally (Latin-1 and Latin Extended-A letters
    kept, and in a Japanese issue Japanese; others become ?)."""
    out = []
    cjk = _japanese()
    for ch in text:
        if ch in _TEX_SPECIALS:
            out.append(_TEX_SPECIALS[ch])
        elif ch in "\t\r\n":
            out.append(" ")
        elif ord(ch) < 32 or 127 <= ord(ch) < 160 or (ord(ch) > 255 and not _kept(ch, cjk)):
            out.append("?")
        else:
            out.append(ch)
    return "".join(out)


def outline_text(text: str) -> str:
    """A bookmark title pdfTeX can write as is: plain ASCII, no TeX or PDF specials."""
    text = text.replace("\u00b7", "-")
    return "".join(ch if ch in _OUTLINE_SAFE else "?" for ch in text)


def pdf_hex_string(text: str) -> str:
    """A PDF text string in hex UTF-16: nothing in it means anything to TeX."""
    return "<FEFF" + text.encode("utf-16-be").hex().upper() + ">"


def template_source(name: str) -> str:
    """A template's text: package data ``layout.templates`` when installed (wheel or
    editable), else the ``templates/`` folder beside ``layout/`` in a source checkout."""
    try:
        folder: Any = resources.files("layout.templates")
    except ModuleNotFoundError:
        folder = Path(__file__).resolve().parent.parent / "templates"
    try:
        return str(folder.joinpath(name).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise NonopressError(f"template {name} is missing from the installation") from None


def _environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FunctionLoader(template_source),
        block_start_string="<%",
        block_end_string="%>",
        variable_start_string="<<",
        variable_end_string=">>",
        comment_start_string="<#",
        comment_end_string="#>",
        trim_blocks=True,
        lstrip_blocks=True,
        autoescape=False,  # LaTeX: user strings go through the tex filter
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
    )
    env.filters["tex"] = tex_escape
    env.filters["outline"] = outline_text
    return env


def _n(value: float) -> str:
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def _colour(role: Role) -> str:
    return f"np-{role}"


def _rgb_name(rgb: RGB) -> str:
    """The TeX name of a colour puzzle's colour."""
    return "np-c{:02x}{:02x}{:02x}".format(*rgb)


def rgb_definition(rgb: RGB, grey: bool, cmyk: bool) -> tuple[str, str, str]:
    """(name, model, value) of a colour puzzle's colour, inked as the PDF back end inks it:
    neutral ones (and all in grey print) pure K, others CMYK under PDF/X, else RGB."""
    k = neutral_k(rgb)
    if k is None and grey:
        k = round(1 - (0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2]) / 255, 3)
    if k is not None:
        return (_rgb_name(rgb), "cmyk", f"0,0,0,{_n(k)}")
    if cmyk:
        return (_rgb_name(rgb), "cmyk", ",".join(map(_n, rgb_to_cmyk(rgb))))
    return (_rgb_name(rgb), "rgb", ",".join(_n(v / 255) for v in rgb))


def _page_rgbs(pages: list[Page]) -> list[RGB]:
    """Every colour puzzle colour the pages use, in order of first use."""
    seen: dict[RGB, None] = {}
    for page in pages:
        for op in page.ops:
            if isinstance(op, (Rects, ClueText)) and op.rgb is not None:
                seen[op.rgb] = None
    return list(seen)


_ANCHORS = {"left": "left,base", "right": "right,base", "center": "base"}


def _op(op: Op) -> dict[str, Any]:
    if isinstance(op, Rects):
        return {"kind": "rects",
                "colour": _colour(op.role) if op.rgb is None else _rgb_name(op.rgb),
                "rects": [tuple(map(_n, r)) for r in op.rects]}
    if isinstance(op, Lines):
        return {"kind": "lines", "colour": _colour(op.role), "width": _n(op.width),
                "segments": [tuple(map(_n, s)) for s in op.segments]}
    if isinstance(op, Polygons):
        return {"kind": "polygons", "colour": _colour(op.role), "fill": op.fill,
                "width": _n(op.width),
                "polygons": [[(_n(x), _n(y)) for x, y in poly] for poly in op.polygons]}
    if isinstance(op, ClueText):
        return {"kind": "clues", "size": _n(op.size),
                "colour": _colour("ink") if op.rgb is None else _rgb_name(op.rgb),
                "numbers": [(_n(x), _n(y), s) for x, y, s in op.items]}
    assert isinstance(op, Text)
    return {"kind": "text", "anchor": _ANCHORS[op.anchor], "x": _n(op.x), "y": _n(op.y),
            "size": _n(op.size), "bold": op.bold, "colour": _colour(op.role), "text": op.text}


def _sheet(sheet: Sheet, issue: Issue) -> dict[str, Any]:
    media = media_for(sheet, issue.manifest)
    parts = [
        {
            "number": page.number,
            "kind": page.kind,
            "x": _n(media.left + dx),
            "y": _n(media.offset),
            "ops": [_op(op) for op in page.ops],
        }
        for page, dx in sheet.pages
    ]
    if issue.manifest.crop_marks:
        marks = crop_marks(sheet, issue.manifest, sheet.fold)
        parts.append({"number": "", "kind": "crop marks", "x": _n(media.offset),
                      "y": _n(media.offset), "ops": [_op(marks)]})
    return {
        "media_w": _n(media.width),
        "media_h": _n(media.height),
        "trim": " ".join(map(_n, media.trim)),
        "bleed": " ".join(map(_n, media.bleed)),
        "dests": [_dest(page) for page, _ in sheet.pages if page.bookmarks],
        "parts": parts,
    }


def _dest(page: Page) -> str:
    return f"np-page-{page.number}"


def render_latex(issue: Issue, plan: IssuePlan, jobname: str = "issue") -> str:
    manifest = issue.manifest
    profile = manifest.profile

    def colour(role: Role) -> tuple[str, str, str]:
        # black and greys are pure K ink in every mode; the accent follows the mode
        if manifest.grey or role in NEUTRAL_ROLES:
            return (_colour(role), "cmyk", f"0,0,0,{_n(GREY_OF[role])}")
        if cmyk:
            return (_colour(role), "cmyk", ",".join(map(_n, CMYK_OF[role])))
        return (_colour(role), "rgb", ",".join(map(_n, RGB_OF[role])))

    cmyk = profile.colour_space == "DeviceCMYK"  # every colour in the profile's space
    colours = [colour(role) for role in RGB_OF]
    colours += [rgb_definition(rgb, manifest.grey, cmyk)
                for rgb in _page_rgbs(plan.pages)]
    info = {
        "title": pdf_hex_string(issue.heading),
        "author": pdf_hex_string(manifest.author or "Nonopress"),
        "subject": pdf_hex_string(plural(len(issue.blocks), "nonogram puzzle")),
        "creator": pdf_hex_string(f"nonopress {__version__} (LaTeX)"),
    }
    pdfx = None
    if profile.rules.output_intent:
        condition = profile.output_condition
        pdfx = {
            "version": pdf_hex_string(PDFX_VERSION),
            "conformance": pdf_hex_string(PDFX_CONFORMANCE),
            "condition": pdf_hex_string(condition),
            "description": pdf_hex_string(OUTPUT_CONDITIONS.get(condition, condition)),
            "registry": pdf_hex_string(ICC_REGISTRY),
        }
    sheets = saddle_stitch(plan.pages) if manifest.impose else single_sheets(plan.pages)
    template = _environment().get_template("issue.tex.j2")
    return template.render(
        banner=f"Generated by nonopress {__version__}",
        jobname=safe_file_name(jobname),
        info=info,
        colours=colours,
        sheets=[_sheet(sheet, issue) for sheet in sheets],
        outline=[(_dest(p), b.title) for p in plan.pages for b in p.bookmarks]
        if profile.bookmarks else [],
        pdfx=pdfx,
        cjk=_japanese(),
    )


def missing_tex_files() -> list[str]:
    """What this issue's LaTeX needs that TeX here cannot find (kpsewhich): the CJK files
    of a Japanese issue, none otherwise or without kpsewhich to ask."""
    kpsewhich = shutil.which("kpsewhich")
    if not _japanese() or kpsewhich is None:
        return []
    found = subprocess.run([kpsewhich, *CJK_FILES], capture_output=True, text=True,
                           timeout=60, check=False).stdout.split()
    return [name for name in CJK_FILES if not any(path.endswith(name) for path in found)]


def _run_tex(
    command: list[str], folder: str, env: dict[str, str]
) -> subprocess.CompletedProcess[bytes]:
    """Run TeX in its own process group, and end the whole group (latexmk's pdflatex
    too) on a timeout, Ctrl-C or any other exit."""
    process = subprocess.Popen(
        command, cwd=folder, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, start_new_session=True,
    )
    try:
        stdout, stderr = process.communicate(timeout=COMPILE_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        _kill_group(process)
        raise NonopressError(f"LaTeX took longer than {COMPILE_TIMEOUT_S} s") from None
    except BaseException:
        _kill_group(process)
        raise
    return subprocess.CompletedProcess(command, process.returncode, stdout, stderr)


def _kill_group(process: subprocess.Popen[bytes]) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)
    process.wait()


def latex_compiler() -> list[str] | None:
    """The command that compiles a .tex file here, or None when TeX is not installed."""
    if shutil.which("latexmk") and shutil.which("pdflatex"):
        return ["latexmk", "-norc", "-pdf", "-no-shell-escape", "-interaction=nonstopmode",
                "-halt-on-error", "-quiet"]
    if shutil.which("pdflatex"):
        return ["pdflatex", "-no-shell-escape", "-interaction=nonstopmode", "-halt-on-error"]
    return None


def safe_file_name(name: str) -> str:
    """``name`` with only letters, digits, ``.``, ``_`` and ``-``, never starting with ``-``
    (for a file name shown in a command line a user may copy)."""
    cleaned = "".join(ch if ch.isascii() and (ch.isalnum() or ch in "._-") else "_"
                      for ch in name)
    return ("_" + cleaned[1:] if cleaned.startswith("-") else cleaned) or "issue"


#: The name of the source inside the private build folder: whatever the user called the
#: output, nothing of it reaches the TeX command line (a name such as
#: ``-pdflatex=cd ..;touch X;echo.tex`` would be an option to latexmk).
BUILD_NAME = "issue"


def compile_latex(tex: str, jobname: str = "issue") -> bytes:
    """Compile ``tex`` in a private scratch folder and return the PDF's bytes.

    ``jobname`` is accepted for compatibility; the build always uses :data:`BUILD_NAME`.
    """
    command = latex_compiler()
    if command is None:
        raise NonopressError("no LaTeX found (install latexmk and pdflatex)")
    # Paranoid file access: TeX may open only files below the build folder.
    env = dict(os.environ, openin_any="p", openout_any="p", shell_escape="f")
    # mkdtemp: a folder only this user can enter, removed even when a signal ends the run
    with tempfile.TemporaryDirectory(prefix="nonopress-tex-") as folder:
        jobname = BUILD_NAME
        source = Path(folder) / f"{jobname}.tex"
        source.write_text(tex, encoding="utf-8")
        run = _run_tex([*command, f"./{source.name}"], folder, env)
        output = Path(folder) / f"{jobname}.pdf"
        if run.returncode != 0 or not output.exists():
            log = (Path(folder) / f"{jobname}.log")
            text = log.read_text(errors="replace") if log.exists() else run.stdout.decode()
            errors = [line for line in text.splitlines() if line.startswith("!")]
            reason = errors[0] if errors else f"exit status {run.returncode}"
            raise NonopressError(f"LaTeX failed: {reason}")
        data = output.read_bytes()
    bitmap = bitmap_fonts(data)
    if bitmap:
        raise NonopressError(
            f"LaTeX wrote bitmap (Type 3) fonts ({', '.join(bitmap[:3])}), which print soft: "
            "install Latin Modern (Debian/Ubuntu: apt install lmodern; TeX Live: tlmgr "
            "install lm) or the AMS Type 1 fonts (amsfonts), then build again")
    return data


def bitmap_fonts(pdf: bytes) -> list[str]:
    """The names of the Type 3 fonts in a PDF (pdfTeX writes TeX's bitmap fonts so)."""
    names: set[str] = set()
    with pikepdf.open(io.BytesIO(pdf)) as document:
        for page in document.pages:
            resources: Any = page.obj.get("/Resources", {})
            fonts: Any = resources.get("/Font", {})
            for font in fonts.values():
                if str(font.get("/Subtype", "")) == "/Type3":
                    names.add(str(font.get("/Name", font.get("/BaseFont", "?"))).lstrip("/"))
    return sorted(names)
