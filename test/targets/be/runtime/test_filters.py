"""Filter conditions on a real table: every operator on every column type gives the
rows Python computes from the seed, hostile values stay values, trees nest."""

import uuid
from collections.abc import Callable
from datetime import date, timedelta
from typing import Annotated, Any, Literal

import pytest
from items import OWNERS, START, Item, Status, seed_items
from pydantic import BaseModel, ConfigDict, Field, Tag, ValidationError
from runtime.filters import (
    MAX_CONDITIONS,
    MAX_DEPTH,
    MAX_IN_VALUES,
    CommaSeparated,
    FilterUnion,
    InValues,
    Operator,
    TreeBounds,
    condition,
    param_conditions,
    split_commas,
    tree_condition,
)
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker
from sqlalchemy.sql.elements import ColumnElement

SEED = seed_items()
COLUMNS: dict[str, ColumnElement[Any]] = {
    "name": Item.name.expression,
    "rating": Item.rating.expression,
    "score": Item.score.expression,
    "status": Item.status.expression,
    "active": Item.active.expression,
    "made_on": Item.made_on.expression,
    "made_at": Item.made_at.expression,
    "owner_id": Item.owner_id.expression,
    "note": Item.note.expression,
    "id": Item.id.expression,
}

Check = Callable[[Any, Any], bool]
CHECKS: dict[Operator, Check] = {
    "eq": lambda field, value: field is not None and field == value,
    "neq": lambda field, value: field is not None and field != value,
    "gt": lambda field, value: field is not None and field > value,
    "gte": lambda field, value: field is not None and field >= value,
    "lt": lambda field, value: field is not None and field < value,
    "lte": lambda field, value: field is not None and field <= value,
    "contains": lambda field, value: (
        field is not None and value.lower() in field.lower()
    ),
    "starts_with": lambda field, value: (
        field is not None and field.lower().startswith(value.lower())
    ),
    "in": lambda field, value: field in value,
    "is_null": lambda field, value: (field is None) == value,
}

HOSTILE = [
    "' OR '1'='1",
    "Robert'); DROP TABLE students;--",
    "%",
    "_",
    "100%",
    "\\",
    "O'Brien",
]

CASES: list[tuple[str, Operator, Any]] = [
    *(
        (field, op, value)
        for field in ("name", "note")
        for value in HOSTILE
        for op in ("eq", "neq", "contains", "starts_with")
    ),
    ("name", "contains", "PASTA"),
    ("name", "starts_with", "postgres"),
    ("name", "in", ["Quiet mornings", "Postgres internals", "' OR 1=1 --"]),
    ("note", "is_null", True),
    ("note", "is_null", False),
    *(("rating", op, 2) for op in ("eq", "neq", "gt", "gte", "lt", "lte")),
    ("rating", "in", [0, 4]),
    *(("score", op, 5.2) for op in ("eq", "neq", "gt", "gte", "lt", "lte")),
    ("score", "is_null", True),
    ("score", "is_null", False),
    ("status", "eq", Status.live),
    ("status", "neq", Status.draft),
    ("status", "in", [Status.draft, Status.in_review]),
    ("active", "eq", True),
    ("active", "neq", True),
    *(
        ("made_on", op, date(2024, 1, 6))
        for op in ("eq", "neq", "gt", "gte", "lt", "lte")
    ),
    ("made_on", "in", [date(2024, 1, 1), date(2024, 1, 12)]),
    *(
        ("made_at", op, START + timedelta(hours=100))
        for op in ("eq", "gt", "gte", "lt", "lte")
    ),
    ("owner_id", "eq", OWNERS[1].id),
    ("owner_id", "in", [OWNERS[0].id, uuid.uuid4()]),
    ("id", "in", [1, 2, 3, 999]),
]


@pytest.mark.parametrize(("field", "op", "value"), CASES)
async def test_every_operator_matches_the_rows_python_computes(
    items: async_sessionmaker[AsyncSession], field: str, op: Operator, value: Any
) -> None:
    statement = select(Item.id).where(condition(COLUMNS[field], op, value))
    async with items() as session:
        found = set((await session.scalars(statement)).all())
    expected = {item.id for item in SEED if CHECKS[op](getattr(item, field), value)}
    assert found == expected
    # A hostile value is a value: the table is still there and whole.
    async with items() as session:
        assert len((await session.scalars(select(Item.id))).all()) == len(SEED)


def test_split_commas_accepts_commas_and_repeats() -> None:
    assert split_commas("a,b") == ["a", "b"]
    assert split_commas(["a,b", "c"]) == ["a", "b", "c"]
    assert split_commas([1, 2]) == [1, 2]
    assert split_commas(None) is None


class ItemParams(BaseModel):
    """Query parameters as a generated list declares them."""

    model_config = ConfigDict(extra="forbid")

    rating__gte: int | None = None
    status__in: Annotated[list[Status], CommaSeparated] | None = None
    active: bool | None = None
    name__contains: str | None = None
    limit: int = 50


async def test_query_parameters_all_hold(
    items: async_sessionmaker[AsyncSession],
) -> None:
    params = ItemParams.model_validate(
        {"rating__gte": "3", "status__in": "draft,live", "active": "true", "limit": "5"}
    )
    statement = select(Item.id).where(*param_conditions(params, COLUMNS))
    async with items() as session:
        found = set((await session.scalars(statement)).all())
    expected = {
        item.id
        for item in SEED
        if item.rating >= 3
        and item.status in (Status.draft, Status.live)
        and item.active
    }
    assert found == expected
    assert expected, "the seed must give this query some rows"
    assert param_conditions(ItemParams(), COLUMNS) == []


