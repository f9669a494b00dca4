"""OpenTelemetry for the generated API: traces, metrics and (opt-in) logs.

``configure_telemetry`` installs the SDK's providers with the project's resource,
sampler and exporter, instruments the FastAPI app, the SQLAlchemy engines and, when
asked, httpx, requests and logging, and ``traced`` gives each handler a span named
``{resource}.{operation}``. Spans carry no headers and no parameters; a body only where
a handler's ``traced`` asks for it, through ``BodyPolicy`` (span_bodies.py).
"""

import functools
import logging
import os
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal, ParamSpec, TypeVar

from fastapi import FastAPI
from opentelemetry import metrics, trace
from opentelemetry.sdk.metrics import MeterProvider
from opentelemetry.sdk.metrics.export import (
    ConsoleMetricExporter,
    MetricExporter,
    MetricReader,
    PeriodicExportingMetricReader,
)
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import (
    BatchSpanProcessor,
    ConsoleSpanExporter,
    SpanExporter,
)
from opentelemetry.sdk.trace.sampling import (
    ALWAYS_OFF,
    ALWAYS_ON,
    ParentBased,
    Sampler,
    TraceIdRatioBased,
)
from pydantic import BaseModel
from sqlalchemy.ext.asyncio import AsyncEngine

from .span_bodies import BodyPolicy

SamplerName = Literal[
    "always_on",
    "always_off",
    "parentbased_always_on",
    "parentbased_always_off",
    "parentbased_traceidratio",
    "traceidratio",
]
ExporterName = Literal["otlp_http", "otlp_grpc", "console", "none"]

P = ParamSpec("P")
R = TypeVar("R")

_TRACER = "generated.api"

# What handlers' spans record of bodies; set, like OpenTelemetry's providers, once per
# process by configure_telemetry.
_bodies = BodyPolicy()


@dataclass(frozen=True)
class TelemetrySettings:
    """The project's ``telemetry`` config; ``exporter=None`` follows ``OTEL_*``."""

    service_name: str
    service_version: str | None = None
    environment_env: str = "ENVIRONMENT"
    sampler: SamplerName = "parentbased_always_on"
    sampler_ratio: float | None = None
    exporter: ExporterName | None = None
    traces: bool = True
    metrics: bool = True
    logs: bool = False
    instrument_fastapi: bool = True
    instrument_sqlalchemy: bool = True
    instrument_httpx: bool = False
    instrument_requests: bool = False
    instrument_logging: bool = False
    resource_attributes: dict[str, str] = field(default_factory=dict)
    capture_max_bytes: int = 2048
    capture_redact: Sequence[str] = ()


@dataclass
class Telemetry:
    """The installed providers; ``shutdown()`` flushes and stops them."""

    tracer_provider: TracerProvider | None
    meter_provider: MeterProvider | None
    logger_provider: Any = None

    def shutdown(self) -> None:
        for provider in (self.tracer_provider, self.meter_provider):
            if provider is not None:
                provider.shutdown()
        if self.logger_provider is not None:
            self.logger_provider.shutdown()


def build_sampler(name: SamplerName, ratio: float | None = None) -> Sampler:
    """The sampler *name* stands for; ratio samplers need *ratio* in [0, 1]."""
    if name in ("traceidratio", "parentbased_traceidratio"):
        if ratio is None or not 0.0 <= ratio <= 1.0:
            raise ValueError(f"sampler {name} needs a ratio in [0, 1], got {ratio!r}")
        root: Sampler = TraceIdRatioBased(ratio)
    else:
        root = ALWAYS_OFF if name.endswith("always_off") else ALWAYS_ON
    return ParentBased(root) if name.startswith("parentbased_") else root


def _exporter_name(configured: ExporterName | None) -> ExporterName:
    if configured is not None:
        return configured
    # The standard variables decide: OTEL_TRACES_EXPORTER, OTEL_EXPORTER_OTLP_PROTOCOL.
    chosen = os.environ.get("OTEL_TRACES_EXPORTER", "otlp").strip().lower()
    if chosen in ("none", "console"):
        return chosen  # type: ignore[return-value]
    protocol = os.environ.get("OTEL_EXPORTER_OTLP_PROTOCOL", "http/protobuf")
    return "otlp_grpc" if protocol.strip().lower() == "grpc" else "otlp_http"


