"""The ``nonopress`` command: ``main(argv) -> int``, testable without a subprocess.

Each subcommand lives in its own module under ``nonopress.commands`` (or ``layout``) and
exposes ``HELP``, ``add_arguments(parser)`` and ``run(args) -> int``. Heavy imports
happen inside ``run`` so that ``--help`` stays fast.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import signal
import sys
import threading
from collections.abc import Iterable, Iterator, Sequence
from types import FrameType, ModuleType

from grader.errors import ManyProblems, NonopressError
from grader.text import error_line
from nonopress.exit_status import BAD_INPUT, DONE
from nonopress.exit_status import HELP as EXIT_HELP

#: subcommand -> module implementing it
COMMANDS: dict[str, str] = {
    "info": "nonopress.commands.info",
    "convert": "nonopress.commands.convert",
    "render": "nonopress.commands.render",
    "check": "nonopress.commands.check",
    "solve": "nonopress.commands.solve",
    "grade": "nonopress.commands.grade",
    "issue": "nonopress.commands.issue",
    "web": "nonopress.commands.web",
    "preflight": "nonopress.commands.preflight",
    "batch": "nonopress.commands.batch",
    "report": "nonopress.commands.report",
    "make": "nonopress.commands.make",
    "repair": "nonopress.commands.repair",
    "generate": "nonopress.commands.generate",
    "fill": "nonopress.commands.fill",
    "fillin": "nonopress.commands.fillin",
    "studio": "nonopress.commands.studio",
    "library": "nonopress.commands.library",
    "collect": "nonopress.commands.collect",
    "calibrate": "nonopress.commands.calibrate",
}

EXIT_OK = DONE
EXIT_BAD_INPUT = BAD_INPUT


def _wanted_commands(argv: Sequence[str]) -> Iterable[str]:
    """The subcommands whose modules this command line needs imported.

    Only the one being run (a command module may import numpy, reportlab or numba), or every
    one when the top-level help lists them; ``--version`` and usage errors need none.
    """
    command = next((arg for arg in argv if not arg.startswith("-")), None)
    if command in COMMANDS:
        return (command,)
    if "-h" in argv or "--help" in argv:
        return COMMANDS
    return ()


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The whole parser; given ``argv``, one that imports only what ``argv`` runs."""
    from grader import __version__

    parser = argparse.ArgumentParser(
        prog="nonopress",
        description="Grade, check and print nonograms.",
    )
    parser.add_argument("--version", action="version", version=f"nonopress {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    wanted = set(COMMANDS if argv is None else _wanted_commands(argv))
    # a known command is parsed by its own parser alone: each other subparser would cost a
    # parser, its -h and gettext's search for argparse's catalogue (~20 ms at start-up);
    # they are made only when a usage error or the top-level help must name every choice
    placeholders = len(wanted) != 1
    for name, module_name in COMMANDS.items():
        if name not in wanted:
            if placeholders:
                sub.add_parser(name)  # a valid choice; never run or described in this process
            continue
        module: ModuleType = importlib.import_module(module_name)
        command = sub.add_parser(name, help=module.HELP, description=module.HELP)
        module.add_arguments(command)
        command.epilog = EXIT_HELP if command.epilog is None else f"{command.epilog} {EXIT_HELP}"
        command.set_defaults(_run=module.run)
    return parser


def _tolerant_streams() -> None:
    """Characters the terminal cannot encode are escaped, never a traceback."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            with contextlib.suppress(ValueError, OSError):
                reconfigure(errors="backslashreplace")


class Terminated(KeyboardInterrupt):
    """SIGTERM or SIGHUP, raised like Ctrl-C so that every ``finally`` runs: temporary
    files and build folders are removed and TeX's process group is ended."""


def _raise_terminated(signum: int, frame: FrameType | None) -> None:
    raise Terminated(signum)


@contextlib.contextmanager
def _signals_unwind() -> Iterator[None]:
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {sig: signal.getsignal(sig) for sig in (signal.SIGTERM, signal.SIGHUP)}
    for sig in previous:
        signal.signal(sig, _raise_terminated)
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def main(argv: Sequence[str] | None = None) -> int:
    _tolerant_streams()
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        parser = build_parser(argv)
    except NonopressError as exc:  # the ladder table named by $NONOPRESS_LADDER is bad
        print(error_line("nonopress: ", str(exc)), file=sys.stderr)
        return int(exc.exit_status)
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse exits 2 on usage errors, 0 on --help
        return int(exc.code or 0)
    with _signals_unwind():
        return _run(args)


def _run(args: argparse.Namespace) -> int:
    from grader.i18n import use
    from nonopress.stdout_guard import StdoutError, guarded_stdout

    try:
        with guarded_stdout(), use(getattr(args, "language", None)):
            return int(args._run(args))
    except StdoutError as exc:
        if exc.broken_pipe:  # the reader (``| head``) has all it wanted
            return EXIT_OK
        print(error_line(f"nonopress {args.command}: ", str(exc)), file=sys.stderr)
        return EXIT_BAD_INPUT
    except NonopressError as exc:
        if isinstance(exc, ManyProblems):  # a line each, escaped and bounded on its own
            print(error_line(f"nonopress {args.command}: ", exc.headline), file=sys.stderr)
            for problem in exc.problems:
                print(error_line("  ", problem), file=sys.stderr)
        else:
            print(error_line(f"nonopress {args.command}: ", str(exc)), file=sys.stderr)
        return int(exc.exit_status)  # 2, bad input, unless the answer is not publishable
    except Terminated as exc:
        print(f"nonopress {args.command}: terminated", file=sys.stderr)
        return 128 + int(exc.args[0])
    except KeyboardInterrupt:
        print(f"nonopress {args.command}: interrupted", file=sys.stderr)
        return 130


def entry_point() -> None:
    sys.exit(main())


if __name__ == "__main__":
    entry_point()
