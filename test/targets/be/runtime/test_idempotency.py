"""``Idempotency-Key`` on a real PostgreSQL: a retry replays the first answer and
changes nothing; a key is one route's and one user's; another body is a 409; an
expired key is forgotten."""

import uuid
from collections.abc import AsyncIterator
from typing import Annotated

import pytest
import pytest_asyncio
from clients import asgi_client
from fastapi import FastAPI, Header, Request, Response
from httpx import AsyncClient
from pydantic import BaseModel
from runtime.errors import register_error_handlers
from runtime.idempotency import IDEMPOTENCY_KEY, Idempotency, metadata
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

pytestmark = pytest.mark.asyncio(loop_scope="session")
SUFFIX = uuid.uuid4().hex[:8]


class Base(DeclarativeBase):
    pass


class Note(Base):
    __tablename__ = f"notes_{SUFFIX}"
    id: Mapped[int] = mapped_column(primary_key=True)
    text: Mapped[str]


class NoteIn(BaseModel):
    text: str


class NoteOut(BaseModel):
    id: int
    text: str


@pytest_asyncio.fixture(loop_scope="session", scope="module")
async def client(engine: AsyncEngine) -> AsyncIterator[AsyncClient]:
    async with engine.begin() as connection:
        await connection.run_sync(Base.metadata.create_all)
        await connection.run_sync(metadata.create_all)
    app = FastAPI()
    register_error_handlers(app)

    @app.post("/notes", status_code=201, openapi_extra=IDEMPOTENCY_KEY)
    async def create_note(
        body: NoteIn,
        request: Request,
        response: Response,
        user: Annotated[str | None, Header()] = None,
        expires: Annotated[int, Header()] = 60,
    ) -> NoteOut:
        idempotency = Idempotency.of(request)
        async with AsyncSession(engine, expire_on_commit=False) as session:
            await idempotency.replay(session, expires_after=expires, user=user)
            note = Note(text=body.text)
            session.add(note)
            await session.flush()
            result = NoteOut(id=note.id, text=note.text)
            response.headers["Location"] = f"/notes/{note.id}"
            await idempotency.remember(
                session, result, status_code=201, response=response
            )
            await session.commit()
            return result

    async with asgi_client(app) as client:
        yield client
    async with engine.begin() as connection:
        await connection.run_sync(Base.metadata.drop_all)


async def notes(engine: AsyncEngine, text: str) -> int:
    async with AsyncSession(engine) as session:
        count = await session.scalar(
            select(func.count()).select_from(Note).where(Note.text == text)
        )
        return count or 0


async def test_a_retry_replays_the_first_answer(
    client: AsyncClient, engine: AsyncEngine
) -> None:
    key = {"Idempotency-Key": uuid.uuid4().hex}
    text = f"once-{uuid.uuid4().hex}"
    first = await client.post("/notes", json={"text": text}, headers=key)
    again = await client.post("/notes", json={"text": text}, headers=key)
    assert first.status_code == again.status_code == 201
    assert again.json() == first.json()
    assert again.headers["location"] == first.headers["location"]
    assert again.headers["idempotent-replayed"] == "true"
    assert await notes(engine, text) == 1


async def test_without_a_key_every_request_counts(
    client: AsyncClient, engine: AsyncEngine
) -> None:
    text = f"twice-{uuid.uuid4().hex}"
    for _ in range(2):
        assert (await client.post("/notes", json={"text": text})).status_code == 201
    assert await notes(engine, text) == 2


async def test_a_key_with_another_body_is_a_409(client: AsyncClient) -> None:
    key = {"Idempotency-Key": uuid.uuid4().hex}
    assert (await client.post("/notes", json={"text": "a"}, headers=key)).is_success
    reused = await client.post("/notes", json={"text": "b"}, headers=key)
    assert reused.status_code == 409
    assert "another body" in reused.json()["detail"]


async def test_keys_belong_to_one_user(
    client: AsyncClient, engine: AsyncEngine
) -> None:
    key = uuid.uuid4().hex
    text = f"users-{uuid.uuid4().hex}"
    for user in ("ada", "grace", "ada"):
        headers = {"Idempotency-Key": key, "User": user}
        assert (
            await client.post("/notes", json={"text": text}, headers=headers)
        ).is_success
    assert await notes(engine, text) == 2


async def test_an_expired_key_is_forgotten(
    client: AsyncClient, engine: AsyncEngine
) -> None:
    headers = {"Idempotency-Key": uuid.uuid4().hex, "Expires": "0"}
    text = f"expired-{uuid.uuid4().hex}"
    for _ in range(2):
        assert (
            await client.post("/notes", json={"text": text}, headers=headers)
        ).is_success
    assert await notes(engine, text) == 2


@pytest.mark.parametrize(
    ("key", "error"),
    [
        ("", "string_too_short"),
        ("x" * 256, "string_too_long"),
        ("with space", "string_pattern_mismatch"),
        ("café".encode(), "string_pattern_mismatch"),
    ],
)
async def test_a_malformed_key_is_a_422_naming_the_header(
    client: AsyncClient, engine: AsyncEngine, key: str | bytes, error: str
) -> None:
    text = f"malformed-{uuid.uuid4().hex}"
    response = await client.post(
        "/notes", json={"text": text}, headers={"Idempotency-Key": key}
    )
    assert response.status_code == 422
    [detail] = response.json()["detail"]
    assert detail["type"] == error
    assert detail["loc"] == ["header", "idempotency-key"]
    assert await notes(engine, text) == 0


async def test_openapi_documents_the_header(client: AsyncClient) -> None:
    """As a declared ``Header()`` parameter would: read by hand, documented alike."""
    document = (await client.get("/openapi.json")).json()
    parameters = document["paths"]["/notes"]["post"]["parameters"]
    [header] = [p for p in parameters if p["name"] == "idempotency-key"]
    assert header["in"] == "header"
    assert not header["required"]
    assert header["schema"]["anyOf"][0]["maxLength"] == 255
