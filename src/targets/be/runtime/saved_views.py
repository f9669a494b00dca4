"""Saved views: a user's named query (filters, search, order) and columns of a list.

Copied into a generated tree whose resources have ``view_*`` entries. One table,
``saved_views``, holds the views of every resource, each row keyed by its owner (the
signed-in user's subject) and its resource. Routes reach the table only through
``Views``, made from the current user and the resource: every statement of this module
is limited to that owner's views of that resource, so no route can read, change or
delete another user's view (a view of someone else is a 404, as a row that does not
exist). The owner never comes from a request body.

A view's ``query`` is stored as the list's query parameters, validated by the list's
own query model when saved: ``GET {prefix}`` with them gives the view's rows.
"""

import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from pydantic import BaseModel
from sqlalchemy import (
    Column,
    ColumnElement,
    DateTime,
    MetaData,
    Table,
    Text,
    UniqueConstraint,
    Uuid,
    and_,
    delete,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.ext.asyncio import AsyncSession

metadata = MetaData()
"""The table of this module, for migrations (the generated ``database.py`` lists it)."""

saved_views = Table(
    "saved_views",
    metadata,
    Column("id", Uuid, primary_key=True),
    Column("owner", Text, nullable=False),
    Column("resource", Text, nullable=False),
    Column("name", Text, nullable=False),
    Column("query", JSONB, nullable=False),
    Column("columns", JSONB, nullable=False),
    Column(
        "created_at", DateTime(timezone=True), nullable=False, server_default=func.now()
    ),
    Column(
        "updated_at", DateTime(timezone=True), nullable=False, server_default=func.now()
    ),
    # One name per user and list; its index also serves every lookup of a user's views.
    UniqueConstraint("owner", "resource", "name", name="uq_saved_views_name"),
)

# What a request may set on a view: never whose or which list's it is.
_EDITABLE = ("name", "query", "columns")

# What a view's answer shows: everything but whose and which list's it is.
_SHOWN = (
    saved_views.c.id,
    saved_views.c.name,
    saved_views.c.query,
    saved_views.c.columns,
    saved_views.c.created_at,
    saved_views.c.updated_at,
)


class SavedView(BaseModel):
    """A saved view: its name, the list's query parameters, the columns shown."""

    id: uuid.UUID
    name: str
    query: dict[str, Any]
    columns: list[str]
    created_at: datetime
    updated_at: datetime


def stored_query(query: BaseModel) -> dict[str, Any]:
    """The query parameters a client set on *query* (a list's query model), as JSON.

    The cursor is left out: it marks a place in one page walk, not a view.
    """
    return query.model_dump(mode="json", exclude_unset=True, exclude={"cursor"})


def _editable(values: dict[str, Any]) -> dict[str, Any]:
    return {key: values[key] for key in _EDITABLE if key in values}


@dataclass(frozen=True)
class Views:
    """The saved views of *owner* on the list of *resource*, and nobody else's."""

    owner: str
    resource: str

    def _mine(self, *conditions: ColumnElement[bool]) -> ColumnElement[bool]:
        return and_(
            saved_views.c.owner == self.owner,
            saved_views.c.resource == self.resource,
            *conditions,
        )

    async def all(self, session: AsyncSession) -> list[SavedView]:
        """The owner's views of the resource, by name."""
        rows = await session.execute(
            select(*_SHOWN).where(self._mine()).order_by(saved_views.c.name)
        )
        return [SavedView.model_validate(row._asdict()) for row in rows]

    async def one(self, session: AsyncSession, view_id: uuid.UUID) -> SavedView | None:
        """The owner's view *view_id*, or ``None`` when the owner has no such view."""
        rows = await session.execute(
            select(*_SHOWN).where(self._mine(saved_views.c.id == view_id))
        )
        row = rows.first()
        return None if row is None else SavedView.model_validate(row._asdict())

    async def create(self, session: AsyncSession, values: dict[str, Any]) -> SavedView:
        """Store a view of *values* (``name``, ``query``, ``columns``) for the owner."""
        statement = (
            insert(saved_views)
            .values(
                {
                    **_editable(values),
                    "id": uuid.uuid4(),
                    "owner": self.owner,
                    "resource": self.resource,
                }
            )
            .returning(*_SHOWN)
        )
        row = (await session.execute(statement)).one()
        return SavedView.model_validate(row._asdict())

    async def change(
        self, session: AsyncSession, view_id: uuid.UUID, values: dict[str, Any]
    ) -> SavedView | None:
        """Set *values* on the owner's view *view_id*; ``None`` when there is none."""
        statement = (
            update(saved_views)
            .where(self._mine(saved_views.c.id == view_id))
            .values({**_editable(values), "updated_at": func.now()})
            .returning(*_SHOWN)
        )
        row = (await session.execute(statement)).first()
        return None if row is None else SavedView.model_validate(row._asdict())

    async def delete(self, session: AsyncSession, view_id: uuid.UUID) -> bool:
        """Delete the owner's view *view_id*; whether there was one."""
        statement = (
            delete(saved_views)
            .where(self._mine(saved_views.c.id == view_id))
            .returning(saved_views.c.id)
        )
        return (await session.execute(statement)).first() is not None
