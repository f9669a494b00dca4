"""BoundedHttpProtocol under a real uvicorn server, driven by sockets that trickle
or send too much."""

import asyncio
import json
import time
from collections.abc import AsyncIterator
from urllib.parse import urlsplit

import pytest
import pytest_asyncio
from clients import serving
from runtime.server import MAX_HEAD, BoundedHttpProtocol
from starlette.types import Receive, Scope, Send

pytestmark = pytest.mark.asyncio(loop_scope="session")

HEADER_TIMEOUT = 0.6
BODY_TIMEOUT = 0.8
# Generous: the deadline itself is what is measured, not the machine's speed.
SLACK = 5.0
RESET = b"<reset>"


class Quick(BoundedHttpProtocol):
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


async def connect(
    address: tuple[str, int],
) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """A new connection to the server, made within ``SLACK`` seconds."""
    return await asyncio.wait_for(asyncio.open_connection(*address), timeout=SLACK)


async def send(writer: asyncio.StreamWriter, data: bytes) -> None:
    """Writes *data*, waiting at most ``SLACK`` seconds for the socket to take it."""
    writer.write(data)
    await asyncio.wait_for(writer.drain(), timeout=SLACK)


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


def refusal_detail(received: bytes) -> str:
    """The ``detail`` of a refusal's JSON body, after checking its framing."""
    head, _, body = received.partition(b"\r\n\r\n")
    fields = head.split(b"\r\n")[1:]
    assert b"content-type: application/json" in fields, received
    assert b"connection: close" in fields, received
    assert f"content-length: {len(body)}".encode() in fields, received
    return json.loads(body)["detail"]


async def trickle(writer: asyncio.StreamWriter, data: bytes, every: float) -> None:
    """Writes *data* a byte at a time until the server closes the connection."""
    for byte in data:
        if writer.is_closing():
            return
        try:
            await send(writer, bytes([byte]))
        except ConnectionError:
            return
        await asyncio.sleep(every)


async def test_headers_sent_a_byte_at_a_time_get_408_at_the_deadline(
    address: tuple[str, int],
) -> None:
    reader, writer = await connect(address)
    started = time.monotonic()
    request = b"GET / HTTP/1.1\r\nhost: x\r\n" + b"x-pad: y\r\n" * 200 + b"\r\n"
    sending = asyncio.create_task(trickle(writer, request, 0.05))
    received, closed = await closed_after(reader)
    sending.cancel()
    writer.close()
    if received != RESET:
        assert received.startswith(b"HTTP/1.1 408 Request Timeout\r\n"), received
        assert refusal_detail(received) == "The request's headers came too late."
    assert HEADER_TIMEOUT <= closed - started < HEADER_TIMEOUT + SLACK


async def test_a_connection_that_sends_nothing_is_closed(
    address: tuple[str, int],
) -> None:
    reader, writer = await connect(address)
    started = time.monotonic()
    received, closed = await closed_after(reader)
    writer.close()
    assert received.startswith(b"HTTP/1.1 408 ")
    assert HEADER_TIMEOUT <= closed - started < HEADER_TIMEOUT + SLACK


async def test_forty_slow_connections_are_all_closed(address: tuple[str, int]) -> None:
    connections = [await connect(address) for _ in range(40)]
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
    reader, writer = await connect(address)
    await send(writer, b"POST / HTTP/1.1\r\nhost: x\r\ncontent-length: 100\r\n\r\n")
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
    reader, writer = await connect(address)
    for body in (b"one", b"two"):
        await send(
            writer, b"POST / HTTP/1.1\r\nhost: x\r\ncontent-length: 3\r\n\r\n" + body
        )
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), timeout=SLACK)
        assert head.startswith(b"HTTP/1.1 200 "), head
        assert await asyncio.wait_for(reader.readexactly(7), timeout=SLACK) == (
            b"got " + body
        )
        # Idle between requests for longer than both deadlines: uvicorn's keep-alive
        # timeout (5 s) governs this wait, not the request deadlines.
        await asyncio.sleep(HEADER_TIMEOUT + BODY_TIMEOUT)
    writer.close()


async def next_answer(reader: asyncio.StreamReader) -> bytes:
    """The next whole answer the server sends on *reader*'s connection."""
    head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), timeout=SLACK)
    length = int(head.lower().split(b"content-length: ")[1].split(b"\r\n")[0])
    return head + await asyncio.wait_for(reader.readexactly(length), timeout=SLACK)


