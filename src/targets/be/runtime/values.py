"""Request values PostgreSQL can store, checked before they reach the database.

The ``Db*`` types refuse what the database would reject with an error (a NUL or a lone
surrogate in text, a non-finite number, a date-time that overflows once converted to
UTC, an integer past 64 bits). ``column_rules(Model.attribute)`` adds what the mapped
column itself states: the length of a ``String(n)``, the range of an integer or
``Numeric(p, s)`` column. A failed check is a 422 naming the field, and every
constraint is in the OpenAPI schema, so clients know what is accepted before sending.
"""

import math
from collections.abc import Iterator
from datetime import UTC, datetime
from decimal import Decimal
from typing import Annotated, Any

import annotated_types
from pydantic import AfterValidator, Field
from sqlalchemy import BigInteger, Column, DateTime, Integer, Numeric, SmallInteger
from sqlalchemy import Float as FloatType
from sqlalchemy import String as StringType
from sqlalchemy.orm import InstrumentedAttribute

INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1
_INTEGER_RANGES: list[tuple[type[Integer], int, int]] = [
    (SmallInteger, -(2**15), 2**15 - 1),
    (BigInteger, INT64_MIN, INT64_MAX),
    (Integer, -(2**31), 2**31 - 1),
]
INDEXED_TEXT_MAX_LENGTH = 500
"""Characters of an indexed text column without a declared length.

A B-tree index entry holds at most 2,704 bytes; 500 characters of at most 4 bytes
each always fit, so a long unique value is a 422 instead of a failed insert.
"""
_NO_NUL = r"^[^\x00]*$"


def _storable_text(value: str) -> str:
    if "\x00" in value:
        raise ValueError("must not contain the NUL character (\\u0000)")
    try:
        value.encode()
    except UnicodeEncodeError:
        raise ValueError("must not contain unpaired surrogates") from None
    return value


def _storable_json(value: Any) -> Any:
    if isinstance(value, str):
        _storable_text(value)
    elif isinstance(value, float) and not math.isfinite(value):
        raise ValueError("numbers must be finite (no NaN or Infinity)")
    elif isinstance(value, dict):
        for key, item in value.items():
            _storable_json(key)
            _storable_json(item)
    elif isinstance(value, list):
        for item in value:
            _storable_json(item)
    return value


def _utc_representable(value: datetime) -> datetime:
    """A naive value is taken as UTC; an aware one must still exist once in UTC."""
    if value.tzinfo is None:
        return value.replace(tzinfo=UTC)
    try:
        value.astimezone(UTC)
    except OverflowError:
        raise ValueError("is out of range once converted to UTC") from None
    return value


DbText = Annotated[
    str,
    AfterValidator(_storable_text),
    Field(json_schema_extra={"pattern": _NO_NUL}),
]
"""Text without NUL characters or unpaired surrogates (its schema says "no NUL")."""
DbInt = Annotated[int, annotated_types.Interval(ge=INT64_MIN, le=INT64_MAX)]
"""An integer of at most 64 bits (``bigint``)."""
DbFloat = Annotated[float, Field(allow_inf_nan=False)]
"""A finite number."""
DbJson = Annotated[dict[str, Any], AfterValidator(_storable_json)]
"""A JSON object whose strings and numbers ``jsonb`` can hold."""
DbDatetime = Annotated[datetime, AfterValidator(_utc_representable)]
"""A date-time that exists in UTC; without an offset it is taken as UTC."""


class ColumnRules(annotated_types.GroupedMetadata):
    """The constraints a mapped column states, as Pydantic metadata."""

    def __init__(self, *constraints: object) -> None:
        self.constraints = constraints

    def __iter__(self) -> Iterator[object]:
        return iter(self.constraints)


def column_rules(attribute: InstrumentedAttribute[Any]) -> ColumnRules:
    """The constraints of *attribute*'s column; none when it maps no single column."""
    columns = (
        attribute.property.columns if hasattr(attribute.property, "columns") else []
    )
    if len(columns) != 1 or not isinstance(columns[0], Column):
        return ColumnRules()
    column = columns[0]
    column_type = column.type
    if isinstance(column_type, StringType):
        length = column_type.length
        if length is None and (column.index or column.unique or column.primary_key):
            length = INDEXED_TEXT_MAX_LENGTH
        return (
            ColumnRules()
            if length is None
            else ColumnRules(annotated_types.MaxLen(length))
        )
    if isinstance(column_type, Integer):
        low, high = next(
            (low, high)
            for kind, low, high in _INTEGER_RANGES
            if isinstance(column_type, kind)
        )
        return ColumnRules(annotated_types.Interval(ge=low, le=high))
    if isinstance(column_type, Numeric) and not isinstance(column_type, FloatType):
        precision, scale = column_type.precision, column_type.scale or 0
        if precision is None:
            return ColumnRules()
        bound = float(Decimal(10) ** (precision - scale))
        return ColumnRules(annotated_types.Interval(gt=-bound, lt=bound))
    if isinstance(column_type, DateTime) and not column_type.timezone:
        return ColumnRules(AfterValidator(_naive_utc))
    return ColumnRules()


def _naive_utc(value: datetime) -> datetime:
    """A column without time zone stores the UTC wall-clock time."""
    return value.astimezone(UTC).replace(tzinfo=None)
