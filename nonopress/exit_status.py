"""The one exit-status table every command follows (the README's "Exit status").

0  done: the answer is what a publisher needs (unique, filled, written, passed);
1  the answer is not what a publisher needs: several solutions, none, undecided within
   the budget, or refused by a print profile (the output, if any, says which);
2  bad input: a file that cannot be read or written, a bad option.

When a command handles several puzzles the worst status wins.
"""

from __future__ import annotations

DONE = 0
NOT_PUBLISHABLE = 1
BAD_INPUT = 2

#: Verdicts a publisher can print. "solved" is ``solve --first``: the one solution asked
#: for, on purpose not checked for others.
PUBLISHABLE = frozenset({"unique", "solved"})

#: What every command's ``--help`` ends with.
HELP = ("exit status: 0 done; 1 the answer is not what a publisher needs (multiple, none, "
        "undecided, refused by a profile); 2 bad input")


def for_verdict(verdict: str) -> int:
    """The status of one puzzle's verdict (check, solve, grade, make, the words commands)."""
    return DONE if verdict in PUBLISHABLE else NOT_PUBLISHABLE
