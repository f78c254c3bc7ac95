"""The JSON API's handlers (one page is one client of it, scripts are another).

Each handler reads and checks its request on the event loop (cheap, capped) and hands the
engine work to :class:`~nonopress.studio.jobs.Jobs`.
"""

from __future__ import annotations

import base64
import itertools
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response

from grader.authoring import MakeOptions, Target
from grader.colour.palette import MAX_COLOURS
from grader.errors import NonopressError
from grader.model import Metadata
from nonopress.studio import engines, issues
from nonopress.studio.catalogue_source import CatalogueSource, catalogue_id
from nonopress.studio.config import StudioConfig
from nonopress.studio.jobs import Jobs
from nonopress.studio.library import FolderSource, LibrarySource
from nonopress.studio.paths import confine, relative_name
from nonopress.studio.payload import bad, choice, number, puzzle_from
from nonopress.studio.security import RequestRefused, read_json

#: issue previews kept in memory (the newest few builds)
KEPT_PREVIEWS = 8
SAVE_FORMATS = ("yaml", "non", "xml", "json", "g")
#: files the page may show as they are; every other file is a plain-text download
SHOWN_FILES = {".pdf": "application/pdf", ".png": "image/png"}


@dataclass
class Studio:
    """One session's state: its configuration, job pool, library and issue previews."""

    config: StudioConfig
    jobs: Jobs
    library: LibrarySource
    previews: OrderedDict[int, list[bytes]] = field(default_factory=OrderedDict)
    numbers: itertools.count[int] = field(default_factory=lambda: itertools.count(1))

    @classmethod
    def start(cls, config: StudioConfig) -> Studio:
        from nonopress.studio.catalogue_source import open_source

        library = open_source(config.catalogue, config.folder) or FolderSource(config.folder)
        return cls(config, Jobs(config.workers, config.max_pending), library)

    @property
    def catalogue(self) -> CatalogueSource | None:
        return self.library if isinstance(self.library, CatalogueSource) else None


def studio_of(request: Request) -> Studio:
    studio: Studio = request.app.state.studio
    return studio


def _seconds(body: dict[str, Any], cap: float) -> float:
    return number(body, "seconds", cap, 0.001, cap)


def _channel(body: dict[str, Any]) -> str | None:
    channel = body.get("channel")
    if channel is not None and not isinstance(channel, str):
        raise bad("channel must be a string")
    return channel


async def _puzzle_job(request: Request, work: str) -> JSONResponse:
    studio = studio_of(request)
    config = studio.config
    body = await read_json(request, config.max_body_bytes)
    loaded = puzzle_from(body, config.max_side)
    if work == "check":
        seconds = _seconds(body, config.check_seconds)
        record = await studio.jobs.run(lambda: engines.check(loaded, seconds), _channel(body))
    elif work == "grade":
        seconds = _seconds(body, config.grade_seconds)
        record = await studio.jobs.run(lambda: engines.grade(loaded, seconds), _channel(body))
    elif work == "play":
        seconds = _seconds(body, config.grade_seconds)
        record = await studio.jobs.run(lambda: engines.play(loaded, seconds), _channel(body))
    else:
        seconds = _seconds(body, config.grade_seconds)
        record = await studio.jobs.run(lambda: engines.replay(loaded, seconds), _channel(body))
    return JSONResponse(record)


async def check(request: Request) -> JSONResponse:
    """POST /api/check: the ``check --json`` record of the puzzle sent."""
    return await _puzzle_job(request, "check")


async def grade(request: Request) -> JSONResponse:
    """POST /api/grade: the ``grade --json`` record, with ``heat`` and ``rung_order``."""
    return await _puzzle_job(request, "grade")


async def replay(request: Request) -> JSONResponse:
    """POST /api/replay: the step-by-step replay page (``html``) of the puzzle's grade."""
    return await _puzzle_job(request, "replay")


async def play(request: Request) -> JSONResponse:
    """POST /api/play: the puzzle as the web player's JSON (graded now, with its hints)."""
    return await _puzzle_job(request, "play")


def _target(body: dict[str, Any]) -> Target:
    level = choice(body, "level", ("easy", "medium", "hard", "fiendish"), None)
    stars = body.get("stars")
    if stars is not None and (isinstance(stars, bool) or not isinstance(stars, int)):
        raise bad("stars must be a whole number from 1 to 5")
    try:
        return Target(level=level, stars=stars)
    except NonopressError as exc:
        raise bad(str(exc)) from None


async def repair(request: Request) -> JSONResponse:
    """POST /api/repair: a proposal making the drawn puzzle unique (``mode`` flips or
    givens), steered to ``level`` or ``stars`` when given."""
    studio = studio_of(request)
    config = studio.config
    body = await read_json(request, config.max_body_bytes)
    loaded = puzzle_from(body, config.max_side)
    mode = choice(body, "mode", ("flips", "givens"), "flips") or "flips"
    target = _target(body)
    seconds = _seconds(body, config.make_seconds)
    result = await studio.jobs.run(lambda: engines.repair(loaded, mode, target, seconds),
                                   _channel(body))
    return JSONResponse(result)


