"""Preflight: check any PDF against a printer's rules (KDP paperback interiors, PDF/X-1a:2001
magazines, large print) the way a printer's preflight would, rule by rule, naming the page
and the object that fails.

    report = preflight("book.pdf", "kdp")
    report.passed, [r.rule for r in report.failed]
"""

from __future__ import annotations

import contextlib
import os
import stat
import sys
import tempfile
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pikepdf

from grader.errors import NonopressError
from grader.inputs import describe_kind
from layout.preflight.content import Budget, ContentError
from layout.preflight.record import page_facts, same_facts
from layout.preflight.rules import Document, Finding, RuleResult, rules_for
from layout.preflight.scan import (
    FontInfo,
    PageScan,
    ScanError,
    resource_fonts,
    scan_page,
    scan_pages,
)
from layout.profiles import PROFILES, profile_choices

__all__ = ["Budget", "Finding", "PreflightError", "PreflightReport", "RuleResult", "preflight"]

#: Pages of a recorded file parsed all the same and compared with the record.
SAMPLED_PAGES = 6
#: Larger files are refused before anything is read into memory.
MAX_FILE_BYTES = 2 * 1024**3


class PreflightError(NonopressError):
    """The file cannot be checked: missing, not a PDF, damaged, encrypted beyond reading."""


@dataclass(frozen=True)
class PreflightReport:
    path: str
    profile: str
    large_print: bool
    pages: int
    results: tuple[RuleResult, ...]
    #: the pages' marks came from the layout's record, a sample parsed and found the same
    as_drawn: bool = False

    @property
    def failed(self) -> list[RuleResult]:
        return [r for r in self.results if r.status == "fail"]

    @property
    def warned(self) -> list[RuleResult]:
        return [r for r in self.results if r.status == "warn"]

    @property
    def passed(self) -> bool:
        return not self.failed

    def as_dict(self) -> dict[str, Any]:
        return {
            "file": self.path,
            "profile": self.profile,
            "large_print": self.large_print,
            "pages": self.pages,
            "passed": self.passed,
            "rules": [
                {
                    "rule": r.rule,
                    "title": r.title,
                    "status": r.status,
                    "findings": [{"page": f.page, "message": f.message} for f in r.findings],
                }
                for r in self.results
            ],
        }

    def lines(self, limit: int = 5) -> list[str]:
        """A readable report: a verdict, then one line per rule and its first findings."""
        verdict = "passes" if self.passed else f"fails {len(self.failed)} rule(s)"
        if self.warned:
            verdict += f", {len(self.warned)} warning(s)"
        profile = self.profile + (" + large print" if self.large_print else "")
        out = [f"{self.path}: {self.pages} pages, {profile}: {verdict}"]
        for result in self.results:
            out.append(f"  {result.status.upper():4}  {result.rule:15} {result.title}")
            grouped = _grouped(result.findings)
            out.extend(f"        {line}" for line in grouped[:limit])
            if len(grouped) > limit:
                out.append(f"        ... and {len(grouped) - limit} more")
        return out


def _grouped(findings: list[Finding]) -> list[str]:
    """Findings as lines, the same message on several pages said once: 'pages 1-3, 7: ...'."""
    pages: dict[str, list[int]] = {}
    for finding in findings:
        pages.setdefault(finding.message, []).extend([finding.page] if finding.page else [])
    lines = []
    for message, numbers in pages.items():
        if not numbers:
            lines.append(message)
            continue
        spans: list[str] = []
        start = end = numbers[0]
        for n in [*numbers[1:], None]:
            if n is not None and n == end + 1:
                end = n
                continue
            spans.append(str(start) if start == end else f"{start}-{end}")
            if n is not None:
                start = end = n
        label = "page" if len(numbers) == 1 else "pages"
        lines.append(f"{label} {', '.join(spans)}: {message}")
    return lines


