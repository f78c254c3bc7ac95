"""``nonopress calibrate --from-solves``: refit the minutes on the solves the player reported."""

from __future__ import annotations

import argparse

HELP = ("refit the minutes' coefficients on the web player's collected solves, show before "
        "and after on the held-out puzzles, write a new scoring table with --write")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--from-solves", action="store_true", required=True,
                        help="fit to the catalogue's solves (the only source this command "
                        "reads; bench/calibrate_times.py fits to griddlers.net times)")
    parser.add_argument("--db", metavar="FILE|URL", help="the catalogue (as `library --db`)")
    parser.add_argument("--kind", choices=("black-and-white", "colour", "mosaic"),
                        default="black-and-white",
                        help="whose minutes: black and white (the minutes block, the "
                        "default), colour (colour_minutes) or mosaic (--write names its "
                        "own table, grader/mosaic/minutes.yaml); puzzles another model "
                        "times are left out")
    parser.add_argument("--since", metavar="DATE", help="solves started on or after "
                        "YYYY-MM-DD")
    parser.add_argument("--min-solves", type=int, default=5, metavar="N",
                        help="clean solves (completed, no reveal) a puzzle needs (default 5)")
    parser.add_argument("--timeout", type=float, default=60.0, metavar="SECONDS",
                        help="grading budget a puzzle, for its features (default 60)")
    parser.add_argument("--write", nargs="?", const="", metavar="SCORING.yaml",
                        help="write the refitted minutes into this scoring table (named by "
                        "its path, the installed grader/scoring.yaml too: it is never "
                        "written unless named; grader_version changes, so stored grades "
                        "are graded again)")
    parser.add_argument("--force", action="store_true",
                        help="--write even a refit that moves some puzzle's minutes by more "
                        "than a factor 1.5 (collected solves are unauthenticated: look at "
                        "the puzzles and their addresses first)")
    parser.add_argument("--json", action="store_true", help="one JSON object")


def run(args: argparse.Namespace) -> int:
    import json
    import sys
    from pathlib import Path

    from grader.errors import NonopressError
    from grader.text import shown
    from nonopress.catalogue import open_catalogue
    from nonopress.solves import refit
    from nonopress.solves.reports import since_text

    try:
        since = since_text(args.since)
    except ValueError:
        raise NonopressError(f"--since {args.since}: a date such as 2026-11-01") from None
    if args.min_solves < 1 or not args.timeout > 0:
        raise NonopressError("--min-solves and --timeout must be above 0")
    if args.kind == "mosaic":  # its own table and fit: grader/mosaic/minutes.py
        return _run_mosaic(args, since)
    target = None
    if args.write is not None:
        if not args.write:
            raise NonopressError(
                "--write needs the scoring table's path (the installed one, "
                f"{shown(str(refit.scoring_table()))}, is written only when named)")
        target = Path(args.write)
        if not target.is_file():
            raise NonopressError(f"{target}: no scoring table there to write into")
    with open_catalogue(args.db, create=False) as catalogue:
        try:
            result = refit.from_solves(catalogue, since, args.min_solves, args.timeout,
                                       args.kind)
        except (refit.TooFewSolves, refit.NoFit) as exc:
            raise NonopressError(f"{catalogue.name}: {exc}") from None
        name = catalogue.name
    if args.json:
        print(json.dumps(result.to_json(), indent=1, ensure_ascii=False))
    else:
        left = ", ".join(f"{n} {why}" for why, n in sorted(result.left_out.items()) if n)
        print(f"{result.model} minutes: {len(result.train)} puzzles fitted, {len(result.held)} "
              f"held out (numeric id ending in 7){f'; left out: {left}' if left else ''}")
        for label, model in (("before", result.before), ("after", result.after)):
            terms = " ".join(f"{c:+g} {n}" for n, c in model.coefficients.items())
            print(f"{label:6}: ln minutes = {model.intercept:+g} {terms}; range "
                  f"[{model.low:g}, {model.high:g}]")
        for label, group in (("fitted", result.train), ("held out", result.held)):
            print(f"\n{label + ':':9} {'id':>5} {'size':7} {'solves':>6} {'addrs':>5} "
                  f"{'measured':>8} {'before':>7} {'after':>7}  title")
            for row in result.table(group):
                print(shown(f"          {row['id']:>5} {row['size']:7} "
                            f"{row['clean_solves']:>6} {row['addresses']:>5} "
                            f"{row['measured']:>8.2f} {row['before']:>7.2f} "
                            f"{row['after']:>7.2f}  {row['title'] or '-'}"))
        for label, model in (("before", result.before), ("after", result.after)):
            a = refit.agreement(model, result.held, result.weights)
            print(f"{label:6}: median |ln(predicted / measured)| {a.log_error:.3f}, "
                  f"{a.within_10:.0%} within 10 %, {a.within_2:.0%} within 2x")
    change, which = result.largest_change()
    if not args.json:
        print(f"largest change: x{change:.2f}"
              + (f" (puzzle {which.id})" if which is not None else ""))
    if target is not None and change > refit.MAX_CHANGE and not args.force:
        raise NonopressError(
            f"{target}: not written: the refit moves puzzle "
            f"{which.id if which else '?'}'s minutes x{change:.2f}, more than the "
            f"x{refit.MAX_CHANGE:g} written without --force (collected solves are "
            "unauthenticated: check the puzzles and their addresses, then --force)")
    if target is not None:
        refit.write_minutes(result.after, refit.note_of(result, name, since), target,
                            result.model)
        print(f"minutes written to {target}", file=sys.stderr)
    elif not args.json:
        print("nothing written (--write saves the refitted minutes)", file=sys.stderr)
    return 0


