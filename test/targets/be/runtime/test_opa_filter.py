"""OPA's partial evaluation (Compile API results, OPA's own JSON) as SQL conditions."""

import uuid
from typing import Any

import pytest
from runtime.opa_filter import UnsupportedPolicy, row_condition
from sqlalchemy import Boolean, Column, Integer, MetaData, String, Table, Uuid
from sqlalchemy.dialects import postgresql

articles = Table(
    "articles",
    MetaData(),
    Column("title", String),
    Column("published", Boolean),
    Column("rating", Integer),
    Column("author_id", Uuid),
)
COLUMNS: dict[str, Any] = {column.name: column for column in articles.columns}
AUTHOR = "7d0f4a52-3c7e-4b61-9a53-0c7f3a1c9e11"


def field(name: str) -> dict[str, Any]:
    return {
        "type": "ref",
        "value": [
            {"type": "var", "value": "input"},
            {"type": "string", "value": "object"},
            {"type": "string", "value": name},
        ],
    }


def call(operator: str, *args: dict[str, Any], negated: bool = False) -> dict[str, Any]:
    head, *rest = operator.split(".")
    ref = [
        {"type": "var", "value": head},
        *({"type": "string", "value": part} for part in rest),
    ]
    expression: dict[str, Any] = {
        "index": 0,
        "terms": [{"type": "ref", "value": ref}, *args],
    }
    if negated:
        expression["negated"] = True
    return expression


def const(value: object) -> dict[str, Any]:
    kind = {bool: "boolean", str: "string", int: "number", type(None): "null"}[
        type(value)
    ]
    return {"type": kind, "value": value}


def sql(result: dict[str, Any]) -> str:
    condition = row_condition(result, COLUMNS)
    compiled = condition.compile(
        dialect=postgresql.dialect(), compile_kwargs={"literal_binds": True}
    )
    return str(compiled)


def test_no_queries_is_no_row() -> None:
    assert sql({}) == "false"


def test_an_empty_query_is_every_row() -> None:
    published = call("eq", field("published"), const(True))
    assert sql({"queries": [[], [published]]}) == "true"


def test_queries_are_ored_and_their_expressions_anded() -> None:
    result = {
        "queries": [
            [call("eq", field("published"), const(True))],
            [
                call("gte", field("rating"), const(4)),
                call("neq", field("title"), const("x")),
            ],
        ]
    }
    assert sql(result) == (
        "articles.published = true OR articles.rating >= 4 "
        "AND articles.title IS DISTINCT FROM 'x'"
    )


def test_a_constant_on_the_left_mirrors_the_comparison() -> None:
    assert (
        sql({"queries": [[call("lt", const(3), field("rating"))]]})
        == "articles.rating > 3"
    )


def test_a_subject_attribute_compares_as_a_uuid() -> None:
    condition = row_condition(
        {"queries": [[call("eq", const(AUTHOR), field("author_id"))]]}, COLUMNS
    )
    assert condition.right.value == uuid.UUID(AUTHOR)  # type: ignore[attr-defined]


def test_membership_in_a_set() -> None:
    member = call(
        "internal.member_2",
        field("title"),
        {"type": "set", "value": [const("a"), const("b")]},
    )
    assert sql({"queries": [[member]]}) == "articles.title IN ('a', 'b')"


def test_a_bare_boolean_field_and_its_negation() -> None:
    bare = {"index": 0, "terms": field("published")}
    assert sql({"queries": [[bare]]}) == "articles.published IS true"
    assert (
        sql({"queries": [[{**bare, "negated": True}]]})
        == "(articles.published IS true) IS NOT true"
    )


@pytest.mark.parametrize("constant", ["", "not-a-uuid", 7, True])
def test_a_constant_the_column_cannot_hold_equals_no_row(constant: object) -> None:
    # As in OPA, which compares JSON: a claim that is not a UUID matches no author_id.
    assert sql({"queries": [[call("eq", field("author_id"), const(constant))]]}) == (
        "false"
    )
    assert sql({"queries": [[call("neq", const(constant), field("author_id"))]]}) == (
        "true"
    )
    member = call(
        "internal.member_2",
        field("author_id"),
        {"type": "array", "value": [const(constant), const(AUTHOR)]},
    )
    assert sql({"queries": [[member]]}) == f"articles.author_id IN ('{AUTHOR}')"


def test_null_compares_with_is() -> None:
    assert (
        sql({"queries": [[call("eq", field("rating"), const(None))]]})
        == "articles.rating IS NULL"
    )


@pytest.mark.parametrize(
    ("expression", "named"),
    [
        (call("startswith", field("title"), const("a")), "startswith"),
        (call("eq", field("title"), field("title")), "a field with a constant"),
        (call("eq", field("nope"), const(1)), "input.object.nope"),
        (call("gt", field("rating"), const("high")), '"high", not a int'),
        (call("lte", field("author_id"), const("not-a-uuid")), "not a UUID"),
    ],
)
def test_anything_else_is_refused_naming_it(
    expression: dict[str, Any], named: str
) -> None:
    with pytest.raises(UnsupportedPolicy, match=named):
        row_condition({"queries": [[expression]]}, COLUMNS)


def test_support_modules_are_refused() -> None:
    with pytest.raises(UnsupportedPolicy, match="support modules"):
        row_condition({"queries": [[]], "support": [{"package": {}}]}, COLUMNS)


@pytest.mark.parametrize(
    "queries",
    [
        "all",
        {"a": 1},
        [1, 2],
        [["not an expression"]],
        [{"terms": []}],
        [[{"terms": [1, 2, 3]}]],
        [[{"terms": [{"type": "ref", "value": [7, 8, 9]}, 1]}]],
    ],
)
def test_malformed_answers_are_refused_not_crashed_on(queries: Any) -> None:
    with pytest.raises(UnsupportedPolicy):
        row_condition({"queries": queries}, COLUMNS)
