"""The issue pipeline: a manifest (with its ``from_library`` section) to the written PDF
and LaTeX, the preflight and the catalogue's record, once for every face.

``nonopress issue`` and the studio's ``POST /api/issue`` both call :func:`make_issue`; a face
that prints nothing (the web player) calls :func:`grade_issue` for the entries and their
grades. The manifest is read once (:func:`load_manifest`) and each puzzle file once per
build (one :class:`~layout.puzzlefiles.PuzzleFiles` for the catalogue's warnings, the
grading and the record). Nothing here prints: what a face shows comes through a
:class:`Voice`.
"""

from __future__ import annotations

import os
import shlex
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from grader.errors import NonopressError
from layout.manifest import Manifest

if TYPE_CHECKING:
    from grader.kinds import AnyPuzzle
    from layout.issue import Issue, IssueEntry
    from layout.plan import IssuePlan
    from layout.preflight import PreflightReport
    from layout.preflight.scan import PageScan
    from layout.profiles import Profile
    from layout.puzzlefiles import PuzzleFiles
    from nonopress.catalogue.database import Catalogue
    from nonopress.catalogue.issue_link import IssueLibrary

#: CPU seconds the preflight may spend on the PDF the pipeline just wrote
OWN_PDF_SECONDS = 120.0


def _silent(message: str) -> None:
    """A voice that says nothing."""


@dataclass(frozen=True)
class Voice:
    """How the pipeline tells a face what happens, as it happens (each a plain sentence,
    without the face's own prefix)."""

    #: progress and what was written ("grading heart.yaml", "wrote issue.pdf: 12 pages")
    say: Callable[[str], None] = _silent
    #: what the editor should know (a profile's change, a reprint, a plan's warning)
    warn: Callable[[str], None] = _silent
    #: each written PDF checked against its print profile, with the preflight's report
    inspected: Callable[[Path, Profile, PreflightReport], None] = \
        lambda path, profile, report: None


@dataclass(frozen=True)
class IssueOptions:
    """What a face asks beyond the manifest; each adds to it (a manifest's ``booklet:
    true`` stays a booklet)."""

    grey: bool = False
    booklet: bool = False
    impose: bool = False  #: saddle-stitch imposition (implies a booklet)
    pad: bool = False  #: pad a short book to the printer's least page count
    profile: str | None = None  #: a print profile's name, replacing the manifest's
    large_print: bool = False
    page: str | None = None  #: a page size replacing the manifest's (A4, 6x9in, ...)
    grade_seconds: float | None = 30.0  #: time budget for grading each puzzle (None: none)
    cache: Path | None = None  #: the grade cache file (None: every puzzle graded afresh)


@dataclass(frozen=True)
class Targets:
    """Where the issue goes: a PDF, LaTeX (compiled to the PDF beside it when ``compile``
    and a LaTeX compiler is installed), or both."""

    pdf: Path | None = None
    latex: Path | None = None
    compile: bool = True

    @property
    def compiled(self) -> Path | None:
        """The PDF the LaTeX compiles to (None when none is compiled)."""
        return self.latex.with_suffix(".pdf") if self.latex and self.compile else None

    def check(self) -> None:
        """NonopressError, before any work, when nothing is asked, the compiled LaTeX would
        overwrite the PDF, or a target's folder does not exist."""
        if self.pdf is None and self.latex is None:
            raise NonopressError("say where to write the issue: a PDF and/or LaTeX")
        compiled = self.compiled
        if compiled is not None and self.pdf is not None and \
                os.path.realpath(compiled) == os.path.realpath(self.pdf):
            raise NonopressError(
                f"the LaTeX {self.latex} compiles to {compiled}, the same file as the PDF: "
                "choose another name for one of them"
            )
        for target in (self.pdf, self.latex):
            if target is not None and not Path(os.path.realpath(target)).parent.is_dir():
                raise NonopressError(f"{target}: the folder {target.parent} does not exist")


@dataclass(frozen=True)
class GradedIssue:
    """An issue's puzzles read and graded, for a face that shows them on no printed page
    (the web player): its manifest (the catalogue's puzzles added, the options applied; no
    print profile), its entries of every kind with their grades."""

    manifest: Manifest
    issue: Issue
    files: PuzzleFiles  #: the puzzle files this build read (each once)
    #: every warning the build gave (as the voice heard them, in order)
    warnings: tuple[str, ...] = ()

    @property
    def entries(self) -> tuple[IssueEntry, ...]:
        """The puzzle blocks in issue order, each with its number, grade and solution."""
        return self.issue.blocks