def _span_exporter(name: ExporterName) -> SpanExporter | None:
    if name == "none":
        return None
    if name == "console":
        return ConsoleSpanExporter()
    if name == "otlp_grpc":
        from opentelemetry.exporter.otlp.proto.grpc.trace_exporter import (
            OTLPSpanExporter as GrpcSpanExporter,
        )

        return GrpcSpanExporter()
    from opentelemetry.exporter.otlp.proto.http.trace_exporter import (
        OTLPSpanExporter as HttpSpanExporter,
    )

    return HttpSpanExporter()


def _metric_exporter(name: ExporterName) -> MetricExporter | None:
    if name == "none":
        return None
    if name == "console":
        return ConsoleMetricExporter()
    if name == "otlp_grpc":
        from opentelemetry.exporter.otlp.proto.grpc.metric_exporter import (
            OTLPMetricExporter as GrpcMetricExporter,
        )

        return GrpcMetricExporter()
    from opentelemetry.exporter.otlp.proto.http.metric_exporter import (
        OTLPMetricExporter as HttpMetricExporter,
    )

    return HttpMetricExporter()


def build_resource(settings: TelemetrySettings) -> Resource:
    """``service.name``, ``service.version``, the deployment environment, and extras."""
    attributes: dict[str, str] = {
        **settings.resource_attributes,
        "service.name": settings.service_name,
    }
    if settings.service_version:
        attributes["service.version"] = settings.service_version
    environment = os.environ.get(settings.environment_env)
    if environment:
        attributes["deployment.environment.name"] = environment
    return Resource.create(attributes)


def configure_telemetry(
    app: FastAPI,
    settings: TelemetrySettings,
    *,
    engines: Sequence[AsyncEngine] = (),
    span_exporter: SpanExporter | None = None,
    metric_reader: MetricReader | None = None,
    **overrides: Any,
) -> Telemetry:
    """Install the providers and instrument *app* and *engines*.

    *span_exporter* and *metric_reader* replace the configured exporter (tests pass
    the SDK's in-memory ones); *overrides* replace fields of *settings*.
    """
    global _bodies
    settings = replace(settings, **overrides)
    _bodies = BodyPolicy.of(settings.capture_max_bytes, settings.capture_redact)
    resource = build_resource(settings)
    exporter = _exporter_name(settings.exporter)
    tracer_provider = meter_provider = logger_provider = None
    if settings.traces:
        tracer_provider = TracerProvider(
            resource=resource,
            sampler=build_sampler(settings.sampler, settings.sampler_ratio),
        )
        spans = span_exporter or _span_exporter(exporter)
        if spans is not None:
            tracer_provider.add_span_processor(BatchSpanProcessor(spans))
        trace.set_tracer_provider(tracer_provider)
    if settings.metrics:
        reader = metric_reader
        if reader is None:
            metric_exporter = _metric_exporter(exporter)
            if metric_exporter is not None:
                reader = PeriodicExportingMetricReader(metric_exporter)
        meter_provider = MeterProvider(
            resource=resource, metric_readers=[reader] if reader else []
        )
        metrics.set_meter_provider(meter_provider)
    if settings.instrument_logging:
        from opentelemetry.instrumentation.logging import LoggingInstrumentor

        # Trace and span ids on every log record; a root logger nobody configured
        # prints them (before the logs handler, which would count as configuring it).
        # Exporting the records stays the business of ``logs``.
        LoggingInstrumentor().instrument(
            tracer_provider=tracer_provider,
            set_logging_format=True,
            enable_log_auto_instrumentation=False,
        )
    if settings.logs:
        logger_provider = _install_logs(resource, exporter)
    if settings.instrument_fastapi:
        from opentelemetry.instrumentation.fastapi import FastAPIInstrumentor

        FastAPIInstrumentor.instrument_app(
            app, tracer_provider=tracer_provider, meter_provider=meter_provider
        )
    if settings.instrument_sqlalchemy and engines:
        from opentelemetry.instrumentation.sqlalchemy import SQLAlchemyInstrumentor

        # The instrumentation declares "sqlalchemy < 2.1" and would otherwise do
        # nothing on 2.1; the engine events it hooks are unchanged there.
        SQLAlchemyInstrumentor().instrument(
            engines=[engine.sync_engine for engine in engines],
            tracer_provider=tracer_provider,
            meter_provider=meter_provider,
            enable_commenter=False,
            skip_dep_check=True,
        )
    if settings.instrument_httpx:
        from opentelemetry.instrumentation.httpx import HTTPXClientInstrumentor

        HTTPXClientInstrumentor().instrument(
            tracer_provider=tracer_provider, meter_provider=meter_provider
        )
    if settings.instrument_requests:
        from opentelemetry.instrumentation.requests import RequestsInstrumentor

        RequestsInstrumentor().instrument(
            tracer_provider=tracer_provider, meter_provider=meter_provider
        )
    return Telemetry(tracer_provider, meter_provider, logger_provider)


