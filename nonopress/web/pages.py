"""The site's HTML: an index, an archive, one page per puzzle. Every text a manifest or a
puzzle file brings (titles, authors, notes) is escaped: it shows as characters, never as
markup. The puzzle's JSON sits in the page as data (``<script type="application/json">``,
with ``<`` escaped so nothing in it can close the element), read by the player script: a
page opened from disk works, where Chromium would refuse to fetch a JSON file.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape
from typing import Any
from urllib.parse import urlsplit

from grader.i18n import _, current, shown_day
from nonopress.assets import EXTRAS, board_file


@dataclass(frozen=True)
class PageLink:
    """One puzzle as the index and the archive list it."""

    href: str
    label: str
    facts: str
    date: str = ""


#: a collector's URL as a CSP source can hold it: scheme, a host (a name, an IPv4 or a
#: bracketed IPv6 address), an optional port, then a path of URL characters (no space,
#: quote, comma or semicolon, which would end or widen the policy's source list)
_COLLECT_URL = re.compile(r"^https?://(?:[A-Za-z0-9](?:[A-Za-z0-9.-]{0,252})|"
                          r"\[[0-9A-Fa-f:.]{2,45}\])(?::[0-9]{1,5})?(?:/[A-Za-z0-9._~/%!$&()*+=:@-]*)?$")


def collect_url(text: str) -> str:
    """``text`` when it is an http(s) URL a page may send its solves to; ValueError (one
    line) otherwise."""
    shown = repr(text[:80])
    if not _COLLECT_URL.match(text):
        raise ValueError(f"{shown}: expected an http(s) URL such as "
                         "https://collect.example/api/solves (no spaces, quotes, commas or "
                         "semicolons)")
    try:
        parts = urlsplit(text)
        port = parts.port
    except ValueError:
        raise ValueError(f"{shown}: not a URL (its host or port is malformed)") from None
    if not parts.hostname or (port is not None and not 0 < port <= 65535):
        raise ValueError(f"{shown}: not a URL (its host or port is malformed)")
    return text


#: the pages' icon, in the page itself (the policy allows ``data:`` images; no file to keep
#: or remove): a 24 px PNG of a 3x3 grid with a nonogram's first strokes
FAVICON = ("data:image/png;base64,"
           "iVBORw0KGgoAAAANSUhEUgAAABgAAAAYCAIAAABvFaqvAAAAKklEQVR42mOQVTagCmIYNW"
           "jUIBob9B8bwCo+atAwNIjm6WjUoMFsEEkIAJijT2B7HqzkAAAAAElFTkSuQmCC")


def csp(collect: str | None = None) -> str:
    """The content security policy: the player's own script and style sheet only; no
    request anywhere but the solve collector, when the site was built with one."""
    connect = "'none'"
    if collect:
        parts = urlsplit(collect_url(collect))
        connect = f"{parts.scheme}://{parts.netloc}"
    return ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
            f"connect-src {connect}; base-uri 'none'; form-action 'none'")


def _head(title: str, collect: str | None, script: bool, board: str | None = None,
          habits: bool = False) -> str:
    loads = '<script src="words.js" defer></script>\n<script src="player.js" defer></script>\n' \
        if script else ""
    if script and board:  # the kind's board, fetched beside the shell rather than after it
        loads += f'<script src="{escape(board)}" defer></script>\n'
    if script:  # the extras (habits, printing), fetched with it rather than after
        loads += "".join(f'<script src="{name}" defer></script>\n' for name in EXTRAS)
    elif habits:  # the index's statistics of this device, in the page's words
        loads += '<script src="words.js" defer></script>\n<script src="habits.js" defer></script>\n'

    return (
        f"<!doctype html>\n<html lang=\"{escape(current().language)}\">\n<head>\n"
        "<meta charset=\"utf-8\">\n"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        f"<meta http-equiv=\"Content-Security-Policy\" content=\"{_attribute(csp(collect))}\">\n"
        "<meta name=\"referrer\" content=\"no-referrer\">\n"
        f"<title>{escape(title)}</title>\n<link rel=\"icon\" href=\"{FAVICON}\">\n"
        "<link rel=\"stylesheet\" href=\"player.css\">\n"
        f"{loads}</head>\n"
    )


def _attribute(text: str) -> str:
    """A double-quoted attribute's value (single quotes left readable)."""
    return escape(text, quote=False).replace('"', "&quot;")


