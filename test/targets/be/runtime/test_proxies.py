"""The client address comes from ``trusted_proxies`` alone, whatever uvicorn is told.

The real-server tests serve a rate-limited app with uvicorn on 127.0.0.1, whose
defaults believe ``X-Forwarded-For`` from loopback, and rotate that header.
"""

import uuid
from typing import Any

import httpx
import pytest
from clients import serving
from fastapi import Depends, FastAPI, Request
from runtime.proxies import UNKNOWN_CLIENT, ClientAddress, record_peer
from runtime.rate_limit import RateLimit
from runtime.server import BoundedHttpProtocol
from sqlalchemy.ext.asyncio import AsyncEngine
from starlette.datastructures import Headers

# The async tests run on the session's loop, where the engine fixture lives; the
# others are plain functions, which an asyncio mark would only warn about.
on_session_loop = pytest.mark.asyncio(loop_scope="session")


def _request(
    peer: str, forwarded: str | None = None, *, recorded: str | None = None
) -> Request:
    headers = Headers({"x-forwarded-for": forwarded} if forwarded else {})
    scope: dict[str, Any] = {
        "type": "http",
        "client": (peer, 1234),
        "headers": headers.raw,
    }
    if recorded is not None:
        scope["extensions"] = {"peer": {"client": (recorded, 4321)}}
    return Request(scope)


def test_forwarded_for_is_believed_only_from_trusted_proxies() -> None:
    direct = ClientAddress()
    assert direct(_request("203.0.113.9", "198.51.100.1")) == "203.0.113.9"
    proxied = ClientAddress(["10.0.0.0/8"])
    # The client may send any X-Forwarded-For; only hops added by trusted proxies count.
    request = _request("10.0.0.2", "1.2.3.4, 198.51.100.7, 10.0.0.3")
    assert proxied(request) == "198.51.100.7"
    assert proxied(_request("203.0.113.9", "198.51.100.7")) == "203.0.113.9"
    assert proxied(_request("10.0.0.2")) == "10.0.0.2"


def test_the_recorded_peer_decides_not_the_servers_rewritten_client() -> None:
    # uvicorn replaced the client (127.0.0.1) with the header's address.
    rewritten = _request("198.51.100.7", "198.51.100.7", recorded="127.0.0.1")
    assert ClientAddress()(rewritten) == "127.0.0.1"
    assert ClientAddress(["127.0.0.1"])(rewritten) == "198.51.100.7"


def test_a_client_the_server_may_have_rewritten_is_not_believed() -> None:
    # No recorded peer, and the scope's client is one of X-Forwarded-For's hops, with
    # or without a port, IPv4 or IPv6: the server may have put it there.
    for peer, forwarded in [
        ("198.51.100.7", "198.51.100.7"),
        ("198.51.100.7", "203.0.113.1, 198.51.100.7:8080"),
        ("2001:db8::1", "[2001:db8::1]:443"),
        ("2001:db8::1", "2001:db8::1"),
    ]:
        assert ClientAddress()(_request(peer, forwarded)) == UNKNOWN_CLIENT
        assert ClientAddress(["10.0.0.0/8"])(_request(peer, forwarded)) == (
            UNKNOWN_CLIENT
        )
    assert ClientAddress()(_request("203.0.113.9", "198.51.100.7")) == "203.0.113.9"


def _app(engine: AsyncEngine, trusted: list[str]) -> FastAPI:
    """``/`` limited to once a minute per client address; ``/who`` names it."""
    address = ClientAddress(trusted)
    limit = RateLimit(
        f"proxies-{uuid.uuid4()}", "1/minute", key=address, engine=lambda: engine
    )
    app = FastAPI()

    @app.get("/", dependencies=[Depends(limit)])
    async def index() -> dict[str, bool]:
        return {"ok": True}

    @app.get("/who")
    async def who(request: Request) -> dict[str, str | None]:
        return {"client": address(request)}

    return app


def client_from(source: str) -> httpx.AsyncClient:
    """A client whose connections come from the loopback address *source*."""
    return httpx.AsyncClient(
        transport=httpx.AsyncHTTPTransport(local_address=source), timeout=30
    )


async def rotating(client: httpx.AsyncClient, url: str, count: int) -> list[int]:
    """Statuses of *count* requests, each with an X-Forwarded-For of its own."""
    headers = [{"x-forwarded-for": f"198.51.100.{n + 1}"} for n in range(count)]
    return [(await client.get(url, headers=h)).status_code for h in headers]


@on_session_loop
@pytest.mark.parametrize("http", ["httptools", BoundedHttpProtocol])
async def test_rotating_forwarded_for_from_loopback_does_not_escape_a_limit(
    engine: AsyncEngine, http: Any
) -> None:
    # uvicorn's defaults: proxy headers on, believed from 127.0.0.1. The project
    # trusts no proxy, so the header must change nothing.
    app = _app(engine, [])
    async with (
        serving(app, http=http, forwarded_allow_ips="127.0.0.1") as url,
        client_from("127.0.0.1") as client,
    ):
        assert await rotating(client, url, 4) == [200, 429, 429, 429]
        who = await client.get(f"{url}/who", headers={"x-forwarded-for": "192.0.2.9"})
    expected = "127.0.0.1" if http is BoundedHttpProtocol else UNKNOWN_CLIENT
    assert who.json() == {"client": expected}


@on_session_loop
async def test_forwarded_for_from_a_trusted_proxy_is_honoured(
    engine: AsyncEngine,
) -> None:
    app = _app(engine, ["127.0.0.1"])
    async with (
        serving(app, http=BoundedHttpProtocol, forwarded_allow_ips="127.0.0.1") as url,
        client_from("127.0.0.1") as client,
    ):
        assert await rotating(client, url, 3) == [200, 200, 200]
        again = await client.get(url, headers={"x-forwarded-for": "198.51.100.1"})
        assert again.status_code == 429
        who = await client.get(f"{url}/who", headers={"x-forwarded-for": "192.0.2.9"})
        assert who.json() == {"client": "192.0.2.9"}


@on_session_loop
async def test_a_server_trusting_everyone_does_not_widen_trusted_proxies(
    engine: AsyncEngine,
) -> None:
    # uvicorn believes the header from anyone; the project only from 127.0.0.1.
    app = _app(engine, ["127.0.0.1"])
    async with (
        serving(app, http=BoundedHttpProtocol, forwarded_allow_ips="*") as url,
        client_from("127.0.0.2") as client,
    ):
        assert await rotating(client, url, 3) == [200, 429, 429]
        who = await client.get(f"{url}/who", headers={"x-forwarded-for": "192.0.2.9"})
        assert who.json() == {"client": "127.0.0.2"}


@on_session_loop
async def test_record_peer_keeps_the_peer_through_a_rewriting_middleware() -> None:
    seen: list[Any] = []

    async def app(scope: Any, receive: Any, send: Any) -> None:
        seen.append((scope["client"], scope["extensions"]["peer"]["client"]))

    async def rewriting(scope: Any, receive: Any, send: Any) -> None:
        scope["client"] = ("198.51.100.7", 0)
        await app(scope, receive, send)

    async def nothing() -> Any:
        return {}

    async def ignore(_: Any) -> None:
        return None

    scope = {"type": "http", "client": ("127.0.0.1", 5000)}
    await record_peer(rewriting)(scope, nothing, ignore)
    assert seen == [(("198.51.100.7", 0), ("127.0.0.1", 5000))]