@dataclass(frozen=True)
class PlannedIssue:
    """An issue graded and paginated, nothing written: its manifest as printed (the
    catalogue's puzzles added, the options and profile applied), its entries with their
    grades, and its pages."""

    manifest: Manifest
    issue: Issue
    plan: IssuePlan
    files: PuzzleFiles  #: the puzzle files this build read (each once)
    #: every warning the build gave (as the voice heard them, in order)
    warnings: tuple[str, ...] = ()

    @property
    def entries(self) -> tuple[IssueEntry, ...]:
        """The puzzle blocks in issue order, each with its number, grade and solution."""
        return self.issue.blocks

    @property
    def summary(self) -> str:
        """``12 pages, 10 puzzles``, then each other kind's count in its own noun."""
        from grader.wording import plural

        counts = [plural(count, noun) for noun, count in self.issue.counts()
                  if count or noun == "puzzle"]
        return ", ".join([plural(len(self.plan.pages), "page"), *counts])

    def pages_of_puzzles(self) -> dict[int, int]:
        """Puzzle number -> the page its puzzle (not its solution) is printed on."""
        return {block.number: page.number for page in self.plan.pages
                for block in page.blocks if not block.solution_shown}


@dataclass(frozen=True)
class WrittenIssue:
    """What :func:`make_issue` wrote and found."""

    planned: PlannedIssue
    targets: Targets
    pdf: bytes | None  #: the PDF drawn (None when only LaTeX was asked)
    latex: str | None  #: the LaTeX source (None when not asked)
    #: each PDF written that its profile checked, with the preflight's report
    preflight: tuple[tuple[Path, PreflightReport], ...] = ()
    recorded: bool = False  #: the printing was recorded in the catalogue

    @property
    def passed(self) -> bool:
        """Every PDF written passes its profile's preflight (or there is no profile)."""
        return all(report.passed for _, report in self.preflight)

    def record(self, name: Callable[[Path], str] = str) -> dict[str, Any]:
        """The issue's record: the files written (each named by ``name``), its pages, the
        preflight of its PDF (None without a print profile), its warnings and whether the
        catalogue recorded it (what the studio's ``POST /api/issue`` answers)."""
        preflight = None
        for path, report in self.preflight:
            if path == self.targets.pdf:
                preflight = {**report.as_dict(), "file": name(path)}
        return {
            "pdf": name(self.targets.pdf) if self.targets.pdf else None,
            "latex": name(self.targets.latex) if self.targets.latex else None,
            "pages": len(self.planned.plan.pages), "preflight": preflight,
            "warnings": list(self.planned.warnings), "recorded": self.recorded,
        }


def load_manifest(path: str | Path) -> Manifest:
    """The manifest at ``path``, read once (its ``from_library`` section kept)."""
    from layout.manifest import load_manifest as read_manifest

    return read_manifest(path)


def may_use_catalogue(db: str | None, manifest: Manifest) -> bool:
    """Whether a catalogue is named (``db``, $NONOPRESS_LIBRARY, .nonopress-library) or found
    (nonopress-library.sqlite here), or the manifest has a ``from_library`` section: a cheap
    test that errs towards yes (:func:`open_library` decides), made without importing the
    catalogue package, which loads sqlalchemy (a quarter of a second)."""
    if db is not None or os.environ.get("NONOPRESS_LIBRARY", "").strip():
        return True
    if Path(".nonopress-library").is_file() or Path("nonopress-library.sqlite").is_file():
        return True
    return manifest.from_library is not None


def open_library(db: str | None, manifest: Manifest) -> IssueLibrary | None:
    """The catalogue an issue uses: the one ``db`` names, else the default one when it
    exists; None when there is none (a ``from_library`` section needs one)."""
    if not may_use_catalogue(db, manifest):
        return None
    from nonopress.catalogue.issue_link import IssueLibrary

    return IssueLibrary.open(db, manifest)


def library_of(catalogue: Catalogue, manifest: Manifest) -> IssueLibrary:
    """An issue's link to a catalogue a face holds open already."""
    from nonopress.catalogue.issue_link import IssueLibrary, issue_name

    return IssueLibrary(catalogue, issue_name(manifest))