def _site_header(site_title: str, subtitle: str) -> str:
    sub = f"<p>{escape(subtitle)}</p>" if subtitle else ""
    archive = _("Archive")
    return (f"<header class=\"np-site-head\"><p><a href=\"index.html\">{escape(site_title)}</a>"
            f"</p>{sub}<p><a href=\"archive.html\">{escape(archive)}</a></p></header>\n")


def json_in_html(data: Any) -> str:
    """JSON safe inside a <script> element: no '<', '>' or '&' left as they are."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def puzzle_page(record: dict[str, Any], site_title: str, collect: str | None) -> str:
    """A puzzle's page: the player, with the puzzle's data in the page. The element is
    ``light``: on the site's own page the player draws in the page (an embed draws in its
    shadow root, away from the host's styles)."""
    heading = record.get("heading") or _("Puzzle")
    board = board_file(str(record.get("kind", "")))
    needs = _("This puzzle needs JavaScript to play.")
    return (
        _head(f"{heading} \u2014 {site_title}", collect, script=True, board=board)
        + "<body class=\"np-site\">\n"
        + _site_header(site_title, shown_day(record.get("date", "")))
        + "<main>\n<nonopress-puzzle data=\"nonopress-data\" light>"
        + f"<h1>{escape(heading)}</h1><p>{escape(needs)}</p>"
        + "</nonopress-puzzle>\n</main>\n"
        + f"<script type=\"application/json\" id=\"nonopress-data\">{json_in_html(record)}"
        + "</script>\n</body>\n</html>\n"
    )


def _list(links: Sequence[PageLink], with_dates: bool) -> str:
    items = []
    for link in links:
        date = f"<span class=\"np-facts\">{escape(shown_day(link.date))} \u00b7 </span>" \
            if with_dates and link.date else ""
        items.append(f"<li>{date}<a href=\"{escape(link.href)}\">{escape(link.label)}</a> "
                     f"<span class=\"np-facts\">{escape(link.facts)}</span></li>")
    return "<ul class=\"np-list\">\n" + "\n".join(items) + "\n</ul>\n"


def _key() -> str:
    """What the stars and the minutes beside each puzzle mean, in one sentence."""
    from grader.wording import STARS_AND_MINUTES

    return f"<p class=\"np-key\">{escape(_(STARS_AND_MINUTES))}</p>\n"


def index_page(site_title: str, subtitle: str, links: Sequence[PageLink],
               collect: str | None, author: str = "",
               catalogue: dict[str, Any] | None = None) -> str:
    """The issue: its title and date, each puzzle with its level, stars and minutes."""
    by = _("by {author}", author=author) if author else ""
    by = f"<p class=\"np-author\">{escape(by)}</p>\n" if author else ""
    body = (_list(links, with_dates=False) + _key()) if links else _nothing()
    return (
        _head(site_title, collect, script=False, habits=True) + "<body class=\"np-site\">\n"
        + _site_header(site_title, "")
        + f"<main>\n<h1>{escape(site_title)}</h1>\n"
        + (f"<p class=\"np-meta\">{escape(subtitle)}</p>\n" if subtitle else "")
        + by + body
        # this device's statistics (habits.js fills it once a puzzle is solved here)
        + "<section class=\"np-habits-place\" data-np-habits hidden></section>\n"
        + "</main>\n"
        + (f"<script type=\"application/json\" id=\"nonopress-catalogue\">{json_in_html(catalogue)}"
           "</script>\n" if catalogue else "")
        + "</body>\n</html>\n"
    )


def _nothing() -> str:
    return "<p>" + escape(_("Nothing is published yet.")) + "</p>\n"


def archive_page(site_title: str, links: Sequence[PageLink], collect: str | None) -> str:
    """Every published puzzle by date, newest first."""
    ordered = sorted(links, key=lambda link: link.date, reverse=True)
    body = (_list(ordered, with_dates=True) + _key()) if links else _nothing()
    archive = _("Archive")
    return (
        _head(f"{archive} \u2014 {site_title}", collect, script=False)
        + "<body class=\"np-site\">\n"
        + _site_header(site_title, "") + f"<main>\n<h1>{escape(archive)}</h1>\n" + body
        + "</main>\n</body>\n</html>\n"
    )


__all__ = ["PageLink", "archive_page", "csp", "index_page", "json_in_html", "puzzle_page"]
