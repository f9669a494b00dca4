"""A table of items for the list helpers' tests: every kind of column a filter,
an order or a search can use, seeded with ties, NULLs and awkward text."""

import enum
import uuid
from datetime import UTC, date, datetime, timedelta

from sqlalchemy import DateTime, Enum, ForeignKey
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

SUFFIX = uuid.uuid4().hex[:8]


class Base(DeclarativeBase):
    pass


class Status(enum.StrEnum):
    draft = "draft"
    in_review = "in_review"
    live = "live"


class Owner(Base):
    __tablename__ = f"owners_{SUFFIX}"
    id: Mapped[uuid.UUID] = mapped_column(primary_key=True, default=uuid.uuid4)
    name: Mapped[str]


class Item(Base):
    __tablename__ = f"items_{SUFFIX}"
    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str]
    rating: Mapped[int]
    score: Mapped[float | None]
    status: Mapped[Status] = mapped_column(Enum(Status, name=f"status_{SUFFIX}"))
    active: Mapped[bool]
    made_on: Mapped[date]
    made_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    owner_id: Mapped[uuid.UUID] = mapped_column(ForeignKey(Owner.id))
    note: Mapped[str | None]


OWNERS = [
    Owner(id=uuid.UUID(int=index + 1), name=name)
    for index, name in enumerate(["Ada Lovelace", "Grace Hopper", "Alan Turing"])
]

NAMES = [
    "PostgreSQL performance tuning",
    "Postgres internals",
    "Cooking pasta at home",
    "100% pure",
    "under_score",
    "O'Brien's notes",
    "Robert'); DROP TABLE students;--",
    "Quiet mornings",
    "Tuning a piano",
    "pasta e fagioli",
]

START = datetime(2024, 1, 1, tzinfo=UTC)


def seed_items() -> list[Item]:
    """60 items: ratings 0..4 repeat (many ties), every 7th score NULL."""
    statuses = list(Status)
    return [
        Item(
            id=index + 1,
            name=NAMES[index % len(NAMES)]
            + ("" if index < len(NAMES) else f" #{index}"),
            rating=index % 5,
            score=None if index % 7 == 0 else round((index * 37 % 100) / 10, 1),
            status=statuses[index % 3],
            active=index % 2 == 0,
            made_on=date(2024, 1, 1) + timedelta(days=index % 12),
            made_at=START + timedelta(hours=index * 5),
            owner_id=OWNERS[index % 3].id,
            note=None if index % 4 == 0 else f"note {index}",
        )
        for index in range(60)
    ]