async def make(request: Request) -> JSONResponse:
    """POST /api/make: a picture (base64) made into a unique puzzle, as ``nonopress make``."""
    studio = studio_of(request)
    config = studio.config
    body = await read_json(request, config.max_body_bytes)
    data = engines.decode_picture(body.get("picture"), config.max_body_bytes,
                                  config.max_picture_pixels)
    width = int(number(body, "width", 20, 2, config.max_side))
    height = int(number(body, "height", width, 2, config.max_side))
    threshold = body.get("threshold")
    if threshold is not None:
        threshold = number(body, "threshold", 128, 0, 255)
    title = body.get("title", "")
    if body.get("colours") is not None:  # a colour puzzle, as make --colours makes it
        colours = int(number(body, "colours", 3, 1, MAX_COLOURS))
        if body.get("givens") or body.get("edges") or body.get("invert") \
                or threshold is not None:
            raise bad("colours: a colour puzzle is made by flips from the picture's own "
                      "colours (givens, outlines, invert and threshold are for black and white)")
        target = _target(body)
        seconds = _seconds(body, config.make_seconds)
        fit = choice(body, "fit", ("pad", "crop"), "pad") or "pad"
        meta = Metadata(title=title[:200] if isinstance(title, str) else "")
        result = await studio.jobs.run(
            lambda: engines.make_colour(data, width, height, colours, fit, target, seconds,
                                        meta), _channel(body))
        return JSONResponse(result)
    try:
        options = MakeOptions(
            width=width, height=height,
            fit=choice(body, "fit", ("pad", "crop"), "pad"),  # type: ignore[arg-type]
            threshold=threshold, invert=bool(body.get("invert", False)),
            edges=bool(body.get("edges", False)),
            mode="givens" if body.get("givens") else "flips", target=_target(body),
            seconds=_seconds(body, config.make_seconds),
            meta=Metadata(title=title[:200] if isinstance(title, str) else ""),
        )
    except NonopressError as exc:
        raise bad(str(exc)) from None
    result = await studio.jobs.run(lambda: engines.make(data, options), _channel(body))
    return JSONResponse(result)


async def puzzles(request: Request) -> JSONResponse:
    """GET /api/puzzles: the library (every puzzle of the folder, graded in the background;
    or the catalogue's puzzles passing the filters in the query: level, size, tag, ...)."""
    from nonopress.studio.catalogue_source import filters_from_query

    studio = studio_of(request)
    library = studio.library
    record: dict[str, Any] = {"source": library.name, "folder": studio.config.folder.name}
    catalogue = studio.catalogue
    if catalogue is not None:
        params = request.query_params
        try:
            filters = filters_from_query(params, {k: params.getlist(k) for k in params})
        except NonopressError as exc:
            raise bad(str(exc)) from None
        entries = await studio.jobs.run(lambda: catalogue.entries(filters))
        record["catalogue"] = catalogue.location
        record["limit"] = filters.limit
    else:
        entries = await studio.jobs.run(library.entries)
    record["entries"] = [entry.as_dict() for entry in entries]
    record["pending"] = library.pending()
    return JSONResponse(record)


def _index(request: Request) -> int:
    text = request.query_params.get("index", "1")
    if not (text.isascii() and text.isdigit()) or len(text) > 9 or int(text) < 1:
        raise bad("index must be a whole number from 1")
    return int(text)


async def puzzle(request: Request) -> JSONResponse:
    """GET /api/puzzle?path=P&index=N: one puzzle of the folder, for the editor
    (``path=catalogue:ID``: a puzzle of the open catalogue)."""
    studio = studio_of(request)
    config = studio.config
    name = request.query_params.get("path") or ""
    number = catalogue_id(name)
    if number is not None:
        catalogue = studio.catalogue
        if catalogue is None:
            raise bad("no catalogue is open (start the studio with --db)")
        file_name, text = await studio.jobs.run(lambda: catalogue.puzzle_text(number))
        record = await studio.jobs.run(
            lambda: engines.open_upload(config, text.encode("utf-8"), file_name, 1))
        record["catalogue_id"] = number
        return JSONResponse(record)
    path = confine(config.folder, name)
    index = _index(request)
    record = await studio.jobs.run(lambda: engines.open_puzzle(config, path, index))
    return JSONResponse(record)


async def open_file(request: Request) -> JSONResponse:
    """POST /api/open: a puzzle file sent by the page (``content`` base64, ``name``), read as
    the CLI reads files; nothing is written."""
    studio = studio_of(request)
    config = studio.config
    body = await read_json(request, config.max_body_bytes)
    name = body.get("name")
    if not isinstance(name, str) or not name or len(name) > 200 or "/" in name:
        raise bad("name must be the file's name, e.g. heart.non (its suffix names the format)")
    content = body.get("content")
    if not isinstance(content, str):
        raise bad("content must be the file's bytes in base64")
    try:
        data = base64.b64decode(content, validate=True)
    except ValueError:
        raise bad("content: not valid base64") from None
    index = body.get("index", 1)
    if isinstance(index, bool) or not isinstance(index, int) or index < 1:
        raise bad("index must be a whole number from 1")
    record = await studio.jobs.run(lambda: engines.open_upload(config, data, name, index))
    return JSONResponse(record)


