"""Test-only launcher: serve ``<package>.main:app`` with SQL statement counting.

Creates what the generated routes query (the generated ``<package>.api.database``:
extensions, the models' and the runtime's tables, the lists' indexes); then runs
uvicorn on 127.0.0.1:<port>, with the generated HTTP protocol as in production
(``<package>.api.runtime.server:BoundedHttpProtocol``). With
``--frontend DIR`` it serves ``<package>.site.build_site``: the API under ``/api`` and
the front end built into DIR at ``/``, as in production. Unless ``--no-count`` is
given, every response carries ``X-SQL-Statements``: the number of statements the
request sent to the database. Needs ``DATABASE_URL`` and the project on ``PYTHONPATH``.
"""

import argparse
import asyncio
from contextvars import ContextVar
from importlib import import_module
from pathlib import Path
from types import ModuleType
from typing import Any

import uvicorn
from sqlalchemy import Connection, MetaData, event, text
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


def _create_all(connection: Connection, metadata: MetaData) -> None:
    """Create the tables, and the indexes of tables that already existed: another
    server on the same database (the load test's hand-written app) may have created a
    table without the lists' indexes, and ``create_all`` skips an existing table whole."""
    metadata.create_all(connection)
    for table in metadata.sorted_tables:
        for index in table.indexes:
            index.create(connection, checkfirst=True)


async def prepare_database(api: str, session: ModuleType) -> None:
    """Create what the generated routes query (``<api>.database.METADATA``:
    extensions, the models' and the runtime's tables, the lists' indexes), as a
    migration of the project would."""
    engine = session.get_engine()
    database = import_module(f"{api}.database")
    async with engine.begin() as connection:
        # Servers of two projects may share a database and start at once (the kiln test):
        # one creates the tables the other also has while the other waits.
        await connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": 1})
        for metadata in database.METADATA:
            await connection.run_sync(_create_all, metadata)
    # The pool's connections belong to this event loop; uvicorn runs another.
    await engine.dispose()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--package", default="blog")
    # A project laid out as kiln's are: --api _generated --app main.
    parser.add_argument("--api", help="the generated package (default: <package>.api)")
    parser.add_argument("--app", help="the module of app (default: <package>.main)")
    parser.add_argument("--frontend", type=Path)
    parser.add_argument(
        "--no-count", action="store_true", help="no X-SQL-Statements (load tests)"
    )
    args = parser.parse_args()
    api = args.api or f"{args.package}.api"

    session = import_module(f"{api}.db.session")
    asyncio.run(prepare_database(api, session))
    app = import_module(args.app or f"{args.package}.main").app
    if not args.no_count:
        event.listen(
            session.get_engine().sync_engine, "before_cursor_execute", _count_statement
        )
        app.add_middleware(StatementCounter)
    served = app
    if args.frontend is not None:
        served = import_module(f"{args.package}.site").build_site(app, args.frontend)
    run_server(served, args.port, api)


def run_server(app: ASGIApp, port: int, api: str = "blog.api") -> None:
    """Serve *app* on 127.0.0.1:*port* with the HTTP protocol generated into the
    package *api*; handwritten_tags.py serves the load test's baseline through this
    too, so both sides run on the same server settings."""
    uvicorn.run(
        app,
        host="127.0.0.1",
        port=port,
        http=f"{api}.runtime.server:BoundedHttpProtocol",
        log_level="warning",
        access_log=False,
        backlog=4096,
    )


def given_port() -> int:
    """The command line's ``--port``: the one argument of a baseline (handwritten.py,
    floor_articles.py, stack_floor_articles.py)."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    return parser.parse_args().port


if __name__ == "__main__":
    main()
