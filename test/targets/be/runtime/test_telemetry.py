"""Telemetry helpers with the SDK's in-memory exporters: samplers, resource, spans."""

import pytest
from clients import asgi_client
from fastapi import FastAPI
from opentelemetry.sdk.metrics.export import InMemoryMetricReader
from opentelemetry.sdk.trace.export.in_memory_span_exporter import (
    InMemorySpanExporter,
)
from opentelemetry.sdk.trace.sampling import (
    ALWAYS_OFF,
    ALWAYS_ON,
    ParentBased,
    TraceIdRatioBased,
)
from pydantic import BaseModel
from runtime import telemetry
from runtime.telemetry import (
    TelemetrySettings,
    build_resource,
    build_sampler,
    configure_telemetry,
    traced,
)

pytestmark = pytest.mark.asyncio(loop_scope="session")


def test_samplers_by_name() -> None:
    assert build_sampler("always_on") is ALWAYS_ON
    assert build_sampler("always_off") is ALWAYS_OFF
    parent = build_sampler("parentbased_always_off")
    assert isinstance(parent, ParentBased)
    assert "AlwaysOffSampler" in parent.get_description()
    ratio = build_sampler("traceidratio", 0.25)
    assert isinstance(ratio, TraceIdRatioBased) and ratio.rate == 0.25
    for bad in (None, 1.5, -0.1):
        with pytest.raises(ValueError):
            build_sampler("parentbased_traceidratio", bad)


def test_resource_names_the_service_and_reads_the_environment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("DEPLOY_ENV", "staging")
    settings = TelemetrySettings(
        "blog", "1.2", environment_env="DEPLOY_ENV", resource_attributes={"team": "a"}
    )
    attributes = build_resource(settings).attributes
    assert attributes["service.name"] == "blog"
    assert attributes["service.version"] == "1.2"
    assert attributes["deployment.environment.name"] == "staging"
    assert attributes["team"] == "a"
    monkeypatch.delenv("DEPLOY_ENV")
    unset = build_resource(TelemetrySettings("blog", environment_env="DEPLOY_ENV"))
    assert "deployment.environment.name" not in unset.attributes


def test_the_exporter_follows_the_standard_variables(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    choose = telemetry._exporter_name
    assert choose("console") == "console"
    monkeypatch.delenv("OTEL_TRACES_EXPORTER", raising=False)
    monkeypatch.delenv("OTEL_EXPORTER_OTLP_PROTOCOL", raising=False)
    assert choose(None) == "otlp_http"
    monkeypatch.setenv("OTEL_EXPORTER_OTLP_PROTOCOL", "grpc")
    assert choose(None) == "otlp_grpc"
    monkeypatch.setenv("OTEL_TRACES_EXPORTER", "none")
    assert choose(None) == "none"


class ItemCreate(BaseModel):
    title: str
    password: str
    code: str


async def test_a_handler_span_sits_under_the_server_span() -> None:
    app = FastAPI()

    @app.get("/items/{pk}")
    @traced("item", "get")
    async def get_item(pk: int) -> dict[str, int]:
        return {"pk": pk}

    @app.post("/items")
    @traced("item", "create", request_body=True, response_body=True)
    async def create_item(body: ItemCreate) -> dict[str, str]:
        return {"title": body.title, "session_id": "s-789"}

    spans = InMemorySpanExporter()
    reader = InMemoryMetricReader()
    installed = configure_telemetry(
        app,
        TelemetrySettings("items"),
        span_exporter=spans,
        metric_reader=reader,
        exporter="none",
        capture_redact=["code"],
    )
    async with asgi_client(app) as client:
        reply = await client.get("/items/7")
        created = await client.post(
            "/items",
            json={
                "title": "Notes",
                "password": "hunter2",
                "code": "c-222",
                "x": "y-333",
            },
            headers={"authorization": "Bearer t-000", "cookie": "sid=c-111"},
        )
    assert reply.json() == {"pk": 7}  # FastAPI still sees the handler's signature
    assert created.json() == {"title": "Notes", "session_id": "s-789"}
    installed.tracer_provider.force_flush()  # type: ignore[union-attr]
    finished = {span.name: span for span in spans.get_finished_spans()}
    handler = finished["item.get"]
    server = finished["GET /items/{pk}"]
    assert handler.parent is not None
    assert handler.parent.span_id == server.context.span_id
    assert dict(handler.attributes or {}) == {
        "handler.resource": "item",
        "handler.operation": "get",
    }
    assert handler.resource.attributes["service.name"] == "items"
    # Bodies only where traced asks: the validated body and the answer, redacted
    # (the configured name too); no header, no undeclared field.
    create = dict(finished["item.create"].attributes or {})
    assert create["handler.request.body"] == (
        '{"title":"Notes","password":"[redacted]","code":"[redacted]"}'
    )
    assert create["handler.response.body"] == (
        '{"title":"Notes","session_id":"[redacted]"}'
    )
    recorded = " ".join(
        str(value)
        for span in spans.get_finished_spans()
        for value in (span.attributes or {}).values()
    )
    for secret in ("hunter2", "c-222", "y-333", "t-000", "c-111", "s-789"):
        assert secret not in recorded, recorded
    data = reader.get_metrics_data()
    names = {
        metric.name
        for resource in (data.resource_metrics if data else [])
        for scope in resource.scope_metrics
        for metric in scope.metrics
    }
    assert any(name.startswith("http.server") for name in names), names
    installed.shutdown()
