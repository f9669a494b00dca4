"""The HTTP of the runtime helpers' tests: real requests to an app in process, and a
real uvicorn serving one."""

import asyncio
import socket
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import uvicorn
from httpx import ASGITransport, AsyncClient
from starlette.types import ASGIApp

SERVER_SECONDS = 10.0
"""Seconds uvicorn may take to start serving, and to stop."""


def asgi_client(app: ASGIApp, peer: str = "127.0.0.1") -> AsyncClient:
    """A client of *app* at ``http://test``, whose requests come from *peer*."""
    transport = ASGITransport(app=app, client=(peer, 5000))
    return AsyncClient(transport=transport, base_url="http://test")


@asynccontextmanager
async def serving(app: ASGIApp, **config: Any) -> AsyncIterator[str]:
    """*app* served by a real uvicorn on 127.0.0.1 with *config*; yields its URL."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    server = uvicorn.Server(
        uvicorn.Config(app, lifespan="off", log_level="warning", **config)
    )
    task = asyncio.create_task(server.serve(sockets=[listener]))
    async with asyncio.timeout(SERVER_SECONDS):
        while not server.started:
            if task.done():
                task.result()
            await asyncio.sleep(0.01)
    host, port = listener.getsockname()
    try:
        yield f"http://{host}:{port}"
    finally:
        server.should_exit = True
        await asyncio.wait_for(task, timeout=SERVER_SECONDS)
        listener.close()
