"""The deny-list of revoked tokens in PostgreSQL: listed until expiry, then pruned."""

import pytest
from runtime.revocation import TABLE, install, is_revoked, revoke
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine

pytestmark = pytest.mark.asyncio(loop_scope="session")


async def test_revoked_tokens_are_listed_until_expiry_then_pruned(
    engine: AsyncEngine,
) -> None:
    async with engine.begin() as connection:
        await connection.execute(text(f"DROP TABLE IF EXISTS {TABLE}"))
    # No table yet: nothing was revoked, and revoking creates it.
    assert not await is_revoked(engine, "a")
    await revoke(engine, "expired", expires_at=1)
    await install(engine)  # a second install changes nothing
    await revoke(engine, "live", expires_at=4_000_000_000)
    await revoke(engine, "live", expires_at=4_000_000_000)  # twice: still one row
    assert await is_revoked(engine, "live")
    assert not await is_revoked(engine, "other")
    async with engine.connect() as connection:
        rows = (await connection.execute(text(f"SELECT jti FROM {TABLE}"))).all()
    # Revoking "live" deleted the expired row: the table holds live tokens only.
    assert [row[0] for row in rows] == ["live"]
