"""Small helpers for the words of messages."""

from __future__ import annotations

from collections.abc import Sequence

from grader.i18n import N_

#: what a puzzle's stars and minutes each mean, in one sentence: the how-to page of a book
#: and the web site both say it (stars and minutes answer different questions, and a
#: reader who sees three stars beside 3 minutes and one star beside 8 should know why)
STARS_AND_MINUTES = N_("The stars say how hard the reasoning is (one star easy, five the "
                        "hardest); the minutes say how long the work takes an experienced "
                        "solver, and grow with the size.")


def plural(count: int, noun: str, nouns: str | None = None) -> str:
    """ "1 puzzle", "2 puzzles" ("1 puzzle" and never "1 puzzles")."""
    return f"{count} {noun if count == 1 else (nouns or noun + 's')}"


def title_warnings(titled: Sequence[tuple[str, str]], where: str) -> list[str]:
    """What to say of the titles of ``titled`` ((label, title) pairs) before ``where``
    shows them: one title shared by several puzzles, a title all in lower case (a file's
    name taken as a title: ``make`` titles a puzzle after its picture's file)."""
    said = []
    by_title: dict[str, list[str]] = {}
    for label, title in titled:
        if title:
            by_title.setdefault(title.casefold(), []).append(label)
    for label, title in titled:
        labels = by_title.get(title.casefold(), []) if title else []
        if len(labels) > 1 and labels[0] == label:
            said.append(f"{', '.join(labels)} are all titled {title!r}: {where} show the "
                        "same title for each")
        if title and title == title.lower() and any(c.isalpha() for c in title):
            said.append(f"{label}'s title {title!r} is all lower case (a file's name?): "
                        f"{where} show it as it is")
    return said


def cell_list(cells: Sequence[tuple[int, int]], shown: int = 6) -> str:
    """0-based cells as a reader names them, '(row 6, column 3)', the first ``shown`` of
    them in reading order, then how many more."""
    ordered = sorted(cells)
    named = ", ".join(f"(row {r + 1}, column {c + 1})" for r, c in ordered[:shown])
    more = len(ordered) - shown
    return named + (f" and {more} more" if more > 0 else "")
