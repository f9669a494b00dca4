"""Filters of generated lists: query parameters and and/or trees, turned into SQL.

A list declares its filterable fields and their operators; the generated schemas
validate every value and operator before these helpers run, so they only build
conditions. Values are always bound parameters: nothing a client sends becomes SQL.
A query parameter is ``field`` (``eq``) or ``field__op``; the conditions of a query
string and of a tree's ``and`` group all hold at once.

What one request may ask is bounded, so no request costs the server more than a page:
an ``in`` list holds at most ``MAX_IN_VALUES`` values (``MAX_QUERY_IN_VALUES`` in a
query string, which must fit the server's limit on a request's head), and a search
tree at most
``MAX_CONDITIONS`` conditions in groups nested at most ``MAX_DEPTH`` deep, with at most
``MAX_IN_VALUES`` ``in`` values in all (each is a bound parameter, and PostgreSQL's
protocol carries at most 32,767 per statement). Past a bound the answer is a 422 naming
the field; a tree is measured before it is validated, so an oversized one costs little.
"""

from collections.abc import Iterable, Iterator, Mapping
from typing import Any, Literal, cast, get_args

import annotated_types
from pydantic import BaseModel, BeforeValidator, Discriminator, Field
from sqlalchemy import and_, false, or_, true
from sqlalchemy.sql.elements import ColumnElement

from .ordering import ColumnLike, as_expression

Operator = Literal[
    "eq", "neq", "gt", "gte", "lt", "lte", "contains", "starts_with", "in", "is_null"
]

OPERATORS: tuple[Operator, ...] = get_args(Operator)

# Operators whose value is not one value of the field: a list, or a boolean.
_SHAPED_OPERATORS = ("in", "is_null")

MAX_IN_VALUES = 1_000
"""Values of one ``in`` list of a search, and of all the ``in`` lists of its tree."""
MAX_QUERY_IN_VALUES = 100
"""Values of one ``in`` query parameter: a request's head holds at most 16 KiB
(``server.py``), and 100 UUIDs take about 5 KB of it, so the two or three key lists
of a list fit together; a longer list goes in a search's body."""
MAX_CONDITIONS = 100
"""Conditions (``{"field", "op", "value"}``) of one search tree."""
MAX_DEPTH = 10
"""Levels of ``and``/``or`` groups in one search tree (a lone condition is level 0)."""

InValues = annotated_types.Len(1, MAX_IN_VALUES)
"""Annotation of a search's ``in`` list: one value at least, ``MAX_IN_VALUES``
at most."""
InQuery = annotated_types.Len(1, MAX_QUERY_IN_VALUES)
"""Annotation of an ``__in`` query parameter: one value at least,
``MAX_QUERY_IN_VALUES`` at most."""


def split_commas(value: Any) -> Any:
    """Turn ``a,b`` (and repeated parameters) into one list of values."""
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list):
        return value
    parts: list[Any] = []
    for item in value:
        parts.extend(item.split(",") if isinstance(item, str) else [item])
    return parts


CommaSeparated = BeforeValidator(split_commas)
"""Annotation of ``__in`` query parameters: ``?status__in=a,b`` or repeated."""


def _fields(node: Any) -> dict[str, Any]:
    """A tree node's keys: the JSON object as sent, or a validated node's fields."""
    return node if isinstance(node, dict) else getattr(node, "__dict__", {})


def _tree_nodes(tree: Any) -> Iterator[tuple[dict[str, Any], int]]:
    """The keys of each node of a filter tree, with the node's depth."""
    stack = [(tree, 0)]
    while stack:
        node, depth = stack.pop()
        data = _fields(node)
        yield data, depth
        for key in ("and", "or", "and_", "or_"):
            children = data.get(key)
            if isinstance(children, list):
                stack.extend((child, depth + 1) for child in children)


