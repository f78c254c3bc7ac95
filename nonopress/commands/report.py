"""``nonopress report``: export a batch's results as an HTML page, CSV or JSON."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

HELP = "export the results of `nonopress batch` as an HTML report, CSV or JSON"

FORMATS = ("html", "csv", "json")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("results", metavar="RESULTS", help="the --out folder of a batch")
    parser.add_argument(
        "--format",
        "-f",
        choices=FORMATS,
        help="html: a static page with histograms and thumbnails; csv: one row per puzzle "
        "with a header; json: an array of one object per puzzle "
        "(default: from the suffix of -o, else html)",
    )
    parser.add_argument(
        "-o",
        "--output",
        required=True,
        metavar="FILE",
        help="where to write the report ('-' for stdout)",
    )


def choose_format(requested: str | None, output: str) -> str:
    if requested:
        return requested
    suffix = Path(output).suffix.lower().lstrip(".")
    if suffix == "htm":
        return "html"
    return suffix if suffix in FORMATS else "html"


def run(args: argparse.Namespace) -> int:
    from grader.atomic import atomic_write
    from grader.errors import NonopressError
    from nonopress.batch.export import report_order, to_csv, to_json, without_defect_scores
    from nonopress.batch.html_report import render_html
    from nonopress.batch.store import ResultStore

    fmt = choose_format(args.format, args.output)
    with ResultStore.open_existing(args.results) as store:
        rows = report_order(without_defect_scores(store.rows()))
    if fmt == "html":
        text = render_html(rows, title=f"Nonopress batch report: {args.results}")
    elif fmt == "csv":
        text = to_csv(rows)
    else:
        text = to_json(rows)
    if args.output == "-":
        sys.stdout.write(text)
        sys.stdout.flush()
    else:
        try:
            atomic_write(args.output, text)
        except OSError as exc:
            raise NonopressError(f"{args.output}: cannot write the report: {exc}") from None
    return 0
