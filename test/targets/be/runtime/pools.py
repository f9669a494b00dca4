"""Engines of the runtime helpers' tests: one connection, where what a test counts or
waits for must happen on a connection it knows."""

from typing import Any

from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine


def pool_of_one(engine: AsyncEngine, **options: Any) -> AsyncEngine:
    """A new engine on *engine*'s database whose pool holds one connection and opens no
    other; *options* go to ``create_async_engine`` as well."""
    return create_async_engine(
        engine.url.render_as_string(hide_password=False),
        pool_size=1,
        max_overflow=0,
        **options,
    )
