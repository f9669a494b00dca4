"""The blog as one production instance behind a load balancer (pgbouncer.test.ts).

The generated router (its lifespan installs the error handlers) with the ``be_root``
application's lifespan, as ``be_root``'s main.py serves it: on SIGTERM ``/ready``
answers 503 for ``SHUTDOWN_DRAIN_SECONDS``, then uvicorn stops accepting, finishes the
requests in flight and the database pools close (``runtime/shutdown.py``). Served by
``uvicorn instance:app --workers 2`` with this folder and the project on ``PYTHONPATH``;
the tables must exist.
"""

from blog.api.content.routes import router
from blog.api.database import DATABASES
from blog.api.runtime.shutdown import draining, graceful_lifespan
from fastapi import FastAPI, HTTPException, status

app = FastAPI(lifespan=graceful_lifespan(*DATABASES))
app.include_router(router)


@app.get("/ready")
async def ready() -> dict[str, str]:
    """Readiness: 503 from SIGTERM on."""
    if draining():
        raise HTTPException(
            status.HTTP_503_SERVICE_UNAVAILABLE,
            detail="the instance is shutting down",
            headers={"Retry-After": "5"},
        )
    return {"status": "ok"}
