"""Integrity errors of a real database answer 409 naming the violated constraint."""

import uuid
from collections.abc import AsyncIterator

import pytest
import pytest_asyncio
from fastapi import FastAPI
from httpx import ASGITransport, AsyncClient
from runtime.errors import register_error_handlers
from sqlalchemy import ForeignKey, UniqueConstraint
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

pytestmark = pytest.mark.asyncio(loop_scope="session")
SUFFIX = uuid.uuid4().hex[:8]


class Base(DeclarativeBase):
    pass


class Author(Base):
    __tablename__ = f"authors_{SUFFIX}"
    __table_args__ = (UniqueConstraint("email", name=f"uq_email_{SUFFIX}"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    email: Mapped[str]


class Book(Base):
    __tablename__ = f"books_{SUFFIX}"
    id: Mapped[int] = mapped_column(primary_key=True)
    author_id: Mapped[int] = mapped_column(
        ForeignKey(Author.id, name=f"fk_author_{SUFFIX}")
    )


@pytest_asyncio.fixture(loop_scope="session")
async def client(engine: AsyncEngine) -> AsyncIterator[AsyncClient]:
    async with engine.begin() as connection:
        await connection.run_sync(Base.metadata.create_all)
    app = FastAPI()
    register_error_handlers(app)

    @app.post("/authors/{email}")
    async def add_author(email: str) -> None:
        async with AsyncSession(engine) as session:
            session.add(Author(email=email))
            await session.commit()

    @app.post("/books/{author_id}")
    async def add_book(author_id: int) -> None:
        async with AsyncSession(engine) as session:
            session.add(Book(author_id=author_id))
            await session.commit()

    transport = ASGITransport(app=app)
    async with AsyncClient(transport=transport, base_url="http://test") as client:
        yield client
    async with engine.begin() as connection:
        await connection.run_sync(Base.metadata.drop_all)


async def test_duplicate_unique_value(client: AsyncClient) -> None:
    assert (await client.post("/authors/ada@example.com")).status_code == 200
    response = await client.post("/authors/ada@example.com")
    assert response.status_code == 409
    assert response.json() == {
        "detail": "A row with the same unique value already exists.",
        "constraint": f"uq_email_{SUFFIX}",
    }


async def test_missing_referenced_row(client: AsyncClient) -> None:
    response = await client.post("/books/424242")
    assert response.status_code == 409
    assert response.json()["constraint"] == f"fk_author_{SUFFIX}"