def test_query_parameters_reject_unknown_names_and_bad_values() -> None:
    with pytest.raises(ValidationError) as caught:
        ItemParams.model_validate({"ratng__gte": "3", "status__in": "gone"})
    assert {error["loc"][0] for error in caught.value.errors()} == {
        "ratng__gte",
        "status__in",
    }


class NameFilter(BaseModel):
    model_config = ConfigDict(extra="forbid")
    field: Literal["name"]
    op: Literal["eq", "contains"]
    value: str


class RatingFilter(BaseModel):
    model_config = ConfigDict(extra="forbid")
    field: Literal["rating"]
    op: Literal["eq", "gt", "lt"]
    value: int


class RatingInFilter(BaseModel):
    model_config = ConfigDict(extra="forbid")
    field: Literal["rating"]
    op: Literal["in"]
    value: Annotated[list[int], InValues]


class ScoreNullFilter(BaseModel):
    model_config = ConfigDict(extra="forbid")
    field: Literal["score"]
    op: Literal["is_null"]
    value: bool


class All(BaseModel):
    model_config = ConfigDict(extra="forbid")
    and_: list["ItemFilter"] = Field(alias="and", min_length=1)


class Any_(BaseModel):
    model_config = ConfigDict(extra="forbid")
    or_: list["ItemFilter"] = Field(alias="or", min_length=1)


ItemFilter = Annotated[
    Annotated[All, Tag("and")]
    | Annotated[Any_, Tag("or")]
    | Annotated[NameFilter, Tag("name")]
    | Annotated[RatingFilter, Tag("rating")]
    | Annotated[RatingInFilter, Tag("rating:in")]
    | Annotated[ScoreNullFilter, Tag("score:is_null")],
    FilterUnion,
]


class Body(BaseModel):
    filter: ItemFilter


async def test_trees_nest_and_and_or(items: async_sessionmaker[AsyncSession]) -> None:
    body = Body.model_validate(
        {
            "filter": {
                "or": [
                    {
                        "and": [
                            {"field": "rating", "op": "in", "value": [1, 2]},
                            {"field": "name", "op": "contains", "value": "pasta"},
                        ]
                    },
                    {"and": [{"field": "score", "op": "is_null", "value": True}]},
                    {"field": "rating", "op": "gt", "value": 3},
                ]
            }
        }
    )
    statement = select(Item.id).where(tree_condition(body.filter, COLUMNS))
    async with items() as session:
        found = set((await session.scalars(statement)).all())
    expected = {
        item.id
        for item in SEED
        if (item.rating in (1, 2) and "pasta" in item.name.lower())
        or item.score is None
        or item.rating > 3
    }
    assert found == expected


@pytest.mark.parametrize(
    "node",
    [
        {"field": "price", "op": "eq", "value": 1},
        {"field": "rating", "op": "is_null", "value": True},
        {"field": "name", "op": "gt", "value": "a"},
        {"field": "rating", "op": "in", "value": []},
        {"field": "rating", "op": "eq", "value": "' OR 1=1"},
        {"and": []},
        {"and": [{"field": "name", "op": "eq", "value": "x"}], "extra": 1},
        {"nonsense": True},
    ],
)
def test_trees_reject_unknown_fields_operators_and_values(node: dict[str, Any]) -> None:
    with pytest.raises(ValidationError):
        Body.model_validate({"filter": node})


class BoundedBody(BaseModel):
    filter: Annotated[ItemFilter | None, TreeBounds()] = None


def _rating(value: Any) -> dict[str, Any]:
    return {
        "field": "rating",
        "op": "in" if isinstance(value, list) else "eq",
        "value": value,
    }


def _nested(depth: int) -> dict[str, Any]:
    node: dict[str, Any] = _rating(1)
    for _ in range(depth):
        node = {"and": [node]}
    return node


@pytest.mark.parametrize(
    ("allowed", "refused"),
    [
        (
            {"or": [_rating(n) for n in range(MAX_CONDITIONS)]},
            {"or": [_rating(n) for n in range(MAX_CONDITIONS + 1)]},
        ),
        (_nested(MAX_DEPTH), _nested(MAX_DEPTH + 1)),
        (
            {"or": [_rating([1] * 600), _rating([2] * (MAX_IN_VALUES - 600))]},
            {"or": [_rating([1] * 600), _rating([2] * (MAX_IN_VALUES - 599))]},
        ),
        (_rating(list(range(MAX_IN_VALUES))), _rating(list(range(MAX_IN_VALUES + 1)))),
    ],
)
def test_trees_are_bounded_in_conditions_depth_and_values(
    allowed: dict[str, Any], refused: dict[str, Any]
) -> None:
    BoundedBody.model_validate({"filter": allowed})
    with pytest.raises(ValidationError) as caught:
        BoundedBody.model_validate({"filter": refused})
    assert [error["loc"][0] for error in caught.value.errors()] == ["filter"]


def test_an_oversized_tree_is_refused_before_it_is_validated() -> None:
    # 19,000 conditions, each invalid: one error, the bound's, and none of theirs.
    tree = {"or": [{"field": "rating", "op": "eq", "value": "x"}] * 19_000}
    with pytest.raises(ValidationError) as caught:
        BoundedBody.model_validate({"filter": tree})
    assert len(caught.value.errors()) == 1
    assert str(MAX_CONDITIONS) in caught.value.errors()[0]["msg"]


def test_the_bounds_are_in_the_json_schema() -> None:
    schema = BoundedBody.model_json_schema()
    assert str(MAX_CONDITIONS) in schema["properties"]["filter"]["description"]
    assert schema["$defs"]["RatingInFilter"]["properties"]["value"]["maxItems"] == (
        MAX_IN_VALUES
    )
