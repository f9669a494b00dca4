"""Pages of generated lists: keyset (opaque cursors) or offset, always bounded.

Keyset: a page holds at most ``limit`` rows; ``next_cursor`` carries every sort key of
the page's last row (the primary key last, so the order is total) and is ``None`` on the
last page. The next page starts strictly after that row, so rows inserted or deleted
between requests never make a row appear twice or go missing, and a deep page costs
what the first one does when an index covers the order. A cursor only fits the order
it was made for; another order answers 422.

Offset: ``offset`` rows are skipped (the cost grows with it); ``total`` counts every
matching row when the request asks for it.
"""

import base64
import json
from collections.abc import Sequence
from datetime import date, datetime
from decimal import Decimal
from enum import Enum
from typing import Any, Generic, Literal, TypeVar, TypeVarTuple
from uuid import UUID
from weakref import WeakKeyDictionary

from fastapi.exceptions import RequestValidationError
from pydantic import BaseModel, ValidationError
from sqlalchemy import Row, Select, and_, bindparam, false, func, or_, select, tuple_
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.sql.elements import ColumnElement, Label

from .ordering import SortKey

ItemT = TypeVar("ItemT")
ObjectT = TypeVar("ObjectT")
RowT = TypeVarTuple("RowT")
Columns = tuple[Any, ...]
"""The values of a row of columns, whatever they are."""

CursorSource = Literal["query", "body"]
"""Where a request carried its cursor: errors name it there."""

# What decoding a malformed cursor raises. Named, not written in the `except`: ruff
# formats `except (A, B):` without its parentheses for Python 3.14 on, with them before.
_MALFORMED_CURSOR = (ValueError, KeyError, TypeError, ValidationError, RecursionError)


class Page(BaseModel, Generic[ItemT]):
    """One page of a list; send ``next_cursor`` back as ``cursor`` for the next."""

    items: list[ItemT]
    next_cursor: str | None


class OffsetPage(BaseModel, Generic[ItemT]):
    """One page; ``next_offset`` is ``None`` on the last page, ``total`` when asked."""

    items: list[ItemT]
    next_offset: int | None
    total: int | None


def _plain(value: Any) -> Any:
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, datetime | date):
        return value.isoformat()
    if isinstance(value, UUID | Decimal):
        return str(value)
    raise TypeError(f"cannot put a {type(value).__name__} in a cursor")


def _signature(keys: Sequence[SortKey]) -> str:
    return ",".join(key.signed_name for key in keys)


def encode_cursor(keys: Sequence[SortKey], values: Sequence[Any]) -> str:
    """An opaque cursor holding *values*, one per key of *keys*."""
    document = json.dumps(
        {"order": _signature(keys), "after": list(values)}, default=_plain
    )
    return base64.urlsafe_b64encode(document.encode()).rstrip(b"=").decode()


def _invalid(cursor: str, message: str, source: CursorSource) -> RequestValidationError:
    return RequestValidationError(
        [
            {
                "type": "value_error",
                "loc": (source, "cursor"),
                "msg": message,
                "input": cursor,
            }
        ]
    )


def decode_cursor(
    cursor: str, keys: Sequence[SortKey], source: CursorSource = "query"
) -> list[Any]:
    """The key values of a cursor made by :func:`encode_cursor` for the same order.

    A cursor that is malformed, or was made for another order, answers 422.
    """
    try:
        document = json.loads(
            base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4))
        )
        order, values = document["order"], document["after"]
        if not isinstance(values, list) or len(values) != len(keys):
            raise ValueError("wrong number of keys")
        decoded = [
            key.adapter.validate_python(value)
            for key, value in zip(keys, values, strict=True)
        ]
    except _MALFORMED_CURSOR:
        raise _invalid(cursor, "Invalid cursor", source) from None
    if order != _signature(keys):
        raise _invalid(
            cursor,
            "This cursor belongs to another order: "
            "repeat the order of the request that returned it",
            source,
        )
    return decoded


def _after(key: SortKey, value: Any) -> ColumnElement[bool]:
    # NULL sorts after every value ascending and before every value descending.
    column = key.expression
    if key.descending:
        return column.is_not(None) if value is None else column < value
    if value is None:
        return false()
    return or_(column > value, column.is_(None)) if key.nullable else column > value


def _same(key: SortKey, value: Any) -> ColumnElement[bool]:
    return key.expression.is_(None) if value is None else key.expression == value


def after_condition(
    keys: Sequence[SortKey], values: Sequence[Any]
) -> ColumnElement[bool]:
    """Rows strictly after the row whose sort keys are *values*, in the order of *keys*.

    Keys of one direction that are never NULL compare as one row value, which an index
    on those columns answers with a range scan; other orders expand into
    ``k1 after v1 OR (k1 = v1 AND k2 after v2) OR …``.
    """
    if len({key.descending for key in keys}) == 1 and not any(
        key.nullable for key in keys
    ):
        row = tuple_(*(key.expression for key in keys))
        bound = tuple_(*values)
        return row < bound if keys[0].descending else row > bound
    branches = [
        and_(
            *(
                _same(key, value)
                for key, value in zip(keys[:index], values[:index], strict=True)
            ),
            _after(keys[index], values[index]),
        )
        for index in range(len(keys))
    ]
    return or_(*branches)


def _key_attributes(keys: Sequence[SortKey]) -> list[str] | None:
    # Keys that are the listed model's columns are read from its objects; an order by
    # anything else (a search's relevance) selects its keys beside them.
    names = [key.attribute for key in keys if key.attribute is not None]
    return names if len(names) == len(keys) else None


_ROWS = bindparam("_rows")
"""How many rows a keyset page's statement reads: the page and one more."""

