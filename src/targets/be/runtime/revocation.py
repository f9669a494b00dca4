"""Revoked access tokens: a deny-list in PostgreSQL, keyed by the token's ``jti``.

Copied into a generated tree whose auth has a logout endpoint. Logging out inserts
the token's id with its expiry; every authenticated request then asks, in one
primary-key lookup, whether its token's id is listed. A row is useless once its
token has expired (the signature check refuses the token first), so each revocation
also deletes the rows whose tokens have expired: the table holds at most the tokens
revoked within one token lifetime.
"""

from sqlalchemy import Column, DateTime, Index, MetaData, Table, Text
from sqlalchemy.dialects import postgresql
from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.asyncio import AsyncEngine
from sqlalchemy.schema import CreateIndex, CreateTable

from .autocommit import UNDEFINED_TABLE, autocommit, create_table
from .errors import sqlstate

TABLE = "revoked_tokens"

metadata = MetaData()
"""The deny-list's table, for migrations (the generated ``database.py`` lists it)."""

revoked_tokens = Table(
    TABLE,
    metadata,
    Column("jti", Text, primary_key=True),
    Column("expires_at", DateTime(timezone=True), nullable=False),
    Index(f"{TABLE}_expires_at", "expires_at"),
)

# The same table, created on first use in a database no migration created it in.
_CREATE = tuple(
    str(statement.compile(dialect=postgresql.dialect()))
    for statement in (
        CreateTable(revoked_tokens, if_not_exists=True),
        *(CreateIndex(index, if_not_exists=True) for index in revoked_tokens.indexes),
    )
)

# One statement: forget the tokens that have expired, list this one.
_REVOKE = f"""
WITH expired AS (DELETE FROM {TABLE} WHERE expires_at < now())
INSERT INTO {TABLE} (jti, expires_at) VALUES (:jti, to_timestamp(:expires_at))
ON CONFLICT (jti) DO NOTHING
"""

_IS_REVOKED = f"SELECT EXISTS (SELECT FROM {TABLE} WHERE jti = :jti)"


async def install(engine: AsyncEngine) -> None:
    """Create the deny-list's table unless it exists (once, however many run it)."""
    await create_table(engine, TABLE, _CREATE)


async def revoke(engine: AsyncEngine, jti: str, expires_at: int) -> None:
    """List the token *jti*, valid until *expires_at* (seconds since the epoch)."""
    parameters = {"jti": jti, "expires_at": expires_at}
    await autocommit(engine, _REVOKE, parameters, creating=(TABLE, _CREATE))


async def is_revoked(engine: AsyncEngine, jti: str) -> bool:
    """Whether the token *jti* has been revoked (one primary-key lookup)."""
    try:
        rows = await autocommit(engine, _IS_REVOKED, {"jti": jti})
    except DBAPIError as error:
        # No table yet: no token was ever revoked in this database.
        if sqlstate(error) != UNDEFINED_TABLE:
            raise
        return False
    return bool(rows[0][0])
