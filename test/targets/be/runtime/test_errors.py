"""Database errors of a real PostgreSQL get their status: 409 naming the violated
constraint, 422 for a refused value, 503 with ``Retry-After`` for a busy or
unreachable database; a 405 lists the path's methods."""

import asyncio
import uuid
from collections.abc import AsyncIterator
from typing import Annotated

import pytest
import pytest_asyncio
from clients import asgi_client
from fastapi import Body, FastAPI, Request, Response
from fastapi.responses import JSONResponse
from httpx import AsyncClient
from pools import pool_of_one
from runtime.errors import register_error_handlers, router
from runtime.statement_timeout import timed_connection
from sqlalchemy import ForeignKey, UniqueConstraint, delete, select, text
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, create_async_engine
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column
from sqlalchemy.orm.exc import StaleDataError

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

    @app.delete("/authors/{email}")
    async def remove_author(email: str) -> None:
        async with AsyncSession(engine) as session:
            await session.execute(delete(Author).where(Author.email == email))
            await session.commit()

    @app.post("/books/{author_id}")
    async def add_book(author_id: int) -> None:
        async with AsyncSession(engine) as session:
            session.add(Book(author_id=author_id))
            await session.commit()

    async with asgi_client(app) as client:
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
    assert response.json()["detail"].startswith("A referenced row does not exist")


async def test_deleting_a_referenced_row_says_it_is_still_referenced(
    client: AsyncClient, engine: AsyncEngine
) -> None:
    assert (await client.post("/authors/grace@example.com")).status_code == 200
    async with AsyncSession(engine) as session:
        author = await session.scalar(
            select(Author.id).where(Author.email == "grace@example.com")
        )
    assert (await client.post(f"/books/{author}")).status_code == 200
    response = await client.delete("/authors/grace@example.com")
    assert response.status_code == 409
    assert response.json() == {
        "detail": "This row is still referenced by other rows: "
        "delete or change them first.",
        "constraint": f"fk_author_{SUFFIX}",
    }


async def test_value_the_database_refuses_is_422(
    client: AsyncClient, engine: AsyncEngine
) -> None:
    # 2**31 reaches asyncpg, which refuses it for an int4 column before sending it.
    response = await client.post(f"/books/{2**31}")
    assert response.status_code == 422
    assert "int32" in response.json()["detail"][0]["msg"]
    assert response.json()["detail"][0]["loc"] == []


async def test_more_parameters_than_the_driver_sends_is_422(
    client: AsyncClient, engine: AsyncEngine
) -> None:
    app = FastAPI()
    register_error_handlers(app)

    @app.get("/books")
    async def books(count: int) -> None:
        async with AsyncSession(engine) as session:
            await session.execute(select(Book).where(Book.id.in_(range(count))))

    async with asgi_client(app) as client:
        assert (await client.get("/books", params={"count": 32_767})).status_code == 200
        response = await client.get("/books", params={"count": 32_768})
    assert response.status_code == 422, response.text
    assert response.json()["detail"][0]["loc"] == []


async def test_unsafe_validation_input_still_answers_json() -> None:
    app = FastAPI()
    register_error_handlers(app)

    @app.post("/numbers")
    async def take(body: Annotated[float, Body(allow_inf_nan=False)]) -> None:
        pass

    async with asgi_client(app) as client:
        for text in ("Infinity", "NaN", '"\\ud800"'):
            response = await client.post(
                "/numbers",
                content=text.encode(),
                headers={"content-type": "application/json"},
            )
            assert response.status_code == 422, text
            assert response.json()["detail"][0]["loc"] == ["body"], text


async def test_pool_exhaustion_and_statement_timeout_are_503(
    engine: AsyncEngine,
) -> None:
    small = pool_of_one(
        engine,
        pool_timeout=0.2,
        connect_args={"connection_class": timed_connection(200)},
    )
    app = FastAPI()
    register_error_handlers(app)

    @app.get("/sleep/{seconds}")
    async def sleep(seconds: float) -> None:
        async with AsyncSession(small) as session:
            await session.execute(text("SELECT pg_sleep(:s)"), {"s": seconds})

    async with asgi_client(app) as client:
        slow, busy = await asyncio.gather(
            client.get("/sleep/1"), client.get("/sleep/0")
        )
    await small.dispose()
    for response in (slow, busy):
        assert response.status_code == 503, response.text
        assert response.headers["retry-after"] == "1"


async def test_unreachable_database_is_503(free_port: int) -> None:
    dead = create_async_engine(
        f"postgresql+asyncpg://nobody:x@127.0.0.1:{free_port}/none"
    )
    app = FastAPI()
    register_error_handlers(app)

    @app.get("/rows")
    async def rows() -> None:
        async with AsyncSession(dead) as session:
            await session.execute(text("SELECT 1"))

    async with asgi_client(app) as client:
        response = await client.get("/rows")
    await dead.dispose()
    assert response.status_code == 503, response.text
    assert response.headers["retry-after"] == "1"


async def test_405_lists_every_method_of_the_path() -> None:
    app = FastAPI()
    register_error_handlers(app)

    @app.get("/items/{pk}")
    async def get_item(pk: int) -> None:
        pass

    @app.delete("/items/{pk}")
    async def delete_item(pk: int) -> None:
        pass

    async with asgi_client(app) as client:
        response = await client.put("/items/1")
        missing = await client.get("/nothing")
    assert response.status_code == 405
    assert response.headers["allow"] == "DELETE, GET"
    assert missing.status_code == 404


async def test_the_router_gives_its_application_the_handlers_it_lacks_at_startup() -> (
    None
):
    async def teapot(request: Request, exc: Exception) -> Response:
        return JSONResponse({"detail": "its own"}, status_code=418)

    app = FastAPI()
    app.add_exception_handler(IntegrityError, teapot)
    app.include_router(router)

    @app.get("/stale")
    async def stale() -> None:
        raise StaleDataError("deleted meanwhile")

    @app.get("/duplicate")
    async def duplicate() -> None:
        raise IntegrityError("INSERT", {}, Exception("duplicate"))

    async with asgi_client(app) as client:
        # Served before its lifespan ran: the application has only its own handler.
        with pytest.raises(StaleDataError):
            await client.get("/stale")
        async with app.router.lifespan_context(app):
            assert (await client.get("/stale")).status_code == 409
            # A handler the application has of its own stays.
            response = await client.get("/duplicate")
            assert (response.status_code, response.json()) == (
                418,
                {"detail": "its own"},
            )
