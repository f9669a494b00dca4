"""Who the client is: the connection's peer, or the client a trusted proxy names.

The client address is decided from the project's ``trusted_proxies`` alone, whatever
the server in front was told. uvicorn (``--proxy-headers``, its default) replaces the
scope's ``client`` with an address from ``X-Forwarded-For`` when the peer is one of
*its* trusted hosts (127.0.0.1 unless told otherwise), before the application runs; a
client reaching it through loopback would then choose its own address. So
``server.BoundedHttpProtocol`` records the connection's own peer in the scope before
uvicorn's rewriting (``record_peer``), and ``ClientAddress`` applies ``trusted_proxies``
to that peer. Served without that protocol, a ``client`` that the server may have
taken from ``X-Forwarded-For`` is not believed: such requests all count as the one
client ``UNKNOWN_CLIENT``.
"""

import ipaddress
import logging
from collections.abc import Iterable, Sequence

from fastapi import Request
from starlette.types import ASGIApp, Receive, Scope, Send

PEER_EXTENSION = "peer"
"""The scope extension (``scope["extensions"]``) holding the connection's own peer."""
UNKNOWN_CLIENT = "forwarded-unverified"
"""The client of a request whose peer the server replaced with a header's address."""

logger = logging.getLogger(__name__)
_warned: list[bool] = []


def record_peer(app: ASGIApp) -> ASGIApp:
    """*app*, with the connection's peer recorded in ``PEER_EXTENSION`` first.

    Wrap the server's whole application with it (``BoundedHttpProtocol`` does), so the
    peer is read before any proxy-header middleware replaces ``client``.
    """

    async def recorded(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket"):
            extensions = scope.setdefault("extensions", {})
            extensions[PEER_EXTENSION] = {"client": scope.get("client")}
        await app(scope, receive, send)

    return recorded


def forwarded_hops(request: Request) -> list[str]:
    """The addresses of every ``X-Forwarded-For`` field, leftmost first."""
    forwarded = ",".join(request.headers.getlist("x-forwarded-for"))
    return [hop.strip() for hop in forwarded.split(",") if hop.strip()]


def _hop_host(hop: str) -> str:
    # "[v6]:port", "v4:port" or a bare address, as proxies and uvicorn write them.
    if hop.startswith("["):
        return hop[1 : hop.find("]")] if "]" in hop else hop
    return hop.rsplit(":", 1)[0] if hop.count(":") == 1 else hop


class ClientAddress:
    """The client's IP address: the peer's, or ``X-Forwarded-For``'s behind proxies.

    The header is read only when the direct peer is a trusted proxy; then the rightmost
    address that is not a trusted proxy is the client (the ones left of it are whatever
    the client chose to send).
    """

    def __init__(self, trusted_proxies: Iterable[str] = ()) -> None:
        self.trusted = tuple(ipaddress.ip_network(net) for net in trusted_proxies)

    def _is_trusted(self, address: str) -> bool:
        try:
            ip = ipaddress.ip_address(address)
        except ValueError:
            return False
        return any(ip in network for network in self.trusted)

    def __call__(self, request: Request) -> str | None:
        hops = forwarded_hops(request)
        peer = self.peer(request, hops)
        if peer is None or not self._is_trusted(peer):
            return peer
        for hop in reversed(hops):
            if not self._is_trusted(hop):
                return hop
        return hops[0] if hops else peer

    @staticmethod
    def peer(request: Request, hops: Sequence[str]) -> str | None:
        """The connection's peer: recorded by ``record_peer``, else the scope's
        ``client`` unless the server may have taken it from ``X-Forwarded-For``."""
        recorded = request.scope.get("extensions", {}).get(PEER_EXTENSION)
        client = (
            recorded["client"] if recorded is not None else request.scope.get("client")
        )
        if client is None:
            return None
        host = client[0]
        if recorded is None and any(host in (hop, _hop_host(hop)) for hop in hops):
            if not _warned:  # once per process: an attacker must not flood the log
                _warned.append(True)
                logger.warning(
                    "The server took the client address from X-Forwarded-For; it is "
                    "not believed. Serve with --http "
                    "<package>.runtime.server:BoundedHttpProtocol (or with "
                    "--no-proxy-headers) so that trusted_proxies decide it."
                )
            return UNKNOWN_CLIENT
        return host
