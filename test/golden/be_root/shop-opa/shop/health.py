"""Health routes of shop, for load balancers and orchestrators.

``GET /health`` answers 200 while the process serves requests (liveness: restart the
process when it fails). ``GET /ready`` answers 503 while the database does not answer,
or lacks a table, column, index or extension the routes need (the same check that
stops the application from starting; the detail says what and how to fix it), and
from SIGTERM on, so a load balancer drains the instance before it stops accepting.
Readiness: send no traffic until it passes.
"""

import asyncio

from fastapi import APIRouter, HTTPException, status
from sqlalchemy.exc import SQLAlchemyError

from shop.api.database import DATABASES
from shop.api.runtime.shutdown import draining

router = APIRouter(tags=["health"])

# How long readiness waits for the database before answering 503.
READY_TIMEOUT_SECONDS = 2.0


def _not_ready(detail: str) -> HTTPException:
    return HTTPException(
        status.HTTP_503_SERVICE_UNAVAILABLE, detail=detail, headers={"Retry-After": "5"}
    )


@router.get("/health", operation_id="checkHealth")
async def health() -> dict[str, str]:
    """Liveness: the process is up and serving requests."""
    return {"status": "ok"}


@router.get(
    "/ready",
    operation_id="checkReadiness",
    responses={
        503: {
            "description": "The database does not answer, or lacks what the routes need"
        }
    },
)
async def ready() -> dict[str, str]:
    """Readiness: not shutting down, and the database answers within the timeout and
    has what the routes need."""
    if draining():
        raise _not_ready("the instance is shutting down")
    for database in DATABASES:
        try:
            async with asyncio.timeout(READY_TIMEOUT_SECONDS):
                lacking = await database.missing()
        except (OSError, SQLAlchemyError, TimeoutError) as error:
            raise _not_ready("the database does not answer") from error
        if lacking:
            raise _not_ready(database.describe(lacking))
    return {"status": "ok", "database": "ok"}