def puzzles_of(manifest: Manifest, files: PuzzleFiles) -> list[AnyPuzzle]:
    """The manifest's puzzles in issue order (a file without ``index`` gives all of its
    own); a file that cannot be read is left out (the build names it)."""
    found: list[AnyPuzzle] = []
    for ref in manifest.puzzles:
        try:
            puzzles = files.read_any(ref.path)
        except NonopressError:
            continue
        found += [puzzles[ref.index - 1]] if ref.index and ref.index <= len(puzzles) \
            else puzzles
    return found


def with_options(manifest: Manifest, options: IssueOptions) -> Manifest:
    """``manifest`` with what the face asks added (the profile's rules not yet applied)."""
    from layout.profiles import parse_profile_name
    from layout.units import parse_page_size

    manifest = replace(
        manifest,
        grey=manifest.grey or options.grey,
        booklet=manifest.booklet or options.booklet or options.impose,
        impose=manifest.impose or options.impose,
        pad_pages=manifest.pad_pages or options.pad,
        profile=replace(
            manifest.profile,
            name=parse_profile_name(options.profile) if options.profile
            else manifest.profile.name,
            large_print=manifest.profile.large_print or options.large_print,
        ),
    )
    if options.page:
        manifest = replace(manifest, page=parse_page_size(options.page))
    return manifest


def _collecting(voice: Voice) -> tuple[list[str], Callable[[str], None]]:
    """A list of the warnings said, and a ``warn`` that says each and keeps it."""
    warnings: list[str] = []

    def warn(message: str) -> None:
        warnings.append(message)
        voice.warn(message)

    return warnings, warn


def _graded(manifest: Manifest, options: IssueOptions, library: IssueLibrary | None,
            voice: Voice, warn: Callable[[str], None], files: PuzzleFiles,
            for_print: bool) -> tuple[Manifest, Issue]:
    """The manifest as built (filled, the options and, ``for_print``, the profile applied)
    and its issue, every puzzle graded (from the cache when it has the grade)."""
    from grader.results import Budget
    from layout.build import build_issue
    from layout.gradecache import GradeCache
    from layout.printsetup import apply_profile
    from nonopress.app.play import hints_of_grade

    if library is not None:
        manifest = library.fill(manifest)
        for warning in library.reprints(puzzles_of(manifest, files)):
            warn(warning)
    manifest = with_options(manifest, options)
    if for_print:
        manifest, changes = apply_profile(manifest)
        for change in changes:
            warn(change)
    cache = GradeCache(options.cache)
    # a face that plays the puzzles keeps the hint table of the same grade (cached with it)
    keep = None if for_print else hints_of_grade
    issue = build_issue(manifest, cache=cache, budget=Budget(seconds=options.grade_seconds),
                        progress=voice.say, files=files, keep=keep)
    if options.cache is not None:
        try:
            cache.save()
        except OSError as exc:  # a cache that cannot be written costs time, not the issue
            warn(f"grade cache not saved: {exc}")
    return manifest, issue


def grade_issue(manifest: Manifest, options: IssueOptions = IssueOptions(), *,
                library: IssueLibrary | None = None, voice: Voice = Voice(),
                files: PuzzleFiles | None = None) -> GradedIssue:
    """Fill the manifest from ``library`` (and warn about reprints), apply the options and
    grade every puzzle (from the cache when it has the grade): what a face that prints
    nothing needs (no print profile, no pages).

    Raises what blocks the issue (a NonopressError naming every puzzle at fault)."""
    from layout.puzzlefiles import PuzzleFiles

    files = files if files is not None else PuzzleFiles()
    warnings, warn = _collecting(voice)
    manifest, issue = _graded(manifest, options, library, voice, warn, files, for_print=False)
    for warning in issue.warnings:
        warn(warning)
    return GradedIssue(manifest, issue, files, tuple(warnings))


def plan_issue(manifest: Manifest, options: IssueOptions = IssueOptions(), *,
               library: IssueLibrary | None = None, voice: Voice = Voice(),
               files: PuzzleFiles | None = None) -> PlannedIssue:
    """Fill the manifest from ``library`` (and warn about reprints), apply the options and
    the print profile, grade every puzzle (from the cache when it has the grade) and
    paginate.

    Raises what blocks the issue (a NonopressError naming every puzzle at fault)."""
    from layout.plan import plan_issue as paginate
    from layout.puzzlefiles import PuzzleFiles

    files = files if files is not None else PuzzleFiles()
    warnings, warn = _collecting(voice)
    manifest, issue = _graded(manifest, options, library, voice, warn, files, for_print=True)
    plan = paginate(issue)
    for warning in plan.warnings:  # the build's own warnings first
        warn(warning)
    return PlannedIssue(manifest, issue, plan, files, tuple(warnings))


