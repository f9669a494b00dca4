"""Test-only driver: the generated blog with ``setup_telemetry``, over real requests.

Creates the tables, installs telemetry (``--exporter memory``: the SDK's in-memory span
exporter and metric reader; ``otlp_http``: the configured OTLP exporter, endpoint from
``OTEL_EXPORTER_OTLP_ENDPOINT``), sends requests through the ASGI app (a token, an
author created and read, the public article list, and one request carrying a sampled
``traceparent``), flushes, and prints one JSON document: the spans and metric names.
Needs ``DATABASE_URL``, ``JWT_SECRET`` and ``blog`` on ``PYTHONPATH``.
"""

import argparse
import asyncio
import json
from typing import Any

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


async def drive(email: str) -> dict[str, str]:
    transport = ASGITransport(app=app)
    async with AsyncClient(transport=transport, base_url="http://blog") as client:
        token_reply = await client.post(
            "/auth/token", data={"username": "ada", "password": "analytical-engine"}
        )
        token_reply.raise_for_status()
        token = token_reply.json()["access_token"]
        bearer = {"authorization": f"Bearer {token}"}
        author = await client.post(
            "/authors",
            json={"name": "Ada", "email": email},
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
    return {"token": token}


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
    secrets = asyncio.run(drive(arguments.email))
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
                "spans": [
                    {
                        "name": span.name,
                        "kind": span.kind.name,
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
