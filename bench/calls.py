"""Python calls per request of one app and route of ``npm run bench:api -- --calls N``.

Loads the app in process (``module:attribute``, after its lifespan's startup) and sends
it the requests bench/api.ts wrote (the same its load sends), as bare ASGI calls, one
after another, with no HTTP server or client in between: the first ``--warmup`` warm it,
and cProfile counts the Python calls (functions, and builtins called from Python) the
others make. A count does not move with the machine's load, as CPU time does, so it tells
two versions of a route apart on a busy machine; it weighs a call into C (a socket write,
pydantic-core) like any other. Prints one JSON line: ``{"calls": <per request>}``. Run
with the project's venv, ``DATABASE_URL`` set, and the project and test/e2e/support on
``PYTHONPATH``.

    python bench/calls.py --app blog.main:app --requests get.json --warmup 50 [--stats get.pstats]
"""

import argparse
import asyncio
import cProfile
import json
import pstats
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


def encoded(request: dict[str, Any]) -> tuple[str, str, bytes | None]:
    """The method, target and body of one of bench/api.ts's requests (JSON: method, path, body)."""
    body = request.get("body")
    return (
        request["method"],
        request["path"],
        None if body is None else json.dumps(body).encode(),
    )


async def measure(
    app: App, requests: list[dict[str, Any]], warmup: int, stats: str | None
) -> float:
    """Python calls per request of *requests* past the first *warmup*, which warm *app*;
    the profile's statistics go to the file *stats* when given."""
    stop = await start(app)
    try:
        # Warmed: every statement compiled and prepared, every pool connection open.
        for request in requests[:warmup]:
            status, body = await call(app, *encoded(request))
            assert status < 300, f"{request['path']}: {status} {body[:500]!r}"
        measured = requests[warmup:]
        profile = cProfile.Profile()
        profile.enable()
        for request in measured:
            await call(app, *encoded(request))
        profile.disable()
    finally:
        await stop()
    if stats is not None:
        profile.dump_stats(stats)
    return pstats.Stats(profile).total_calls / len(measured)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--app", required=True, help="module:attribute of the ASGI app")
    parser.add_argument(
        "--requests", required=True, help="JSON file: [{method, path, body?}, ...]"
    )
    parser.add_argument("--warmup", type=int, required=True)
    parser.add_argument("--stats", help="write cProfile's statistics to this file")
    args = parser.parse_args()
    module, _, attribute = args.app.partition(":")
    app: App = getattr(import_module(module), attribute)
    requests = json.loads(Path(args.requests).read_text())
    assert len(requests) > args.warmup, "no request left to measure past the warm-up"
    calls = asyncio.run(measure(app, requests, args.warmup, args.stats))
    print(json.dumps({"calls": calls}))


if __name__ == "__main__":
    main()