def write_issue(planned: PlannedIssue, targets: Targets, voice: Voice = Voice()
                ) -> WrittenIssue:
    """Draw the PDF and/or LaTeX of ``planned`` into ``targets`` (each written to a
    temporary file and renamed) and check each PDF against the issue's profile."""
    from layout.pdf import render_pdf

    profile = planned.manifest.profile
    checked: list[tuple[Path, list[PageScan] | None]] = []
    pdf: bytes | None = None
    if targets.pdf is not None:
        # what each page paints, for the preflight (a plain PDF has none)
        drawn: list[PageScan] | None = [] if profile.is_print else None
        pdf = render_pdf(planned.issue, planned.plan, drawn)
        _write(targets.pdf, pdf)
        voice.say(f"wrote {targets.pdf}: {planned.summary}")
        checked.append((targets.pdf, drawn))
    latex: str | None = None
    if targets.latex is not None:
        from layout.latex import (
            CJK_MISSING,
            compile_latex,
            latex_compiler,
            missing_tex_files,
            render_latex,
        )

        name = targets.latex.stem
        latex = render_latex(planned.issue, planned.plan, jobname=name)
        _write(targets.latex, latex)
        compiled = targets.compiled
        missing = missing_tex_files() if compiled is not None else []
        if missing:  # TeX here cannot print this language: the source stays, uncompiled
            voice.warn(f"{CJK_MISSING}; wrote {targets.latex}, not compiled "
                       f"(missing: {', '.join(missing)})")
        elif compiled is None or latex_compiler() is None:
            shown = str(targets.latex)
            quoted = shlex.quote(shown if shown.startswith("/") else f"./{shown}")
            voice.say(f"wrote {targets.latex}; compile it with: latexmk -pdf "
                      f"-no-shell-escape {quoted}  (or pdflatex -no-shell-escape {quoted})")
        else:
            _write(compiled, compile_latex(latex, jobname=name))
            voice.say(f"wrote {targets.latex} and compiled it to {compiled}: "
                      f"{planned.summary}")
            checked.append((compiled, None))
    reports = _preflight(checked, planned.manifest, voice)
    return WrittenIssue(planned, targets, pdf, latex, reports)


def make_issue(manifest: Manifest, targets: Targets, options: IssueOptions = IssueOptions(),
               *, library: IssueLibrary | None = None, record: bool = True,
               voice: Voice = Voice()) -> WrittenIssue:
    """The whole pipeline: plan the issue, write it, check it and record the printing in
    ``library`` (unless ``record`` is false: a proof)."""
    targets.check()
    try:
        planned = plan_issue(manifest, options, library=library, voice=voice)
        written = write_issue(planned, targets, voice)
    except BaseException:
        if library is not None:  # a new pick of a build that failed: nothing stays booked
            library.abandon()
        raise
    if library is None or not record:
        return written
    issue = planned.issue
    library.record(planned.manifest, [entry.puzzle for entry in issue.blocks],
                   planned.pages_of_puzzles())
    voice.say(f"recorded the printing in {library.catalogue.name}")
    return replace(written, recorded=True)


def _write(path: Path, data: bytes | str) -> None:
    from grader.atomic import atomic_write

    try:
        atomic_write(path, data)
    except OSError as exc:
        raise NonopressError(f"cannot write {path}: {exc.strerror or exc}") from None


def _preflight(paths: list[tuple[Path, list[PageScan] | None]], manifest: Manifest,
               voice: Voice) -> tuple[tuple[Path, PreflightReport], ...]:
    """Each written PDF checked against the profile (none without one). A PDF the layout
    drew comes with its record of every page (LaTeX's has none)."""
    from layout.preflight import Budget, preflight

    profile = manifest.profile
    if not profile.is_print:
        return ()
    reports: list[tuple[Path, PreflightReport]] = []
    for path, drawn in paths:
        # our own file, as big as the book: a budget for 828 busy pages, not hostile input
        report = preflight(path, profile.name, large_print=profile.large_print,
                           budget=Budget.scaled(OWN_PDF_SECONDS), drawn=drawn)
        voice.inspected(path, profile, report)
        reports.append((path, report))
    return tuple(reports)
