"""Test-only comms worker for test/e2e/comms.test.ts: ``pgq run comms_worker:create_worker``.

It runs the generated ``COMMS`` delivery like ``blog.api.comms.create_worker``, with
a lease of ``COMMS_LEASE_SECONDS``: shorter than the default, so the claim of a
worker killed mid-delivery ends within the test.
"""

import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import timedelta

from blog.api.comms import COMMS
from blog.api.runtime.queue import open_worker_driver
from pgqueuer import PgQueuer
from sqlalchemy.ext.asyncio import create_async_engine


@asynccontextmanager
async def create_worker() -> AsyncIterator[PgQueuer]:
    url = os.environ["DATABASE_URL"]
    engine = create_async_engine(url)
    lease = timedelta(seconds=float(os.environ["COMMS_LEASE_SECONDS"]))
    try:
        async with open_worker_driver(url) as driver:
            worker = PgQueuer(driver)
            COMMS.register(worker, engine, lease=lease)
            yield worker
    finally:
        await engine.dispose()
