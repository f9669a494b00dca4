"""Request values PostgreSQL can store, checked before they reach the database.

The ``Db*`` types refuse what the database would reject with an error (a NUL or a lone
surrogate in text, a non-finite number, a date-time that overflows once converted to
UTC, an integer past what a JSON number holds exactly), and accept only the JSON type
their schema names (no ``"1"`` for an integer, no number for a date, not even as text).
``column_rules(Model.attribute)`` adds what the mapped column itself states: the
length of a ``String(n)``, the range of an integer or ``Numeric(p, s)`` column. A
failed check is a 422 naming the field, and every constraint is in the OpenAPI
schema, so what the schema allows is accepted. Integer keys in a path are matched by
the ``int_key`` converter this module registers (``/{pk:int_key}``).
"""

import re
from collections.abc import Iterator
from datetime import UTC, date, datetime
from decimal import Decimal
from typing import Annotated, Any

import annotated_types
import email_validator
from pydantic import AfterValidator, BeforeValidator, Field, Strict
from sqlalchemy import BigInteger, Column, DateTime, Integer, Numeric, SmallInteger
from sqlalchemy import Float as FloatType
from sqlalchemy import String as StringType
from sqlalchemy.orm import InstrumentedAttribute
from starlette.convertors import Convertor, register_url_convertor
from typing_extensions import TypeAliasType

# Integers a JSON number holds exactly for every client (I-JSON, RFC 7493): past 2**53,
# clients that read numbers as doubles (JavaScript, JSON Schema validators) round them.
# A `bigint` column and an integer without a column accept this range.
JSON_INT_MIN, JSON_INT_MAX = -(2**53) + 1, 2**53 - 1
_INTEGER_RANGES: list[tuple[type[Integer], int, int]] = [
    (SmallInteger, -(2**15), 2**15 - 1),
    (BigInteger, JSON_INT_MIN, JSON_INT_MAX),
    (Integer, -(2**31), 2**31 - 1),
]
INDEXED_TEXT_MAX_LENGTH = 500
"""Characters of an indexed text column without a declared length.

A B-tree index entry holds at most 2,704 bytes; 500 characters of at most 4 bytes
each always fit, so a long unique value is a 422 instead of a failed insert.
"""
_NO_NUL = r"^[^\x00]*$"
_SECONDS = re.compile(r"\s*[-+]?\d+(\.\d*)?\s*")


def _storable_text(value: str) -> str:
    if "\x00" in value:
        raise ValueError("must not contain the NUL character (\\u0000)")
    try:
        value.encode()
    except UnicodeEncodeError:
        raise ValueError("must not contain unpaired surrogates") from None
    return value


class _KeyDigits(str):
    """Digits of a key in the path that Python does not read as an int while routing:
    left to the key's validation, which refuses them (422) instead of a 500."""


class IntegerKey(Convertor[int | str]):
    """``{pk:int_key}``: a path segment of digits, as an integer key.

    Starlette's ``int`` converter turns the digits into an int while the route is
    matched, where more digits than Python converts (4,300) raise, a 500. This one
    hands those on as text, and the key's annotation answers 422 naming the key.
    """

    regex = "-?[0-9]+"

    def convert(self, value: str) -> int | str:
        try:
            return int(value)
        except ValueError:
            return _KeyDigits(value)

    def to_string(self, value: int | str) -> str:
        return str(value)


register_url_convertor("int_key", IntegerKey())


def _json_number(value: Any) -> Any:
    """Numbers come as JSON numbers (``2.0`` is the integer 2), never as text."""
    if isinstance(value, str | bool) and not isinstance(value, _KeyDigits):
        # A ValueError, not a TypeError: Pydantic answers it as a validation error.
        raise ValueError("must be a JSON number")  # noqa: TRY004
    return value


def _iso_text(value: Any) -> Any:
    """Dates and date-times come as ISO 8601 text, never as a number of seconds (nor
    its digits as text, which Pydantic would read as one: a query parameter is text)."""
    if isinstance(value, int | float) or (
        isinstance(value, str) and _SECONDS.fullmatch(value)
    ):
        raise ValueError("must be an ISO 8601 string")
    return value


