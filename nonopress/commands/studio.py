"""``nonopress studio [FOLDER]``: the editor's workbench in the browser."""

from __future__ import annotations

import argparse
import contextlib

HELP = ("start the studio: a local web page to draw, check, grade, repair and print the "
        "folder's puzzles (and a JSON API for scripts)")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from nonopress.studio.config import DEFAULT_HOST, DEFAULT_PORT

    parser.add_argument("folder", metavar="FOLDER", nargs="?", default=".",
                        help="the folder of puzzles to work on (default: the current folder); "
                        "every file the studio reads or writes is inside it")
    parser.add_argument("--host", default=DEFAULT_HOST,
                        help=f"address to listen on (default {DEFAULT_HOST}: this machine "
                        "only; 0.0.0.0 opens it to the network, with a warning)")
    parser.add_argument("--port", type=int, default=DEFAULT_PORT,
                        help=f"port (default {DEFAULT_PORT}; 0 picks a free one)")
    parser.add_argument("--db", metavar="FILE|URL",
                        help="show this catalogue as the library (a SQLite file or "
                        "postgresql://..., as `library --db`; default: $NONOPRESS_LIBRARY, "
                        "else FOLDER/nonopress-library.sqlite when it exists, else the "
                        "folder's puzzle files)")
    parser.add_argument("--collect-origin", action="append", default=[], metavar="ORIGIN",
                        help="a site whose web player (built with `nonopress web --collect "
                        "URL`) may send solves to this studio's POST /api/solves, stored in "
                        "its catalogue (repeatable; 'null' for a player opened from disk)")
    parser.add_argument("--no-browser", action="store_true",
                        help="print the address without opening a browser")


def _machine_names() -> tuple[str, ...]:
    import socket

    names = {socket.gethostname()}
    with contextlib.suppress(OSError):
        names.update(socket.gethostbyname_ex(socket.gethostname())[2])
    return tuple(sorted(names))


def _loopback(host: str) -> bool:
    import ipaddress

    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:  # a name: only this machine's own name is loopback for sure
        return False


def run(args: argparse.Namespace) -> int:
    import socket
    import sys
    import threading
    import webbrowser
    from pathlib import Path

    from grader.errors import NonopressError
    from nonopress.solves.collector import normal_origin
    from nonopress.studio.app import create_app
    from nonopress.studio.config import StudioConfig

    folder = Path(args.folder)
    if not folder.is_dir():
        raise NonopressError(f"{args.folder}: not a folder")
    if not 0 <= args.port <= 65535:
        raise NonopressError(f"--port {args.port}: must be 0 to 65535")
    try:
        collect = tuple(sorted({normal_origin(o) for o in args.collect_origin}))
    except ValueError as exc:
        raise NonopressError(f"--collect-origin: {exc}") from None
    # bind first: the address printed is the one served (port 0 picks a free port)
    family = socket.AF_INET6 if ":" in args.host else socket.AF_INET
    # IPPROTO_TCP named: asyncio then sets TCP_NODELAY on each connection (without it a
    # response written in two parts waits 40 ms for the client's delayed ACK)
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((args.host, args.port))
    except OSError as exc:
        raise NonopressError(f"cannot listen on {args.host}:{args.port}: "
                             f"{exc.strerror or exc}") from None
    port = sock.getsockname()[1]
    extra = _machine_names() if args.host in ("0.0.0.0", "::") else ()
    if not _loopback(args.host):
        print(f"nonopress studio: warning: listening on {args.host}: anyone who can reach "
              "this machine can use the studio (and read the folder's puzzles)",
              file=sys.stderr)
    config = StudioConfig(folder=folder, host=args.host, port=port, extra_hosts=extra,
                          catalogue=args.db, collect_origins=collect)
    try:
        app = create_app(config)  # opens the catalogue: a missing one is an error here
    except BaseException:
        sock.close()
        raise
    library = app.state.studio.library
    shown = f", catalogue {library.location}" if library.name == "catalogue" else ""
    print(f"nonopress studio: {config.url}  (folder {config.folder}{shown})", flush=True)
    print(f"nonopress studio: scripts send the header X-Studio-Token: {config.token}",
          flush=True)
    print("nonopress studio: Ctrl-C stops it", flush=True)
    from grader.solver import announce_compiling, ensure_compiled

    announce_compiling(sys.stderr)
    threading.Thread(target=ensure_compiled, daemon=True).start()
    if not args.no_browser:
        threading.Timer(0.5, webbrowser.open, (config.url,)).start()
    from nonopress.studio.server import serve

    try:
        serve(app, sock)  # header timeout, connection cap, keep-alive (studio/server.py)
    finally:
        sock.close()
    return 0
