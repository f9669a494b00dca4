"""The database steps of ``codegen dev``, ``codegen db`` and ``codegen test``, run in the project's Python.

``migrate``: apply the project's migrations, then let Alembic's autogenerate compare the
database with the project's models and generated API (the project's own ``env.py``), and
when they differ write a revision named after the change and apply it. A revision that
would drop a table or a column is not written unless ``--allow-data-loss`` is given.
``reset``: drop every object of the database's ``public`` schema, then ``migrate``.
``migrate --plan`` applies the migrations and reports the differences, writing nothing.
``seed``: call ``seed(session)`` of the project's seed module and commit; with
``--if-empty``, only when every table of the models' metadata is empty.
``create``: create a database (the test database) on the server of ``DATABASE``'s URL.

Reports on stdout as one JSON object; Alembic's own log goes to stderr.
"""

import argparse
import asyncio
import importlib
import json
import os
import sys
from collections.abc import Iterable
from typing import Any

from alembic import command
from alembic.config import Config
from alembic.operations.ops import MigrationScript
from alembic.runtime.migration import MigrationContext
from sqlalchemy import select, text
from sqlalchemy.ext.asyncio import AsyncSession, create_async_engine
from sqlalchemy.pool import NullPool

# Diff kinds of Alembic's autogenerate that lose stored data when applied.
DATA_LOSS = {"remove_table": "table", "remove_column": "column"}


def describe(diff: tuple[Any, ...]) -> tuple[str, str]:
    """A readable line for one autogenerate difference, and a revision name for it."""
    kind = diff[0]
    if kind in ("add_table", "remove_table"):
        verb = "create" if kind == "add_table" else "drop"
        return f"{verb} table {diff[1].name}", f"{verb} {diff[1].name}"
    if kind in ("add_column", "remove_column"):
        column = diff[3]
        verb = "add" if kind == "add_column" else "drop"
        where = f"{diff[2]}.{column.name}"
        return f"{verb} column {where} ({column.type})", f"{verb} {where}"
    if kind in ("add_index", "remove_index"):
        verb = "create" if kind == "add_index" else "drop"
        return f"{verb} index {diff[1].name} on {diff[1].table.name}", f"{verb} index"
    if kind in ("add_constraint", "remove_constraint", "add_fk", "remove_fk"):
        verb = "add" if kind.startswith("add") else "drop"
        constraint = diff[1]
        return (
            f"{verb} constraint {constraint.name} on {constraint.table.name}",
            f"{verb} constraint",
        )
    if kind in ("add_extension", "remove_extension"):
        verb = "create" if kind == "add_extension" else "drop"
        return f"{verb} extension {diff[1]}", f"{verb} {diff[1]}"
    if kind.startswith("modify_"):
        change = kind.removeprefix("modify_").replace("_", " ")
        where = f"{diff[2]}.{diff[3]}"
        return (
            f"alter column {where}: {change} {diff[5]} -> {diff[6]}",
            f"alter {where}",
        )
    return " ".join(str(part) for part in diff), kind.replace("_", " ")


def flatten(diffs: Iterable[Any]) -> list[tuple[Any, ...]]:
    """Alembic nests a column's modifications in a list of their own."""
    flat: list[tuple[Any, ...]] = []
    for diff in diffs:
        flat.extend(diff if isinstance(diff, list) else [diff])
    return flat


# Which change names a revision: a table's first, then a column's, then the rest.
HEADLINE = ("add_table", "remove_table", "add_column", "remove_column")


def revision_name(diffs: list[tuple[Any, ...]], names: list[str]) -> str:
    """The headline change, and how many more: ``create tags and 2 more``."""
    ranked = sorted(
        range(len(diffs)),
        key=lambda i: (
            HEADLINE.index(diffs[i][0]) if diffs[i][0] in HEADLINE else len(HEADLINE)
        ),
    )
    distinct = list(dict.fromkeys(names[i] for i in ranked))
    more = len(distinct) - 1
    return distinct[0] + (f" and {more} more" if more else "")


