"""Rate limits counted in a real PostgreSQL: exact under concurrency, headers, keys."""

import asyncio
import uuid
from collections.abc import Callable

import pytest
from clients import asgi_client
from fastapi import Depends, FastAPI, Request
from runtime.idempotency import owner_of
from runtime.proxies import ClientAddress
from runtime.rate_limit import ClientKey, Limit, RateLimit, parse_limits
from runtime.responses import error_responses
from sqlalchemy.ext.asyncio import AsyncEngine

pytestmark = pytest.mark.asyncio(loop_scope="session")


def test_parse_limits_orders_windows_and_rejects_bad_specs() -> None:
    assert parse_limits("1000/hour; 5/second") == (Limit(5, 1), Limit(1000, 3600))
    assert parse_limits("3/minutes") == (Limit(3, 60),)
    for bad in ("5", "five/minute", "0/minute", "5/week", "1/minute;2/minute"):
        with pytest.raises(ValueError):
            parse_limits(bad)


def test_a_user_is_keyed_by_subject_then_id() -> None:
    class Subject:
        subject = "ada"

    class Row:
        id = 7

    assert (owner_of(Subject()), owner_of(Row()), owner_of("x")) == ("ada", "7", "x")


def _app(limit: RateLimit, *extra: Callable[..., object]) -> FastAPI:
    app = FastAPI()

    @app.get("/", dependencies=[Depends(limit)], responses=error_responses(429))
    async def index() -> dict[str, bool]:
        return {"ok": True}

    for dependency in extra:

        @app.get("/user", dependencies=[Depends(dependency)])
        async def user() -> dict[str, bool]:
            return {"ok": True}

    return app


def _limit(
    engine: AsyncEngine,
    name: str,
    limits: str,
    key: ClientKey | None = None,
    headers: bool = True,
) -> RateLimit:
    """A limit under a name of its own (the tests share one database's counters),
    keyed by the client's address unless ``key`` says otherwise."""
    return RateLimit(
        f"{name}-{uuid.uuid4()}",
        limits,
        key=key or ClientAddress(),
        engine=lambda: engine,
        headers=headers,
    )


async def test_exactly_the_limit_passes_under_concurrency(engine: AsyncEngine) -> None:
    limit = _limit(engine, "concurrent", "5/minute")
    async with asgi_client(_app(limit)) as client:
        responses = await asyncio.gather(*(client.get("/") for _ in range(20)))
    codes = sorted(response.status_code for response in responses)
    assert codes == [200] * 5 + [429] * 15
    refused = next(r for r in responses if r.status_code == 429)
    assert 1 <= int(refused.headers["retry-after"]) <= 60
    assert refused.headers["ratelimit-policy"] == '"60s";q=5;w=60'
    assert refused.headers["ratelimit"].startswith('"60s";r=0;t=')
    passed = [r.headers["ratelimit"] for r in responses if r.status_code == 200]
    assert sorted(h.split(";")[1] for h in passed) == [f"r={n}" for n in range(5)]


async def test_keys_are_counted_apart_and_a_window_restarts(
    engine: AsyncEngine,
) -> None:
    limit = _limit(engine, "window", "2/second", headers=False)
    app = _app(limit)
    async with (
        asgi_client(app, "192.0.2.1") as first,
        asgi_client(app, "192.0.2.2") as second,
    ):
        assert [(await first.get("/")).status_code for _ in range(3)] == [200, 200, 429]
        other = await second.get("/")
        assert other.status_code == 200
        assert "ratelimit" not in other.headers  # headers=False: only on a 429
        await asyncio.sleep(1.1)
        assert (await first.get("/")).status_code == 200


async def test_several_windows_count_in_one_statement(engine: AsyncEngine) -> None:
    limit = _limit(engine, "multi", "3/second;4/hour")
    async with asgi_client(_app(limit)) as client:
        codes = [(await client.get("/")).status_code for _ in range(3)]
        await asyncio.sleep(1.1)
        later = [await client.get("/") for _ in range(2)]
    assert codes == [200, 200, 200]
    assert [r.status_code for r in later] == [200, 429]
    assert later[1].headers["ratelimit"].startswith('"3600s";r=0;')
    assert later[1].headers["ratelimit-policy"] == '"1s";q=3;w=1, "3600s";q=4;w=3600'


async def test_a_key_of_none_is_not_limited_and_per_user_keys_by_user(
    engine: AsyncEngine,
) -> None:
    unlimited = _limit(engine, "none", "1/minute", key=lambda _: None)

    class User:
        def __init__(self, subject: str) -> None:
            self.subject = subject

    def current_user(request: Request) -> User:
        return User(request.headers["x-user"])

    per_user = _limit(engine, "user", "1/minute")
    async with asgi_client(_app(unlimited, per_user.per_user(current_user))) as client:
        assert [(await client.get("/")).status_code for _ in range(3)] == [200] * 3
        ada = [
            (await client.get("/user", headers={"x-user": "ada"})).status_code
            for _ in range(2)
        ]
        bob = await client.get("/user", headers={"x-user": "bob"})
    assert ada == [200, 429]
    assert bob.status_code == 200


async def test_forget_restarts_one_key_only(engine: AsyncEngine) -> None:
    limit = _limit(
        engine, "forget", "2/hour", key=lambda request: request.headers["x-key"]
    )
    async with asgi_client(_app(limit)) as client:

        async def codes(key: str, times: int) -> list[int]:
            return [
                (await client.get("/", headers={"x-key": key})).status_code
                for _ in range(times)
            ]

        assert await codes("ada", 3) == [200, 200, 429]
        assert await codes("bob", 2) == [200, 200]
        await limit.forget("ada")
        assert await codes("ada", 3) == [200, 200, 429]
        assert await codes("bob", 1) == [429]
