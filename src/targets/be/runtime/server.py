"""uvicorn's HTTP/1.1 protocol (h11): deadlines for slow clients, and the real peer.

uvicorn closes a connection idle between requests (``--timeout-keep-alive``), but it
waits as long as a client likes for the rest of a request: a connection that sends
its headers a byte at a time holds a socket and a buffer forever, and enough of them
exhaust the server. ``BoundedH11Protocol`` gives each request's headers
``HEADER_TIMEOUT`` seconds from their first byte (or from the connection's start), and
its body ``BODY_TIMEOUT`` seconds after the headers. Late headers get ``408 Request
Timeout`` and the connection closes; a late body closes the connection (the
application then sees the client disconnect). Serve with
``uvicorn --http <package>.runtime.server:BoundedH11Protocol``; subclass it to change
the deadlines.

It also records each connection's peer before uvicorn's proxy-header handling may
replace the scope's ``client`` (``proxies.record_peer``): the client address is then
decided by the project's ``trusted_proxies``, whatever ``--forwarded-allow-ips`` says.
"""

import asyncio
from typing import Any, Literal

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from .proxies import record_peer

HEADER_TIMEOUT = 10.0
"""Seconds a request's headers may take, from their first byte."""
BODY_TIMEOUT = 30.0
"""Seconds a request's body may take, from the end of its headers."""

Phase = Literal["headers", "body"]

_LATE_HEADERS = b"The request's headers came too late"
_REQUEST_TIMEOUT = (
    b"HTTP/1.1 408 Request Timeout\r\n"
    b"content-type: text/plain; charset=utf-8\r\n"
    b"content-length: %d\r\n"
    b"connection: close\r\n"
    b"\r\n%s" % (len(_LATE_HEADERS), _LATE_HEADERS)
)


class BoundedH11Protocol(H11Protocol):
    """``H11Protocol`` that closes connections whose requests arrive too slowly."""

    header_timeout: float = HEADER_TIMEOUT
    body_timeout: float = BODY_TIMEOUT

    _deadline: asyncio.TimerHandle | None = None
    _phase: Phase | None = None

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.app = record_peer(self.app)

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        # A connection that sends nothing at all is waiting on its first headers too.
        self._expect("headers")

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        self._follow()

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel()
        super().connection_lost(exc)

    def _follow(self) -> None:
        """Arm the deadline of what the connection is waiting for, after new bytes."""
        state = self.conn.their_state
        if state is h11.IDLE and self.conn.trailing_data[0]:
            self._expect("headers")  # part of a request's headers is buffered
        elif state is h11.SEND_BODY:
            self._expect("body")
        elif state is not h11.IDLE:
            self._cancel()  # the request is complete, or the connection is ending

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
        state = self.conn.their_state
        if phase == "headers" and state is h11.IDLE and self._between_requests():
            self.logger.info("Closed a connection whose request headers came too late")
            self.transport.write(_REQUEST_TIMEOUT)
            self.transport.close()
        elif phase == "body" and state is h11.SEND_BODY:
            self.logger.info("Closed a connection whose request body came too late")
            self.transport.close()

    def _between_requests(self) -> bool:
        # No response is being written: the previous one (if any) is complete.
        return self.cycle is None or self.cycle.response_complete
