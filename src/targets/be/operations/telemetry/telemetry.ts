// `telemetry_scaffold` (project) writes `telemetry.py` (the project's settings and
// `setup_telemetry(app)`) and the runtime helper; `trace` (operation entry, after
// every endpoint operation) wraps each handler in a `{resource}.{operation}` span through `traceAs`,
// recording its body and answer there where the entry, its resource or the project opts in.
// Both run only when the project sets `telemetry`: otherwise no line mentions it.

import { type BuildContext, ImportCollector, StaticFile, operation, prefixImport } from "../../../../codegen/index.js";
import type { CrudOptions, ProjectConfig, TelemetryConfig } from "../../config/schema.js";
import { resourceFiles } from "../../modules/files.js";
import { ENDPOINT, RouteHandler } from "../../modules/handler.js";
import { PythonModule } from "../../modules/python-module.js";
import { pythonInt, pythonLiteral, pythonString } from "../../python/literals.js";
import { type ResourceView, sessionModulePath } from "../../resource.js";
import { runtimeHelperFile } from "../../runtime-source.js";

@operation("telemetry_scaffold", { scope: "project" })
export class TelemetryScaffold {
  when(ctx: BuildContext<ProjectConfig>): boolean {
    return ctx.config.telemetry !== undefined;
  }

  build(ctx: BuildContext<ProjectConfig>): unknown[] {
    const telemetry = ctx.config.telemetry!;
    const runtime = prefixImport(ctx.packagePrefix, "runtime", "telemetry");
    const imports = new ImportCollector()
      .addFrom("typing", "Any")
      .addFrom("fastapi", "FastAPI")
      .addFrom(runtime, "Telemetry", "TelemetrySettings", "configure_telemetry");
    const single = ctx.config.databases.length === 1;
    const engines = ctx.config.databases.map((database) => {
      const name = single ? "get_engine" : `get_${database.key}_engine`;
      imports.addFrom(prefixImport(ctx.packagePrefix, ...sessionModulePath(ctx.config, database.key)), single ? name : `get_engine as ${name}`);
      return `${name}()`;
    });
    return [
      new PythonModule({
        path: "telemetry.py",
        template: "operations/telemetry/telemetry.py.njk",
        context: { settings: settingsArguments(telemetry), engines: engines.join(", "), exporter: exporterText(telemetry), logs: telemetry.logs },
        imports,
      }),
      new StaticFile(runtimeHelperFile("telemetry")),
      new StaticFile(runtimeHelperFile("span_bodies")),
    ];
  }
}

/** `service_name="blog", …`: every setting, so the file shows what the config chose. */
function settingsArguments(telemetry: TelemetryConfig): string {
  const args = [`service_name=${pythonString(telemetry.service_name)}`];
  if (telemetry.service_version !== undefined) args.push(`service_version=${pythonString(telemetry.service_version)}`);
  args.push(`environment_env=${pythonString(telemetry.environment_env)}`, `sampler=${pythonString(telemetry.sampler)}`);
  if (telemetry.sampler_ratio !== undefined) args.push(`sampler_ratio=${pythonLiteral(telemetry.sampler_ratio)}`);
  args.push(`exporter=${telemetry.exporter === undefined ? "None" : pythonString(telemetry.exporter)}`);
  const switches = ["traces", "metrics", "logs", "instrument_fastapi", "instrument_sqlalchemy", "instrument_httpx", "instrument_requests", "instrument_logging"] as const;
  for (const key of switches) args.push(`${key}=${pythonLiteral(telemetry[key])}`);
  if (Object.keys(telemetry.resource_attributes).length > 0) args.push(`resource_attributes=${pythonLiteral(telemetry.resource_attributes)}`);
  args.push(`capture_max_bytes=${pythonInt(telemetry.capture_max_bytes)}`);
  if (telemetry.capture_redact.length > 0) args.push(`capture_redact=${pythonLiteral(telemetry.capture_redact)}`);
  return args.join(", ");
}

function exporterText(telemetry: TelemetryConfig): string {
  switch (telemetry.exporter) {
    case undefined:
      return "the exporter the standard OTEL_* variables name (OTLP over HTTP by default)";
    case "none":
      return "no exporter";
    case "console":
      return "standard output";
    default:
      return `OTLP over ${telemetry.exporter === "otlp_grpc" ? "gRPC" : "HTTP"}, at OTEL_EXPORTER_OTLP_ENDPOINT`;
  }
}

@operation("trace", { scope: "operation", requiresRoles: [ENDPOINT] })
export class Trace {
  when(ctx: BuildContext<ProjectConfig>): boolean {
    return ctx.config.telemetry?.traces === true;
  }

  build(ctx: BuildContext<ProjectConfig>): unknown[] {
    const telemetry = ctx.config.telemetry!;
    const { view } = resourceFiles(ctx);
    const entry = ctx.instance as EntrySwitches;
    // kiln's `trace`, and the body switches: the entry's, else its resource's, else the project's.
    const own = entry.trace ?? view.config.trace;
    const requestBody = entry.capture_request_body ?? view.config.capture_request_body ?? telemetry.capture_request_body;
    const responseBody = entry.capture_response_body ?? view.config.capture_response_body ?? telemetry.capture_response_body;
    for (const handler of ctx.store.outputsUnder(ctx.instanceId, RouteHandler)) {
      if (!(own ?? (handler.action ? telemetry.span_per_action : telemetry.span_per_handler))) continue;
      // Only a JSON body validated into the entry's schema (always the parameter `body`) and an answer with a schema are recorded.
      const bodies = { request: requestBody && handler.params.some((param) => param.name === "body"), response: responseBody && handler.responseModel !== undefined };
      handler.traceAs(spanOf(ctx, view, handler, bodies));
    }
    return [];
  }
}

/** The switches an operation entry may set for its handlers' spans (an entry type without them leaves them unset). */
type EntrySwitches = Partial<Pick<CrudOptions, "trace" | "capture_request_body" | "capture_response_body">>;

function spanOf(ctx: BuildContext<ProjectConfig>, view: ResourceView, handler: RouteHandler, bodies: { request: boolean; response: boolean }) {
  const args = [pythonString(view.name), pythonString(handler.entry.name)];
  if (bodies.request) args.push("request_body=True");
  if (bodies.response) args.push("response_body=True");
  return {
    decorator: `@traced(${args.join(", ")})`,
    imports: new ImportCollector().addFrom(prefixImport(ctx.packagePrefix, "runtime", "telemetry"), "traced"),
  };
}