def _install_logs(resource: Resource, exporter: ExporterName) -> Any:
    # The logs SDK is still under ``_logs``: kept to this function.
    from opentelemetry._logs import set_logger_provider
    from opentelemetry.sdk._logs import LoggerProvider, LoggingHandler
    from opentelemetry.sdk._logs.export import (
        BatchLogRecordProcessor,
        ConsoleLogRecordExporter,
        LogRecordExporter,
    )

    provider = LoggerProvider(resource=resource)
    log_exporter: LogRecordExporter | None = None
    if exporter == "console":
        log_exporter = ConsoleLogRecordExporter()
    elif exporter == "otlp_grpc":
        from opentelemetry.exporter.otlp.proto.grpc._log_exporter import (
            OTLPLogExporter as GrpcLogExporter,
        )

        log_exporter = GrpcLogExporter()
    elif exporter == "otlp_http":
        from opentelemetry.exporter.otlp.proto.http._log_exporter import (
            OTLPLogExporter as HttpLogExporter,
        )

        log_exporter = HttpLogExporter()
    if log_exporter is not None:
        provider.add_log_record_processor(BatchLogRecordProcessor(log_exporter))
    set_logger_provider(provider)
    logging.getLogger().addHandler(LoggingHandler(logger_provider=provider))
    return provider


def traced(
    resource: str,
    operation: str,
    *,
    request_body: bool = False,
    response_body: bool = False,
) -> Callable[[Callable[P, Awaitable[R]]], Callable[P, Awaitable[R]]]:
    """Run a handler in a span ``{resource}.{operation}``, keeping its signature.

    *request_body* records the handler's validated ``body`` argument on the span as
    ``handler.request.body``; *response_body* records what it returns as
    ``handler.response.body``; each redacted and cut by the configured ``BodyPolicy``.
    """
    name = f"{resource}.{operation}"
    attributes = {"handler.resource": resource, "handler.operation": operation}

    def decorate(handler: Callable[P, Awaitable[R]]) -> Callable[P, Awaitable[R]]:
        @functools.wraps(handler)
        async def run_in_span(*args: P.args, **kwargs: P.kwargs) -> R:
            tracer = trace.get_tracer(_TRACER)
            with tracer.start_as_current_span(name, attributes=attributes) as span:
                if request_body:
                    _record_body(span, "handler.request.body", kwargs.get("body"))
                result = await handler(*args, **kwargs)
                if response_body:
                    _record_body(span, "handler.response.body", result)
                return result

        return run_in_span

    return decorate


def _record_body(span: trace.Span, key: str, value: object) -> None:
    # Schema-typed JSON only: a Response (a replayed answer, a file) is not looked into.
    if not span.is_recording() or not isinstance(value, BaseModel | dict | list):
        return
    text, truncated = _bodies.text(value)
    span.set_attribute(key, text)
    if truncated:
        span.set_attribute(f"{key}.truncated", True)
