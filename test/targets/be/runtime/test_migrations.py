"""Alembic's autogenerate, with ``compare_extensions``.

A missing extension is a difference, created first in the revision's upgrade and
dropped last in its downgrade.
"""

import pytest
from alembic.autogenerate import (
    compare_metadata,
    produce_migrations,
    render_python_code,
)
from alembic.runtime.migration import MigrationContext
from runtime.database import extensions_metadata
from runtime.migrations import compare_extensions
from sqlalchemy import Column, Connection, Index, Integer, MetaData, Table, Text, text
from sqlalchemy.ext.asyncio import AsyncEngine

pytestmark = pytest.mark.asyncio(loop_scope="session")


def target() -> list[MetaData]:
    metadata = MetaData()
    table = Table(
        "migrated_labels",
        metadata,
        Column("id", Integer, primary_key=True),
        Column("name", Text),
    )
    Index(
        "ix_migrated_labels_name",
        table.c.name,
        postgresql_using="gin",
        postgresql_ops={"name": "gin_trgm_ops"},
    )
    return [extensions_metadata(["no_such_extension"]), metadata]


def revision(connection: Connection) -> tuple[str, str, list[tuple[object, ...]]]:
    context = MigrationContext.configure(connection)
    script = produce_migrations(context, target())
    upgrade = render_python_code(script.upgrade_ops_list[-1])
    downgrade = render_python_code(script.downgrade_ops_list[-1])
    return upgrade, downgrade, compare_metadata(context, target())


async def test_a_missing_extension_comes_first_and_goes_last(
    engine: AsyncEngine,
) -> None:
    compare_extensions()
    compare_extensions()  # once per process, however often called
    async with engine.connect() as connection:
        upgrade, downgrade, diffs = await connection.run_sync(revision)
    create = 'op.execute("CREATE EXTENSION IF NOT EXISTS no_such_extension")'
    assert upgrade.count(create) == 1
    assert upgrade.index(create) < upgrade.index("op.create_table('migrated_labels'")
    drop = 'op.execute("DROP EXTENSION IF EXISTS no_such_extension")'
    assert downgrade.index(drop) > downgrade.index("op.drop_table('migrated_labels')")
    assert diffs[0] == ("add_extension", "no_such_extension")


async def test_an_installed_extension_is_no_difference(engine: AsyncEngine) -> None:
    compare_extensions()
    metadata = extensions_metadata(["pg_trgm"])
    async with engine.begin() as connection:
        await connection.execute(text("CREATE EXTENSION IF NOT EXISTS pg_trgm"))

        def diffs(sync: Connection) -> list[tuple[object, ...]]:
            return compare_metadata(MigrationContext.configure(sync), [metadata])

        # Other tests' tables are differences too: only extensions matter here.
        found = await connection.run_sync(diffs)
        assert [diff for diff in found if str(diff[0]).endswith("_extension")] == []
