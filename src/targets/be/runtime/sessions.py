"""Cookie sessions: the token's cookie, and the origin check of cross-site requests.

Copied into a generated tree whose auth reads tokens from a cookie. A browser sends
the cookie with every request to the API, also one a foreign page makes it send; so a
request authenticated by the cookie with an unsafe method must come from an allowed
origin (``Origin``, which browsers set on every such request and page script cannot).
The allowed origins are configured (``TrustedOrigins``); the request's own ``Host``
is never taken for one, since whoever sends the request chooses it. Requests with a
bearer token need no check: no page can make a browser add one.
"""

import os
import re
from collections.abc import Container
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from fastapi import HTTPException, Request, Response, status

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
_ORIGIN = re.compile(r"https?://[A-Za-z0-9.-]+(:\d{1,5})?")


@dataclass(frozen=True)
class SessionCookie:
    """The attributes of the cookie holding the access token (always ``HttpOnly``)."""

    name: str
    secure: bool = True
    same_site: Literal["strict", "lax", "none"] = "strict"
    path: str = "/"

    def set(self, response: Response, token: str, max_age: int) -> None:
        """Put *token* in the cookie of *response*, for *max_age* seconds."""
        response.set_cookie(
            self.name,
            token,
            max_age=max_age,
            path=self.path,
            secure=self.secure,
            httponly=True,
            samesite=self.same_site,
        )

    def clear(self, response: Response) -> None:
        """Make the browser drop the cookie."""
        response.delete_cookie(
            self.name,
            path=self.path,
            secure=self.secure,
            httponly=True,
            samesite=self.same_site,
        )


@lru_cache(maxsize=16)
def parse_origins(value: str, variable: str) -> frozenset[str]:
    """The comma-separated origins of *value*, the content of the environment
    *variable*; ``ValueError`` naming the variable for one that is no origin."""
    origins = frozenset(part.strip() for part in value.split(",") if part.strip())
    for origin in sorted(origins):
        if not _ORIGIN.fullmatch(origin):
            raise ValueError(
                f"{variable}: {origin!r} is not an origin: expected like "
                "https://app.example.com (a scheme, a host, an optional port, no path)"
            )
    return origins


@dataclass(frozen=True)
class TrustedOrigins(Container[str]):
    """The origins whose pages may send cookie-authenticated unsafe requests.

    ``configured`` (the config's ``allowed_origins``), replaced by the origins in the
    environment variable ``env`` when it is set; and always the ``cors`` origins
    allowed with credentials.
    """

    env: str
    configured: frozenset[str] = frozenset()
    cors: frozenset[str] = frozenset()

    def current(self) -> frozenset[str]:
        """The allowed origins now; ``ValueError`` for a malformed ``env``."""
        value = os.environ.get(self.env)
        listed = self.configured if value is None else parse_origins(value, self.env)
        return listed | self.cors

    def __contains__(self, origin: object) -> bool:
        return origin in self.current()


def check_origin(
    request: Request, trusted: Container[str], *, required: bool = True
) -> None:
    """403 unless an unsafe *request* comes from a *trusted* origin.

    Safe methods (GET, HEAD, OPTIONS) pass: they change nothing. An unsafe request
    without ``Origin`` is refused too, unless not *required*: browsers always send it,
    so a client that does not is no browser and should send a bearer token instead.
    """
    if request.method in SAFE_METHODS:
        return
    origin = request.headers.get("origin")
    if origin is None:
        if not required:
            return
        raise HTTPException(
            status.HTTP_403_FORBIDDEN,
            detail="A request authenticated by its session cookie must carry an "
            "Origin header (or use a bearer token)",
        )
    if origin not in trusted:
        raise HTTPException(
            status.HTTP_403_FORBIDDEN,
            detail=f"Cross-site request refused: origin {origin} is not trusted "
            "(the allowed origins are configured: auth.allowed_origins)",
        )
