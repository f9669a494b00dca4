"""Row visibility: one rule per model, which the ORM applies to every read of a request.

A project's ``visibility.py`` names, for each model with a ``visible`` rule, the
function that says which rows a user may see: a condition over the model, or ``None``
for every row. ``RowVisibility.session_class`` is the class of the project's sessions.
Each ORM statement such a session runs (a select, an ORM ``update`` or ``delete``) gets
``with_loader_criteria`` for every rule, aliases included; a select hands the criteria
on to the loads of its relationships, whatever their strategy (joined, selectin,
subquery, lazy). So a hidden row is missing from lists, lookups, nested collections
(a nested single object is ``None``) and counts, and updates or deletes miss it.

The user is the one of the request the session serves: ``get_session`` stores the
request in ``session.info``, and the authentication dependencies record the user on
it (``recording``). A request without a signed-in user sees what the rule gives
``None``. A session that serves no request (a worker, a script) sees every row.
``Session.get`` answers from the identity map without a statement when the row is
already loaded in the session: the row was loaded through the rule.
"""

from collections.abc import Awaitable, Callable, Mapping
from typing import Annotated, Any

from fastapi import Depends, Request
from sqlalchemy import ColumnElement, event
from sqlalchemy.orm import ORMExecuteState, Session, with_loader_criteria

Rule = Callable[[Any], ColumnElement[bool] | None]
"""Which rows of a model *user* (``None`` without one) may see; ``None``: all."""

REQUEST = "request"
"""The key of ``session.info`` that holds the request a session serves."""

_USER = "current_user"


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
        self._rules = dict(rules)

        class VisibleSession(Session):
            """A session whose ORM statements meet the visibility rules."""

        event.listen(VisibleSession, "do_orm_execute", self._restrict)
        self.session_class: type[Session] = VisibleSession

    def criteria(self, user: Any) -> list[Any]:
        """The loader criteria of *user*: one per model whose rule hides rows."""
        options = []
        for model, rule in self._rules.items():
            condition = rule(user)
            if condition is not None:
                options.append(
                    with_loader_criteria(
                        model,
                        condition,
                        include_aliases=True,
                        propagate_to_loaders=True,
                    )
                )
        return options

    def _restrict(self, state: ORMExecuteState) -> None:
        # Relationship and column loads carry the criteria of the statement that loaded
        # their parent (propagate_to_loaders); adding them again would repeat them.
        if state.is_relationship_load or state.is_column_load:
            return
        if not (state.is_select or state.is_update or state.is_delete):
            return
        info = state.session.info
        if REQUEST not in info:
            return
        options = self.criteria(request_user(info[REQUEST]))
        if options:
            state.statement = state.statement.options(*options)