def _run_mosaic(args: argparse.Namespace, since: str | None) -> int:
    """The mosaic's minutes fitted to its solves: the measured minutes on the ladder's
    assumed ones (nonopress/solves/refit_mosaic.py); ``--write`` names the table to write."""
    import json
    import sys
    from pathlib import Path

    from grader.errors import NonopressError
    from grader.text import shown
    from nonopress.catalogue import open_catalogue
    from nonopress.solves import refit, refit_mosaic

    if args.write is not None and not args.write:
        installed = shown(str(refit_mosaic.installed_table()))
        raise NonopressError("--write needs the mosaic minutes table's path (the installed "
                             f"one is {installed}, written only when named)")
    target = Path(args.write) if args.write else None
    if target is not None and not target.parent.is_dir():
        raise NonopressError(f"{target}: no folder there to write into")
    with open_catalogue(args.db, create=False) as catalogue:
        try:
            result = refit_mosaic.from_solves(catalogue, since, args.min_solves, args.timeout)
        except (refit.TooFewSolves, refit.NoFit) as exc:
            raise NonopressError(f"{catalogue.name}: {exc}") from None
        name = catalogue.name
    change, which = result.largest_change()
    if args.json:
        print(json.dumps(result.to_json(), indent=1, ensure_ascii=False))
    else:
        left = ", ".join(f"{n} {why}" for why, n in sorted(result.left_out.items()) if n)
        print(f"mosaic minutes: {len(result.train)} mosaics fitted, {len(result.held)} held "
              f"out{f'; left out: {left}' if left else ''}")
        for label, model in (("before", result.before), ("after", result.after)):
            print(f"{label:6}: ln minutes = {model.intercept:+g} {model.scale:+g} ln assumed; "
                  f"range [{model.low:g}, {model.high:g}]"
                  f"{'' if model.fitted or label == 'after' else ' (not fitted)'}")
        for label, group in (("fitted", result.train), ("held out", result.held)):
            print(f"\n{label + ':':9} {'id':>5} {'size':7} {'solves':>6} {'measured':>8} "
                  f"{'before':>7} {'after':>7}  title")
            for row in result.table(group):
                print(shown(f"          {row['id']:>5} {row['size']:7} "
                            f"{row['clean_solves']:>6} {row['measured']:>8.2f} "
                            f"{row['before']:>7.2f} {row['after']:>7.2f}  "
                            f"{row['title'] or '-'}"))
        for label, model in (("before", result.before), ("after", result.after)):
            print(f"{label:6}: median |ln(predicted / measured)| "
                  f"{refit_mosaic.log_error(model, result.held):.3f} on the held-out mosaics")
        print(f"largest change: x{change:.2f}"
              + (f" (puzzle {which.id})" if which is not None else ""))
    if target is not None and change > refit.MAX_CHANGE and not args.force:
        raise NonopressError(
            f"{target}: not written: the fit moves puzzle {which.id if which else '?'}'s "
            f"minutes x{change:.2f}, more than the x{refit.MAX_CHANGE:g} written without "
            "--force (collected solves are unauthenticated: check the puzzles and their "
            "addresses, then --force)")
    if target is not None:
        refit_mosaic.write_minutes(result, name, since, target)
        print(f"mosaic minutes written to {target}", file=sys.stderr)
    elif not args.json:
        print("nothing written (--write grader/mosaic/minutes.yaml saves the fitted minutes)",
              file=sys.stderr)
    return 0
