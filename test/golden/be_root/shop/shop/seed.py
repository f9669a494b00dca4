"""Sample data of shop: yours to edit.

``codegen dev`` calls ``seed`` once the database is migrated, when every table of
``shop.models`` is empty (a new database, or one after ``codegen db reset --yes``);
``codegen db seed`` calls it on demand. Add the rows a developer wants to find; the
session is committed once it returns.
"""

from sqlalchemy.ext.asyncio import AsyncSession

from shop.models import Note


async def seed(session: AsyncSession) -> None:
    """Add sample rows to an empty database."""
    session.add_all(
        [
            Note(title="Welcome", body="A sample note, from shop/seed.py."),
            Note(
                title="Pinned", body="Pinned notes are what pin_note sets.", pinned=True
            ),
        ]
    )