def bounded_tree(tree: Any) -> Any:
    """*tree* unchanged if it is within the bounds of a search, else a ``ValueError``.

    Runs before the tree is validated, on the JSON as sent; it stops at the first
    bound passed, so its cost is bounded too.
    """
    conditions = values = 0
    for node, depth in _tree_nodes(tree):
        if depth > MAX_DEPTH:
            raise ValueError(f"groups may be nested at most {MAX_DEPTH} deep")
        if filter_tag(node) in (None, "and", "or"):
            continue
        conditions += 1
        if conditions > MAX_CONDITIONS:
            raise ValueError(f"a search holds at most {MAX_CONDITIONS} conditions")
        value = node.get("value")
        values += len(value) if isinstance(value, list) else 0
        if values > MAX_IN_VALUES:
            raise ValueError(
                f"the in lists of a search hold at most {MAX_IN_VALUES:,} values in all"
            )
    return tree


class TreeBounds(annotated_types.GroupedMetadata):
    """Annotation of a search body's ``filter``: :func:`bounded_tree`, documented."""

    def __iter__(self) -> Iterator[object]:
        yield BeforeValidator(bounded_tree)
        yield Field(
            description=(
                f"Conditions, combined with and/or groups: at most {MAX_CONDITIONS} "
                f"conditions, groups nested at most {MAX_DEPTH} deep, and at most "
                f"{MAX_IN_VALUES:,} values in all the in lists together."
            )
        )


def condition(column: ColumnLike, op: Operator, value: Any) -> ColumnElement[bool]:
    """The SQL condition ``column <op> value``; ``value`` is bound, never inlined.

    ``contains`` and ``starts_with`` ignore case and match ``%`` and ``_`` literally.
    """
    column = as_expression(column)
    if op == "eq":
        return column == value
    if op == "neq":
        return column != value
    if op == "gt":
        return column > value
    if op == "gte":
        return column >= value
    if op == "lt":
        return column < value
    if op == "lte":
        return column <= value
    if op == "contains":
        return column.icontains(value, autoescape=True)
    if op == "starts_with":
        return column.istartswith(value, autoescape=True)
    if op == "in":
        return column.in_(value)
    return column.is_(None) if value else column.is_not(None)


def param_conditions(
    params: BaseModel, columns: Mapping[str, ColumnLike]
) -> list[ColumnElement[bool]]:
    """The conditions of the filter parameters a request set (``rating__gte=3``)."""
    clauses: list[ColumnElement[bool]] = []
    for name in sorted(params.model_fields_set):
        field, _, op = name.partition("__")
        if field in columns:
            clauses.append(
                condition(columns[field], _operator(op or "eq"), getattr(params, name))
            )
    return clauses


def tree_condition(node: Any, columns: Mapping[str, ColumnLike]) -> ColumnElement[bool]:
    """The condition of a validated filter tree node.

    A node is a group (``and_`` or ``or_``: a list of nodes) or a condition (``field``,
    ``op``, ``value``), as the generated filter schemas define them.
    """
    group = getattr(node, "and_", None)
    if group is not None:
        return and_(true(), *_children(group, columns))
    group = getattr(node, "or_", None)
    if group is not None:
        return or_(false(), *_children(group, columns))
    return condition(columns[node.field], _operator(node.op), node.value)


def _children(
    nodes: Iterable[Any], columns: Mapping[str, ColumnLike]
) -> list[ColumnElement[bool]]:
    return [tree_condition(child, columns) for child in nodes]


def _operator(name: str) -> Operator:
    if name not in OPERATORS:
        raise ValueError(f"unknown filter operator {name!r}")
    return cast(Operator, name)


def filter_tag(value: Any) -> str | None:
    """Which member of a generated filter union a tree node is.

    ``and`` and ``or`` for groups; for a condition its field, with ``:in`` or
    ``:is_null`` for the operators whose value has another shape.
    """
    data = _fields(value)
    if "and" in data or "and_" in data:
        return "and"
    if "or" in data or "or_" in data:
        return "or"
    field, op = data.get("field"), data.get("op")
    if not isinstance(field, str):
        return None
    return f"{field}:{op}" if op in _SHAPED_OPERATORS else field


FilterUnion = Discriminator(
    filter_tag,
    custom_error_type="unknown_filter",
    custom_error_message="Unknown filter field, or an operator it does not allow",
)
"""The discriminator of a generated filter union (see :func:`filter_tag`)."""
