"""What generated routes answer besides their result: error bodies and ``Location``.

``error_responses(404, 409, 503)`` documents, in a route's OpenAPI operation, the
error statuses the route can really answer, each with the body it carries (the
handlers of ``errors.py`` and FastAPI write them), and always those the server's
protocol (``server.BoundedHttpProtocol``) answers for any request before a route
runs. ``location(request, key)`` is the URL of a created row, its key
percent-encoded so that any key (spaces, slashes, non-Latin-1 text) gives a URL that
resolves.
"""

from typing import Any
from urllib.parse import quote

from fastapi import Request, status
from fastapi.responses import JSONResponse
from pydantic import BaseModel


class ErrorBody(BaseModel):
    """An error answered with a sentence saying what went wrong."""

    detail: str


class ConflictBody(BaseModel):
    """A 409: the change violates a constraint of the database."""

    detail: str
    constraint: str | None
    """The name of the violated constraint, as PostgreSQL reports it."""


def conflict(detail: str, constraint: str | None = None) -> JSONResponse:
    """A 409 ``ConflictBody``: *detail*, and the violated *constraint* if any."""
    return JSONResponse(
        status_code=status.HTTP_409_CONFLICT,
        content={"detail": detail, "constraint": constraint},
    )


_RETRY_AFTER = {
    "Retry-After": {
        "description": "Seconds to wait before retrying.",
        "schema": {"type": "integer"},
    }
}

_ERRORS: dict[int, dict[str, Any]] = {
    400: {
        "model": ErrorBody,
        "description": "The request is not valid HTTP/1.1, or its body is not UTF-8.",
    },
    401: {"model": ErrorBody, "description": "No valid credentials were sent."},
    403: {"model": ErrorBody, "description": "The credentials do not allow this."},
    404: {"model": ErrorBody, "description": "No row has this key."},
    408: {"model": ErrorBody, "description": "The request's headers came too late."},
    409: {
        "model": ConflictBody,
        "description": "The change conflicts with a database constraint.",
    },
    # Starlette answers it before the route runs, as plain text.
    413: {
        "description": "The request body is larger than the route accepts.",
        "content": {"text/plain": {"schema": {"type": "string"}}},
    },
    414: {
        "model": ErrorBody,
        "description": "The request line is longer than the server accepts.",
    },
    429: {
        "model": ErrorBody,
        "description": "Too many requests; retry later.",
        "headers": {
            **_RETRY_AFTER,
            "RateLimit": {
                "description": "The quota left (when the limit sends headers).",
                "schema": {"type": "string"},
            },
            "RateLimit-Policy": {
                "description": "The limit's policy (when the limit sends headers).",
                "schema": {"type": "string"},
            },
        },
    },
    431: {
        "model": ErrorBody,
        "description": "The request line and headers together are longer than "
        "the server accepts.",
    },
    503: {
        "model": ErrorBody,
        "description": "The database is busy or unreachable; retry later.",
        "headers": _RETRY_AFTER,
    },
}

PROTOCOL_ERRORS = (400, 408, 414, 431)
"""What the server's protocol answers for a request of any route, before it runs."""


def error_responses(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """The OpenAPI documentation of *statuses* and ``PROTOCOL_ERRORS``, for a
    route's ``responses``."""
    return {status: _ERRORS[status] for status in sorted({*statuses, *PROTOCOL_ERRORS})}


def location(request: Request, key: object) -> str:
    """The absolute URL of the row *key* under the collection *request* posted to."""
    url = request.url
    # Scheme, host and path joined by hand: ``url.replace`` would parse the URL again.
    return (
        f"{url.scheme}://{url.netloc}{url.path.rstrip('/')}/{quote(str(key), safe='')}"
    )
