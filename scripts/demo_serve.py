"""``npm run demo``'s launcher: create the blog's tables, then serve ``blog.main:app``.

Run with ``examples/blog`` on ``PYTHONPATH`` and ``DATABASE_URL`` set, in the venv that
holds the generated backend's dependencies. ``scripts/demo.ts`` starts it and stops it
with SIGTERM, which uvicorn answers with a graceful shutdown.
"""

import argparse
import asyncio

import uvicorn

from blog.api.db.session import get_engine
from blog.main import app
from blog.models import create_tables


async def prepare_database() -> None:
    engine = get_engine()
    await create_tables(engine)
    # The pool's connections belong to this event loop; uvicorn runs another.
    await engine.dispose()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    args = parser.parse_args()

    asyncio.run(prepare_database())
    uvicorn.run(app, host=args.host, port=args.port, log_level="info")


if __name__ == "__main__":
    main()