def preflight(path: str | os.PathLike[str], profile: str,
              large_print: bool = False, budget: Budget | None = None,
              drawn: Sequence[PageScan] | None = None) -> PreflightReport:
    """Check the PDF at ``path`` against ``profile`` (a printer's row of the profile
    table, :data:`layout.profiles.PROFILES`), within ``budget``
    (operators, form calls, pages, decoded bytes and CPU seconds; the defaults keep any
    file under 10 s and 1 GB).

    ``drawn`` is what the layout recorded as it wrote this very file (one scan a page,
    :mod:`layout.preflight.record`): its marks stand for the content streams when a sample
    of pages parsed from the file agrees with it and the pages use nothing the record does
    not know (images, forms, graphics states); otherwise every page is parsed."""
    choices = profile_choices(printed_only=True)
    if profile not in choices:
        raise PreflightError(f"unknown profile {profile!r} (choose {' or '.join(choices)})")
    source = Path(path)
    try:
        info = source.stat()
        size = info.st_size
    except FileNotFoundError:
        raise PreflightError(f"{source}: file not found") from None
    except OSError as exc:
        raise PreflightError(f"{source}: {exc.strerror or exc}") from None
    if not stat.S_ISREG(info.st_mode):  # a FIFO would block the PDF reader forever
        raise PreflightError(f"{source}: {describe_kind(info.st_mode)}, not a PDF file")
    if size > MAX_FILE_BYTES:
        raise PreflightError(f"{source}: {size:,} bytes is more than this preflight reads")
    try:
        budget = budget or Budget()
        budget.start()
        with _library_messages() as said, pikepdf.open(source) as pdf:
            scans = _as_drawn(pdf, drawn, budget) if drawn is not None else None
            as_drawn = scans is not None
            if scans is None:
                scans = list(scan_pages(pdf, budget))
            doc = Document(pdf, scans, large_print)
            results = tuple(rule(doc) for rule in rules_for(PROFILES[profile], large_print))
            pages = len(pdf.pages)
            damage = pdf.get_warnings()
        damage = damage or said  # what the PDF library printed itself is damage it met too
        if damage:  # objects the PDF library had to drop or guess: the report would lie
            raise PreflightError(f"{source}: damaged PDF: {_first_line(Exception(damage[0]))}")
    except pikepdf.PasswordError:
        raise PreflightError(f"{source}: the file needs a password") from None
    except (ScanError, ContentError) as exc:
        raise PreflightError(f"{source}: cannot be checked: {exc}") from None
    except (pikepdf.PdfError, ValueError, TypeError, KeyError, OSError, OverflowError,
            RecursionError, AttributeError, IndexError) as exc:
        raise PreflightError(f"{source}: not a readable PDF: {_first_line(exc)}") from None
    except MemoryError:
        raise PreflightError(f"{source}: too large to check in memory") from None
    return PreflightReport(str(source), profile, large_print, pages, results, as_drawn)


def _as_drawn(pdf: pikepdf.Pdf, drawn: Sequence[PageScan], budget: Budget
              ) -> list[PageScan] | None:
    """The recorded scans with the fonts the file's pages offer, or None when the record
    cannot stand for the file: a different page count, a page using what the layout never
    draws, or a sampled page whose parse disagrees with the record."""
    count = len(pdf.pages)
    if len(drawn) != count or count > budget.pages:
        return None
    fonts: dict[tuple[int, int], FontInfo] = {}
    scans = []
    for index, page in enumerate(pdf.pages):
        resources = page.obj.get("/Resources")
        if resources is None or any(key in resources for key in
                                    ("/XObject", "/ExtGState", "/Shading", "/Pattern")):
            return None
        scans.append(PageScan(index, list(drawn[index].marks), resource_fonts(page, fonts)))
    step = max(count - 1, 1) / max(SAMPLED_PAGES - 1, 1)
    for index in sorted({min(round(k * step), count - 1) for k in range(SAMPLED_PAGES)}):
        parsed = scan_page(pdf, index, budget, fonts)
        if (not same_facts(page_facts(parsed), page_facts(scans[index]))
                or not set(parsed.fonts) <= set(scans[index].fonts)):
            return None
    return scans


@contextlib.contextmanager
def _library_messages() -> Iterator[list[str]]:
    """Collect what the PDF library (qpdf, in C++) writes straight to standard error, such
    as "Pages tree includes non-dictionary object; ignoring", into the list it yields: a
    report is one line, and such a message says the file is damaged."""
    said: list[str] = []
    try:
        sys.stderr.flush()
        saved = os.dup(2)
    except (OSError, ValueError):  # no real standard error to redirect: nothing to collect
        yield said
        return
    with tempfile.TemporaryFile() as caught:
        os.dup2(caught.fileno(), 2)
        try:
            yield said
        finally:
            os.dup2(saved, 2)
            os.close(saved)
            caught.seek(0)
            text = caught.read(4096).decode("utf-8", "replace")
            said.extend(line.strip() for line in text.splitlines() if line.strip())


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0][:200] if text else type(exc).__name__
