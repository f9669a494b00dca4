"""Every statement runs under the statement timeout. On a connection of its own it is
set once as the connection opens (``time_connections``), so statements in autocommit are
bounded too. Behind PgBouncer in transaction pooling every transaction sets it with
``SET LOCAL`` in the message of its ``BEGIN`` (``timed_connection``): never a session
setting or a startup parameter (which PgBouncer refuses), and never one more round
trip."""

import pytest
from pools import pool_of_one
from runtime.statement_timeout import time_connections, timed_connection
from sqlalchemy import event, text
from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession

pytestmark = pytest.mark.asyncio(loop_scope="session")


def _timed(engine: AsyncEngine, milliseconds: int) -> AsyncEngine:
    return pool_of_one(
        engine, connect_args={"connection_class": timed_connection(milliseconds)}
    )


async def _assert_cut_at_200ms(session: AsyncSession) -> None:
    """A statement within 200 ms runs; one past it is cancelled by the server."""
    assert (await session.scalar(text("SHOW statement_timeout"))) == "200ms"
    await session.execute(text("SELECT pg_sleep(0.05)"))
    with pytest.raises(DBAPIError) as caught:
        await session.execute(text("SELECT pg_sleep(2)"))
    assert "statement timeout" in str(caught.value)


async def test_each_connection_bounds_its_statements_in_autocommit_too(
    engine: AsyncEngine,
) -> None:
    timed = pool_of_one(engine)
    time_connections(timed, 200)
    sent: list[str] = []
    event.listen(
        timed.sync_engine,
        "before_cursor_execute",
        lambda *args: sent.append(args[2]),
    )
    reading = timed.execution_options(isolation_level="AUTOCOMMIT")
    try:
        for sessions in (reading, timed):
            async with AsyncSession(sessions) as session:
                await _assert_cut_at_200ms(session)
        # Set as the connection opened, not by a statement of a request's.
        assert "SET" not in " ".join(sent)
    finally:
        await timed.dispose()


async def test_a_statement_past_the_timeout_is_cancelled(engine: AsyncEngine) -> None:
    timed = _timed(engine, 200)
    try:
        async with AsyncSession(timed) as session:
            await _assert_cut_at_200ms(session)
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
