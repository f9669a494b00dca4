"""Test-only launcher: serve ``blog.main:app`` with several uvicorn worker processes.

Creates the tables (``serve.prepare_database``), then runs ``uvicorn`` with
``--workers N`` on 127.0.0.1:<port>. Every response carries ``X-Worker-Pid``: the
process that answered, so a test can see that more than one worker served it. Needs
``DATABASE_URL``, and ``blog`` and this directory on ``PYTHONPATH``.
"""

import argparse
import asyncio
import os
from importlib import import_module

import uvicorn
from blog.main import app as blog_app
from serve import prepare_database
from starlette.types import Message, Receive, Scope, Send

_PID = str(os.getpid()).encode()


async def app(scope: Scope, receive: Receive, send: Send) -> None:
    """The blog, with ``X-Worker-Pid`` on every HTTP response."""
    if scope["type"] != "http":
        await blog_app(scope, receive, send)
        return

    async def send_with_pid(message: Message) -> None:
        if message["type"] == "http.response.start":
            headers = [*message.get("headers", []), (b"x-worker-pid", _PID)]
            message = {**message, "headers": headers}
        await send(message)

    await blog_app(scope, receive, send_with_pid)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--workers", type=int, default=2)
    arguments = parser.parse_args()
    asyncio.run(prepare_database("blog.api", import_module("blog.api.db.session")))
    uvicorn.run(
        "workers:app",
        host="127.0.0.1",
        port=arguments.port,
        workers=arguments.workers,
        log_level="warning",
    )


if __name__ == "__main__":
    main()
