"""Safe retries of ``POST`` requests: the ``Idempotency-Key`` header.

A client sends a key of its choosing with a create or an action. The route stores its
answer under that key in the same transaction as its changes, so the key is recorded
if and only if the changes are committed. A retry with the same key (after a timeout,
a dropped connection, a 503) gets the stored answer again, marked
``Idempotent-Replayed: true``, and changes nothing. Keys belong to one route and one
user, and expire after the project's ``idempotency_expiry``.

A key reused with another body is a 409, like a constraint violation: the request
conflicts with what the key already stands for. Of two requests with one key at the
same time, the second to commit is a 409 too (retried, it gets the first one's answer).

The table is ``idempotency_keys`` in ``metadata``: create it with your migrations.

A route reads the header with ``Idempotency.of(request)`` and documents it with
``openapi_extra=IDEMPOTENCY_KEY``, rather than declaring a ``Header()`` parameter:
FastAPI resolves a declared header on every request, with or without the header, for
about a tenth of a create's CPU time; reading it by hand costs a dictionary lookup.
"""

import hashlib
import json
import re
from datetime import UTC, datetime, timedelta
from typing import Any

from fastapi import Request, Response, status
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from sqlalchemy import (
    Column,
    DateTime,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    delete,
    func,
    select,
)
from sqlalchemy.dialects.postgresql import JSONB, insert
from sqlalchemy.ext.asyncio import AsyncSession

from .responses import conflict

metadata = MetaData()
"""The table of this module, for your migrations (``target_metadata`` in Alembic)."""

idempotency_keys = Table(
    "idempotency_keys",
    metadata,
    Column("scope", Text, primary_key=True),
    Column("key", String(255), primary_key=True),
    Column("fingerprint", String(64), nullable=False),
    Column("status_code", Integer, nullable=False),
    Column("body", JSONB),
    Column("location", Text),
    Column(
        "created_at", DateTime(timezone=True), nullable=False, server_default=func.now()
    ),
)


_REUSED = "This Idempotency-Key was used for a request with another body."


class Replay(Exception):
    """The key was used before: the stored answer (or the 409 of a reuse) is sent."""

    def __init__(self, response: Response) -> None:
        self.response = response


async def replay_handler(request: Request, exc: Exception) -> Response:
    """Send the stored answer of a repeated request."""
    assert isinstance(exc, Replay)
    return exc.response


def owner_of(user: object) -> str:
    """Who a key belongs to: the user's ``subject``, else its ``id``, else its text."""
    for attribute in ("subject", "id"):
        value = getattr(user, attribute, None)
        if value is not None:
            return str(value)
    return str(user)


_HEADER = "idempotency-key"
_MAX_LENGTH = 255
_PATTERN = r"^[\x21-\x7e]+$"
_KEY = re.compile(_PATTERN)
_DESCRIPTION = (
    "A key of your choosing: a retry with the same key is answered as the first "
    "request was, and changes nothing."
)

IDEMPOTENCY_KEY: dict[str, Any] = {
    "parameters": [
        {
            "name": _HEADER,
            "in": "header",
            "required": False,
            "schema": {
                "anyOf": [
                    {
                        "type": "string",
                        "minLength": 1,
                        "maxLength": _MAX_LENGTH,
                        "pattern": _PATTERN,
                    },
                    {"type": "null"},
                ],
                "description": _DESCRIPTION,
                "title": "Idempotency-Key",
            },
            "description": _DESCRIPTION,
        }
    ]
}
"""The header in a route's OpenAPI operation, as a ``Header()`` parameter puts it."""


def _invalid_key(error: str, message: str, key: str, **context: Any) -> Exception:
    """The 422 FastAPI answers for a header that fails its declared constraints."""
    return RequestValidationError(
        [
            {
                "type": error,
                "loc": ("header", _HEADER),
                "msg": message,
                "input": key,
                "ctx": context,
            }
        ]
    )


class Idempotency:
    """The ``Idempotency-Key`` of one request, if it sent one."""

    def __init__(self, key: str | None, route: str, request: Request) -> None:
        self.key = key
        self.route = route
        self.scope = route
        self.fingerprint = ""
        self._request = request

    @classmethod
    def of(cls, request: Request) -> "Idempotency":
        """The key *request* sent, if any, for the route it matched; a key that is
        empty, longer than 255 characters or not printable ASCII is a 422."""
        key = request.headers.get(_HEADER)
        if key is not None:
            if not key:
                raise _invalid_key(
                    "string_too_short",
                    "String should have at least 1 character",
                    key,
                    min_length=1,
                )
            if len(key) > _MAX_LENGTH:
                raise _invalid_key(
                    "string_too_long",
                    f"String should have at most {_MAX_LENGTH} characters",
                    key,
                    max_length=_MAX_LENGTH,
                )
            if _KEY.fullmatch(key) is None:
                raise _invalid_key(
                    "string_pattern_mismatch",
                    f"String should match pattern '{_PATTERN}'",
                    key,
                    pattern=_PATTERN,
                )
        # The matched route's template; the URL only when no route matched (built
        # lazily: parsing the URL costs more than the rest of this method).
        route = getattr(request.scope.get("route"), "path", None) or request.url.path
        return cls(key, f"{request.method} {route}", request)

    async def replay(
        self, session: AsyncSession, *, expires_after: int, user: object = None
    ) -> None:
        """Raise ``Replay`` with the stored answer when this key was answered before,
        less than *expires_after* seconds ago; keys are *user*'s when one is given."""
        if self.key is None:
            return
        # Another key in the path, or another body, makes another request.
        request = self._request
        request_line = json.dumps([request.method, request.url.path]).encode()
        body = await request.body()
        self.fingerprint = hashlib.sha256(request_line + body).hexdigest()
        expiry = timedelta(seconds=expires_after)
        if user is not None:
            self.scope = f"{self.route} {owner_of(user)}"
        row = (
            await session.execute(
                select(idempotency_keys).where(
                    idempotency_keys.c.scope == self.scope,
                    idempotency_keys.c.key == self.key,
                )
            )
        ).one_or_none()
        if row is None:
            return
        if row.created_at < datetime.now(UTC) - expiry:
            await session.execute(
                delete(idempotency_keys).where(
                    idempotency_keys.c.scope == self.scope,
                    idempotency_keys.c.key == self.key,
                )
            )
            return
        if row.fingerprint != self.fingerprint:
            raise Replay(conflict(_REUSED))
        headers = {"Idempotent-Replayed": "true"}
        if row.location is not None:
            headers["Location"] = row.location
        if row.status_code == status.HTTP_204_NO_CONTENT:
            raise Replay(Response(status_code=row.status_code, headers=headers))
        raise Replay(
            JSONResponse(row.body, status_code=row.status_code, headers=headers)
        )

    async def remember(
        self,
        session: AsyncSession,
        result: Any,
        *,
        status_code: int,
        response: Response | None = None,
    ) -> None:
        """Store *result* as the answer to this key, in *session*'s transaction."""
        if self.key is None:
            return
        location = response.headers.get("location") if response is not None else None
        await session.execute(
            insert(idempotency_keys).values(
                scope=self.scope,
                key=self.key,
                fingerprint=self.fingerprint,
                status_code=status_code,
                body=jsonable_encoder(result),
                location=location,
            )
        )
