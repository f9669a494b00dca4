"""BoundedH11Protocol under a real uvicorn server, driven by sockets that trickle."""

import asyncio
import time
from collections.abc import AsyncIterator
from urllib.parse import urlsplit

import pytest
import pytest_asyncio
from clients import serving
from runtime.server import BoundedH11Protocol
from starlette.types import Receive, Scope, Send

pytestmark = pytest.mark.asyncio(loop_scope="session")

HEADER_TIMEOUT = 0.6
BODY_TIMEOUT = 0.8
# Generous: the deadline itself is what is measured, not the machine's speed.
SLACK = 5.0
RESET = b"<reset>"


class Quick(BoundedH11Protocol):
    header_timeout = HEADER_TIMEOUT
    body_timeout = BODY_TIMEOUT


bodies: list[str] = []


async def echo(scope: Scope, receive: Receive, send: Send) -> None:
    """Answers the request's body (read to the end), or records a disconnect."""
    if scope["type"] != "http":
        return
    body = b""
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            bodies.append("disconnected")
            return
        body += message.get("body", b"")
        if not message.get("more_body"):
            break
    bodies.append(body.decode())
    answer = b"got " + body
    length = str(len(answer)).encode()
    await send(
        {
            "type": "http.response.start",
            "status": 200,
            "headers": [(b"content-length", length)],
        }
    )
    await send({"type": "http.response.body", "body": answer})


@pytest_asyncio.fixture(loop_scope="session", scope="module")
async def address() -> AsyncIterator[tuple[str, int]]:
    """A uvicorn server of ``echo`` with ``Quick`` deadlines, on a port of its own."""
    async with serving(echo, http=Quick) as url:
        served = urlsplit(url)
        assert served.hostname is not None and served.port is not None
        yield served.hostname, served.port


async def closed_after(reader: asyncio.StreamReader) -> tuple[bytes, float]:
    """Everything the server sends until it closes, and when it closed (monotonic).

    ``RESET`` when the close reset the connection: closing a socket that still holds
    bytes the client sent makes the kernel send RST, which may overtake the answer.
    """
    try:
        received = await asyncio.wait_for(reader.read(), timeout=SLACK + BODY_TIMEOUT)
    except ConnectionResetError:
        received = RESET
    return received, time.monotonic()


async def trickle(writer: asyncio.StreamWriter, data: bytes, every: float) -> None:
    """Writes *data* a byte at a time until the server closes the connection."""
    for byte in data:
        if writer.is_closing():
            return
        writer.write(bytes([byte]))
        try:
            await writer.drain()
        except ConnectionError:
            return
        await asyncio.sleep(every)


async def test_headers_sent_a_byte_at_a_time_get_408_at_the_deadline(
    address: tuple[str, int],
) -> None:
    reader, writer = await asyncio.open_connection(*address)
    started = time.monotonic()
    request = b"GET / HTTP/1.1\r\nhost: x\r\n" + b"x-pad: y\r\n" * 200 + b"\r\n"
    sending = asyncio.create_task(trickle(writer, request, 0.05))
    received, closed = await closed_after(reader)
    sending.cancel()
    writer.close()
    if received != RESET:
        assert received.startswith(b"HTTP/1.1 408 Request Timeout\r\n"), received
        assert received.endswith(b"The request's headers came too late")
    assert HEADER_TIMEOUT <= closed - started < HEADER_TIMEOUT + SLACK


async def test_a_connection_that_sends_nothing_is_closed(
    address: tuple[str, int],
) -> None:
    reader, writer = await asyncio.open_connection(*address)
    started = time.monotonic()
    received, closed = await closed_after(reader)
    writer.close()
    assert received.startswith(b"HTTP/1.1 408 ")
    assert HEADER_TIMEOUT <= closed - started < HEADER_TIMEOUT + SLACK


async def test_forty_slow_connections_are_all_closed(address: tuple[str, int]) -> None:
    connections = [await asyncio.open_connection(*address) for _ in range(40)]
    senders = [
        asyncio.create_task(trickle(writer, b"GET / HTTP/1.1\r\n" + b"a" * 500, 0.1))
        for _, writer in connections
    ]
    results = await asyncio.gather(*(closed_after(reader) for reader, _ in connections))
    for sender in senders:
        sender.cancel()
    for _, writer in connections:
        writer.close()
    assert all(r == RESET or r.startswith(b"HTTP/1.1 408 ") for r, _ in results)


async def test_a_body_sent_slowly_is_cut_off_and_the_app_sees_a_disconnect(
    address: tuple[str, int],
) -> None:
    reader, writer = await asyncio.open_connection(*address)
    writer.write(b"POST / HTTP/1.1\r\nhost: x\r\ncontent-length: 100\r\n\r\n")
    await writer.drain()
    started = time.monotonic()
    sending = asyncio.create_task(trickle(writer, b"b" * 100, 0.05))
    received, closed = await closed_after(reader)
    sending.cancel()
    writer.close()
    assert received in (b"", RESET)
    assert BODY_TIMEOUT <= closed - started < BODY_TIMEOUT + SLACK
    await asyncio.sleep(0.1)
    assert bodies[-1] == "disconnected"


async def test_prompt_requests_pass_and_idle_keep_alive_is_not_slow(
    address: tuple[str, int],
) -> None:
    reader, writer = await asyncio.open_connection(*address)
    for body in (b"one", b"two"):
        writer.write(b"POST / HTTP/1.1\r\nhost: x\r\ncontent-length: 3\r\n\r\n" + body)
        await writer.drain()
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), timeout=SLACK)
        assert head.startswith(b"HTTP/1.1 200 "), head
        assert await asyncio.wait_for(reader.readexactly(7), timeout=SLACK) == (
            b"got " + body
        )
        # Idle between requests for longer than both deadlines: uvicorn's keep-alive
        # timeout (5 s) governs this wait, not the request deadlines.
        await asyncio.sleep(HEADER_TIMEOUT + BODY_TIMEOUT)
    writer.close()
