"""Python calls per request of one app and route of ``npm run bench:api -- --calls N``.

Loads the app in process (``module:attribute``, after its lifespan's startup) and sends
it N requests of the route as bare ASGI calls, one after another, with no HTTP server or
client in between; cProfile counts the Python calls (functions, and builtins called from
Python) they make. A count does not move with the machine's load, as CPU time does, so
it tells two versions of a route apart on a busy machine; it weighs a call into C (a
socket write, pydantic-core) like any other. Prints one JSON line:
``{"calls": <per request>}``. Run with the project's venv, ``DATABASE_URL`` set, and the
project and test/e2e/support on ``PYTHONPATH``.

    python bench/calls.py --app blog.main:app --route get --requests 200 --ids ids.json
"""

import argparse
import asyncio
import cProfile
import json
import pstats
import random
from collections.abc import Awaitable, Callable
from importlib import import_module
from pathlib import Path
from typing import Any

Message = dict[str, Any]
App = Callable[
    [
        dict[str, Any],
        Callable[[], Awaitable[Message]],
        Callable[[Message], Awaitable[None]],
    ],
    Awaitable[None],
]


async def call(
    app: App, method: str, target: str, body: bytes | None
) -> tuple[int, bytes]:
    """Sends one HTTP request to *app*; returns the status and the body of its answer."""
    path, _, query = target.partition("?")
    headers = [(b"host", b"bench")]
    if body is not None:
        headers += [
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()),
        ]
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "root_path": "",
        "query_string": query.encode(),
        "headers": headers,
        "client": ("127.0.0.1", 50000),
        "server": ("127.0.0.1", 80),
    }
    received = False
    answer: dict[str, Any] = {"body": b""}

    async def receive() -> Message:
        nonlocal received
        if not received:
            received = True
            return {"type": "http.request", "body": body or b"", "more_body": False}
        # Nothing more comes: a request ends with its answer, as on a kept-alive connection.
        await asyncio.Event().wait()
        raise AssertionError("unreachable")

    async def send(message: Message) -> None:
        if message["type"] == "http.response.start":
            answer["status"] = message["status"]
        elif message["type"] == "http.response.body":
            answer["body"] += message.get("body", b"")

    await app(scope, receive, send)
    return answer["status"], answer["body"]


async def start(app: App) -> Callable[[], Awaitable[None]]:
    """Runs *app*'s lifespan startup (the floor opens its pool there); returns its shutdown."""
    inbox: asyncio.Queue[Message] = asyncio.Queue()
    outbox: asyncio.Queue[Message] = asyncio.Queue()

    async def lifespan() -> None:
        await app(
            {"type": "lifespan", "asgi": {"version": "3.0"}, "state": {}},
            inbox.get,
            outbox.put,
        )

    task = asyncio.create_task(lifespan())
    await inbox.put({"type": "lifespan.startup"})
    started = await asyncio.wait_for(outbox.get(), timeout=60)
    assert started["type"] == "lifespan.startup.complete", started

    async def stop() -> None:
        await inbox.put({"type": "lifespan.shutdown"})
        await asyncio.wait_for(task, timeout=60)

    return stop


def request(
    route: str, ids: list[str], authors: list[str]
) -> tuple[str, str, bytes | None]:
    """A request of *route*, as bench/api.ts sends it."""
    if route == "get":
        return "GET", f"/articles/{random.choice(ids)}", None
    if route == "list":
        return "GET", "/articles?limit=20", None
    if route == "create":
        body = {
            "title": f"Calls {random.getrandbits(32):08x}",
            "body": "one two three",
            "author_id": random.choice(authors),
        }
        return "POST", "/articles", json.dumps(body).encode()
    if route == "update":
        return (
            "PATCH",
            f"/articles/{random.choice(ids)}",
            json.dumps({"rating": random.randint(0, 50) / 10}).encode(),
        )
    raise ValueError(f"unknown route {route}")


async def measure(
    app: App, route: str, requests: int, keys: dict[str, list[str]]
) -> float:
    """Python calls per request of *route*, after a warm-up."""
    stop = await start(app)
    try:
        # Warmed: every statement compiled and prepared, every pool connection open.
        for _ in range(50):
            status, body = await call(
                app, *request(route, keys["ids"], keys["authors"])
            )
            assert status < 300, f"{route}: {status} {body[:500]!r}"
        profile = cProfile.Profile()
        profile.enable()
        for _ in range(requests):
            await call(app, *request(route, keys["ids"], keys["authors"]))
        profile.disable()
    finally:
        await stop()
    return pstats.Stats(profile).total_calls / requests


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--app", required=True, help="module:attribute of the ASGI app")
    parser.add_argument("--route", required=True)
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument(
        "--ids", required=True, help="JSON file: {ids: [...], authors: [...]}"
    )
    args = parser.parse_args()
    module, _, attribute = args.app.partition(":")
    app: App = getattr(import_module(module), attribute)
    keys = json.loads(Path(args.ids).read_text())
    calls = asyncio.run(measure(app, args.route, args.requests, keys))
    print(json.dumps({"calls": calls}))


if __name__ == "__main__":
    main()
