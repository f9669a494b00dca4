"""Cookie sessions: the cookie's attributes, and the origin check of unsafe requests."""

import pytest
from clients import asgi_client
from fastapi import Depends, FastAPI, Request, Response
from runtime.sessions import SessionCookie, TrustedOrigins, check_origin

pytestmark = pytest.mark.asyncio(loop_scope="session")

TRUSTED = frozenset({"https://app.example.com"})


def _app(required: bool = True) -> FastAPI:
    app = FastAPI()

    def origin_checked(request: Request) -> None:
        check_origin(request, TRUSTED, required=required)

    @app.api_route("/", methods=["GET", "POST", "DELETE"])
    async def index(_: None = Depends(origin_checked)) -> dict[str, bool]:
        return {"ok": True}

    return app


async def test_unsafe_requests_need_a_trusted_origin() -> None:
    async with asgi_client(_app()) as client:
        assert (await client.get("/")).status_code == 200
        assert (await client.get("/", headers={"origin": "https://x.test"})).is_success
        refused = await client.post("/")
        assert refused.status_code == 403
        assert "Origin header" in refused.json()["detail"]
        for origin in ("https://evil.example", "null", "https://app.example.com.evil"):
            reply = await client.delete("/", headers={"origin": origin})
            assert reply.status_code == 403, origin
            assert "not trusted" in reply.json()["detail"]
        trusted = {"origin": "https://app.example.com"}
        assert (await client.post("/", headers=trusted)).is_success


async def test_the_host_header_never_makes_an_origin_trusted() -> None:
    # The client's base URL is http://test: its own origin is not configured.
    async with asgi_client(_app()) as client:
        own = await client.post("/", headers={"origin": "http://test"})
        assert own.status_code == 403
        forged = {"host": "evil.example", "origin": "http://evil.example"}
        reply = await client.post("/", headers=forged)
        assert reply.status_code == 403
        assert "not trusted" in reply.json()["detail"]


def test_the_environment_replaces_the_configured_origins(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    origins = TrustedOrigins(
        "TEST_ALLOWED_ORIGINS",
        configured=frozenset({"https://app.example.com"}),
        cors=frozenset({"https://partner.example"}),
    )
    monkeypatch.delenv("TEST_ALLOWED_ORIGINS", raising=False)
    assert "https://app.example.com" in origins
    assert "https://partner.example" in origins
    monkeypatch.setenv(
        "TEST_ALLOWED_ORIGINS", " http://localhost:5173, http://127.0.0.1:8000 ,"
    )
    assert origins.current() == {
        "http://localhost:5173",
        "http://127.0.0.1:8000",
        "https://partner.example",
    }
    monkeypatch.setenv("TEST_ALLOWED_ORIGINS", "")
    assert origins.current() == {"https://partner.example"}
    for bad in ("https://app.example.com/", "app.example.com", "ftp://x.test"):
        monkeypatch.setenv("TEST_ALLOWED_ORIGINS", f"http://ok.test,{bad}")
        with pytest.raises(
            ValueError, match="TEST_ALLOWED_ORIGINS: .* is not an origin"
        ):
            origins.current()


async def test_an_origin_may_be_optional_but_never_foreign() -> None:
    async with asgi_client(_app(required=False)) as client:
        assert (await client.post("/")).status_code == 200
        foreign = await client.post("/", headers={"origin": "https://evil.example"})
        assert foreign.status_code == 403


def test_the_cookie_is_http_only_and_cleared_with_the_same_attributes() -> None:
    cookie = SessionCookie("session", secure=True, same_site="lax")
    response = Response()
    cookie.set(response, "token-value", max_age=60)
    line = response.headers["set-cookie"]
    assert line.startswith("session=token-value;")
    for attribute in ("HttpOnly", "Max-Age=60", "Path=/", "SameSite=lax", "Secure"):
        assert attribute in line, line
    cleared = Response()
    cookie.clear(cleared)
    assert "Max-Age=0" in cleared.headers["set-cookie"]
    assert "SameSite=lax" in cleared.headers["set-cookie"]
