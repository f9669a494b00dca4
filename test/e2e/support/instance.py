"""The blog as one production instance behind a load balancer (pgbouncer.test.ts).

The generated router (its lifespan installs the error handlers) with the ``be_root``
application's lifespan, as ``be_root``'s main.py serves it: on SIGTERM ``/ready``
answers 503 for ``SHUTDOWN_DRAIN_SECONDS``, then uvicorn stops accepting, finishes the
requests in flight and the database pools close (``runtime/shutdown.py``). Served by
``uvicorn instance:app --workers 2`` with this folder and the project on ``PYTHONPATH``;
the tables must exist, and the config must give the database replicas.
"""

import secrets

from blog.api.content.routes import router
from blog.api.database import DATABASES
from blog.api.db.primary_session import ReadSessionDep
from blog.api.runtime.shutdown import draining, graceful_lifespan
from blog.models import Tag
from fastapi import FastAPI, HTTPException, status
from sqlalchemy import select

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


@app.post("/write-then-read")
async def write_then_read(session: ReadSessionDep) -> dict[str, bool]:
    """A request that writes, then reads what it wrote, through a read session (as a
    read route's hook would): the read must go to the primary, since no replica can
    have a row its transaction has not committed."""
    tag = Tag(name=f"written-{secrets.token_hex(6)}")
    session.add(tag)
    await session.flush()
    found = await session.scalar(select(Tag.name).where(Tag.id == tag.id))
    await session.commit()
    return {"found": found == tag.name}
