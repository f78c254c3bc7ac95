"""The ``nonopress`` command: ``main(argv) -> int``, testable without a subprocess.

Each subcommand lives in its own module under ``grader.commands`` (or ``layout``) and
exposes ``HELP``, ``add_arguments(parser)`` and ``run(args) -> int``. Heavy imports
happen inside ``run`` so that ``--help`` stays fast.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Iterable, Sequence
from types import ModuleType

from grader.errors import NonopressError

#: subcommand -> module implementing it
COMMANDS: dict[str, str] = {
    "info": "grader.commands.info",
    "convert": "grader.commands.convert",
    "check": "grader.commands.check",
    "solve": "grader.commands.solve",
    "grade": "grader.commands.grade",
    "issue": "layout.command",
    "preflight": "layout.preflight.command",
    "batch": "grader.commands.batch",
    "report": "grader.commands.report",
    "fill": "words.commands.fill",
    "fillin": "words.commands.fillin",
}

EXIT_OK = 0
EXIT_BAD_INPUT = 2


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
    for name, module_name in COMMANDS.items():
        if name not in wanted:
            sub.add_parser(name)  # a valid choice; never run or described in this process
            continue
        module: ModuleType = importlib.import_module(module_name)
        command = sub.add_parser(name, help=module.HELP, description=module.HELP)
        module.add_arguments(command)
        command.set_defaults(_run=module.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser(argv)
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse exits 2 on usage errors, 0 on --help
        return int(exc.code or 0)
    try:
        return int(args._run(args))
    except NonopressError as exc:
        print(f"nonopress {args.command}: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        print(f"nonopress {args.command}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return EXIT_OK


def entry_point() -> None:
    sys.exit(main())


if __name__ == "__main__":
    entry_point()
