"""``nonopress collect``: the solve collector alone, for production (under uvicorn)."""

from __future__ import annotations

import argparse

HELP = ("collect the web player's solve records into the catalogue: POST /api/solves, for "
        "the origins named (docs/solves.md)")
DEFAULT_PORT = 8739


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--db", metavar="FILE|URL",
                        help="the catalogue to store into (a SQLite file or postgresql://..., "
                        "as `library --db`; it must hold the puzzles played)")
    parser.add_argument("--origin", action="append", default=[], metavar="ORIGIN",
                        required=True,
                        help="a site whose pages may send solves, https://site.example "
                        "(repeatable; 'null' for a player opened from disk)")
    parser.add_argument("--host", default="127.0.0.1",
                        help="address to listen on (default 127.0.0.1: behind a proxy)")
    parser.add_argument("--port", type=int, default=DEFAULT_PORT,
                        help=f"port (default {DEFAULT_PORT})")
    parser.add_argument("--workers", type=int, default=1, metavar="N",
                        help="worker processes (default 1)")
    parser.add_argument("--rate", type=float, default=2.0, metavar="R",
                        help="records a second one client may send, sustained, per worker "
                        "(default 2)")
    parser.add_argument("--burst", type=int, default=60, metavar="N",
                        help="records one client may send at once (default 60)")
    parser.add_argument("--forwarded-allow-ips", metavar="IPS",
                        help="the proxies trusted to name the client in X-Forwarded-For "
                        "(comma-separated; the rate is then per solver, not per proxy)")


def run(args: argparse.Namespace) -> int:
    import os
    import sys

    import uvicorn

    from grader.errors import NonopressError
    from nonopress.catalogue import open_catalogue
    from nonopress.catalogue.database import resolve_location
    from nonopress.serving import guard_options
    from nonopress.solves import collector

    try:
        origins = sorted({collector.normal_origin(o) for o in args.origin})
        settings = collector.CollectorSettings(frozenset(origins), rate=args.rate,
                                               burst=args.burst)
    except ValueError as exc:
        raise NonopressError(f"--origin/--rate/--burst: {exc}") from None
    if not 0 < args.port <= 65535:
        raise NonopressError(f"--port {args.port}: must be 1 to 65535")
    if not 1 <= args.workers <= 64:
        raise NonopressError(f"--workers {args.workers}: must be 1 to 64")
    location = resolve_location(args.db)
    with open_catalogue(location, create=False) as catalogue:  # migrated once, here
        name = catalogue.name
    os.environ[collector.ENV_DB] = location
    os.environ[collector.ENV_ORIGINS] = " ".join(origins)
    os.environ[collector.ENV_RATE] = str(settings.rate)
    os.environ[collector.ENV_BURST] = str(settings.burst)
    print(f"nonopress collect: POST http://{args.host}:{args.port}{collector.PATH} into "
          f"{name}, for {', '.join(origins)} ({args.workers} worker(s))", file=sys.stderr)
    # the studio's hardened server (nonopress/serving.py): deadlines for the head and the
    # body, a minimum body rate, a connection cap, a keep-alive limit
    uvicorn.run(f"{collector.__name__}:from_environment", factory=True, host=args.host,
                port=args.port, workers=args.workers, log_level="warning", access_log=False,
                proxy_headers=bool(args.forwarded_allow_ips),
                forwarded_allow_ips=args.forwarded_allow_ips or None, **guard_options())
    return 0
