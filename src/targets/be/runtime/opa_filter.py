"""Row filters from OPA's partial evaluation: Compile API results as SQL conditions.

``POST /v1/compile`` with ``input.object`` unknown answers ``result.queries``: a list of
queries that are ORed, each a list of expressions that are ANDed, over the object's
fields. ``row_condition`` translates a documented subset (docs/authorization.md):
comparisons (``==``, ``!=``, ``<``, ``<=``, ``>``, ``>=``) of a field with a constant
(subject attributes are constants by then), membership of a field in a set or array of
constants, a boolean field on its own, and ``not`` of any of these. Anything else raises
``UnsupportedPolicy`` naming the expression: a policy is never applied in part. A
constant the field's column cannot hold equals no row, as in OPA's own comparison.
"""

import datetime
import decimal
import json
import uuid
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeGuard

from sqlalchemy import ColumnElement, and_, false, or_, true

Column = ColumnElement[Any]
Columns = Mapping[str, Column]

_COMPARISONS: dict[str, Callable[[Column, Any], ColumnElement[bool]]] = {
    "eq": lambda column, value: column == value,
    "equal": lambda column, value: column == value,
    "neq": lambda column, value: column.is_distinct_from(value),
    "lt": lambda column, value: column < value,
    "lte": lambda column, value: column <= value,
    "gt": lambda column, value: column > value,
    "gte": lambda column, value: column >= value,
}
# ``3 < input.object.x`` is ``input.object.x > 3``.
_MIRRORED = {"lt": "gt", "lte": "gte", "gt": "lt", "gte": "lte"}
_MEMBERSHIP = "internal.member_2"
_SCALARS = ("string", "number", "boolean", "null")


class UnsupportedPolicy(Exception):
    """The policy's partial evaluation holds an expression outside the subset."""


def row_condition(result: Mapping[str, Any], columns: Columns) -> ColumnElement[bool]:
    """The condition rows meet when the policy allows them, from a Compile API *result*.

    *columns* maps the object's field names to the model's columns. No queries: no row;
    an empty query: every row.
    """
    if result.get("support"):
        raise UnsupportedPolicy(
            "the policy's partial evaluation needs support modules (rules it could not "
            "inline, such as functions or partial sets over the object); "
            "write the object's conditions in the decision's own rules"
        )
    queries = result.get("queries") or []
    if not isinstance(queries, list) or not all(
        isinstance(query, list) and all(isinstance(item, Mapping) for item in query)
        for query in queries
    ):
        raise UnsupportedPolicy(
            "the compile answer's queries are not a list of lists of expressions"
        )
    conditions = [_query(query, columns) for query in queries]
    if not conditions:
        return false()
    return conditions[0] if len(conditions) == 1 else or_(*conditions)


def _query(
    expressions: Sequence[Mapping[str, Any]], columns: Columns
) -> ColumnElement[bool]:
    conditions = [_expression(expression, columns) for expression in expressions]
    if not conditions:
        return true()
    return conditions[0] if len(conditions) == 1 else and_(*conditions)


def _expression(expression: Mapping[str, Any], columns: Columns) -> ColumnElement[bool]:
    if "with" in expression:
        raise _unsupported(expression, "`with` modifiers")
    terms = expression.get("terms")
    if isinstance(terms, Mapping):
        condition = _truthy(terms, columns, expression)
    elif (
        isinstance(terms, list)
        and terms
        and all(isinstance(term, Mapping) for term in terms)
    ):
        condition = _call(terms, columns, expression)
    else:
        raise _unsupported(expression, "an empty expression")
    # ``not`` holds where the condition does not: false, and NULL too.
    return condition.is_not(True) if expression.get("negated") else condition


def _truthy(
    term: Mapping[str, Any], columns: Columns, expression: Mapping[str, Any]
) -> ColumnElement[bool]:
    """A field on its own: true where a boolean field is true."""
    name = _field(term)
    column = columns.get(name) if name is not None else None
    if column is None or _python_type(column) is not bool:
        raise _unsupported(
            expression, "a term other than a boolean field of the object"
        )
    return column.is_(True)


