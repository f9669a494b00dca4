"""Cookie sessions: the token's cookie, and the origin check of cross-site requests.

Copied into a generated tree whose auth reads tokens from a cookie. A browser sends
the cookie with every request to the API, also one a foreign page makes it send; so a
request authenticated by the cookie with an unsafe method must come from the API's own
origin or a trusted one (``Origin``, which browsers set on every such request and page
script cannot). Requests with a bearer token need no check: no page can make a browser
add one.
"""

from collections.abc import Container
from dataclasses import dataclass
from typing import Literal

from fastapi import HTTPException, Request, Response, status

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


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


def own_origin(request: Request) -> str:
    """The origin the request was sent to: its scheme and ``Host``."""
    return f"{request.url.scheme}://{request.headers.get('host', '')}"


def check_origin(
    request: Request, trusted: Container[str], *, required: bool = True
) -> None:
    """403 unless an unsafe *request* comes from its own origin or a *trusted* one.

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
    if origin != own_origin(request) and origin not in trusted:
        raise HTTPException(
            status.HTTP_403_FORBIDDEN,
            detail=f"Cross-site request refused: origin {origin} is not trusted",
        )
