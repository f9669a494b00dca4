"""Every value the request types accept is stored by a real PostgreSQL, and every value
just past what a column holds is refused before it reaches the database."""

import uuid
from datetime import UTC, datetime, timedelta, timezone
from decimal import Decimal
from typing import Annotated, Any

import pytest
import pytest_asyncio
from clients import asgi_client
from fastapi import FastAPI
from pydantic import BaseModel, ValidationError
from runtime.errors import register_error_handlers
from runtime.values import (
    INDEXED_TEXT_MAX_LENGTH,
    JSON_INT_MAX,
    DbBool,
    DbDate,
    DbDatetime,
    DbEmail,
    DbJson,
    DbText,
    column_rules,
)
from sqlalchemy import (
    BigInteger,
    DateTime,
    Numeric,
    SmallInteger,
    String,
    Text,
    insert,
    select,
)
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.ext.asyncio import AsyncEngine
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

SUFFIX = uuid.uuid4().hex[:8]


class Base(DeclarativeBase):
    pass


class Row(Base):
    __tablename__ = f"rows_{SUFFIX}"
    id: Mapped[int] = mapped_column(primary_key=True)
    code: Mapped[str | None] = mapped_column(String(2))
    slug: Mapped[str | None] = mapped_column(Text, unique=True)
    note: Mapped[str | None] = mapped_column(Text)
    small: Mapped[int | None] = mapped_column(SmallInteger)
    big: Mapped[int | None] = mapped_column(BigInteger)
    price: Mapped[Decimal | None] = mapped_column(Numeric(5, 2))
    ratio: Mapped[float | None]
    at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    local: Mapped[datetime | None] = mapped_column(DateTime())
    extra: Mapped[dict[str, Any] | None] = mapped_column(JSONB)


class RowBody(BaseModel):
    id: Annotated[int, column_rules(Row.id)]
    code: Annotated[DbText, column_rules(Row.code)] | None = None
    slug: Annotated[DbText, column_rules(Row.slug)] | None = None
    note: Annotated[DbText, column_rules(Row.note)] | None = None
    small: Annotated[int, column_rules(Row.small)] | None = None
    big: Annotated[int, column_rules(Row.big)] | None = None
    price: Annotated[float, column_rules(Row.price)] | None = None
    ratio: Annotated[float, column_rules(Row.ratio)] | None = None
    at: Annotated[DbDatetime, column_rules(Row.at)] | None = None
    local: Annotated[DbDatetime, column_rules(Row.local)] | None = None
    extra: DbJson | None = None


@pytest_asyncio.fixture(loop_scope="session", scope="module")
async def table(engine: AsyncEngine) -> Any:
    async with engine.begin() as connection:
        await connection.run_sync(Base.metadata.create_all)
    yield Row
    async with engine.begin() as connection:
        await connection.run_sync(Base.metadata.drop_all)


_ids = iter(range(1, 10_000))

EDGE = datetime(9999, 12, 31, 23, 0, tzinfo=timezone(timedelta(hours=-23)))


# Each case is accepted and stored, or refused naming its field.
ACCEPTED: list[dict[str, Any]] = [
    {"code": "ab"},
    {"code": "é€"},
    {"slug": "s" * INDEXED_TEXT_MAX_LENGTH},
    {"note": "n" * 100_000},
    {"small": -(2**15)},
    {"small": 2**15 - 1},
    {"big": JSON_INT_MAX},
    {"extra": {"huge": 2**80, "nested": [{"k": "v"}]}},
    {"price": 999.99},
    {"price": -999.99},
    {"ratio": 1.7976931348623157e308},
    {"at": "9999-12-31T23:59:59Z"},
    {"at": "0001-01-01T00:00:00+00:00"},
    {"at": "2024-01-31T12:00:00"},
    {"local": "2024-01-31T12:00:00+05:00"},
    {"extra": {"text": "ok", "deep": [1, 2.5, {"k": None}]}},
]
REFUSED: list[tuple[dict[str, Any], str]] = [
    ({"id": 2**31}, "id"),
    ({"id": -(2**31) - 1}, "id"),
    ({"code": "abc"}, "code"),
    ({"code": "a\x00"}, "code"),
    ({"note": "\ud800"}, "note"),
    ({"slug": "s" * (INDEXED_TEXT_MAX_LENGTH + 1)}, "slug"),
    ({"small": 2**15}, "small"),
    ({"big": JSON_INT_MAX + 1}, "big"),
    ({"id": "1"}, "id"),
    ({"id": 1.5}, "id"),
    ({"id": True}, "id"),
    ({"ratio": "1.5"}, "ratio"),
    ({"at": 0}, "at"),
    # Digits as text: Pydantic would read them as seconds (a query parameter is text).
    ({"at": "0"}, "at"),
    ({"at": "1700000000.5"}, "at"),
    ({"price": 1000.0}, "price"),
    # Rounded at the column's scale, 999.995 is 1000.00: one integer digit too many.
    ({"price": 999.995}, "price"),
    ({"price": -999.995}, "price"),
    ({"ratio": float("inf")}, "ratio"),
    ({"ratio": float("nan")}, "ratio"),
    ({"at": EDGE.isoformat()}, "at"),
    ({"at": "0001-01-01T00:00:00+01:00"}, "at"),
    ({"extra": {"text": "a\x00b"}}, "extra"),
    ({"extra": {"a\x00": 1}}, "extra"),
    ({"extra": {"n": float("inf")}}, "extra"),
]


