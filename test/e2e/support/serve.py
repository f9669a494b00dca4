"""Test-only launcher: serve an example's ``<package>.main:app``, counting SQL.

``--package`` names the example's package (``blog`` unless given). Creates the tables
(``<package>.models.create_tables`` and the generated ``idempotency_keys``), then
runs uvicorn on 127.0.0.1:<port>.
Unless ``--no-count`` is given, every response carries ``X-SQL-Statements``: the
number of statements the request sent to the database. Needs ``DATABASE_URL`` and
the package on ``PYTHONPATH``.
"""

import argparse
import asyncio
from contextvars import ContextVar
from importlib import import_module
from typing import Any

import uvicorn
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


async def prepare_database(package: str) -> None:
    engine = import_module(f"{package}.api.db.session").get_engine()
    await import_module(f"{package}.models").create_tables(engine)
    idempotency = import_module(f"{package}.api.runtime.idempotency")
    async with engine.begin() as connection:
        await connection.run_sync(idempotency.metadata.create_all)
    # The pool's connections belong to this event loop; uvicorn runs another.
    await engine.dispose()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--package", default="blog", help="the example's package")
    parser.add_argument(
        "--no-count", action="store_true", help="no X-SQL-Statements (load tests)"
    )
    arguments = parser.parse_args()

    asyncio.run(prepare_database(arguments.package))
    app = import_module(f"{arguments.package}.main").app
    if not arguments.no_count:
        engine = import_module(f"{arguments.package}.api.db.session").get_engine()
        event.listen(engine.sync_engine, "before_cursor_execute", _count_statement)
        app.add_middleware(StatementCounter)
    uvicorn.run(
        app,
        host="127.0.0.1",
        port=arguments.port,
        log_level="warning",
        access_log=False,
        backlog=4096,
    )


if __name__ == "__main__":
    main()
