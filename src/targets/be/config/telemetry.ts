// `telemetry` of a project: OpenTelemetry traces, metrics and (opt-in) logs through the
// official SDK (docs/telemetry.md). Unset, the generated tree has no telemetry code and no
// OpenTelemetry dependency.

import { z } from "zod";
import { EnvVarName, NonEmptyString } from "./primitives.js";

/** OpenTelemetry sampler names (the `OTEL_TRACES_SAMPLER` values). */
export const SamplerName = z
  .enum(["always_on", "always_off", "parentbased_always_on", "parentbased_always_off", "parentbased_traceidratio", "traceidratio"])
  .meta({ id: "SamplerName", description: "Which traces are recorded; the `parentbased_*` ones follow an incoming trace's decision." });

/** Where spans and metrics go. */
export const ExporterName = z
  .enum(["otlp_http", "otlp_grpc", "console", "none"])
  .meta({ id: "ExporterName", description: "OTLP over HTTP/protobuf or gRPC (endpoint from `OTEL_EXPORTER_OTLP_ENDPOINT`), stdout, or nowhere." });

const RATIO_SAMPLERS = ["traceidratio", "parentbased_traceidratio"];

export const TelemetryConfig = z
  .strictObject({
    service_name: NonEmptyString.meta({ description: "`service.name` of every signal." }),
    service_version: NonEmptyString.optional().meta({ description: "`service.version` of every signal. Default: none." }),
    environment_env: EnvVarName.default("ENVIRONMENT").meta({
      description: "Variable whose value at startup becomes `deployment.environment.name` (omitted when unset).",
    }),
    traces: z.boolean().default(true).meta({ description: "Record traces." }),
    metrics: z.boolean().default(true).meta({ description: "Record metrics (the instrumentations' HTTP and database metrics)." }),
    logs: z.boolean().default(false).meta({ description: "Send the standard library's log records through the OpenTelemetry logs SDK." }),
    instrument_fastapi: z.boolean().default(true).meta({ description: "A server span (and metrics) per HTTP request." }),
    instrument_sqlalchemy: z.boolean().default(true).meta({ description: "A client span per SQL statement, on every database's engine." }),
    instrument_httpx: z.boolean().default(false).meta({
      description: "A client span per request your code sends with httpx (every client), its `traceparent` sent along.",
    }),
    instrument_requests: z.boolean().default(false).meta({
      description: "A client span per request your code sends with requests, its `traceparent` sent along.",
    }),
    instrument_logging: z.boolean().default(false).meta({
      description:
        "Every standard-library log record carries the trace and span ids it was logged under (`otelTraceID`, `otelSpanID`), " +
        "and a process that configured no logging prints them in each line.",
    }),
    span_per_handler: z.boolean().default(true).meta({ description: "A span `{resource}.{operation}` around each CRUD handler." }),
    span_per_action: z.boolean().default(true).meta({ description: "A span `{resource}.{action}` around each action handler." }),
    capture_request_body: z.boolean().default(false).meta({
      description:
        "Record each handler's validated JSON body on its span, redacted and cut to `capture_max_bytes` (docs/telemetry.md); " +
        "resources and entries may say otherwise.",
    }),
    capture_response_body: z.boolean().default(false).meta({
      description: "Record each handler's JSON answer on its span, redacted and cut to `capture_max_bytes`; resources and entries may say otherwise.",
    }),
    capture_max_bytes: z.int().min(1, "must be at least 1").max(65_536, "must be at most 65536").default(2048).meta({
      description: "Largest recorded body, in UTF-8 bytes; a longer one is cut and marked `truncated`.",
    }),
    capture_redact: z.array(NonEmptyString).default(() => []).meta({
      description: "Field names whose values a recorded body replaces with `[redacted]`, beyond those naming a credential (password, token, secret…).",
      examples: [["pin", "iban"]],
    }),
    sampler: SamplerName.default("parentbased_always_on"),
    sampler_ratio: z.number().min(0, "must be from 0 to 1").max(1, "must be from 0 to 1").optional().meta({
      description: "Fraction of traces recorded; required by `traceidratio` and `parentbased_traceidratio`, rejected otherwise.",
    }),
    exporter: ExporterName.optional().meta({
      description:
        "Default: the standard variables decide: `OTEL_TRACES_EXPORTER` (`otlp`, `console`, `none`; default `otlp`) and " +
        "`OTEL_EXPORTER_OTLP_PROTOCOL` (`http/protobuf` by default, or `grpc`).",
    }),
    resource_attributes: z.record(z.string(), z.string()).default({}).meta({ description: "Extra static resource attributes, e.g. `{ team: 'blog' }`." }),
  })
  .superRefine((telemetry, ctx) => {
    const ratio = RATIO_SAMPLERS.includes(telemetry.sampler);
    if (ratio && telemetry.sampler_ratio === undefined) {
      ctx.addIssue({ code: "custom", path: ["sampler_ratio"], message: `required with sampler "${telemetry.sampler}": a fraction from 0 to 1` });
    }
    if (!ratio && telemetry.sampler_ratio !== undefined) {
      ctx.addIssue({ code: "custom", path: ["sampler_ratio"], message: `only with sampler "traceidratio" or "parentbased_traceidratio", not "${telemetry.sampler}"` });
    }
  })
  .meta({ id: "TelemetryConfig", description: "OpenTelemetry for the generated API (docs/telemetry.md)." });
export type TelemetryConfig = z.output<typeof TelemetryConfig>;
