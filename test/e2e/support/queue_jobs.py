"""Test-only pgqueuer jobs for the blog example (driven by test/e2e/queue.test.ts).

Commands (``DATABASE_URL`` holds the blog's async URL):

* ``python queue_jobs.py init``: create the blog's tables.
* ``python queue_jobs.py enqueue <marker> commit|rollback``: in one session, enqueue a
  ``write_marker`` job through ``get_queue`` and add a category named after the
  marker, then commit or roll back.
* ``python queue_jobs.py count <marker>``: print, as JSON, how many queued jobs and
  categories carry the marker.

``create_worker`` is the factory for ``pgq run queue_jobs:create_worker``; its
``write_marker`` job creates the file ``$MARKER_DIR/<marker>``.
"""

import asyncio
import json
import os
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import asyncpg
from blog.api.db.session import get_engine, get_sessionmaker
from blog.api.runtime.queue import get_queue, open_worker_driver, worker_dsn
from blog.models import Category, create_tables
from pgqueuer import Job, PgQueuer


@asynccontextmanager
async def create_worker() -> AsyncIterator[PgQueuer]:
    async with open_worker_driver(os.environ["DATABASE_URL"]) as driver:
        worker = PgQueuer(driver)

        @worker.entrypoint("write_marker")
        async def write_marker(job: Job) -> None:
            marker = (job.payload or b"").decode()
            (Path(os.environ["MARKER_DIR"]) / marker).write_text(str(job.id))

        yield worker


async def init() -> None:
    await create_tables(get_engine())


async def enqueue(marker: str, outcome: str) -> None:
    async with get_sessionmaker()() as session:
        # The queue comes first, before the session has sent any statement.
        queue = await get_queue(session)
        await queue.enqueue("write_marker", marker.encode())
        session.add(Category(slug=marker, title="queued with a job"))
        if outcome == "commit":
            await session.commit()
        else:
            await session.rollback()


async def count(marker: str) -> None:
    connection = await asyncpg.connect(worker_dsn(os.environ["DATABASE_URL"]))
    try:
        jobs = await connection.fetchval(
            "SELECT count(*) FROM pgqueuer WHERE entrypoint = 'write_marker' AND payload = $1",
            marker.encode(),
        )
        categories = await connection.fetchval(
            "SELECT count(*) FROM categories WHERE slug = $1", marker
        )
    finally:
        await connection.close()
    print(json.dumps({"jobs": jobs, "categories": categories}))


async def main(command: str, *args: str) -> None:
    try:
        if command == "init":
            await init()
        elif command == "enqueue":
            await enqueue(*args)
        elif command == "count":
            await count(*args)
        else:
            raise SystemExit(f"unknown command {command!r}")
    finally:
        await get_engine().dispose()


if __name__ == "__main__":
    asyncio.run(main(*sys.argv[1:]))
