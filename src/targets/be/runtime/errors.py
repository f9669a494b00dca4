"""Answer every database and routing error with the status it deserves, never a 500.

- a constraint violation is a 409 naming the constraint PostgreSQL reports
  (``{"detail": ..., "constraint": "uq_authors_email"}``);
- a row changed or deleted by another request between this one's read and its write
  is a 409 too;
- a value the database refuses (a data exception, a too large index entry) is a 422
  in FastAPI's validation shape, and so is a statement with more values than the
  driver can send (32,767 bound parameters);
- a database that is down, restarting, out of connections or too slow (pool wait,
  statement timeout) is a 503 with ``Retry-After``;
- a method the path does not serve is a 405 whose ``Allow`` lists every method that
  path does serve;
- request validation errors are answered as FastAPI does, but always as valid JSON
  (an infinite number or a lone surrogate in the input cannot turn them into a 500).

The top-level generated router includes ``router``: its lifespan installs the handlers
on the application serving it, so an application that includes that router has them.
"""

import json
import math
from collections.abc import AsyncIterator, Callable, Coroutine
from contextlib import asynccontextmanager
from typing import Any

from fastapi import APIRouter, Request, Response, status
from fastapi.encoders import jsonable_encoder
from fastapi.exception_handlers import (
    http_exception_handler,
    request_validation_exception_handler,
)
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.exc import TimeoutError as PoolTimeoutError
from sqlalchemy.orm.exc import StaleDataError
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.routing import Match

from .idempotency import Replay, replay_handler
from .responses import conflict

RETRY_AFTER_SECONDS = 1
"""What ``Retry-After`` says on a 503: the pool or database is expected back soon."""

_CONFLICTS = {
    "23505": "A row with the same unique value already exists.",
    "23503": "A referenced row does not exist, or this row is still referenced.",
    "23502": "A required value is missing.",
    "23514": "A value is outside its allowed range.",
}
# A delete violates a foreign key only one way: other rows still point at this one.
_STILL_REFERENCED = (
    "This row is still referenced by other rows: delete or change them first."
)
# SQLSTATE classes and codes that mean "try again later", not "your request is wrong":
# connection exceptions, insufficient resources, operator intervention (shutdown,
# restart, statement timeout) and transaction rollbacks (serialization, deadlock).
_UNAVAILABLE_CLASSES = ("08", "53", "57", "40")
# A prepared statement missing or already there: its server connection was handed to
# another client by a pooler in transaction mode (a database without
# `transaction_pooling` behind PgBouncer); a retry may get a clean one.
_POOLER_STATEMENT_CODES = ("26000", "42P05")
# asyncpg refuses, before sending it, a statement with more than 32,767 parameters
# (PostgreSQL's protocol counts them in 16 bits); its message is all that tells.
_TOO_MANY_PARAMETERS = "number of query arguments cannot exceed"


class SafeJSONResponse(JSONResponse):
    """JSON that any Python value can be written as: non-finite numbers become
    strings and unpaired surrogates are escaped, instead of failing to encode."""

    def render(self, content: Any) -> bytes:
        return json.dumps(_finite(content), separators=(",", ":")).encode()