async def answer(address: tuple[str, int], request: bytes, pieces: int) -> bytes:
    """The server's answer to *request*, written in *pieces* reads apart."""
    reader, writer = await connect(address)
    size = -(-len(request) // pieces)
    for start in range(0, len(request), size):
        await send(writer, request[start : start + size])
        await asyncio.sleep(0.05)
    try:
        return await next_answer(reader)
    finally:
        writer.close()


def request_of(target: bytes, headers: bytes = b"") -> bytes:
    return b"GET " + target + b" HTTP/1.1\r\nhost: x\r\n" + headers + b"\r\n"


@pytest.mark.parametrize("pieces", [1, 2, 9])
async def test_a_head_over_the_limit_is_refused_however_its_bytes_arrive(
    address: tuple[str, int], pieces: int
) -> None:
    # llhttp alone has no limit: the protocol measures the head as it is parsed.
    long_url = request_of(b"/?q=" + b"a" * MAX_HEAD)
    received = await answer(address, long_url, pieces)
    assert received.startswith(b"HTTP/1.1 414 "), received
    assert refusal_detail(received) == "The request line is longer than 16,384 bytes."
    long_headers = request_of(b"/", b"x-pad: y\r\n" * (MAX_HEAD // 10))
    received = await answer(address, long_headers, pieces)
    assert received.startswith(b"HTTP/1.1 431 ")
    assert refusal_detail(received) == (
        "The request line and headers are longer than 16,384 bytes."
    )


async def test_a_head_over_the_limit_behind_another_request_is_refused(
    address: tuple[str, int],
) -> None:
    # Pipelined: two heads in one write, both parsed at once; the refusal waits for the
    # first request's answer.
    reader, writer = await connect(address)
    await send(writer, request_of(b"/") + request_of(b"/?q=" + b"a" * MAX_HEAD))
    try:
        assert (await next_answer(reader)).startswith(b"HTTP/1.1 200 ")
        received = await next_answer(reader)
    finally:
        writer.close()
    assert received.startswith(b"HTTP/1.1 414 "), received
    assert refusal_detail(received) == "The request line is longer than 16,384 bytes."


@pytest.mark.parametrize("pieces", [1, 2])
async def test_a_head_at_the_limit_is_served_however_its_bytes_arrive(
    address: tuple[str, int], pieces: int
) -> None:
    request = request_of(b"/?q=")
    request = request_of(b"/?q=" + b"a" * (MAX_HEAD - len(request)))
    assert len(request) == MAX_HEAD
    assert (await answer(address, request, pieces)).startswith(b"HTTP/1.1 200 ")


async def test_a_request_that_is_not_http_gets_a_json_400(
    address: tuple[str, int],
) -> None:
    received = await answer(address, request_of(b"/", b"bad header\r\n"), 1)
    assert received.startswith(b"HTTP/1.1 400 Bad Request\r\n"), received
    assert refusal_detail(received) == "The request is not valid HTTP/1.1."


async def test_a_field_still_arriving_past_the_limit_is_refused(
    address: tuple[str, int],
) -> None:
    # The parser buffers a field until it ends: the bytes received bound it instead.
    # The reads that continue a head are what is counted, so a busy machine that joins
    # the first writes into one read needs more of them: up to twice the limit is sent,
    # until the answer comes.
    reader, writer = await connect(address)
    await send(writer, b"GET / HTTP/1.1\r\nhost: x\r\nx-pad: ")
    answered = asyncio.create_task(next_answer(reader))
    try:
        for _ in range(2 * MAX_HEAD // 1024):
            if answered.done():
                break
            await asyncio.sleep(0.02)
            await send(writer, b"y" * 1024)
        received = await answered
    finally:
        answered.cancel()
        writer.close()
    assert received.startswith(b"HTTP/1.1 431 "), received
    assert refusal_detail(received) == (
        "The request line and headers are longer than 16,384 bytes."
    )


@pytest.mark.parametrize(
    "head",
    [b"GET / HTTP/1.1\r\n\r\n", b"GET / HTTP/1.1\r\nhost: x\r\nhost: y\r\n\r\n"],
    ids=["no host", "two hosts"],
)
async def test_an_http_1_1_request_without_exactly_one_host_gets_a_json_400(
    address: tuple[str, int], head: bytes
) -> None:
    received = await answer(address, head, 1)
    assert received.startswith(b"HTTP/1.1 400 Bad Request\r\n"), received
    assert refusal_detail(received) == (
        "An HTTP/1.1 request has exactly one Host header."
    )


async def test_an_http_1_0_request_needs_no_host(address: tuple[str, int]) -> None:
    received = await answer(address, b"GET / HTTP/1.0\r\n\r\n", 1)
    assert received.startswith(b"HTTP/1.1 200 "), received
