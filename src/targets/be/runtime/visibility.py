"""Row visibility: one rule per model, which the ORM applies to every read of a request.

A project's ``visibility.py`` names, for each model with a rule, the function that says
which rows a user may see: a condition over the model, or ``None`` for every row. A
rule may be async (OPA's rows ask the policy server over HTTP).
``RowVisibility.session_class`` is the class of the project's sessions. Each ORM
statement such a session runs (a select, an ORM ``update`` or ``delete``) gets
``with_loader_criteria`` for every rule, aliases included; a select hands the criteria
on to the loads of its relationships, whatever their strategy (joined, selectin,
subquery, lazy). So a hidden row is missing from lists, lookups, nested collections
(a nested single object is ``None``) and counts, and updates or deletes miss it.

Each rule is asked once per request, on the first statement that may read its model
(the model's table, or a model whose relationships, inheritance or column expressions
lead to it, anywhere in the statement): an async rule is awaited there, on the
session's own greenlet, so a request that reads no articles never asks about them.
Until then the model's criterion is ``false()``: a read the analysis missed shows no
row, never a hidden one. A rule that fails (OPA unreachable: 503) fails the statement.

The user is the one of the request the session serves: ``get_session`` stores the
request in ``session.info``, and the authentication dependencies record the user on
it (``recording``). A request without a signed-in user sees what the rule gives
``None``. A session that serves no request (a worker, a script) sees every row.
``Session.get`` answers from the identity map without a statement when the row is
already loaded in the session: the row was loaded through the rule.
"""

from collections.abc import Awaitable, Callable, Iterable, Mapping
from inspect import isawaitable
from typing import Annotated, Any

from fastapi import Depends, Request
from sqlalchemy import (
    ColumnElement,
    Executable,
    TableClause,
    and_,
    event,
    false,
    inspect,
)
from sqlalchemy.orm import Mapper, ORMExecuteState, Session, with_loader_criteria
from sqlalchemy.sql import visitors
from sqlalchemy.util import await_only

Condition = ColumnElement[bool] | None
Rule = Callable[[Any], Condition | Awaitable[Condition]]
"""Which rows of a model *user* (``None`` without one) may see; ``None``: all."""

REQUEST = "request"
"""The key of ``session.info`` that holds the request a session serves."""

_USER = "current_user"
_CONDITIONS = "visibility_conditions"


def all_of(*rules: Rule) -> Rule:
    """The rule of a model with several: a row must meet each of *rules*."""

    async def every(user: Any) -> Condition:
        conditions = []
        for rule in rules:
            condition = rule(user)
            if isawaitable(condition):
                condition = await condition
            if condition is not None:
                conditions.append(condition)
        return and_(*conditions) if conditions else None

    return every


def remember_user(request: Any, user: Any) -> None:
    """Record *user* as the one *request* acts for (``None``: nobody signed in)."""
    setattr(request.state, _USER, user)


def request_user(request: Any) -> Any:
    """The user recorded for *request*, or ``None`` when none was."""
    return getattr(request.state, _USER, None)


def recording(dependency: Callable[..., Any]) -> Callable[..., Awaitable[Any]]:
    """*dependency*, a FastAPI dependency that gives the user, as one that also records
    the user on the request for row visibility. ``CurrentUser`` and ``OptionalUser``
    depend on it, so every route with a user has it recorded before its body runs."""

    async def recorded(
        request: Request, user: Annotated[Any, Depends(dependency)]
    ) -> Any:
        remember_user(request, user)
        return user

    return recorded


