"""Test-only launcher: serve ``blog.main:app`` with SQL statement counting.

Creates the tables (``blog.models.create_tables``), then runs uvicorn on 127.0.0.1:<port>.
With ``--frontend DIR`` it serves ``blog.site.build_site``: the API under ``/api`` and the
front end built into DIR at ``/``, as in production.
Every response carries ``X-SQL-Statements``: the number of statements the request
sent to the database. Needs ``DATABASE_URL`` and ``blog`` on ``PYTHONPATH``.
"""

import argparse
import asyncio
from contextvars import ContextVar
from pathlib import Path
from typing import Any

import uvicorn
from blog.api.db.session import get_engine
from blog.main import app
from blog.models import create_tables
from blog.site import build_site
from sqlalchemy import event
from starlette.types import ASGIApp, Message, Receive, Scope, Send

_statements: ContextVar[list[int] | None] = ContextVar("statements", default=None)


def _count_statement(*_: Any) -> None:
    counter = _statements.get()
    if counter is not None:
        counter[0] += 1


class StatementCounter:
    """ASGI middleware adding ``X-SQL-Statements`` to every HTTP response."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        counter = [0]
        token = _statements.set(counter)

        async def send_with_count(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = [
                    *message.get("headers", []),
                    (b"x-sql-statements", str(counter[0]).encode()),
                ]
                message = {**message, "headers": headers}
            await send(message)

        try:
            await self.app(scope, receive, send_with_count)
        finally:
            _statements.reset(token)


async def prepare_database() -> None:
    engine = get_engine()
    await create_tables(engine)
    # The pool's connections belong to this event loop; uvicorn runs another.
    await engine.dispose()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--frontend", type=Path)
    arguments = parser.parse_args()

    asyncio.run(prepare_database())
    event.listen(get_engine().sync_engine, "before_cursor_execute", _count_statement)
    app.add_middleware(StatementCounter)
    served = app if arguments.frontend is None else build_site(app, arguments.frontend)
    uvicorn.run(served, host="127.0.0.1", port=arguments.port, log_level="warning")


if __name__ == "__main__":
    main()
