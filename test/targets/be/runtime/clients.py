"""The HTTP client of the runtime helpers' tests: real requests to an app in process."""

from httpx import ASGITransport, AsyncClient
from starlette.types import ASGIApp


def asgi_client(app: ASGIApp, peer: str = "127.0.0.1") -> AsyncClient:
    """A client of *app* at ``http://test``, whose requests come from *peer*."""
    transport = ASGITransport(app=app, client=(peer, 5000))
    return AsyncClient(transport=transport, base_url="http://test")
