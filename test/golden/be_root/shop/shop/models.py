"""SQLAlchemy models of shop: yours to edit.

codegen never changes this module: config/project.jsonnet names its classes by
dotted path (``shop.models.Note``). Alembic compares ``Base.metadata`` with
the database to write migrations, so every model must be imported here (or by a
module imported here).
"""

import uuid
from datetime import datetime

from sqlalchemy import DateTime, MetaData, Text, func
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

# Predictable constraint names: migrations can refer to them, and the API's 409 answers
# name them (uq_notes_title, fk_comments_note_id_notes).
NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)


class Note(Base):
    """An example model, served at /notes by config/project.jsonnet; replace it.

    The first migration (migrations/versions/0001_initial.py) creates its table.
    """

    __tablename__ = "notes"

    id: Mapped[uuid.UUID] = mapped_column(primary_key=True, default=uuid.uuid4)
    title: Mapped[str]
    body: Mapped[str] = mapped_column(Text, default="")
    pinned: Mapped[bool] = mapped_column(default=False)
    created_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), server_default=func.now()
    )
