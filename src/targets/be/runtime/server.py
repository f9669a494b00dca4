"""uvicorn's HTTP/1.1 protocol on httptools (llhttp, in C): deadlines for slow
clients, bounded request heads answered in JSON, and the real peer.

uvicorn closes a connection idle between requests (``--timeout-keep-alive``), but it
waits as long as a client likes for the rest of a request: a connection that sends
its headers a byte at a time holds a socket and a buffer forever, and enough of them
exhaust the server. ``BoundedHttpProtocol`` gives each request's headers
``HEADER_TIMEOUT`` seconds from their first byte (or from the connection's start), and
its body ``BODY_TIMEOUT`` seconds after the headers. Late headers get ``408 Request
Timeout`` and the connection closes; a late body closes the connection (the
application then sees the client disconnect).

A request's head (request line and headers) holds at most ``max_head`` bytes, 16 KiB;
llhttp sets no limit of its own. A whole head is measured as it is parsed, so a longer
one is refused however its bytes arrive, pipelined behind another request too: ``414
URI Too Long`` when the request line alone is over, else ``431 Request Header Fields
Too Large``. A head still incomplete is refused once the bytes received for it pass the
limit, so a client cannot make the parser hold more than the limit and one read. A
request llhttp cannot parse gets ``400``, and so does an HTTP/1.1 request without
exactly one ``Host`` header, as RFC 9112 asks. These answers, the ``408`` too, carry a
JSON ``{"detail": …}`` like the application's errors, come after the answers to the
requests before them, and end the connection: the server stops reading, drops what the
client still sends for up to ``LINGER`` seconds, then closes (closing at once, with the
client's bytes unread, would reset the connection and could destroy the answer before
the client reads it). ``responses.error_responses`` documents them on every route.
Serve with ``uvicorn --http <package>.runtime.server:BoundedHttpProtocol``; subclass it
to change the deadlines or the limit.

It also records each connection's peer before uvicorn's proxy-header handling may
replace the scope's ``client`` (``proxies.record_peer``): the client address is then
decided by the project's ``trusted_proxies``, whatever ``--forwarded-allow-ips`` says.
"""

import asyncio
import json
from typing import Any, Literal

from httptools import HttpRequestParser
from uvicorn.config import Config
from uvicorn.protocols.http.httptools_impl import STATUS_LINE, HttpToolsProtocol

from .proxies import record_peer

HEADER_TIMEOUT = 10.0
"""Seconds a request's headers may take, from their first byte."""
BODY_TIMEOUT = 30.0
"""Seconds a request's body may take, from the end of its headers."""
MAX_HEAD = 16 * 1024
"""Bytes a request's line and headers may hold."""

LINGER = 2.0
"""Seconds a refused connection's late bytes are dropped before it closes."""

# The bytes of a head beside its method, target and fields: the request line's two
# spaces, "HTTP/1.1" and line end, and the blank line that ends the head.
_LINE_FRAME = len(b"  HTTP/1.1\r\n")
_HEAD_END = len(b"\r\n")
_FIELD_FRAME = len(b": \r\n")

Phase = Literal["headers", "body"]


class _HeadRefused(Exception):
    """Raised from a parser callback to stop parsing a head that is refused."""


def _refusal(status: int, detail: str) -> bytes:
    """A whole response of *status* with the JSON body ``{"detail": detail}``, closing
    the connection: what the protocol answers when no application sees the request."""
    body = json.dumps({"detail": detail}).encode()
    head = (
        b"content-type: application/json\r\n"
        b"content-length: %d\r\n"
        b"connection: close\r\n"
        b"\r\n"
    )
    return STATUS_LINE[status] + head % len(body) + body


