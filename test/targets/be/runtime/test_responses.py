"""``location`` gives URLs that route back to the key, and ``error_responses``
documents each status with its body."""

import pytest
from clients import asgi_client
from fastapi import FastAPI, Request
from runtime.responses import (
    PROTOCOL_ERRORS,
    ConflictBody,
    ErrorBody,
    error_responses,
    location,
)

KEYS = ["plain", "with space", "a/b", "ünïcödé", "漢字", "100%", "?#&=+", "..x"]


@pytest.mark.asyncio(loop_scope="session")
async def test_location_resolves_for_any_key() -> None:
    app = FastAPI()

    @app.post("/things")
    async def create(request: Request, key: str) -> str:
        return location(request, key)

    @app.get("/things/{pk:path}")
    async def read(pk: str) -> str:
        return pk

    async with asgi_client(app) as client:
        for key in KEYS:
            url = (await client.post("/things", params={"key": key})).json()
            assert url.isascii(), url
            assert "?" not in url.removeprefix("http://test/things/").replace("%3F", "")
            assert (await client.get(url)).json() == key, url


def test_error_responses_document_status_and_body() -> None:
    documented = error_responses(404, 409, 413, 503)
    # With what the server's protocol answers before any route (test_server.py).
    assert list(documented) == [400, 404, 408, 409, 413, 414, 431, 503]
    for status in PROTOCOL_ERRORS:
        assert documented[status]["model"] is ErrorBody
    assert "text/plain" in documented[413]["content"]
    assert documented[404]["model"] is ErrorBody
    assert documented[409]["model"] is ConflictBody
    assert "Retry-After" in documented[503]["headers"]
