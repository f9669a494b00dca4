"""Test-only driver: the generated blog with ``setup_telemetry``, over real requests.

Creates the tables, installs telemetry (``--exporter memory``: the SDK's in-memory span
exporter and metric reader; ``otlp_http``: the configured OTLP exporter, endpoint from
``OTEL_EXPORTER_OTLP_ENDPOINT``), sends requests through the ASGI app (a token, an
author created and read, the public article list, one request carrying a sampled
``traceparent``, and ``GET /_outbound``, a route of this driver's that logs and calls a
local echo server with httpx and with requests), flushes, and prints one JSON document:
the spans, the metric names, the log records of that route, and the ``traceparent``
headers the echo server received. Needs ``DATABASE_URL``, ``JWT_SECRET`` and ``blog``
on ``PYTHONPATH``.
"""

import argparse
import asyncio
import json
import logging
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import httpx
import requests
from blog.api.db.session import get_engine
from blog.api.telemetry import setup_telemetry
from blog.main import app
from blog.models import create_tables
from httpx import ASGITransport, AsyncClient
from opentelemetry.sdk.metrics.export import InMemoryMetricReader
from opentelemetry.sdk.trace.export.in_memory_span_exporter import (
    InMemorySpanExporter,
)

PARENT_TRACE = "4bf92f3577b34da6a3ce929d0e0e4736"
TRACEPARENT = f"00-{PARENT_TRACE}-00f067aa0ba902b7-01"
OUTBOUND_TIMEOUT_S = 10


class Echo(BaseHTTPRequestHandler):
    """Answers every GET with the ``traceparent`` header it was sent."""

    def do_GET(self) -> None:  # noqa: N802 (the name http.server calls)
        reply = json.dumps({"traceparent": self.headers.get("traceparent")}).encode()
        self.send_response(200)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(reply)))
        self.end_headers()
        self.wfile.write(reply)

    def log_message(self, format: str, *args: object) -> None:
        pass


class Records(logging.Handler):
    """Keeps each record's message and the trace ids the instrumentation put on it."""

    def __init__(self) -> None:
        super().__init__()
        self.seen: list[dict[str, str]] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.seen.append(
            {
                "message": record.getMessage(),
                "trace_id": getattr(record, "otelTraceID", ""),
                "span_id": getattr(record, "otelSpanID", ""),
            }
        )


def add_outbound_route(echo_url: str) -> None:
    """``GET /_outbound``: user code that logs, then calls out with httpx, requests."""
    logger = logging.getLogger("blog.outbound")

    @app.get("/_outbound")
    async def outbound() -> dict[str, Any]:
        logger.warning("calling out")
        async with httpx.AsyncClient(timeout=OUTBOUND_TIMEOUT_S) as client:
            by_httpx = (await client.get(echo_url)).json()
        by_requests = await asyncio.to_thread(
            lambda: requests.get(echo_url, timeout=OUTBOUND_TIMEOUT_S).json()
        )
        return {"httpx": by_httpx, "requests": by_requests}


async def drive(email: str) -> tuple[dict[str, str], dict[str, Any]]:
    transport = ASGITransport(app=app)
    async with AsyncClient(transport=transport, base_url="http://blog") as client:
        token_reply = await client.post(
            "/auth/token", data={"username": "ada", "password": "analytical-engine"}
        )
        token_reply.raise_for_status()
        token = token_reply.json()["access_token"]
        bearer = {"authorization": f"Bearer {token}"}
        # A password the authors' schema does not declare: dropped before the body
        # their handlers record.
        author = await client.post(
            "/authors",
            json={"name": "Ada", "email": email, "password": "analytical-engine"},
            headers=bearer,
        )
        author.raise_for_status()
        read = await client.get(f"/authors/{author.json()['id']}", headers=bearer)
        read.raise_for_status()
        listed = await client.get("/articles?limit=2")
        listed.raise_for_status()
        traced = await client.get(
            "/articles?limit=1", headers={"traceparent": TRACEPARENT}
        )
        traced.raise_for_status()
        tags = await client.get("/tags?limit=1")
        tags.raise_for_status()
        outbound = await client.get("/_outbound")
        outbound.raise_for_status()
    return {"token": token}, outbound.json()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--exporter", choices=["memory", "otlp_http"], required=True)
    parser.add_argument("--sampler", default="always_on")
    parser.add_argument("--ratio", type=float)
    parser.add_argument("--email", required=True)
    arguments = parser.parse_args()

    async def prepare() -> None:
        await create_tables(get_engine())
        await get_engine().dispose()

    asyncio.run(prepare())
    echo = ThreadingHTTPServer(("127.0.0.1", 0), Echo)
    threading.Thread(target=echo.serve_forever, daemon=True).start()
    add_outbound_route(f"http://127.0.0.1:{echo.server_address[1]}/echo")
    records = Records()
    logging.getLogger("blog.outbound").addHandler(records)
    spans = InMemorySpanExporter()
    reader = InMemoryMetricReader()
    overrides: dict[str, Any] = {
        "sampler": arguments.sampler,
        "sampler_ratio": arguments.ratio,
    }
    if arguments.exporter == "memory":
        overrides.update(span_exporter=spans, metric_reader=reader)
    else:
        overrides.update(exporter="otlp_http", metrics=False)
    telemetry = setup_telemetry(app, **overrides)
    secrets, outbound = asyncio.run(drive(arguments.email))
    echo.shutdown()
    metric_names: list[str] = []
    if arguments.exporter == "memory":
        data = reader.get_metrics_data()
        metric_names = sorted(
            {
                metric.name
                for resource in (data.resource_metrics if data else [])
                for scope in resource.scope_metrics
                for metric in scope.metrics
            }
        )
    telemetry.shutdown()
    print(
        json.dumps(
            {
                "secrets": secrets,
                "metrics": metric_names,
                "logs": records.seen,
                "outbound": outbound,
                "spans": [
                    {
                        "name": span.name,
                        "kind": span.kind.name,
                        "scope": span.instrumentation_scope.name
                        if span.instrumentation_scope
                        else None,
                        "trace_id": format(span.context.trace_id, "032x"),
                        "span_id": format(span.context.span_id, "016x"),
                        "parent_id": format(span.parent.span_id, "016x")
                        if span.parent
                        else None,
                        "attributes": {
                            key: str(value)
                            for key, value in (span.attributes or {}).items()
                        },
                        "resource": {
                            key: str(value)
                            for key, value in span.resource.attributes.items()
                        },
                    }
                    for span in spans.get_finished_spans()
                ],
            }
        )
    )


if __name__ == "__main__":
    main()