def _finite(value: Any) -> Any:
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    if isinstance(value, dict):
        return {key: _finite(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_finite(item) for item in value]
    return value


def _driver_error(exc: DBAPIError) -> BaseException | None:
    # SQLAlchemy wraps asyncpg's exception, which carries PostgreSQL's fields, twice.
    return exc.orig.__cause__ if exc.orig is not None else None


def sqlstate(exc: DBAPIError) -> str:
    """The SQLSTATE PostgreSQL answered with (``"23505"``), or ``""`` for none."""
    return str(getattr(_driver_error(exc), "sqlstate", None) or "")


def _unavailable(detail: str) -> JSONResponse:
    return JSONResponse(
        status_code=status.HTTP_503_SERVICE_UNAVAILABLE,
        content={"detail": detail},
        headers={"Retry-After": str(RETRY_AFTER_SECONDS)},
    )


def _refused_value(detail: str) -> JSONResponse:
    # The database does not say which of the request's values it refused: no `loc`.
    return SafeJSONResponse(
        status_code=status.HTTP_422_UNPROCESSABLE_CONTENT,
        content={"detail": [{"type": "value_error", "loc": [], "msg": detail}]},
    )


async def validation_error_handler(request: Request, exc: Exception) -> JSONResponse:
    """FastAPI's 422 for a request that failed validation, written safely."""
    errors = exc.errors() if isinstance(exc, RequestValidationError) else []
    return SafeJSONResponse(
        status_code=status.HTTP_422_UNPROCESSABLE_CONTENT,
        content={"detail": jsonable_encoder(errors)},
    )


async def integrity_error_handler(request: Request, exc: Exception) -> JSONResponse:
    """Turn an ``IntegrityError`` raised while handling *request* into a 409."""
    assert isinstance(exc, IntegrityError)
    state = sqlstate(exc)
    detail = _CONFLICTS.get(state, "The change violates a database constraint.")
    if state == "23503" and request.method == "DELETE":
        detail = _STILL_REFERENCED
    return conflict(detail, getattr(_driver_error(exc), "constraint_name", None))


async def stale_row_handler(request: Request, exc: Exception) -> JSONResponse:
    """A 409 for a write that found its row gone: another request deleted or re-keyed it
    after this one read it."""
    return conflict(
        "Another request changed or deleted this row since it was read; read it again."
    )


async def database_error_handler(request: Request, exc: Exception) -> JSONResponse:
    """A data exception is a 422; an unavailable database a 503; others go on."""
    if not isinstance(exc, DBAPIError):
        raise exc
    state = sqlstate(exc)
    if (
        exc.connection_invalidated
        or state.startswith(_UNAVAILABLE_CLASSES)
        or state in _POOLER_STATEMENT_CODES
    ):
        return _unavailable("The database is unavailable; retry shortly.")
    if state.startswith("22") or state == "54000":
        # Class 22 (data exception) includes asyncpg's own refusals ("22000").
        return _refused_value(
            "The database cannot store a value of this request: "
            + str(exc.orig).splitlines()[0]
        )
    if _TOO_MANY_PARAMETERS in str(_driver_error(exc)):
        return _refused_value(
            "The request holds more values than one database statement can take."
        )
    raise exc


async def pool_timeout_handler(request: Request, exc: Exception) -> JSONResponse:
    """No connection came free within the pool's wait: a 503."""
    return _unavailable("Every database connection is busy; retry shortly.")


async def connection_error_handler(request: Request, exc: Exception) -> Response:
    """A connection to the database could not be opened (refused, timed out): a 503."""
    if isinstance(exc, ConnectionError | TimeoutError) or "Connect call failed" in str(
        exc
    ):
        return _unavailable("The database is unreachable; retry shortly.")
    raise exc


async def http_error_handler(request: Request, exc: Exception) -> Response:
    """HTTP errors as FastAPI answers them; a 405 lists every method of the path."""
    assert isinstance(exc, HTTPException)
    if exc.status_code != status.HTTP_405_METHOD_NOT_ALLOWED:
        return await http_exception_handler(request, exc)
    methods: set[str] = set()
    for route in request.app.router.routes:
        match, _ = route.matches({**request.scope, "method": ""})
        if match != Match.NONE:
            methods.update(getattr(route, "methods", None) or ())
    return JSONResponse(
        status_code=exc.status_code,
        content={"detail": exc.detail},
        headers={**(exc.headers or {}), "Allow": ", ".join(sorted(methods))},
    )


Handler = Callable[[Request, Exception], Coroutine[Any, Any, Response]]

HANDLERS: dict[type[Exception], Handler] = {
    RequestValidationError: validation_error_handler,
    IntegrityError: integrity_error_handler,
    StaleDataError: stale_row_handler,
    DBAPIError: database_error_handler,
    PoolTimeoutError: pool_timeout_handler,
    OSError: connection_error_handler,
    HTTPException: http_error_handler,
    Replay: replay_handler,
}
"""The handlers of this module, by the exception each answers."""

# What FastAPI installs on every application: an application with only these has none of
# its own.
_FASTAPI_DEFAULTS = (http_exception_handler, request_validation_exception_handler)


def register_error_handlers(app: Starlette) -> None:
    """Install the handlers of this module on *app*."""
    for exception, handler in HANDLERS.items():
        app.add_exception_handler(exception, handler)


def _lacks(app: Starlette, exception: type[Exception]) -> bool:
    current = app.exception_handlers.get(exception)
    return current is None or current in _FASTAPI_DEFAULTS


@asynccontextmanager
async def _install_at_startup(app: Starlette) -> AsyncIterator[None]:
    """Give the application serving ``router`` the handlers it lacks; a handler of its
    own (its main.py's) for an exception stays."""
    missing = [exception for exception in HANDLERS if _lacks(app, exception)]
    for exception in missing:
        app.add_exception_handler(exception, HANDLERS[exception])
    if missing:
        # Starlette built the middleware that answers exceptions from the handlers the
        # application had when it first ran (this lifespan's call): the next request
        # builds it again, with these.
        app.middleware_stack = None
    yield


router = APIRouter(lifespan=_install_at_startup)
