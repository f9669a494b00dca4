"""Models of the list test project: products of every column type a filter, an order or
a search can use, their makers, and reviews to nest."""

import enum
import uuid
from datetime import date, datetime

from sqlalchemy import DateTime, Enum, ForeignKey, Text
from sqlalchemy.ext.asyncio import AsyncEngine
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship


class Base(DeclarativeBase):
    pass


class Status(enum.StrEnum):
    draft = "draft"
    active = "active"
    retired = "retired"


class Maker(Base):
    __tablename__ = "makers"

    id: Mapped[uuid.UUID] = mapped_column(primary_key=True, default=uuid.uuid4)
    name: Mapped[str]
    country: Mapped[str]


class Product(Base):
    __tablename__ = "products"

    id: Mapped[uuid.UUID] = mapped_column(primary_key=True, default=uuid.uuid4)
    name: Mapped[str]
    description: Mapped[str] = mapped_column(Text)
    status: Mapped[Status] = mapped_column(Enum(Status, name="product_status"))
    in_stock: Mapped[bool]
    price: Mapped[float | None]
    rating: Mapped[int]
    released_on: Mapped[date]
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    sku: Mapped[str] = mapped_column(unique=True)
    note: Mapped[str | None]
    maker_id: Mapped[uuid.UUID] = mapped_column(ForeignKey(Maker.id))

    maker: Mapped[Maker] = relationship()
    reviews: Mapped[list["Review"]] = relationship(
        order_by="Review.id", cascade="all, delete-orphan", passive_deletes=True
    )


class Review(Base):
    __tablename__ = "reviews"

    id: Mapped[int] = mapped_column(primary_key=True, autoincrement=True)
    product_id: Mapped[uuid.UUID] = mapped_column(
        ForeignKey(Product.id, ondelete="CASCADE")
    )
    stars: Mapped[int]


async def create_tables(engine: AsyncEngine) -> None:
    """Create the tables of the catalog."""
    async with engine.begin() as connection:
        await connection.run_sync(Base.metadata.create_all)
