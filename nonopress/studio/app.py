"""The studio's ASGI application: the page, its static modules and the JSON API."""

from __future__ import annotations

import contextlib
import html
import logging
from collections.abc import AsyncIterator
from importlib import resources
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from grader.errors import NonopressError
from nonopress.assets import FOLDER as PLAYER_FOLDER
from nonopress.studio import api
from nonopress.studio.config import StudioConfig
from nonopress.studio.security import GuardMiddleware, RequestRefused

log = logging.getLogger("nonopress.studio")


def static_folder() -> str:
    return str(resources.files("nonopress.studio") / "static")


async def page(request: Request) -> HTMLResponse:
    """The one page, with the session token for its own requests."""
    studio = api.studio_of(request)
    text = (resources.files("nonopress.studio") / "static" / "index.html").read_text("utf-8")
    text = text.replace("{{token}}", html.escape(studio.config.token, quote=True))
    text = text.replace("{{folder}}", html.escape(studio.config.folder.name or "/"))
    return HTMLResponse(text)


async def refused(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, RequestRefused)
    return JSONResponse({"error": exc.message}, status_code=exc.status)


async def bad_input(request: Request, exc: Exception) -> Response:
    return JSONResponse({"error": str(exc)}, status_code=400)


async def http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    return JSONResponse({"error": exc.detail}, status_code=exc.status_code)


async def crashed(request: Request, exc: Exception) -> Response:
    """Never a traceback page: the error's kind, and the log has the rest."""
    log.exception("studio: %s %s failed", request.method, request.url.path)
    return JSONResponse({"error": f"internal error ({exc.__class__.__name__})"},
                        status_code=500)


def create_app(config: StudioConfig) -> Starlette:
    from nonopress.solves.collector import Collector, CollectorSettings, solve_routes

    studio = api.Studio.start(config)
    # the web player's solve records, into the studio's catalogue (none without one)
    collector = Collector(
        CollectorSettings(origins=config.allowed_origins() | frozenset(config.collect_origins)),
        lambda: None if studio.catalogue is None else studio.catalogue.catalogue)
    routes = [
        *solve_routes(collector),
        Route("/", page),
        Route("/api/health", api.health),
        Route("/api/profiles", api.profiles),
        Route("/api/check", api.check, methods=["POST"]),
        Route("/api/grade", api.grade, methods=["POST"]),
        Route("/api/replay", api.replay, methods=["POST"]),
        Route("/api/play", api.play, methods=["POST"]),
        Route("/api/repair", api.repair, methods=["POST"]),
        Route("/api/make", api.make, methods=["POST"]),
        Route("/api/puzzles", api.puzzles),
        Route("/api/puzzle", api.puzzle),
        Route("/api/open", api.open_file, methods=["POST"]),
        Route("/api/save", api.save, methods=["POST"]),
        Route("/api/issue", api.issue, methods=["POST"]),
        Route("/api/issue/{build:int}/page/{page:int}", api.issue_page),
        Route("/api/file", api.file),
        Mount("/static", StaticFiles(directory=static_folder()), name="static"),
        # the web player's own script and style sheet, as the static site ships them
        Mount("/player", StaticFiles(directory=str(PLAYER_FOLDER)), name="player"),
    ]
    handlers: dict[Any, Any] = {
        RequestRefused: refused,
        NonopressError: bad_input,
        HTTPException: http_error,
        Exception: crashed,
    }
    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        yield
        collector.close()
        studio.jobs.shutdown()
        studio.library.close()  # the background grading stops after its current puzzle

    app = Starlette(routes=routes, exception_handlers=handlers,
                    middleware=[Middleware(GuardMiddleware, config=config)],
                    lifespan=lifespan)
    app.state.studio = studio
    return app
