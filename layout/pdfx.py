"""Make reportlab's PDF a PDF/X-1a:2001 file: what reportlab cannot write, added with pikepdf.

PDF/X-1a:2001 asks for PDF 1.3 (no object or cross-reference streams), one OutputIntent of
subtype GTS_PDFX naming the printing condition, the GTS_PDFXVersion / GTS_PDFXConformance
and Trapped keys, a Title and dates in the Info dictionary, and a file ID. The drawing
itself (CMYK or grey only, no transparency, embedded fonts, trim and bleed boxes) is the
back end's job; the preflight checks both.
"""

from __future__ import annotations

import datetime as dt
import io
import os

import pikepdf

from layout.issue import Issue
from layout.profiles import ICC_REGISTRY, OUTPUT_CONDITIONS

PDFX_VERSION = "PDF/X-1:2001"
PDFX_CONFORMANCE = "PDF/X-1a:2001"


def pdf_date(moment: dt.datetime) -> str:
    return moment.strftime("D:%Y%m%d%H%M%S+00'00'")


def issue_date(issue: Issue) -> dt.datetime:
    """The date the file says it was made: the manifest's date when it is one (so the same
    issue gives the same bytes), else SOURCE_DATE_EPOCH, else now."""
    try:
        day = dt.date.fromisoformat(issue.manifest.date[:10])
        return dt.datetime(day.year, day.month, day.day, tzinfo=dt.timezone.utc)
    except ValueError:
        pass
    epoch = os.environ.get("SOURCE_DATE_EPOCH", "")
    if epoch.isdigit():
        return dt.datetime.fromtimestamp(int(epoch), tz=dt.timezone.utc)
    return dt.datetime.now(tz=dt.timezone.utc).replace(microsecond=0)


def output_intent(pdf: pikepdf.Pdf, condition: str) -> pikepdf.Dictionary:
    """An OutputIntent naming a registered printing condition (no embedded ICC profile is
    needed for a condition in the ICC's registry)."""
    return pikepdf.Dictionary(
        Type=pikepdf.Name.OutputIntent,
        S=pikepdf.Name.GTS_PDFX,
        OutputConditionIdentifier=pikepdf.String(condition),
        OutputCondition=pikepdf.String(OUTPUT_CONDITIONS.get(condition, condition)),
        RegistryName=pikepdf.String(ICC_REGISTRY),
        Info=pikepdf.String(OUTPUT_CONDITIONS.get(condition, condition)),
    )


def make_pdfx(data: bytes, issue: Issue) -> bytes:
    """``data`` (a reportlab PDF drawn in CMYK or grey) as PDF/X-1a:2001."""
    return to_pdfx(data, title=issue.heading, date=issue_date(issue),
                   condition=issue.manifest.profile.output_condition)


def to_pdfx(data: bytes, *, title: str, date: dt.datetime, condition: str) -> bytes:
    """Add what PDF/X-1a:2001 asks of the file (not of the drawing) to the PDF ``data``."""
    with pikepdf.open(io.BytesIO(data)) as pdf:
        pdf.Root.OutputIntents = pikepdf.Array([pdf.make_indirect(output_intent(pdf, condition))])
        for page in pdf.pages:  # PDF/X: a TrimBox or an ArtBox, never both
            if "/ArtBox" in page.obj and "/TrimBox" in page.obj:
                del page.obj.ArtBox
        info = pdf.docinfo
        stamp = pdf_date(date)
        info.Title = pikepdf.String(title)
        info.CreationDate = pikepdf.String(stamp)
        info.ModDate = pikepdf.String(stamp)
        info.Trapped = pikepdf.Name("/False")
        info.GTS_PDFXVersion = pikepdf.String(PDFX_VERSION)
        info.GTS_PDFXConformance = pikepdf.String(PDFX_CONFORMANCE)
        out = io.BytesIO()
        pdf.save(
            out,
            force_version="1.3",
            object_stream_mode=pikepdf.ObjectStreamMode.disable,
            deterministic_id=True,
            fix_metadata_version=False,
        )
    return out.getvalue()
