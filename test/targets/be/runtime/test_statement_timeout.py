"""Every transaction runs under the statement timeout, set with ``SET LOCAL`` in the
message of its ``BEGIN``: never a session setting or a startup parameter (which
PgBouncer in transaction pooling refuses), and never one more round trip."""

import pytest
from runtime.statement_timeout import timed_connection
from sqlalchemy import event, text
from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, create_async_engine

pytestmark = pytest.mark.asyncio(loop_scope="session")


def _timed(engine: AsyncEngine, milliseconds: int) -> AsyncEngine:
    return create_async_engine(
        engine.url.render_as_string(hide_password=False),
        pool_size=1,
        max_overflow=0,
        connect_args={"connection_class": timed_connection(milliseconds)},
    )


async def test_a_statement_past_the_timeout_is_cancelled(engine: AsyncEngine) -> None:
    timed = _timed(engine, 200)
    try:
        async with AsyncSession(timed) as session:
            assert (await session.scalar(text("SHOW statement_timeout"))) == "200ms"
            await session.execute(text("SELECT pg_sleep(0.05)"))
            with pytest.raises(DBAPIError) as caught:
                await session.execute(text("SELECT pg_sleep(2)"))
        assert "statement timeout" in str(caught.value)
        async with AsyncSession(timed) as session:
            await session.commit()
            # Every transaction of the session, not only its first.
            assert (await session.scalar(text("SHOW statement_timeout"))) == "200ms"
    finally:
        await timed.dispose()


async def test_the_setting_is_local_and_sends_no_statement_of_its_own(
    engine: AsyncEngine,
) -> None:
    timed = _timed(engine, 1500)
    sent: list[str] = []
    event.listen(
        timed.sync_engine,
        "before_cursor_execute",
        lambda *args: sent.append(args[2]),
    )
    try:
        async with timed.connect() as connection:
            in_transaction = await connection.scalar(text("SHOW statement_timeout"))
            await connection.commit()
            autocommit = await connection.execution_options(
                isolation_level="AUTOCOMMIT"
            )
            outside = await autocommit.scalar(text("SHOW statement_timeout"))
        assert in_transaction == "1500ms"
        # Outside a transaction the server's own setting holds: nothing leaks to the
        # connection, which PgBouncer could hand to another client.
        assert outside != "1500ms"
        assert sent == ["SHOW statement_timeout"] * 2
    finally:
        await timed.dispose()
