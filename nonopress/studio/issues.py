"""Issues from the studio: a manifest the CLI reads, the PDF (and LaTeX) it makes, the
preflight's report and page previews.

The studio writes an ordinary manifest (``NAME.yaml`` in the folder, puzzle paths relative
to it), then builds it with the issue pipeline ``nonopress issue NAME.yaml -o NAME.pdf``
runs (:mod:`nonopress.app.issue`).
Nothing existing is replaced unless the request says ``overwrite``; every file is written
atomically.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

from grader.atomic import atomic_write
from grader.errors import NonopressError
from nonopress.studio.paths import confine, relative_name
from nonopress.studio.security import RequestRefused

if TYPE_CHECKING:
    from nonopress.catalogue.database import Catalogue

NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$")
PROFILES = ("kdp", "pdfx", "none")
#: pages rendered for the preview at most, and their resolution
PREVIEW_PAGES = 24
PREVIEW_DPI = 40
MAX_PUZZLES = 200


@dataclass
class IssueRequest:
    name: str
    title: str
    puzzles: list[tuple[str, int | None]]  #: (relative path, 1-based index or None)
    profile: str = "kdp"
    page: str = "Letter"
    latex: bool = False
    overwrite: bool = False


@dataclass
class IssueResult:
    """The issue pipeline's record (nonopress.app.issue), with the manifest the studio wrote,
    and the page previews it serves apart."""

    record: dict[str, Any]
    previews: list[bytes] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return dict(self.record)


def parse_request(body: dict[str, Any]) -> IssueRequest:
    """The issue a request asks for; RequestRefused naming the field that is wrong."""
    name = body.get("name", "")
    if not isinstance(name, str) or not NAME.match(name) or name.startswith("."):
        raise RequestRefused(400, "name must be 1-64 letters, digits, '.', '-' or '_' "
                                  "(the manifest is NAME.yaml, the PDF NAME.pdf)")
    title = body.get("title", "Nonograms")
    if not isinstance(title, str) or len(title) > 200:
        raise RequestRefused(400, "title must be a string of at most 200 characters")
    items = body.get("puzzles")
    if not isinstance(items, list) or not 1 <= len(items) <= MAX_PUZZLES:
        raise RequestRefused(400, f"puzzles must be a list of 1 to {MAX_PUZZLES} puzzle paths")
    puzzles: list[tuple[str, int | None]] = []
    for item in items:
        if isinstance(item, str):
            path, sep, number = item.partition("#")
            if sep and not (number.isascii() and number.isdigit() and len(number) <= 9
                            and int(number) >= 1):
                raise RequestRefused(400, f"{item[:80]!r}: the number after '#' is the "
                                          "puzzle's index in its file, from 1")
            index = int(number) if sep else None
        elif isinstance(item, dict) and isinstance(item.get("path"), str):
            path, index = item["path"], item.get("index")
            if index is not None and (isinstance(index, bool) or not isinstance(index, int)
                                      or not 1 <= index <= 10**9):
                raise RequestRefused(400, "a puzzle's index is a whole number from 1")
        else:
            raise RequestRefused(400, "each puzzle is a path (\"heart.yaml\", \"set.non#2\") "
                                      "or {\"path\": ..., \"index\": N}")
        puzzles.append((path, index))
    profile = body.get("profile", "kdp")
    if profile not in PROFILES:
        raise RequestRefused(400, f"profile must be one of {', '.join(PROFILES)}")
    page = body.get("page", "Letter")
    if not isinstance(page, str) or len(page) > 20:
        raise RequestRefused(400, "page must be a page size such as Letter, A4, 6x9in")
    return IssueRequest(name, title, puzzles, profile, page,
                        latex=bool(body.get("latex", False)),
                        overwrite=bool(body.get("overwrite", False)))


def manifest_text(request: IssueRequest, folder: Path) -> str:
    """The manifest the CLI reads, with every puzzle path confined to the folder."""
    items: list[Any] = []
    for path, index in request.puzzles:
        resolved = confine(folder, path)
        if not resolved.is_file():
            raise RequestRefused(400, f"{path}: not a puzzle file")
        relative = relative_name(folder, resolved)
        items.append({"file": relative, "index": index} if index else relative)
    data: dict[str, Any] = {"title": request.title, "page": request.page, "puzzles": items}
    if request.profile != "none":
        data["profile"] = request.profile
    if request.profile == "kdp":
        data["pad_pages"] = True  # KDP prints 24 pages or more: Notes pages fill a short one
    header = ("# Written by nonopress studio; build it again with:\n"
              f"#   nonopress issue {request.name}.yaml -o {request.name}.pdf\n")
    return header + yaml.safe_dump(data, sort_keys=False, allow_unicode=True)


def targets(request: IssueRequest, folder: Path) -> tuple[Path, Path, Path | None]:
    """The manifest, PDF (and LaTeX) paths; 409 when one exists and overwrite is not asked."""
    manifest = confine(folder, f"{request.name}.yaml", must_exist=False)
    pdf = confine(folder, f"{request.name}.pdf", must_exist=False)
    tex = confine(folder, f"{request.name}.tex", must_exist=False) if request.latex else None
    if not request.overwrite:
        existing = [p.name for p in (manifest, pdf, tex) if p is not None and p.exists()]
        if existing:
            raise RequestRefused(409, f"{', '.join(existing)} already in the folder: choose "
                                      "another name, or ask to overwrite")
    return manifest, pdf, tex


def build(request: IssueRequest, folder: Path, seconds: float,
          catalogue: Catalogue | None = None) -> IssueResult:
    """Write the manifest, build the PDF (and LaTeX) with the issue pipeline that
    ``nonopress issue`` runs, preflighted against its profile and recorded in
    ``catalogue`` when one is open, and render small page previews."""
    from layout.manifest import parse_manifest
    from nonopress.app.issue import IssueOptions, Targets, library_of, make_issue

    text = manifest_text(request, folder)
    manifest_path, pdf_path, tex_path = targets(request, folder)
    try:
        manifest = parse_manifest(text, manifest_path)  # paths relative to where it goes
        written = make_issue(
            manifest, Targets(pdf=pdf_path, latex=tex_path, compile=False),
            IssueOptions(grade_seconds=seconds),
            library=library_of(catalogue, manifest) if catalogue is not None else None)
    except NonopressError as exc:
        raise RequestRefused(400, f"issue: {exc}") from None
    atomic_write(manifest_path, text)
    assert written.pdf is not None  # the studio always asks for the PDF
    record = {"manifest": relative_name(folder, manifest_path),
              **written.record(lambda path: relative_name(folder, path))}
    return IssueResult(record, render_previews(written.pdf))


def render_previews(pdf: bytes, pages: int = PREVIEW_PAGES, dpi: int = PREVIEW_DPI
                    ) -> list[bytes]:
    """The first pages as small PNGs (poppler's pdftoppm); none when it is not installed."""
    tool = shutil.which("pdftoppm")
    if tool is None:
        return []
    with tempfile.TemporaryDirectory(prefix="nonopress-studio-") as tmp:
        source = Path(tmp) / "issue.pdf"
        source.write_bytes(pdf)
        try:
            subprocess.run([tool, "-png", "-r", str(dpi), "-f", "1", "-l", str(pages),
                            str(source), str(Path(tmp) / "page")],
                           check=True, timeout=60, capture_output=True)
        except (subprocess.SubprocessError, OSError):
            return []
        return [path.read_bytes() for path in sorted(Path(tmp).glob("page-*.png"),
                                                     key=lambda p: int(p.stem.split("-")[-1]))]


def with_order(request: IssueRequest, order: list[tuple[str, int | None]]) -> IssueRequest:
    return replace(request, puzzles=order)