async def save(request: Request) -> JSONResponse:
    """POST /api/save: the drawn puzzle written to a new file of the folder (atomically;
    an existing file only with ``overwrite``)."""
    studio = studio_of(request)
    config = studio.config
    body = await read_json(request, config.max_body_bytes)
    loaded = puzzle_from(body, config.max_side)
    name = body.get("path")
    target = confine(config.folder, name, must_exist=False)
    suffix = target.suffix.lower().lstrip(".")
    if suffix not in SAVE_FORMATS:
        raise bad(f"path must end in one of .{', .'.join(SAVE_FORMATS)}")
    if target.exists() and not body.get("overwrite"):
        raise RequestRefused(409, f"{name} is already in the folder: choose another name, "
                                  "or ask to overwrite")
    if not target.parent.is_dir():
        raise bad(f"{name}: its folder does not exist")
    givens = body.get("givens") or []
    overwrite = bool(body.get("overwrite"))
    result = await studio.jobs.run(lambda: engines.save(loaded, givens, target, suffix,
                                                        overwrite))
    result["path"] = relative_name(config.folder, target)
    return JSONResponse(result)


async def issue(request: Request) -> JSONResponse:
    """POST /api/issue: a manifest, its PDF (and LaTeX), the preflight's report, previews."""
    studio = studio_of(request)
    config = studio.config
    body = await read_json(request, config.max_body_bytes)
    wanted = issues.parse_request(body)
    catalogue = studio.catalogue
    listed = [path for path, _ in wanted.puzzles if catalogue_id(path) is not None]
    if listed and catalogue is None:
        raise bad("no catalogue is open (start the studio with --db)")
    wanted.puzzles = [(path, None) if catalogue_id(path) is not None else
                      (relative_name(config.folder, confine(config.folder, path)), index)
                      for path, index in wanted.puzzles]
    if body.get("order") == "level":
        wanted = await studio.jobs.run(lambda: engines.order_by_level(studio.library, wanted))
    # in issue order, as the page names them
    labels = [f"{path}#{index}" if index else path for path, index in wanted.puzzles]
    if catalogue is not None and listed:
        issues.targets(wanted, config.folder)  # a name taken is refused before writing
        # catalogue puzzles become files beside the manifest: an ordinary manifest
        written = await studio.jobs.run(
            lambda: catalogue.export(labels, config.folder, wanted.name))
        wanted.puzzles = [(written.get(path, path), index) for path, index in wanted.puzzles]
    # with a catalogue open, the printing is recorded there as `nonopress issue --db` does
    result = await studio.jobs.run(lambda: issues.build(
        wanted, config.folder, config.issue_seconds,
        catalogue.catalogue if catalogue is not None else None))
    number_ = next(studio.numbers)
    studio.previews[number_] = result.previews
    while len(studio.previews) > KEPT_PREVIEWS:
        studio.previews.popitem(last=False)
    record = result.as_dict()
    record["previews"] = [f"/api/issue/{number_}/page/{n}" for n in
                          range(1, len(result.previews) + 1)]
    record["order"] = labels
    record["files"] = [f"{path}#{index}" if index else path for path, index in wanted.puzzles]
    return JSONResponse(record)


async def issue_page(request: Request) -> Response:
    """GET /api/issue/{build}/page/{n}: a page preview of a build (PNG)."""
    studio = studio_of(request)
    pages = studio.previews.get(int(request.path_params["build"]))
    n = int(request.path_params["page"])
    if pages is None or not 1 <= n <= len(pages):
        raise RequestRefused(404, "no such preview page (previews of the newest builds are kept)")
    return Response(pages[n - 1], media_type="image/png")


async def file(request: Request) -> Response:
    """GET /api/file?path=P: a file of the folder (a PDF written, a puzzle), as is."""
    config = studio_of(request).config
    path = confine(config.folder, request.query_params.get("path"))
    if not path.is_file():
        raise bad("not a file")
    suffix = path.suffix.lower()
    if suffix in SHOWN_FILES:
        return FileResponse(path, media_type=SHOWN_FILES[suffix])
    # anything else is handed over as plain text to save, never rendered in this origin
    # (an .html or .js in the folder must not run as the studio's own page)
    return FileResponse(path, media_type="text/plain; charset=utf-8",
                        content_disposition_type="attachment", filename=path.name)


async def profiles(request: Request) -> JSONResponse:
    """GET /api/profiles: the print profiles the issue menu offers, printers first (the
    table of layout.profiles: a new profile is a new row, never an edit here)."""
    from layout.profiles import profile_menu

    return JSONResponse({"profiles": profile_menu()})


async def health(request: Request) -> JSONResponse:
    """GET /api/health: alive, and how many jobs wait or run."""
    studio = studio_of(request)
    return JSONResponse({"ok": True, "jobs": studio.jobs.pending,
                         "folder": str(studio.config.folder)})