@pytest.mark.asyncio(loop_scope="session")
@pytest.mark.parametrize("values", ACCEPTED, ids=lambda values: repr(values)[:40])
async def test_accepted_values_are_stored(
    table: type[Row], engine: AsyncEngine, values: dict[str, Any]
) -> None:
    body = RowBody.model_validate({"id": next(_ids), **values})
    async with engine.begin() as connection:
        await connection.execute(insert(table).values(**body.model_dump()))
        stored = (
            await connection.execute(select(table).where(table.id == body.id))
        ).one()
    for name in values:
        assert getattr(stored, name) is not None, name


@pytest.mark.parametrize("values,field", REFUSED, ids=lambda case: repr(case)[:40])
def test_refused_values_name_their_field(values: dict[str, Any], field: str) -> None:
    with pytest.raises(ValidationError) as refused:
        RowBody.model_validate({"id": 1, **values})
    assert {error["loc"][0] for error in refused.value.errors()} == {field}


def test_naive_columns_store_the_utc_time() -> None:
    body = RowBody.model_validate({"id": 1, "local": "2024-01-31T12:00:00+05:00"})
    assert body.local == datetime(2024, 1, 31, 7, 0)
    body = RowBody.model_validate({"id": 1, "at": "2024-01-31T12:00:00"})
    assert body.at == datetime(2024, 1, 31, 12, 0, tzinfo=UTC)


def test_constraints_are_in_the_json_schema() -> None:
    properties = RowBody.model_json_schema()["properties"]
    assert properties["id"]["maximum"] == 2**31 - 1
    assert properties["code"]["anyOf"][0]["maxLength"] == 2
    assert properties["code"]["anyOf"][0]["pattern"] == r"^[^\x00]*$"
    assert properties["slug"]["anyOf"][0]["maxLength"] == INDEXED_TEXT_MAX_LENGTH
    assert "maxLength" not in properties["note"]["anyOf"][0]
    assert properties["small"]["anyOf"][0]["minimum"] == -(2**15)
    # What rounds below 1000 at the column's 2 decimal places.
    assert properties["price"]["anyOf"][0]["exclusiveMaximum"] == 999.995
    assert properties["big"]["anyOf"][0]["minimum"] == -(2**53) + 1
    assert properties["big"]["anyOf"][0]["maximum"] == 2**53 - 1


class Scalars(BaseModel):
    flag: DbBool | None = None
    day: DbDate | None = None
    email: DbEmail | None = None


@pytest.mark.parametrize(
    "values",
    [
        {"flag": "true"},
        {"flag": 1},
        {"day": 0},
        {"email": "a@b"},
        {"email": "a\x00@b.c"},
    ],
)
def test_values_of_another_json_type_are_refused(values: dict[str, Any]) -> None:
    with pytest.raises(ValidationError):
        Scalars.model_validate(values)


def test_an_e_mail_s_schema_is_its_format_alone() -> None:
    # No address holds a NUL: a pattern saying so would only slow value generators.
    email = Scalars.model_json_schema()["properties"]["email"]["anyOf"][0]
    assert email == {"type": "string", "format": "email"}


def test_test_addresses_are_e_mail_addresses() -> None:
    assert Scalars.model_validate({"email": "ada@Example.TEST"}).email == (
        "ada@example.test"
    )


@pytest.mark.asyncio(loop_scope="session")
@pytest.mark.parametrize(
    ("segment", "status", "error"),
    [
        ("7", 200, None),
        ("0007", 200, None),
        ("32768", 422, "less_than_equal"),
        ("9" * 4_300, 422, "less_than_equal"),
        ("9" * 4_301, 422, "int_parsing_size"),
        ("0" * 10_000 + "7", 200, None),
        ("seven", 404, None),
    ],
    ids=lambda case: str(case)[:12],
)
async def test_integer_keys_in_the_path_are_validated_never_a_500(
    segment: str, status: int, error: str | None
) -> None:
    app = FastAPI()
    register_error_handlers(app)

    @app.get("/rows/{pk:int_key}")
    async def row(pk: Annotated[int, column_rules(Row.small)]) -> int:
        return pk

    async with asgi_client(app) as client:
        response = await client.get(f"/rows/{segment}")
    assert response.status_code == status, response.text[:200]
    if status == 200:
        assert response.json() == 7
    if error is not None:
        assert response.json()["detail"][0]["type"] == error
        assert response.json()["detail"][0]["loc"] == ["path", "pk"]
