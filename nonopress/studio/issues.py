"""Issues from the studio: a manifest the CLI reads, the PDF (and LaTeX) it makes, the
preflight's report and page previews.

The studio writes an ordinary manifest (``NAME.yaml`` in the folder, puzzle paths relative
to it), then builds it with ``layout`` as ``nonopress issue NAME.yaml -o NAME.pdf`` does.
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
from typing import Any

import yaml

from grader.atomic import atomic_write
from grader.errors import NonopressError
from grader.results import Budget
from layout.profiles import Profile as PrintProfile
from layout.profiles import parse_profile_name, profile_choices
from nonopress.studio.paths import confine, relative_name
from nonopress.studio.security import RequestRefused

NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$")
PROFILES = profile_choices()
#: what an issue is printed for unless the request says: the table's first printer
DEFAULT_PROFILE = PROFILES[0]
#: pages rendered for the preview at most, and their resolution
PREVIEW_PAGES = 24
PREVIEW_DPI = 40
MAX_PUZZLES = 200


@dataclass
class IssueRequest:
    name: str
    title: str
    puzzles: list[tuple[str, int | None]]  #: (relative path, 1-based index or None)
    profile: str = DEFAULT_PROFILE
    page: str = "Letter"
    latex: bool = False
    overwrite: bool = False


@dataclass
class IssueResult:
    manifest: str
    pdf: str
    latex: str | None
    pages: int
    preflight: dict[str, Any] | None
    warnings: list[str] = field(default_factory=list)
    previews: list[bytes] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return {"manifest": self.manifest, "pdf": self.pdf, "latex": self.latex,
                "pages": self.pages, "preflight": self.preflight, "warnings": self.warnings}


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
            path, _, number = item.partition("#")
            index = int(number) if number.isdigit() else None
        elif isinstance(item, dict) and isinstance(item.get("path"), str):
            path, index = item["path"], item.get("index")
            if index is not None and (not isinstance(index, int) or index < 1):
                raise RequestRefused(400, "a puzzle's index is a whole number from 1")
        else:
            raise RequestRefused(400, "each puzzle is a path (\"heart.yaml\", \"set.non#2\") "
                                      "or {\"path\": ..., \"index\": N}")
        puzzles.append((path, index))
    profile = body.get("profile", DEFAULT_PROFILE)
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
    rules = PrintProfile(parse_profile_name(request.profile)).rules
    if rules.is_print:
        data["profile"] = request.profile
    if rules.min_pages:
        data["pad_pages"] = True  # a printer's least page count: Notes pages fill a short book
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


def build(request: IssueRequest, folder: Path, seconds: float) -> IssueResult:
    """Write the manifest, build the PDF (and LaTeX) as ``nonopress issue`` does, preflight
    it against its profile and render small page previews."""
    text = manifest_text(request, folder)
    manifest_path, pdf_path, tex_path = targets(request, folder)
    try:
        manifest = load_manifest_text(text, manifest_path)
        pdf, tex, pages, warnings = _render(manifest, seconds, request.name, request.latex)
    except NonopressError as exc:
        raise RequestRefused(400, f"issue: {exc}") from None
    atomic_write(manifest_path, text)
    atomic_write(pdf_path, pdf)
    if tex_path is not None and tex is not None:
        atomic_write(tex_path, tex)
    report = None
    if manifest.profile.is_print:
        from layout.preflight import preflight

        report = preflight(pdf_path, manifest.profile.name,
                           large_print=manifest.profile.large_print).as_dict()
        report["file"] = relative_name(folder, pdf_path)
    return IssueResult(
        manifest=relative_name(folder, manifest_path), pdf=relative_name(folder, pdf_path),
        latex=relative_name(folder, tex_path) if tex_path is not None else None,
        pages=pages, preflight=report, warnings=warnings, previews=render_previews(pdf),
    )


def load_manifest_text(text: str, path: Path) -> Any:
    """The manifest as the CLI parses it (paths relative to where it will be written)."""
    from layout.manifest import parse_manifest

    return parse_manifest(text, path)


def _render(manifest: Any, seconds: float, jobname: str, latex: bool
            ) -> tuple[bytes, str | None, int, list[str]]:
    from layout.build import build_issue
    from layout.gradecache import GradeCache
    from layout.latex import render_latex
    from layout.pdf import render_pdf
    from layout.plan import plan_issue
    from layout.printsetup import apply_profile

    manifest, warnings = apply_profile(manifest)
    budget = Budget(seconds=seconds)
    issue = build_issue(manifest, cache=GradeCache(None), budget=budget,
                        progress=lambda message: None)
    plan = plan_issue(issue)
    warnings.extend(plan.warnings)
    tex = render_latex(issue, plan, jobname=jobname) if latex else None
    return render_pdf(issue, plan), tex, len(plan.pages), warnings


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