_PageShape = tuple[tuple[SortKey, ...], bool]
"""A first page's order, and whether it selects the sort keys' labels."""

_FIRST_PAGES: WeakKeyDictionary[
    Select[*Columns], dict[_PageShape, Select[*Columns]]
] = WeakKeyDictionary()
"""The first-page statements of each statement, by shape."""


def _keyset_statement(
    statement: Select[*Columns],
    keys: Sequence[SortKey],
    cursor: str | None,
    source: CursorSource,
    *,
    labels: bool,
) -> Select[*Columns]:
    """*statement* after *cursor*, ordered, with the sort keys' labels when *labels*,
    reading ``_rows`` rows (a parameter: the page and one more).

    The first page of a statement built once (a list's module constant, no filter
    asked) is built once too, for each order: SQLAlchemy then derives its cache key
    once, not on every request. Keys are the same objects for the same order
    (``Ordering``).
    """
    if cursor:
        after = decode_cursor(cursor, keys, source)
        return _ordered(statement.where(after_condition(keys, after)), keys, labels)
    built = _FIRST_PAGES.setdefault(statement, {})
    memo = (tuple(keys), labels)
    page = built.get(memo)
    if page is None:
        page = built[memo] = _ordered(statement, keys, labels)
    return page


def _ordered(
    statement: Select[*Columns], keys: Sequence[SortKey], labels: bool
) -> Select[*Columns]:
    if labels:
        statement = statement.add_columns(*_key_labels(keys))
    return statement.order_by(*(key.clause for key in keys)).limit(_ROWS)


def _key_labels(keys: Sequence[SortKey]) -> list[Label[Any]]:
    return [key.expression.label(f"sort_key_{index}") for index, key in enumerate(keys)]


async def keyset_page(
    session: AsyncSession,
    statement: Select[ObjectT],
    keys: Sequence[SortKey],
    *,
    limit: int,
    cursor: str | None,
    source: CursorSource = "query",
) -> tuple[list[ObjectT], str | None]:
    """Run *statement* for the page after *cursor*, ordered by *keys*.

    Returns the page's rows and the cursor of the next page (``None`` on the last).
    No cursor, or an empty one (``?cursor=``), is the first page; a bad cursor answers
    422, located at *source*.
    """
    attributes = _key_attributes(keys)
    page_statement = _keyset_statement(
        statement, keys, cursor, source, labels=attributes is None
    )
    rows_read = {"_rows": limit + 1}
    if attributes is not None:
        objects = (await session.scalars(page_statement, rows_read)).unique().all()
        page = list(objects[:limit])
        if len(objects) <= limit:
            return page, None
        return page, encode_cursor(
            keys, [getattr(page[-1], name) for name in attributes]
        )
    rows = (await session.execute(page_statement, rows_read)).unique().all()
    page = [row[0] for row in rows[:limit]]
    if len(rows) <= limit:
        return page, None
    return page, encode_cursor(keys, tuple(rows[limit - 1])[1:])


async def keyset_rows(
    session: AsyncSession,
    statement: Select[*Columns],
    keys: Sequence[SortKey],
    *,
    limit: int,
    cursor: str | None,
    source: CursorSource = "query",
) -> tuple[list[Row[*Columns]], str | None]:
    """As :func:`keyset_page`, for a statement that selects columns, not a model: the
    page's rows as the database sends them, no ORM objects built.

    Each row holds the statement's columns, then the sort keys (the cursor's values).
    """
    page_statement = _keyset_statement(statement, keys, cursor, source, labels=True)
    rows = (await session.execute(page_statement, {"_rows": limit + 1})).all()
    page = list(rows[:limit])
    if len(rows) <= limit:
        return page, None
    return page, encode_cursor(keys, tuple(rows[limit - 1])[-len(keys) :])


def _offset_statement(
    statement: Select[*RowT], keys: Sequence[SortKey], limit: int, offset: int
) -> Select[*RowT]:
    """*statement* ordered, from *offset*, one row past the page."""
    return (
        statement.order_by(*(key.clause for key in keys))
        .offset(offset)
        .limit(limit + 1)
    )


async def _count(session: AsyncSession, statement: Select[*RowT]) -> int:
    counted = select(func.count()).select_from(statement.order_by(None).subquery())
    return (await session.scalar(counted)) or 0


async def offset_page(
    session: AsyncSession,
    statement: Select[ObjectT],
    keys: Sequence[SortKey],
    *,
    limit: int,
    offset: int,
    total: bool,
) -> tuple[list[ObjectT], int | None, int | None]:
    """Run *statement* for ``limit`` rows from *offset*, ordered by *keys*.

    Returns the rows, the offset of the next page (``None`` on the last) and, when
    *total* is true, the number of rows matching *statement* (else ``None``).
    """
    page_statement = _offset_statement(statement, keys, limit, offset)
    rows = (await session.scalars(page_statement)).unique().all()
    page = list(rows[:limit])
    next_offset = offset + limit if len(rows) > limit else None
    return page, next_offset, await _count(session, statement) if total else None


async def offset_rows(
    session: AsyncSession,
    statement: Select[*Columns],
    keys: Sequence[SortKey],
    *,
    limit: int,
    offset: int,
    total: bool,
) -> tuple[list[Row[*Columns]], int | None, int | None]:
    """As :func:`offset_page`, for a statement that selects columns, not a model: the
    page's rows as the database sends them, no ORM objects built."""
    page_statement = _offset_statement(statement, keys, limit, offset)
    rows = (await session.execute(page_statement)).all()
    page = list(rows[:limit])
    next_offset = offset + limit if len(rows) > limit else None
    return page, next_offset, await _count(session, statement) if total else None
