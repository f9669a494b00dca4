"""Answer database integrity errors with 409 and the name of the violated constraint.

The body is ``{"detail": "<what went wrong>", "constraint": "<name or null>"}``; the
name is the one PostgreSQL reports through asyncpg, so clients can tell a duplicate
e-mail (``uq_authors_email``) from a missing author (``fk_articles_author_id_authors``).
"""

from fastapi import FastAPI, Request, status
from fastapi.responses import JSONResponse
from sqlalchemy.exc import IntegrityError

_DETAILS = {
    "23505": "A row with the same unique value already exists.",
    "23503": "A referenced row does not exist, or this row is still referenced.",
    "23502": "A required value is missing.",
    "23514": "A value is outside its allowed range.",
}


async def integrity_error_handler(request: Request, exc: Exception) -> JSONResponse:
    """Turn an ``IntegrityError`` raised while handling *request* into a 409."""
    driver_error = (
        exc.orig.__cause__ if isinstance(exc, IntegrityError) and exc.orig else None
    )
    sqlstate = getattr(driver_error, "sqlstate", None)
    return JSONResponse(
        status_code=status.HTTP_409_CONFLICT,
        content={
            "detail": _DETAILS.get(
                sqlstate or "", "The change violates a database constraint."
            ),
            "constraint": getattr(driver_error, "constraint_name", None),
        },
    )


def register_error_handlers(app: FastAPI) -> None:
    """Install the handlers of this module on *app*."""
    app.add_exception_handler(IntegrityError, integrity_error_handler)
