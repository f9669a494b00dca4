"""The list benchmark's table: rows with a non-unique rating and a timestamp."""

from datetime import datetime

from sqlalchemy import DateTime, text
from sqlalchemy.ext.asyncio import AsyncEngine
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    pass


class Item(Base):
    __tablename__ = "items"

    id: Mapped[int] = mapped_column(primary_key=True, autoincrement=True)
    name: Mapped[str]
    rating: Mapped[int]
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


async def create_tables(engine: AsyncEngine) -> None:
    """Create the table and fill it with 100,000 rows (ratings 0..9), once."""
    async with engine.begin() as connection:
        await connection.run_sync(Base.metadata.create_all)
        count = (await connection.execute(text("SELECT count(*) FROM items"))).scalar()
        if count == 0:
            await connection.execute(
                text(
                    "INSERT INTO items (name, rating, created_at) "
                    "SELECT 'item ' || n, n % 10, "
                    "timestamptz '2024-01-01' + n * interval '1 minute' "
                    "FROM generate_series(1, 100000) AS n"
                )
            )
        await connection.execute(text("ANALYZE items"))
