"""``nonopress library``: the puzzle catalogue (add, find, dupes, history, tag, export, import).

Every action calls the Python API of :mod:`nonopress.catalogue`, the same functions the studio
calls.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from nonopress.commands.batch import add_grading_arguments, check_jobs

HELP = ("a puzzle catalogue in SQLite or PostgreSQL: add, find, dupes, history, export, "
        "import, solves")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from grader.kinds import TAGS
    from nonopress.batch.run import DEFAULT_TIMEOUT_S

    parser.add_argument(
        "--db", metavar="FILE|URL",
        help="the catalogue: a SQLite file or postgresql://user:pass@host/db (default: "
        "$NONOPRESS_LIBRARY, else nonopress-library.sqlite in this folder)",
    )
    sub = parser.add_subparsers(dest="action", metavar="ACTION")
    sub.required = True

    add = sub.add_parser("add", help="import and grade puzzle files and folders (resumable)")
    add.add_argument("paths", nargs="+", metavar="FILE|FOLDER")
    add.add_argument("--tag", action="append", default=[], metavar="TAG",
                     help="tag every puzzle read (repeatable)")
    add.add_argument("--pictures", action="store_true",
                     help="read pictures (PNG, GIF, BMP) as puzzles, a pixel a cell (without "
                     "it they are passed over: make them into puzzles with nonopress make)")
    add_grading_arguments(add, DEFAULT_TIMEOUT_S)

    find = sub.add_parser("find", help="the puzzles that pass filters")
    find.add_argument("--kind", choices=TAGS)
    find.add_argument("--size", metavar="WxH[..WxH]", help="size or size range, 15x15..25x25")
    find.add_argument("--level", action="append", default=[], metavar="LEVEL",
                      help="easy, medium, hard, fiendish, ... (repeatable)")
    find.add_argument("--stars", metavar="LOW..HIGH")
    find.add_argument("--score", metavar="LOW..HIGH")
    find.add_argument("--minutes", metavar="LOW..HIGH", help="expected solving minutes")
    find.add_argument("--tag", action="append", default=[], metavar="TAG",
                      help="has this tag (repeatable: all of them)")
    find.add_argument("--author", help="part of the author's name")
    find.add_argument("--licence", "--license", dest="licence")
    find.add_argument("--title", help="part of the title")
    find.add_argument("--status", action="append", default=[],
                      choices=("pending", "graded", "failed", "undecided"))
    find.add_argument("--unused-since", metavar="DATE", help="not printed since YYYY-MM-DD")
    find.add_argument("--unused-for", type=int, metavar="N",
                      help="not printed in the last N issues")
    find.add_argument("--never-printed", action="store_true")
    find.add_argument("--limit", type=int, metavar="N")
    output = find.add_mutually_exclusive_group()
    output.add_argument("--json", action="store_true", help="one JSON array")
    output.add_argument("--manifest", action="store_true",
                        help="an issue manifest listing the puzzles (export them first)")

    dupes = sub.add_parser("dupes", help="one design stored twice, and near duplicates")
    dupes.add_argument("--near", type=int, default=2, metavar="N",
                       help="also pairs at most N cells apart (default 2; 0: none)")
    dupes.add_argument("--json", action="store_true")

    history = sub.add_parser("history", help="where a puzzle (or its design) was printed")
    history.add_argument("puzzle", metavar="PUZZLE", help="id or key")
    history.add_argument("--json", action="store_true")

    tag = sub.add_parser("tag", help="add or remove tags: library tag 12 animals --remove winter")
    tag.add_argument("puzzle", metavar="PUZZLE")
    tag.add_argument("tags", nargs="*", metavar="TAG", help="tags to add")
    tag.add_argument("--remove", action="append", default=[], metavar="TAG",
                     help="a tag to remove (repeatable)")

    export = sub.add_parser("export", help="the catalogue as JSON lines (puzzles, history)")
    export.add_argument("-o", "--output", default="-", metavar="FILE")
    imp = sub.add_parser("import", help="add what an export holds")
    imp.add_argument("file", metavar="FILE")

    meta = sub.add_parser(
        "set", help="set title, author, copyright, licence or source on many puzzles: "
        "library set author='A. Setter' licence=CC-BY-4.0 --tag animals")
    meta.add_argument("assignments", nargs="+", metavar="FIELD=VALUE",
                      help="title (may hold {n}, {id}, {title}), author, copyright, licence, "
                      "source")
    meta.add_argument("--id", action="append", default=[], metavar="ID[-ID]",
                      help="a puzzle id, key, or id range 12-40 (repeatable)")
    meta.add_argument("--tag", action="append", default=[], metavar="TAG",
                      help="the puzzles with this tag (repeatable: all of them)")
    meta.add_argument("--all", action="store_true", help="every puzzle of the catalogue")

    release = sub.add_parser("release", help="drop the bookings of an abandoned issue")
    release.add_argument("issue", metavar="ISSUE")

    sub.add_parser("summary", help="how many puzzles of each kind, level and size")

    solves = sub.add_parser("solves", help="what the web player's solvers did with each "
                            "puzzle: solves, completion, minutes against the grade, hints")
    solves.add_argument("--since", metavar="DATE", help="solves started on or after "
                        "YYYY-MM-DD")
    solves.add_argument("--json", action="store_true", help="one JSON object")
    # --db after the action too (library add X --db Y), as every other command takes it
    for action in sub.choices.values():
        action.add_argument("--db", metavar="FILE|URL", default=argparse.SUPPRESS,
                            help="the catalogue (as before the action)")


def run(args: argparse.Namespace) -> int:
    from sqlalchemy.exc import SQLAlchemyError

    from grader.errors import NonopressError
    from nonopress.catalogue import open_catalogue

    create = args.action in ("add", "import")
    with open_catalogue(args.db, create=create) as catalogue:
        action = {"add": _add, "find": _find, "dupes": _dupes, "history": _history,
                  "tag": _tag, "export": _export, "import": _import, "release": _release,
                  "set": _set, "summary": _summary, "solves": _solves}[args.action]
        try:
            return int(action(catalogue, args))
        except SQLAlchemyError as exc:  # the server went away, a disk filled up, ...
            reason = str(getattr(exc, "orig", None) or exc).strip().splitlines()
            raise NonopressError(f"{catalogue.name}: {reason[0] if reason else exc}") \
                from None


def _add(catalogue: Any, args: argparse.Namespace) -> int:
    from grader.wording import plural
    from nonopress.catalogue import ImportOptions, add_files

    check_jobs(args.jobs)
    options = ImportOptions(jobs=args.jobs, timeout_s=args.timeout, scheduler=args.scheduler,
                            tags=tuple(args.tag), retry_failed=args.retry_failed,
                            pictures=args.pictures)
    summary = add_files(catalogue, args.paths, options)
    from grader.text import shown

    if summary.pictures:  # file names are the file system's: shown escaped
        print(shown(f"nonopress library: passed over {plural(len(summary.pictures), 'picture')} "
                    f"({', '.join(summary.pictures)}): add --pictures to read a pixel as a "
                    "cell"), file=sys.stderr)
    for line in summary.merged:
        print(shown(f"nonopress library: {line}"), file=sys.stderr)
    for line in summary.unreadable:
        print(shown(f"nonopress library: {line}"), file=sys.stderr)
    print(shown(f"{plural(summary.read, 'puzzle')} read, {summary.added} added, "
                f"{summary.graded} graded into {catalogue.name}"), file=sys.stderr)
    return 2 if summary.unreadable else 0


def filters_from(args: argparse.Namespace) -> Any:
    from nonopress.catalogue import Filters
    from nonopress.catalogue.finding import parse_range, parse_size_range
    from nonopress.catalogue.picking import unused_since

    widths = heights = None
    if args.size:
        widths, heights = parse_size_range(args.size)
    return Filters(
        kind=args.kind, widths=widths, heights=heights, levels=tuple(args.level),
        stars=parse_range(args.stars, "--stars", int) if args.stars else None,
        scores=parse_range(args.score, "--score") if args.score else None,
        minutes=parse_range(args.minutes, "--minutes") if args.minutes else None,
        tags=tuple(args.tag), author=args.author, licence=args.licence, text=args.title,
        status=tuple(args.status),
        unused_since=unused_since(args.unused_since) if args.unused_since else None,
        unused_for=args.unused_for, never_printed=args.never_printed, limit=args.limit,
    )


def _find(catalogue: Any, args: argparse.Namespace) -> int:
    from grader.minutes import whole
    from grader.text import shown
    from nonopress.catalogue import find

    entries = find(catalogue, filters_from(args))
    if args.json:
        print(json.dumps([e.to_json() for e in entries], indent=1, ensure_ascii=False))
    elif args.manifest:
        import yaml

        items = [{"file": e.file, "index": e.file_index} if e.file_index > 1 else e.file
                 for e in entries]
        print(yaml.safe_dump({"title": "From the catalogue", "puzzles": items},
                             sort_keys=False, allow_unicode=True), end="")
    else:
        print(f"{'id':>5}  {'kind':6} {'size':7} {'level':14} {'score':>5} {'stars':5} "
              f"{'min':>5}  title")
        for e in entries:
            score = "-" if e.score is None else f"{e.score:.2f}"
            minutes = "-" if e.minutes is None else whole(e.minutes)  # 0.3, not 0
            stars = "-" if e.stars is None else "*" * e.stars
            tags = f"  [{', '.join(e.tags)}]" if e.tags else ""
            print(shown(f"{e.id:>5}  {e.kind:6} {e.size:7} {e.level or e.status:14} "
                        f"{score:>5} {stars:5} {minutes:>5}  {e.title or '-'}{tags}"))
        print(f"{len(entries)} puzzle(s)", file=sys.stderr)
    return 0


def _dupes(catalogue: Any, args: argparse.Namespace) -> int:
    from grader.text import shown
    from nonopress.catalogue import duplicates

    pairs = duplicates(catalogue, near=args.near)
    if args.json:
        print(json.dumps([{"first": p.first.id, "second": p.second.id, "cells": p.cells}
                          for p in pairs], indent=1))
    else:
        for pair in pairs:
            print(shown(pair.describe()))
        print(f"{len(pairs)} pair(s)", file=sys.stderr)
    return 0


def _history(catalogue: Any, args: argparse.Namespace) -> int:
    from grader.text import shown
    from nonopress.catalogue import get, history

    entry = get(catalogue, args.puzzle)
    printings = history(catalogue, entry.key, entry.shape_key)
    if args.json:
        print(json.dumps([p.to_json() for p in printings], indent=1, ensure_ascii=False))
        return 0
    print(shown(f"{entry.id} {entry.title or '(untitled)'} {entry.size}: "
                f"{len(printings)} printing(s)"))
    for p in printings:
        what = "" if p.puzzle_key == entry.key else "  (the same design, another puzzle)"
        print(shown(f"  {p.issue_date or p.printed_at[:10]}  {p.issue}, no. {p.position}"
                    f"{f', page {p.page}' if p.page else ''} ({p.profile}){what}"))
    return 0


def _tag(catalogue: Any, args: argparse.Namespace) -> int:
    from grader.errors import NonopressError
    from nonopress.catalogue import get
    from nonopress.catalogue.importing import set_tags

    entry = get(catalogue, args.puzzle)
    if not args.tags and not args.remove:
        raise NonopressError("tag: name tags to add, or --remove TAG")
    with catalogue.writing() as connection:
        set_tags(connection, [entry.id], add=args.tags, remove=args.remove)
    from grader.text import shown

    print(shown(", ".join(get(catalogue, str(entry.id)).tags) or "(no tags)"))
    return 0


def _set(catalogue: Any, args: argparse.Namespace) -> int:
    from grader.errors import NonopressError
    from grader.text import shown
    from nonopress.catalogue import Filters, find, get
    from nonopress.catalogue.metadata import parse_assignments, set_metadata

    values = parse_assignments(args.assignments)
    if not (args.id or args.tag or args.all):
        raise NonopressError("set: say which puzzles: --id ID[-ID], --tag TAG or --all")
    ids: set[int] = set()
    ranges: list[tuple[int, int]] = []
    for item in args.id:
        low, dash, high = item.partition("-")
        if dash and low.strip().isdigit() and high.strip().isdigit():
            if len(low.strip()) > 18 or len(high.strip()) > 18:
                raise NonopressError(f"--id {shown(item[:60])}: an id has at most 18 digits")
            if int(low) > int(high):
                raise NonopressError(f"--id {item}: the range runs backwards")
            ranges.append((int(low), int(high)))  # never spelled out: 1-20000000 is a range
        else:
            ids.add(get(catalogue, item).id)
    if args.tag or args.all:
        ids.update(e.id for e in find(catalogue, Filters(tags=tuple(args.tag))))
    if ranges:  # the catalogue's ids within a range (a range may span deleted ids)
        ids.update(e.id for e in find(catalogue, Filters())
                   if any(low <= e.id <= high for low, high in ranges))
    if not ids:
        raise NonopressError(f"set: no puzzle in {catalogue.name} is selected")
    for puzzle_id, title in set_metadata(catalogue, sorted(ids), values):
        print(shown(f"{puzzle_id:>5}  {title or '-'}"))
    print(f"{len(ids)} puzzle(s) changed: {', '.join(sorted(values))}", file=sys.stderr)
    return 0


def _export(catalogue: Any, args: argparse.Namespace) -> int:
    from grader.atomic import atomic_write
    from nonopress.catalogue.transfer import export_lines

    text = "".join(line + "\n" for line in export_lines(catalogue))
    if args.output == "-":
        sys.stdout.write(text)
    else:
        atomic_write(args.output, text)
    return 0


def _import(catalogue: Any, args: argparse.Namespace) -> int:
    from grader.inputs import read_input_bytes
    from nonopress.catalogue.transfer import import_lines

    text = read_input_bytes(args.file, args.file).decode("utf-8", "replace")
    added, recorded = import_lines(catalogue, iter(text.splitlines()), args.file)
    print(f"{added} puzzle(s) and {recorded} printing(s) added to {catalogue.name}",
          file=sys.stderr)
    return 0


def _release(catalogue: Any, args: argparse.Namespace) -> int:
    from nonopress.catalogue import release

    print(f"{release(catalogue, args.issue)} booking(s) of {args.issue} dropped",
          file=sys.stderr)
    return 0


def _summary(catalogue: Any, args: argparse.Namespace) -> int:
    from nonopress.catalogue import counts

    for kind, level, size, count in counts(catalogue):
        print(f"{kind:6} {level:14} {size:8} {count:>6}")
    return 0


def _solves(catalogue: Any, args: argparse.Namespace) -> int:
    from grader.errors import NonopressError
    from grader.text import shown
    from nonopress.solves.reports import (
        MIN_ADDRESSES,
        MIN_CLEAN,
        PER_ADDRESS,
        Stats,
        since_text,
        solves_report,
    )

    try:
        since = since_text(args.since)
    except ValueError:
        raise NonopressError(f"--since {args.since}: a date such as 2026-11-01") from None
    report = solves_report(catalogue, since)
    if args.json:
        print(report.dumps())
        return 0

    def figures(stats: Stats) -> str:
        measured = "-" if stats.median_minutes is None else f"{stats.median_minutes:.1f}"
        if stats.predicted is None:
            predicted = "-"
        elif stats.low is None or stats.high is None:
            predicted = f"{stats.predicted:g}"
        else:
            predicted = f"{stats.predicted:g} ({stats.low:g}-{stats.high:g})"
        rungs = ", ".join(f"{name} {n}" for name, n in stats.rungs) or "-"
        return (f"{stats.solves:>6} {stats.solvers:>7} {stats.addresses:>5} "
                f"{stats.completion:>5.0%} {stats.clean:>5} {measured:>6} "
                f"{predicted:>14} {stats.hint_rate:>5.0%}  {rungs}")

    head = (f"{'solves':>6} {'solvers':>7} {'addrs':>5} {'done':>5} {'clean':>5} {'min':>6} "
            f"{'predicted':>14} {'hint':>5}  rungs hinted most")
    print(f"{'id':>5}  {'size':7} {'level':14} {head}  title")
    for row in report.puzzles:
        print(shown(f"{row.id:>5}  {row.size:7} {row.level or '-':14} {figures(row.stats)}"
                    f"  {row.title or '-'}"))
    for name, groups in (("level", report.levels), ("size", report.sizes)):
        print(f"\nby {name}:\n{'':22} {head}")
        for key, stats in groups.items():
            print(f"{key:22} {figures(stats)}")
    print(f"\nthe audience disagrees most with (clean solves >= {MIN_CLEAN}; "
          "measured / predicted minutes):")
    for row in report.disagreements:
        print(shown(f"{row.id:>5}  {row.title or '-'} ({row.size}, {row.level}): "
                    f"x{row.stats.ratio:.2f}, {row.stats.median_minutes:.1f} min against "
                    f"{row.stats.predicted:g}"))
    if not report.disagreements:
        print("  (none yet)")
    total = sum(row.stats.solves for row in report.puzzles)
    print(f"{total} solve(s) of {len(report.puzzles)} puzzle(s)"
          f"{f' since {since}' if since else ''}; min = median over addresses of the "
          "active minutes of the clean solves (completed, no reveal), shown from "
          f"{MIN_ADDRESSES} addresses; one solve a solver, {PER_ADDRESS} solvers an address "
          "counted (collected solves are unauthenticated: docs/solves.md)", file=sys.stderr)
    return 0