def migrate(config: Config, allow_data_loss: bool, write: bool) -> dict[str, Any]:
    command.upgrade(config, "head")
    report: dict[str, Any] = {"changes": [], "data_loss": [], "revision": None}

    def decide(
        _context: MigrationContext, _revision: Any, directives: list[Any]
    ) -> None:
        script: MigrationScript = directives[0]
        diffs = flatten(
            diff for ops in script.upgrade_ops_list for diff in ops.as_diffs()
        )
        described = [describe(diff) for diff in diffs]
        report["changes"] = [line for line, _ in described]
        report["data_loss"] = [
            line for (line, _), diff in zip(described, diffs) if diff[0] in DATA_LOSS
        ]
        if not write or not diffs or (report["data_loss"] and not allow_data_loss):
            directives[:] = []
            return
        script.message = revision_name(diffs, [name for _, name in described])

    written = command.revision(
        config, autogenerate=True, process_revision_directives=decide
    )
    scripts = written if isinstance(written, list) else [written]
    paths = [script.path for script in scripts if script is not None]
    if paths:
        report["revision"] = os.path.relpath(paths[0])
        command.upgrade(config, "head")
    return report


async def drop_everything(url: str) -> None:
    engine = create_async_engine(url, poolclass=NullPool)
    try:
        async with engine.begin() as connection:
            await connection.execute(text("DROP SCHEMA public CASCADE"))
            await connection.execute(text("CREATE SCHEMA public"))
    finally:
        await engine.dispose()


async def create_database(url: str, name: str) -> bool:
    """Creates database *name* on the server of *url*; False when it exists."""
    engine = create_async_engine(url, poolclass=NullPool, isolation_level="AUTOCOMMIT")
    try:
        async with engine.connect() as connection:
            found = await connection.execute(
                text("SELECT 1 FROM pg_database WHERE datname = :name"), {"name": name}
            )
            if found.first() is not None:
                return False
            quoted = connection.dialect.identifier_preparer.quote(name)
            await connection.execute(text(f"CREATE DATABASE {quoted}"))
            return True
    finally:
        await engine.dispose()


async def seed(
    url: str, module_name: str, models: str, if_empty: bool
) -> dict[str, Any]:
    module = importlib.import_module(module_name)
    engine = create_async_engine(url, poolclass=NullPool)
    try:
        if if_empty:
            metadata = importlib.import_module(models).Base.metadata
            async with engine.connect() as connection:
                for table in metadata.sorted_tables:
                    rows = await connection.execute(select(table).limit(1))
                    if rows.first() is not None:
                        return {"seeded": False, "holding": table.name}
        async with AsyncSession(engine, expire_on_commit=False) as session:
            await module.seed(session)
            await session.commit()
        return {"seeded": True}
    finally:
        await engine.dispose()


def main() -> None:
    parser = argparse.ArgumentParser(prog="db_steps")
    parser.add_argument("step", choices=["migrate", "reset", "create", "seed"])
    parser.add_argument("--url-env", required=True)
    parser.add_argument("--allow-data-loss", action="store_true")
    parser.add_argument(
        "--plan", action="store_true", help="migrate: apply, report, write nothing"
    )
    parser.add_argument("--database", help="create: the name of the database")
    parser.add_argument("--module", help="seed: the module defining seed(session)")
    parser.add_argument("--models", help="seed: the module defining Base")
    parser.add_argument("--if-empty", action="store_true", help="seed: only then")
    args = parser.parse_args()
    url = os.environ[args.url_env]
    try:
        report = run(args, url)
    except OSError as error:
        # Refused, unknown host, timed out: no database answers at the URL.
        sys.stdout.write(json.dumps({"unreachable": str(error)}) + "\n")
        sys.exit(3)
    sys.stdout.write(json.dumps(report) + "\n")


def run(args: argparse.Namespace, url: str) -> dict[str, Any]:
    if args.step == "seed":
        return asyncio.run(seed(url, args.module, args.models, args.if_empty))
    if args.step == "create":
        created = asyncio.run(create_database(url, args.database))
        report: dict[str, Any] = {"created": created}
    else:
        if args.step == "reset":
            asyncio.run(drop_everything(url))
        config = Config("alembic.ini")
        report = migrate(config, args.allow_data_loss, write=not args.plan)
    return report


if __name__ == "__main__":
    sys.path.insert(0, os.getcwd())
    main()
