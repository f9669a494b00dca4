"""``call_action`` calls plain and ``async`` functions alike, returning their result;
``KilnSignature`` reads a kiln action's body, answer and arguments off its
annotations."""

from typing import TYPE_CHECKING, Annotated, Any

import pytest
from clients import asgi_client
from fastapi import Depends, FastAPI
from pydantic import BaseModel
from runtime.actions import KilnSignature, call_action

if TYPE_CHECKING:
    from sqlalchemy.ext.asyncio import AsyncSession

pytestmark = pytest.mark.asyncio(loop_scope="session")


async def test_plain_function_runs_inline_with_args_and_keywords() -> None:
    def add(a: int, b: int, *, scale: int) -> int:
        return (a + b) * scale

    assert await call_action(add, 1, 2, scale=10) == 30


async def test_async_function_is_awaited() -> None:
    async def greet(name: str) -> str:
        return f"hello {name}"

    assert await call_action(greet, "ada") == "hello ada"


async def test_errors_propagate() -> None:
    def fail() -> None:
        raise LookupError("nope")

    with pytest.raises(LookupError, match="nope"):
        await call_action(fail)


class Widget:
    """A resource's model, as kiln's actions annotate it."""


class Gadget(Widget):
    pass


class Rename(BaseModel):
    name: str


class Renamed(BaseModel):
    name: str
    previous: str


async def rename(widget: Widget, db: object, body: Rename) -> Renamed:
    return Renamed(name=body.name, previous=f"{db}")


async def test_reads_the_row_the_body_and_the_answer_off_the_annotations() -> None:
    signature = KilnSignature(rename, Widget, instance=True)
    assert signature.response_model is Renamed
    assert signature.status_code == 200


async def test_a_function_returning_none_answers_204_with_no_model() -> None:
    async def archive(widget: Widget, db: object) -> None:
        return None

    signature = KilnSignature(archive, Widget, instance=True)
    assert (signature.status_code, signature.response_model) == (204, None)
    assert await signature.call(Widget(), db="db", body=None) is None


async def test_calls_kiln_s_way_passing_the_body_and_the_model_class_it_takes() -> None:
    seen: dict[str, object] = {}

    async def count(db: object, model: type[Widget], body: Rename) -> int:
        seen.update(db=db, model=model, body=body)
        return 3

    signature = KilnSignature(count, Gadget, instance=False)
    body = Rename(name="x")
    assert await signature.call(db="db", body=body) == 3
    assert seen == {"db": "db", "model": Gadget, "body": body}


async def test_a_function_without_a_body_is_not_given_one() -> None:
    def ping(widget: Widget, db: object) -> dict[str, str]:
        return {"status": "pong"}

    signature = KilnSignature(ping, Widget, instance=True)
    assert await signature.call(Widget(), db="db", body=None) == {"status": "pong"}
    # No model to validate against: the route has no request body.
    assert await signature.body() is None


async def test_a_target_the_function_disagrees_with_stops_the_import() -> None:
    with pytest.raises(TypeError, match="takes no Widget.*target: 'collection'"):
        KilnSignature(lambda db: None, Widget, instance=True)
    with pytest.raises(TypeError, match="takes a Widget.*target: 'instance'"):
        KilnSignature(rename, Widget, instance=False)


async def test_two_body_models_are_refused() -> None:
    async def both(widget: Widget, db: object, first: Rename, second: Renamed) -> None:
        return None

    with pytest.raises(TypeError, match="two Pydantic models"):
        KilnSignature(both, Widget, instance=True)


async def test_string_annotations_are_read_in_the_function_s_module() -> None:
    # As under ``from __future__ import annotations``; a name only a type checker
    # imports (AsyncSession) says nothing, so the target cannot be checked and is
    # trusted.
    async def later(widget: "Widget", db: "AsyncSession", body: "Rename") -> "None":
        return None

    signature = KilnSignature(later, Widget, instance=True)
    assert signature.status_code == 204
    KilnSignature(later, Widget, instance=False)


async def test_fastapi_validates_the_body_as_the_function_s_model() -> None:
    signature = KilnSignature(rename, Widget, instance=True)
    app = FastAPI()

    @app.post("/widgets/rename", response_model=signature.response_model)
    async def route(body: Annotated[Any, Depends(signature.body)]) -> Any:
        return await signature.call(Widget(), db="db", body=body)

    async with asgi_client(app) as client:
        renamed = await client.post("/widgets/rename", json={"name": "sprocket"})
        refused = await client.post("/widgets/rename", json={"title": "sprocket"})
        schema = (await client.get("/openapi.json")).json()
    assert (renamed.status_code, renamed.json()) == (
        200,
        {"name": "sprocket", "previous": "db"},
    )
    assert refused.status_code == 422
    assert refused.json()["detail"][0]["loc"] == ["body", "name"]
    operation = schema["paths"]["/widgets/rename"]["post"]
    body_schema = operation["requestBody"]["content"]["application/json"]["schema"]
    assert body_schema == {"$ref": "#/components/schemas/Rename"}
