"""Rate limits whose counters live in PostgreSQL, so every worker and machine agrees.

Each limit is a fixed window that starts at a client's first request and ends
``seconds`` later; one ``INSERT … ON CONFLICT DO UPDATE`` per request counts the hit
in every window of the route at once and returns the counts, so concurrent requests
are counted exactly. Over a limit the route answers 429 with ``Retry-After`` and the
``RateLimit`` / ``RateLimit-Policy`` fields of the IETF httpapi draft; under it,
those fields too unless ``headers=False``.
"""

import inspect
import itertools
import math
import re
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import Depends, HTTPException, Request, Response, status
from sqlalchemy import Column, DateTime, Integer, MetaData, Table, Text
from sqlalchemy.dialects import postgresql
from sqlalchemy.ext.asyncio import AsyncEngine
from sqlalchemy.schema import CreateTable

from .autocommit import autocommit
from .idempotency import owner_of

TABLE = "rate_limit_counters"

_UNITS = {"second": 1, "minute": 60, "hour": 3600, "day": 86400}
_LIMIT = re.compile(r"^\s*(\d+)\s*/\s*(second|minute|hour|day)s?\s*$")

metadata = MetaData()
"""The counters' table, for migrations (the generated ``database.py`` lists it)."""

counters = Table(
    TABLE,
    metadata,
    Column("bucket", Text, primary_key=True),
    Column("window_seconds", Integer, primary_key=True),
    Column("window_start", DateTime(timezone=True), nullable=False),
    Column("hits", Integer, nullable=False),
)

# The same table, created on first use in a database no migration created it in.
_CREATE = (
    str(
        CreateTable(counters, if_not_exists=True).compile(dialect=postgresql.dialect())
    ),
)

# One statement counts the hit in every window; a window that has ended restarts now.
_HIT = f"""
INSERT INTO {TABLE} AS c (bucket, window_seconds, window_start, hits)
SELECT :bucket, w, now(), 1 FROM unnest(CAST(:windows AS integer[])) AS w
ON CONFLICT (bucket, window_seconds) DO UPDATE SET
    window_start = CASE
        WHEN c.window_start + make_interval(secs => c.window_seconds) <= now()
        THEN now() ELSE c.window_start END,
    hits = CASE
        WHEN c.window_start + make_interval(secs => c.window_seconds) <= now()
        THEN 1 ELSE c.hits + 1 END
RETURNING c.window_seconds, c.hits,
    EXTRACT(EPOCH FROM c.window_start + make_interval(secs => c.window_seconds) - now())
"""

# Windows that ended an hour ago or more: their rows would only restart.
_PRUNE = f"""
DELETE FROM {TABLE}
WHERE window_start + make_interval(secs => window_seconds) < now() - interval '1 hour'
"""

_FORGET = f"DELETE FROM {TABLE} WHERE bucket = :bucket"

ClientKey = Callable[[Request], "str | None | Awaitable[str | None]"]


@dataclass(frozen=True)
class Limit:
    """At most ``count`` requests per ``seconds``."""

    count: int
    seconds: int


def parse_limits(spec: str) -> tuple[Limit, ...]:
    """``"5/second;1000/hour"`` as limits, shortest window first.

    Raises ``ValueError`` for anything else, or for two limits of one window.
    """
    limits: dict[int, Limit] = {}
    for part in spec.split(";"):
        match = _LIMIT.match(part)
        if not match or int(match[1]) < 1:
            raise ValueError(f"bad rate limit {part.strip()!r}: expected like 5/minute")
        limit = Limit(int(match[1]), _UNITS[match[2]])
        if limit.seconds in limits:
            raise ValueError(f"two limits per {match[2]} in {spec!r}")
        limits[limit.seconds] = limit
    return tuple(sorted(limits.values(), key=lambda limit: limit.seconds))


class RateLimit:
    """A FastAPI dependency enforcing ``limits`` on one route, per client key.

    ``key`` maps a request to the client's key (``None``: the request is not limited);
    without one, the limit is keyed per user through :meth:`per_user`. ``engine``
    returns the engine of the database holding the counters.
    """

    def __init__(
        self,
        name: str,
        limits: str,
        *,
        key: ClientKey | None = None,
        engine: Callable[[], AsyncEngine],
        headers: bool = True,
        prune_every: int = 1000,
    ) -> None:
        self.name = name
        self.limits = parse_limits(limits)
        self.key = key
        self.engine = engine
        self.headers = headers
        self.policy = ", ".join(
            f'"{limit.seconds}s";q={limit.count};w={limit.seconds}'
            for limit in self.limits
        )
        self._windows = [limit.seconds for limit in self.limits]
        self._calls = itertools.count(1)
        self._prune_every = prune_every

    async def __call__(self, request: Request, response: Response) -> None:
        if self.key is None:
            raise TypeError(f"{self.name} is keyed per user: depend on per_user(...)")
        client = self.key(request)
        if inspect.isawaitable(client):
            client = await client
        await self.check(client, response)

    def per_user(self, current_user: Callable[..., Any]) -> Callable[..., Any]:
        """This limit keyed by the user that ``current_user`` (a dependency) gives."""

        async def limit_per_user(
            response: Response, user: Annotated[Any, Depends(current_user)]
        ) -> None:
            await self.check(owner_of(user), response)

        return limit_per_user

    async def check(self, client: str | None, response: Response) -> None:
        """Count one request of *client*; raise 429 when it exceeds a limit."""
        if client is None:
            return
        counts = await self._hit(f"{self.name}:{client}")
        over = [c for c in counts if c[1] > self._limit(c[0]).count]
        worst = max(over, key=lambda c: c[2]) if over else self._nearest(counts)
        window, hits, reset = worst
        allowed = self._limit(window).count
        remaining = max(allowed - hits, 0)
        fields = {
            "RateLimit-Policy": self.policy,
            "RateLimit": f'"{window}s";r={remaining};t={math.ceil(reset)}',
        }
        if over:
            raise HTTPException(
                status.HTTP_429_TOO_MANY_REQUESTS,
                detail=f"Rate limit exceeded: {allowed} requests per {window}s",
                headers={"Retry-After": str(max(math.ceil(reset), 1)), **fields},
            )
        if self.headers:
            response.headers.update(fields)

    async def forget(self, client: str) -> None:
        """Drop *client*'s counts: its next request starts every window afresh."""
        await autocommit(self.engine(), _FORGET, {"bucket": f"{self.name}:{client}"})

    def _limit(self, seconds: int) -> Limit:
        return next(limit for limit in self.limits if limit.seconds == seconds)

    def _nearest(
        self, counts: Sequence[tuple[int, int, float]]
    ) -> tuple[int, int, float]:
        # Under every limit: report the one with the fewest requests left.
        return min(counts, key=lambda c: (self._limit(c[0]).count - c[1], c[0]))

    async def _hit(self, bucket: str) -> list[tuple[int, int, float]]:
        engine = self.engine()
        parameters = {"bucket": bucket, "windows": self._windows}
        rows = await autocommit(engine, _HIT, parameters, creating=(TABLE, _CREATE))
        if next(self._calls) % self._prune_every == 0:
            await autocommit(engine, _PRUNE, {})
        return [(int(row[0]), int(row[1]), float(row[2])) for row in rows]
