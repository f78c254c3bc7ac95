"""``nonopress preflight``: check any PDF against a printer's rules before uploading it."""

from __future__ import annotations

import argparse
import json
import sys

from grader.text import shown_lines
from layout.profiles import profile_choices, profile_help

HELP = "check a PDF against a printer's rules (KDP paperback, PDF/X-1a magazine, large print)"

EXIT_PASSED, EXIT_FAILED = 0, 1


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("pdf", metavar="FILE.pdf", help="the PDF to check (any PDF)")
    parser.add_argument(
        "--profile",
        required=True,
        choices=profile_choices(printed_only=True),
        help=profile_help(),
    )
    parser.add_argument(
        "--large-print", action="store_true", help="also: every character at least 14 pt"
    )
    parser.add_argument("--json", action="store_true", help="the report as one JSON object")
    parser.add_argument(
        "--seconds", type=float, default=6.0, metavar="S",
        help="CPU seconds the check may take before it calls the file too complex (default "
             "6; the operator, form-call and page budgets grow with it)",
    )
    parser.add_argument(
        "--limit", type=int, default=5, metavar="N",
        help="findings shown per rule (default 5; --json gives them all)",
    )


def run(args: argparse.Namespace) -> int:
    from grader.errors import NonopressError
    from layout.preflight import Budget, preflight

    if not 0 < args.seconds <= 3600:
        raise NonopressError("--seconds must be between 0 and 3600")
    report = preflight(args.pdf, args.profile, large_print=args.large_print,
                       budget=Budget.scaled(args.seconds))
    if args.json:
        print(json.dumps(report.as_dict(), indent=1))
    else:
        print(shown_lines(report.lines(max(args.limit, 0))))  # names from the PDF
    sys.stdout.flush()
    return EXIT_PASSED if report.passed else EXIT_FAILED
