"""The order of generated lists: declared fields, a default, the primary key last.

``order_by=price,-created_at`` sorts by price, then newest first. The primary key
always ends the order, in the direction of the key before it, so the order is total:
keyset pagination never repeats or skips a row, and an index on ``(field, key)``
serves both directions. NULLs sort where PostgreSQL puts them by default: after every
value ascending, before every value descending.
"""

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from functools import cache, cached_property, lru_cache
from typing import Any

from pydantic import AfterValidator, TypeAdapter
from sqlalchemy.orm import QueryableAttribute
from sqlalchemy.sql.elements import ColumnElement, UnaryExpression

ColumnLike = ColumnElement[Any] | QueryableAttribute[Any]
"""A column of a model (``Article.rating``) or any SQL expression."""


def as_expression(column: ColumnLike) -> ColumnElement[Any]:
    """The SQL expression of a mapped attribute, or the expression itself."""
    return column.expression if isinstance(column, QueryableAttribute) else column


def _attribute_name(column: ColumnLike, model: object) -> str | None:
    # Only an attribute of the listed model (the primary key's) can be read back from
    # the objects a page holds; any other expression is selected beside them.
    if isinstance(column, QueryableAttribute) and column.class_ is model:
        return column.key
    return None


@dataclass(frozen=True, eq=False)
class SortKey:
    """One key of an order: what to sort by, which way, and whether it may be NULL.

    Keys compare (and hash) by identity: an ``Ordering`` hands out the same keys for the
    same ``order_by``, so what is derived from them is built once, not per request.
    """

    name: str
    expression: ColumnElement[Any]
    descending: bool = False
    nullable: bool = False
    attribute: str | None = None
    """The listed model's attribute holding the key's value, when the key is one of
    its columns: a page reads its cursor from its last object, selecting no more."""

    @cached_property
    def clause(self) -> UnaryExpression[Any]:
        """The ``ORDER BY`` term."""
        return self.expression.desc() if self.descending else self.expression.asc()

    @property
    def signed_name(self) -> str:
        """``-name`` when descending, as ``order_by`` writes it."""
        return f"-{self.name}" if self.descending else self.name

    @property
    def adapter(self) -> TypeAdapter[Any]:
        """Validates a key value read back from a cursor."""
        return _adapter(self.expression.type.python_type, self.nullable)


@cache
def _adapter(python_type: Any, nullable: bool) -> TypeAdapter[Any]:
    # Building an adapter costs far more than using one: one per key type per process.
    return TypeAdapter(python_type | None if nullable else python_type)


def reject_repeats(order_by: list[str] | None) -> list[str] | None:
    """``order_by`` names each field once (``title,-title`` is a contradiction)."""
    if order_by is None:
        return None
    seen: set[str] = set()
    for term in order_by:
        name = term.removeprefix("-")
        if name in seen:
            raise ValueError(f"{name!r} appears twice in order_by")
        seen.add(name)
    return order_by


NoRepeats = AfterValidator(reject_repeats)
"""Annotation of a generated ``order_by``: each field at most once."""


class Ordering:
    """The orders one list offers: its sortable fields, its default, its key."""

    def __init__(
        self,
        key: ColumnLike,
        fields: Mapping[str, ColumnLike] | None = None,
        *,
        nullable: Collection[str] = (),
        default: Sequence[str] = (),
    ) -> None:
        """*key* is the primary key; *default* is used when a request gives no order."""
        self._key = as_expression(key)
        model = key.class_ if isinstance(key, QueryableAttribute) else None
        self._key_attribute = _attribute_name(key, model)
        self._fields = {
            name: as_expression(column) for name, column in (fields or {}).items()
        }
        self._attributes = {
            name: _attribute_name(column, model)
            for name, column in (fields or {}).items()
        }
        self._nullable = frozenset(nullable)
        self._default = tuple(default)
        # Bounded: order_by may combine its fields in many ways.
        self._order_keys = lru_cache(maxsize=64)(self._build_keys)

    @property
    def key_name(self) -> str:
        """The primary key's attribute name."""
        return self._key.key or "key"

    def keys(
        self, order_by: Sequence[str] | None = None, *, first: SortKey | None = None
    ) -> tuple[SortKey, ...]:
        """The sort keys of a request: *first* (a search's relevance), then *order_by*
        (else the default, unless *first* is given), then the primary key."""
        if first is None:
            return self._order_keys(tuple(order_by or self._default))
        return self._build_keys(tuple(order_by or ()), first)

    def _build_keys(
        self, terms: tuple[str, ...], first: SortKey | None = None
    ) -> tuple[SortKey, ...]:
        keys = [first] if first else []
        for term in terms:
            name = term.removeprefix("-")
            keys.append(
                SortKey(
                    name,
                    self._fields[name],
                    term.startswith("-"),
                    name in self._nullable,
                    self._attributes[name],
                )
            )
        if not any(key.expression.compare(self._key) for key in keys):
            descending = keys[-1].descending if keys else False
            keys.append(
                SortKey(
                    self.key_name,
                    self._key,
                    descending,
                    attribute=self._key_attribute,
                )
            )
        return tuple(keys)
