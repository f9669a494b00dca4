"""Many-to-many writes: a create or update body names the related rows by their keys.

``related_rows`` loads the rows a list of keys names through the request's session, so
row visibility (``with_loader_criteria`` on every ORM read) hides a row from a write
exactly as it hides it from a read: a key that names no row, or a row the user may not
see, is a 422 at that key's place in the body (``["body", "tags", 1]``), the same
answer for both, so the answer never tells a hidden row from a missing one. A key sent
twice links its row once.

A list holds at most ``MAX_RELATED_KEYS`` keys (each is a bound parameter of the
``IN`` that loads them): ``RelatedKeys`` is the annotation that says so.
"""

from collections.abc import Sequence
from typing import Any

import annotated_types
from fastapi.exceptions import RequestValidationError
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import InstrumentedAttribute

MAX_RELATED_KEYS = 1_000
"""Keys of one relationship in one request body."""

RelatedKeys = annotated_types.Len(0, MAX_RELATED_KEYS)
"""Annotation of a list of related rows' keys: ``MAX_RELATED_KEYS`` at most."""


async def related_rows(
    session: AsyncSession,
    key: InstrumentedAttribute[Any],
    keys: Sequence[Any],
    *,
    field: str,
) -> list[Any]:
    """The rows whose *key* column holds *keys*, in the order first sent.

    *field* is the body field that sent them: a key naming no row the session may
    see is a ``RequestValidationError`` (422) at ``("body", field, index)``.
    """
    wanted = list(dict.fromkeys(keys))
    if not wanted:
        return []
    model = key.class_
    rows = await session.scalars(select(model).where(key.in_(wanted)))
    found = {getattr(row, key.key): row for row in rows}
    missing = [
        {
            "type": "value_error",
            "loc": ("body", field, index),
            "msg": f"Value error, no {model.__name__} has this key",
            "input": value,
        }
        for index, value in enumerate(keys)
        if value not in found
    ]
    if missing:
        raise RequestValidationError(missing)
    return [found[value] for value in wanted]