def _call(
    terms: Sequence[Mapping[str, Any]],
    columns: Columns,
    expression: Mapping[str, Any],
) -> ColumnElement[bool]:
    operator = _operator(terms[0])
    args = terms[1:]
    if operator == _MEMBERSHIP and len(args) == 2:
        name, values = _field(args[0]), _collection(args[1])
        if name is None or values is None:
            raise _unsupported(expression, "membership other than a field in constants")
        column = _column(columns, name, expression)
        # A value the column cannot hold equals no row's, in OPA as here.
        return column.in_([v for v in values if _fits(column, v)])
    if operator not in _COMPARISONS or len(args) != 2:
        raise _unsupported(expression, f"the operator {operator or '?'}")
    left, right = _field(args[0]), _field(args[1])
    if left is not None and right is None and args[1].get("type") in _SCALARS:
        name, constant = left, args[1]["value"]
    elif right is not None and left is None and args[0].get("type") in _SCALARS:
        name, constant = right, args[0]["value"]
        operator = _MIRRORED.get(operator, operator)
    else:
        raise _unsupported(
            expression, "a comparison other than a field with a constant"
        )
    column = _column(columns, name, expression)
    if operator in ("eq", "equal", "neq"):
        if constant is None:
            return column.is_(None) if operator != "neq" else column.is_not(None)
        if not _fits(column, constant):
            # OPA compares JSON: no row's field equals a constant the column cannot
            # hold (a claim that is not a UUID, against a UUID column).
            return true() if operator == "neq" else false()
    return _COMPARISONS[operator](column, _coerce(column, constant, expression))


def _operator(term: Mapping[str, Any]) -> str | None:
    """``eq``, ``internal.member_2``: the name of a built-in the term refers to."""
    parts = term.get("value") if term.get("type") == "ref" else None
    if not _terms(parts) or parts[0].get("type") != "var":
        return None
    return ".".join(str(part.get("value")) for part in parts)


def _field(term: Mapping[str, Any]) -> str | None:
    """The field of ``input.object.<field>``, or None for any other term."""
    parts = term.get("value") if term.get("type") == "ref" else None
    if not _terms(parts) or len(parts) != 3:
        return None
    head, middle, field = parts
    if (head.get("type"), head.get("value")) != ("var", "input"):
        return None
    if (middle.get("type"), middle.get("value")) != ("string", "object"):
        return None
    return field.get("value") if field.get("type") == "string" else None


def _collection(term: Mapping[str, Any]) -> list[Any] | None:
    """The values of a set or array of constants, or None for any other term."""
    if term.get("type") not in ("set", "array"):
        return None
    items = term.get("value") or []
    if not _terms(items) and items != []:
        return None
    if any(item.get("type") not in _SCALARS for item in items):
        return None
    return [item["value"] for item in items]


def _terms(value: Any) -> TypeGuard[list[Mapping[str, Any]]]:
    """Whether *value* is a non-empty list of terms (JSON objects)."""
    return (
        isinstance(value, list)
        and bool(value)
        and all(isinstance(item, Mapping) for item in value)
    )


def _column(columns: Columns, name: str, expression: Mapping[str, Any]) -> Column:
    column = columns.get(name)
    if column is None:
        raise _unsupported(expression, f"input.object.{name}, which is not a column")
    return column


def _python_type(column: Column) -> type | None:
    try:
        return column.type.python_type
    except NotImplementedError:
        return None


class _Mismatch(ValueError):
    """A constant the column cannot hold."""


def _fits(column: Column, value: Any) -> bool:
    """Whether *value* (JSON) can be a value of *column*."""
    try:
        _as_column_type(column, value)
    except _Mismatch:
        return False
    return True


def _coerce(column: Column, value: Any, expression: Mapping[str, Any]) -> Any:
    """*value* (JSON) as the column's Python type; ordering a column by a constant it
    cannot hold is outside the subset."""
    try:
        return _as_column_type(column, value)
    except _Mismatch as error:
        raise _unsupported(expression, str(error)) from error


def _as_column_type(column: Column, value: Any) -> Any:
    python_type = _python_type(column)
    if python_type is None:
        return value
    try:
        if python_type is bool:
            if isinstance(value, bool):
                return value
        elif python_type in (int, float, decimal.Decimal):
            if isinstance(value, int | float) and not isinstance(value, bool):
                return (
                    value
                    if python_type is not decimal.Decimal
                    else decimal.Decimal(str(value))
                )
        elif isinstance(value, str):
            if python_type is uuid.UUID:
                return uuid.UUID(value)
            if python_type is datetime.datetime:
                return datetime.datetime.fromisoformat(value)
            if python_type is datetime.date:
                return datetime.date.fromisoformat(value)
            return value
    except ValueError:
        pass
    raise _Mismatch(f"{json.dumps(value)}, not a {python_type.__name__}")


def _unsupported(expression: Mapping[str, Any], what: str) -> UnsupportedPolicy:
    return UnsupportedPolicy(
        f"the policy's condition on the object has {what} "
        f"(expression {json.dumps(expression, separators=(',', ':'))}); "
        "row filters support comparisons and membership of fields with constants, "
        "and/or and not (docs/authorization.md)"
    )
