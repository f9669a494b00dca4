"""The blog as one production server: the API under ``/api``, the front end at ``/``.

``uvicorn --factory blog.site:create_site`` serves both from one origin, so the front
end's client (its base URL is ``/api``) needs no proxy and the API no CORS. Build the
front end first and point ``FRONTEND_DIST`` at its ``dist/`` directory.

The front end's files go out compressed, and those under ``assets/`` (whose names vite
derives from their content, so a changed file gets a new name) are cached for a year;
``index.html``, which names them, is asked for again on every load.
"""

import os
from pathlib import Path

from fastapi import FastAPI
from starlette.exceptions import HTTPException
from starlette.middleware.gzip import GZipMiddleware
from starlette.responses import Response
from starlette.staticfiles import StaticFiles
from starlette.types import Scope

from blog.main import app

IMMUTABLE = "public, max-age=31536000, immutable"


class SinglePageApp(StaticFiles):
    """Static files, and ``index.html`` for other paths: the browser routes the app."""

    async def get_response(self, path: str, scope: Scope) -> Response:
        try:
            response = await super().get_response(path, scope)
        except HTTPException as error:
            if error.status_code != 404:
                raise
            response = await super().get_response("index.html", scope)
        hashed = path.startswith("assets/") and response.status_code in (200, 304)
        response.headers["Cache-Control"] = IMMUTABLE if hashed else "no-cache"
        return response


def build_site(api: FastAPI, dist: Path) -> FastAPI:
    """An application serving *api* under ``/api`` and the front end built in *dist*."""
    site = FastAPI(openapi_url=None, docs_url=None, redoc_url=None)
    site.mount("/api", api)
    site.mount("/", GZipMiddleware(SinglePageApp(directory=dist, html=True)))
    return site


def create_site() -> FastAPI:
    """The site for uvicorn's ``--factory``: the front end from ``$FRONTEND_DIST``."""
    return build_site(app, Path(os.environ.get("FRONTEND_DIST", "frontend/dist")))