class RowVisibility:
    """The visibility rules of some models, and the session class applying them."""

    def __init__(self, rules: Mapping[type[Any], Rule]) -> None:
        self.rules: dict[type[Any], Rule] = dict(rules)
        """The rule of each model, read at every request: a test may replace one."""
        self._readers: dict[type[Any], frozenset[str]] | None = None

        class VisibleSession(Session):
            """A session whose ORM statements meet the visibility rules."""

        event.listen(VisibleSession, "do_orm_execute", self._restrict)
        self.session_class: type[Session] = VisibleSession

    def _restrict(self, state: ORMExecuteState) -> None:
        # Relationship and column loads carry the criteria of the statement that loaded
        # their parent (propagate_to_loaders); adding them again would repeat them.
        if state.is_relationship_load or state.is_column_load:
            return
        if not (state.is_select or state.is_update or state.is_delete):
            return
        request = state.session.info.get(REQUEST)
        if request is None:
            return
        options = self._criteria(request, state.statement)
        if options:
            state.statement = state.statement.options(*options)

    def _criteria(self, request: Any, statement: Executable) -> list[Any]:
        """The loader criteria of *statement* for *request*'s user: one per rule.

        A rule not asked yet in this request is asked (an async one awaited) when the
        statement may read its model; else its criterion hides every row for now.
        """
        user = request_user(request)
        cached = getattr(request.state, _CONDITIONS, None)
        if cached is None or cached[0] is not self or cached[1] is not user:
            cached = (self, user, {})
            setattr(request.state, _CONDITIONS, cached)
        conditions: dict[type[Any], Condition] = cached[2]
        tables: set[str] | None = None
        options = []
        for model, rule in self.rules.items():
            if model not in conditions:
                if tables is None:
                    tables = _tables(statement)
                if self._read_through(model).isdisjoint(tables):
                    options.append(_criterion(model, false()))
                    continue
                condition = rule(user)
                if isawaitable(condition):
                    condition = await_only(condition)
                conditions[model] = condition
            condition = conditions[model]
            if condition is not None:
                options.append(_criterion(model, condition))
        return options

    def _read_through(self, model: type[Any]) -> frozenset[str]:
        """The tables whose statements may read rows of *model*: its own, and those of
        every mapped class that leads to it."""
        if self._readers is None:
            self._readers = _readers(self.rules)
        return self._readers[model]


def _criterion(model: type[Any], condition: ColumnElement[bool]) -> Any:
    return with_loader_criteria(
        model, condition, include_aliases=True, propagate_to_loaders=True
    )


def _tables(statement: Any) -> set[str]:
    """The names of every table *statement* names, in subqueries and aliases too."""
    return {
        element.fullname
        for element in visitors.iterate(statement)
        if isinstance(element, TableClause)
    }


def _readers(models: Iterable[type[Any]]) -> dict[type[Any], frozenset[str]]:
    """For each of *models*, the tables of the mapped classes whose loads may read its
    rows: through relationships (any depth), inheritance, or a column expression."""
    mappers = {mapper for model in models for mapper in inspect(model).registry.mappers}
    by_table = {table.fullname: mapper for mapper in mappers for table in mapper.tables}

    def next_to(mapper: Mapper[Any]) -> set[Mapper[Any]]:
        near = {relationship.mapper for relationship in mapper.relationships}
        near.update(mapper.self_and_descendants, mapper.iterate_to_root())
        for attribute in mapper.column_attrs:
            for column in attribute.columns:
                near.update(
                    by_table[name] for name in _tables(column) if name in by_table
                )
        return near

    leads = {mapper: next_to(mapper) for mapper in mappers}
    readers: dict[type[Any], frozenset[str]] = {}
    for model in models:
        target = inspect(model)
        names = {
            table.fullname
            for mapper in mappers
            if target in _reachable(mapper, leads)
            for table in mapper.tables
        }
        readers[model] = frozenset(names)
    return readers


def _reachable(
    start: Mapper[Any], leads: Mapping[Mapper[Any], set[Mapper[Any]]]
) -> set[Mapper[Any]]:
    seen = {start}
    todo = [start]
    while todo:
        for mapper in leads.get(todo.pop(), set()):
            if mapper not in seen:
                seen.add(mapper)
                todo.append(mapper)
    return seen
