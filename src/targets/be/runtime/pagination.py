"""Keyset pagination by primary key, with opaque cursors.

A page holds at most ``limit`` rows in key order. ``next_cursor`` encodes the last
key of the page (URL-safe base64 of a small JSON document) and is ``None`` on the
last page. Rows inserted or deleted between requests never shift a page: each one
starts strictly after the previous page's last key.
"""

import base64
import json
from collections.abc import Sequence
from typing import Any, Generic, TypeVar

from fastapi.exceptions import RequestValidationError
from pydantic import BaseModel, TypeAdapter
from sqlalchemy import Select
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import InstrumentedAttribute

ItemT = TypeVar("ItemT")
RowT = TypeVar("RowT")
KeyT = TypeVar("KeyT")


class Page(BaseModel, Generic[ItemT]):
    """One page of a list; send ``next_cursor`` back as ``cursor`` for the next."""

    items: list[ItemT]
    next_cursor: str | None


def encode_cursor(key: Any) -> str:
    """Encode the last key of a page as an opaque cursor."""
    document = json.dumps({"after": key}, default=str)
    return base64.urlsafe_b64encode(document.encode()).rstrip(b"=").decode()


def decode_cursor(cursor: str, key_type: type[KeyT]) -> KeyT:
    """Decode a cursor made by :func:`encode_cursor`; a malformed one answers 422."""
    try:
        document = json.loads(
            base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4))
        )
        return TypeAdapter(key_type).validate_python(document["after"])
    except (ValueError, KeyError, TypeError, RecursionError):
        raise RequestValidationError(
            [
                {
                    "type": "value_error",
                    "loc": ("query", "cursor"),
                    "msg": "Invalid cursor",
                    "input": cursor,
                }
            ]
        ) from None


async def paginate(
    session: AsyncSession,
    statement: Select[RowT],
    key: InstrumentedAttribute[Any],
    *,
    limit: int,
    cursor: str | None,
) -> tuple[Sequence[RowT], str | None]:
    """Run *statement* for the page after *cursor*, ordered by *key*.

    Returns the page's rows and the cursor of the next page (``None`` on the last).
    """
    if cursor is not None:
        statement = statement.where(key > decode_cursor(cursor, key.type.python_type))
    rows = (
        (await session.scalars(statement.order_by(key).limit(limit + 1))).unique().all()
    )
    if len(rows) <= limit:
        return rows, None
    page = rows[:limit]
    return page, encode_cursor(getattr(page[-1], key.key))