class BoundedHttpProtocol(HttpToolsProtocol):
    """``HttpToolsProtocol`` that refuses requests arriving too slowly, with a head over
    ``max_head`` bytes or without their host, in JSON, and records each connection's
    peer."""

    header_timeout: float = HEADER_TIMEOUT
    body_timeout: float = BODY_TIMEOUT
    max_head: int = MAX_HEAD

    _deadline: asyncio.TimerHandle | None = None
    _phase: Phase | None = None
    _in_head = False
    _in_body = False
    _head_received = 0
    _refusal_status: tuple[int, str] | None = None
    _deferred: bytes | None = None
    _refused = False

    def __init__(self, config: Config, *args: Any, **kwargs: Any) -> None:
        super().__init__(config, *args, **kwargs)
        self.app = record_peer(self.app)

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        # A connection that sends nothing at all is waiting on its first headers too.
        self._expect("headers")

    def data_received(self, data: bytes) -> None:
        if self._refused:
            return  # what a refused client still sends is dropped
        if self._in_head:
            # The read continues a head, so all of it belongs to that head: counted
            # here, a field the parser still buffers cannot grow past the limit.
            self._head_received += len(data)
        super().data_received(data)
        if self._refused:
            return
        if self._in_head and self._head_received > self.max_head:
            self._refuse(*self._head_refusal())
        else:
            self._follow()

    # Parser callbacks, each measuring the head so far.

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._in_head = True
        self._head_received = 0

    def on_url(self, url: bytes) -> None:
        super().on_url(url)
        if self._line_size() > self.max_head:
            self._stop(*self._head_refusal())

    def on_headers_complete(self) -> None:
        size = self._line_size() + _HEAD_END
        hosts = 0
        for name, value in self.headers:
            size += len(name) + len(value) + _FIELD_FRAME
            if name == b"host":
                hosts += 1
        if size > self.max_head:
            self._stop(*self._head_refusal())
        # RFC 9112, 3.2; h11 refuses such a request too, llhttp does not.
        if hosts != 1 and self._parser.get_http_version() == "1.1":
            self._stop(400, "An HTTP/1.1 request has exactly one Host header.")
        self._in_head = False
        self._in_body = True
        super().on_headers_complete()

    def on_message_complete(self) -> None:
        self._in_body = False
        super().on_message_complete()

    @property
    def _parser(self) -> HttpRequestParser:
        # uvicorn drops the parser when the connection is lost, after every callback.
        assert self.parser is not None
        return self.parser

    def _line_size(self) -> int:
        return len(self._parser.get_method()) + len(self.url) + _LINE_FRAME

    def _head_refusal(self) -> tuple[int, str]:
        limit = f"{self.max_head:,} bytes"
        if self._line_size() > self.max_head:
            return 414, f"The request line is longer than {limit}."
        return 431, f"The request line and headers are longer than {limit}."

    def _stop(self, status: int, detail: str) -> None:
        # The parser reports a callback's exception as a parse error, which uvicorn
        # answers through send_400_response: that answers this status instead.
        self._refusal_status = (status, detail)
        raise _HeadRefused

    def send_400_response(self, msg: str) -> None:
        # uvicorn's answer to what llhttp cannot parse (or a callback stopped), in JSON.
        status = self._refusal_status or (400, "The request is not valid HTTP/1.1.")
        self._refuse(*status)

    def _refuse(self, status: int, detail: str) -> None:
        """Answer *status* with *detail* once the requests before are answered, then
        end the connection (see ``LINGER``)."""
        self.logger.info("Refused a request: %s", detail)
        self._cancel()
        self._refused = True
        self._deferred = _refusal(status, detail)
        if self._between_requests():
            self._send_refusal()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if self._deferred is not None and self._between_requests():
            self._send_refusal()

    def _send_refusal(self) -> None:
        assert self._deferred is not None
        if self.transport.is_closing():
            return  # the last answer closed the connection (``connection: close``)
        self.transport.write(self._deferred)
        self._deferred = None
        self.transport.write_eof()
        self.loop.call_later(LINGER, self.transport.close)

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel()
        super().connection_lost(exc)

    def _follow(self) -> None:
        """Arm the deadline of what the connection is waiting for, after new bytes."""
        if self._in_head:
            self._expect("headers")
        elif self._in_body:
            self._expect("body")
        else:
            self._cancel()  # the request is complete

    def _expect(self, phase: Phase) -> None:
        # A deadline bounds the whole phase: bytes that trickle in do not extend it.
        if self._phase == phase:
            return
        self._cancel()
        timeout = self.header_timeout if phase == "headers" else self.body_timeout
        self._phase = phase
        self._deadline = self.loop.call_later(timeout, self._expired, phase)

    def _cancel(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
        self._deadline = None
        self._phase = None

    def _expired(self, phase: Phase) -> None:
        self._deadline = None
        self._phase = None
        if self.transport.is_closing():
            return
        if phase == "headers" and not self._in_body and self._between_requests():
            self._refuse(408, "The request's headers came too late.")
        elif phase == "body" and self._in_body:
            self.logger.info("Closed a connection whose request body came too late")
            self.transport.close()

    def _between_requests(self) -> bool:
        # No response is being written or waits to be: the last request parsed (if
        # any) is answered, and it is answered after every request before it.
        return self.cycle is None or self.cycle.response_complete
