"""The policy client's side of OPA: the claims it sends, and compile answers it refuses,
against a real HTTP server on a local port that answers as it is told."""

import asyncio
import json
import math
from collections.abc import AsyncIterator
from typing import Any

import pytest
import pytest_asyncio
from fastapi import HTTPException
from runtime.opa import PolicyClient, PolicyUnavailable, policy_claims

UUID = "7d0f4a52-3c7e-4b61-9a53-0c7f3a1c9e11"


@pytest.mark.parametrize(
    "written", [UUID, UUID.upper(), "{" + UUID + "}", "{" + UUID.upper() + "}"]
)
def test_a_uuid_claim_is_canonical_however_it_is_written(written: str) -> None:
    assert policy_claims({"author_id": written}) == {"author_id": UUID}
    assert policy_claims({"ids": [written], "nested": {"id": written}}) == {
        "ids": [UUID],
        "nested": {"id": UUID},
    }


def test_other_claims_are_kept_as_they_are() -> None:
    claims = {"sub": "ada", "roles": ["writer"], "n": 3, "x": 1.5, "hex": "7d0f4a52"}
    assert policy_claims(claims) == claims


@pytest.mark.parametrize("value", [math.nan, math.inf, -math.inf])
def test_a_number_json_cannot_carry_makes_the_token_unusable(value: float) -> None:
    with pytest.raises(HTTPException) as raised:
        policy_claims({"sub": "ada", "score": [value]})
    assert raised.value.status_code == 401


@pytest_asyncio.fixture(loop_scope="session")
async def opa(free_port: int) -> AsyncIterator[tuple[PolicyClient, list[Any]]]:
    """A client of a local server that answers each request with the next JSON."""
    answers: list[Any] = []

    async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        head = await reader.readuntil(b"\r\n\r\n")
        length = next(
            int(line.split(b":")[1])
            for line in head.split(b"\r\n")
            if line.lower().startswith(b"content-length:")
        )
        await reader.readexactly(length)
        body = json.dumps(answers.pop(0)).encode()
        writer.write(
            b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
            + f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n".encode()
            + body
        )
        await writer.drain()
        writer.close()

    server = await asyncio.start_server(serve, "127.0.0.1", free_port)
    client = PolicyClient(
        url_env="TEST_OPA_URL",
        decision="blog/authz/allow",
        timeout_seconds=2.0,
        fail_open=False,
    )
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("TEST_OPA_URL", f"http://127.0.0.1:{free_port}")
        async with client.lifespan(None):
            yield client, answers
    server.close()
    await server.wait_closed()


@pytest.mark.asyncio(loop_scope="session")
@pytest.mark.parametrize(
    "queries", ["all", [1], [{"terms": []}], [["x"]], {"queries": []}]
)
async def test_compile_queries_that_are_not_lists_of_expressions_are_unavailable(
    opa: tuple[PolicyClient, list[Any]], queries: Any
) -> None:
    client, answers = opa
    answers.append({"result": {"queries": queries}})
    with pytest.raises(PolicyUnavailable, match="not a list of lists"):
        await client.compile({"subject": {}})


@pytest.mark.asyncio(loop_scope="session")
async def test_a_well_formed_compile_answer_is_returned(
    opa: tuple[PolicyClient, list[Any]],
) -> None:
    client, answers = opa
    answers.append({"result": {"queries": [[], [{"terms": {"type": "null"}}]]}})
    assert (await client.compile({"subject": {}}))["queries"][0] == []
