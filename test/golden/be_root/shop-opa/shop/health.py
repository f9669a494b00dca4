"""Health routes of shop, for load balancers and orchestrators.

``GET /health`` answers 200 while the process serves requests (liveness: restart the
process when it fails). ``GET /ready`` also runs a query and answers 503 while the
database does not answer (readiness: send no traffic until it passes).
"""

import asyncio

from fastapi import APIRouter, HTTPException, status
from sqlalchemy import text
from sqlalchemy.exc import SQLAlchemyError

from shop.api.db import get_engine

router = APIRouter(tags=["health"])

# How long readiness waits for the database before answering 503.
READY_TIMEOUT_SECONDS = 2.0


@router.get("/health", operation_id="checkHealth")
async def health() -> dict[str, str]:
    """Liveness: the process is up and serving requests."""
    return {"status": "ok"}


@router.get(
    "/ready",
    operation_id="checkReadiness",
    responses={503: {"description": "The database does not answer"}},
)
async def ready() -> dict[str, str]:
    """Readiness: the database answers a query within the timeout."""
    try:
        async with asyncio.timeout(READY_TIMEOUT_SECONDS):
            async with get_engine().connect() as connection:
                await connection.execute(text("SELECT 1"))
    except (OSError, SQLAlchemyError, TimeoutError) as error:
        raise HTTPException(
            status.HTTP_503_SERVICE_UNAVAILABLE,
            detail="the database does not answer",
            headers={"Retry-After": "5"},
        ) from error
    return {"status": "ok", "database": "ok"}