def _email(value: str) -> str:
    try:
        return email_validator.validate_email(
            value, check_deliverability=False, test_environment=True
        ).normalized
    except email_validator.EmailNotValidError as error:
        raise ValueError(f"is not a valid e-mail address: {error}") from None


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
DbEmail = Annotated[
    str,
    AfterValidator(_storable_text),
    AfterValidator(_email),
    Field(json_schema_extra={"format": "email"}),
]
"""An e-mail address (syntax only; ``.test`` addresses are accepted), normalized.

Its schema says ``format: email`` alone: no address holds a NUL, so ``DbText``'s pattern
would say nothing more, and clients that generate values from the schema (schemathesis)
spend about 90 s of CPU finding strings that match both."""
# Constraints sit before the check of the JSON type: Pydantic places them on the number
# itself then, and they show in the JSON schema as `minimum`/`maximum`.
_JSON_INT = annotated_types.Interval(ge=JSON_INT_MIN, le=JSON_INT_MAX)
_FINITE = Field(allow_inf_nan=False)
_JSON_NUMBER = BeforeValidator(_json_number)
DbInt = Annotated[int, _JSON_INT, _JSON_NUMBER]
"""A JSON integer of at most 53 bits (what every JSON client holds exactly)."""
DbFloat = Annotated[float, _FINITE, _JSON_NUMBER]
"""A finite JSON number."""
FiniteFloat = Annotated[float, _FINITE]
"""A finite number given as text (a query parameter): no ``nan``, ``inf``, ``1e999``."""
DbBool = Annotated[bool, Strict()]
"""``true`` or ``false``."""
DbDate = Annotated[date, BeforeValidator(_iso_text)]
"""An ISO 8601 date."""
DbDatetime = Annotated[
    datetime, BeforeValidator(_iso_text), AfterValidator(_utc_representable)
]
"""An ISO 8601 date-time that exists in UTC; without an offset it is taken as UTC."""
JsonInt = Annotated[int, _JSON_NUMBER]
"""``jsonb`` holds integers of any size."""
_NO_EXTRA_KEYS = Field(json_schema_extra={"additionalProperties": False})
# Recursive: Pydantic resolves the quoted names; pyright does not follow a
# TypeAliasType into itself, hence the two ignores.
JsonItem = TypeAliasType(
    "JsonItem",
    DbText
    | JsonInt
    | DbFloat
    | DbBool
    | None
    | list["JsonItem"]  # pyright: ignore[reportInvalidTypeForm]
    | Annotated[dict[DbText, "JsonItem"], _NO_EXTRA_KEYS],  # pyright: ignore[reportInvalidTypeForm]
)
DbJson = Annotated[dict[DbText, JsonItem], _NO_EXTRA_KEYS]
"""A JSON object ``jsonb`` can hold: no NUL in its keys and strings, finite numbers."""


class ColumnRules(annotated_types.GroupedMetadata):
    """The constraints a mapped column states, as Pydantic metadata.

    For a number column they include the number checks of ``DbInt`` and ``DbFloat``
    (after the range, so the range shows in the JSON schema): annotate the field with
    ``Annotated[int, column_rules(...)]``, not with ``DbInt``.
    """

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
        return ColumnRules(annotated_types.Interval(ge=low, le=high), _JSON_NUMBER)
    if isinstance(column_type, FloatType):
        return ColumnRules(_FINITE, _JSON_NUMBER)
    if isinstance(column_type, Numeric):
        precision, scale = column_type.precision, column_type.scale or 0
        if precision is None:
            return ColumnRules(_FINITE, _JSON_NUMBER)
        # Below what rounds, at the column's scale, to a digit too many: PostgreSQL
        # stores 999.995 in a Numeric(5, 2) as 1000.00, past the column.
        bound = float(
            Decimal(10) ** (precision - scale)
            - Decimal(5) * Decimal(10) ** -(scale + 1)
        )
        return ColumnRules(
            _FINITE, annotated_types.Interval(gt=-bound, lt=bound), _JSON_NUMBER
        )
    if isinstance(column_type, DateTime) and not column_type.timezone:
        return ColumnRules(AfterValidator(_naive_utc))
    return ColumnRules()


def _naive_utc(value: datetime) -> datetime:
    """A column without time zone stores the UTC wall-clock time."""
    return value.astimezone(UTC).replace(tzinfo=None)
