"""uvicorn's HTTP/1.1 protocol (h11): deadlines for slow clients, bounded request
heads answered in JSON, and the real peer.

uvicorn closes a connection idle between requests (``--timeout-keep-alive``), but it
waits as long as a client likes for the rest of a request: a connection that sends
its headers a byte at a time holds a socket and a buffer forever, and enough of them
exhaust the server. ``BoundedH11Protocol`` gives each request's headers
``HEADER_TIMEOUT`` seconds from their first byte (or from the connection's start), and
its body ``BODY_TIMEOUT`` seconds after the headers. Late headers get ``408 Request
Timeout`` and the connection closes; a late body closes the connection (the
application then sees the client disconnect).

A request's head (request line and headers) holds at most ``max_head`` bytes:
uvicorn's ``--h11-max-incomplete-event-size``, 16 KiB unless told otherwise. h11
itself enforces that only while a head is incomplete, so the same long URL would pass
when its bytes arrive in one read and fail when the network splits them. Here a longer
head is refused however it arrives, pipelined behind another request too (the check
is in the connection's ``next_event``, where h11 parses each head): ``414 URI Too
Long`` when the request line alone is over, else ``431 Request Header Fields Too
Large``. A request h11 cannot parse gets
``400``. These answers, the ``408`` too, carry a JSON ``{"detail": …}`` like the
application's errors, and end the connection: the server stops writing, drops what
the client still sends for up to ``LINGER`` seconds, then closes (closing at once,
with the client's bytes unread, would reset the connection and could destroy the
answer before the client reads it). ``responses.error_responses`` documents them on
every route. Serve with
``uvicorn --http <package>.runtime.server:BoundedH11Protocol``; subclass it to change
the deadlines.

It also records each connection's peer before uvicorn's proxy-header handling may
replace the scope's ``client`` (``proxies.record_peer``): the client address is then
decided by the project's ``trusted_proxies``, whatever ``--forwarded-allow-ips`` says.
"""

import asyncio
import json
from collections.abc import Callable
from typing import Any, Literal

import h11
from h11._connection import DEFAULT_MAX_INCOMPLETE_EVENT_SIZE
from uvicorn.config import Config
from uvicorn.protocols.http.h11_impl import STATUS_PHRASES, H11Protocol

from .proxies import record_peer

HEADER_TIMEOUT = 10.0
"""Seconds a request's headers may take, from their first byte."""
BODY_TIMEOUT = 30.0
"""Seconds a request's body may take, from the end of its headers."""

LINGER = 2.0
"""Seconds a refused connection's late bytes are dropped before it closes."""

Phase = Literal["headers", "body"]


def _refusal(status: int, detail: str) -> bytes:
    """A whole response of *status* with the JSON body ``{"detail": detail}``, closing
    the connection: what the protocol answers when no application sees the request."""
    body = json.dumps({"detail": detail}).encode()
    head = (
        b"HTTP/1.1 %d %s\r\n"
        b"content-type: application/json\r\n"
        b"content-length: %d\r\n"
        b"connection: close\r\n"
        b"\r\n"
    )
    return head % (status, STATUS_PHRASES[status], len(body)) + body


class _HeadBoundedConnection(h11.Connection):
    """h11's server connection applying its limit on incomplete heads to every head:
    one over ``max_head`` is handed to *refuse* instead of parsed."""

    def __init__(self, max_head: int, refuse: Callable[[int, str], None]) -> None:
        super().__init__(h11.SERVER, max_incomplete_event_size=max_head)
        self.max_head = max_head
        self._refuse_head = refuse

    def next_event(self) -> h11.Event | type[h11.NEED_DATA] | type[h11.PAUSED]:
        if self.their_state is h11.IDLE:
            pending = self.trailing_data[0]
            end = pending.find(b"\r\n\r\n")
            if (end + 4 if end >= 0 else len(pending)) > self.max_head:
                self._refuse_head(*self._refusal_of(pending))
                return h11.NEED_DATA  # uvicorn waits; the protocol drops what comes
        return super().next_event()

    def _refusal_of(self, pending: bytes) -> tuple[int, str]:
        """The status and detail refusing the head *pending* starts with."""
        limit = f"{self.max_head:,} bytes"
        if pending.find(b"\r\n", 0, self.max_head + 2) < 0:
            return 414, f"The request line is longer than {limit}."
        return 431, f"The request line and headers are longer than {limit}."


class BoundedH11Protocol(H11Protocol):
    """``H11Protocol`` that refuses requests arriving too slowly or with a head over
    uvicorn's ``h11_max_incomplete_event_size``, in JSON, and records each
    connection's peer."""

    header_timeout: float = HEADER_TIMEOUT
    body_timeout: float = BODY_TIMEOUT

    _deadline: asyncio.TimerHandle | None = None
    _phase: Phase | None = None
    _refused = False

    def __init__(self, config: Config, *args: Any, **kwargs: Any) -> None:
        super().__init__(config, *args, **kwargs)
        self.app = record_peer(self.app)
        # uvicorn's connection, sized as uvicorn sizes it, refusing long heads.
        size = config.h11_max_incomplete_event_size
        self.conn = _HeadBoundedConnection(
            DEFAULT_MAX_INCOMPLETE_EVENT_SIZE if size is None else size, self._refuse
        )

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        # A connection that sends nothing at all is waiting on its first headers too.
        self._expect("headers")

    def data_received(self, data: bytes) -> None:
        if self._refused:
            return  # what a refused client still sends is dropped
        super().data_received(data)
        if not self._refused:
            self._follow()

    def send_400_response(self, msg: str) -> None:
        # uvicorn's answer to what h11 cannot parse, in JSON.
        self._refuse(400, "The request is not valid HTTP/1.1.")

    def _refuse(self, status: int, detail: str) -> None:
        """Answer *status* with *detail*, then end the connection (see ``LINGER``)."""
        self.logger.info("Refused a request: %s", detail)
        self._cancel()
        self._refused = True
        self.transport.write(_refusal(status, detail))
        self.transport.write_eof()
        self.loop.call_later(LINGER, self.transport.close)

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
            self._refuse(408, "The request's headers came too late.")
        elif phase == "body" and state is h11.SEND_BODY:
            self.logger.info("Closed a connection whose request body came too late")
            self.transport.close()

    def _between_requests(self) -> bool:
        # No response is being written: the previous one (if any) is complete.
        return self.cycle is None or self.cycle.response_complete
