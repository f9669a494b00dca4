// `telemetry_scaffold` (project) writes `telemetry.py` (the project's settings and
// `setup_telemetry(app)`) and the runtime helper; `trace` (operation entry, after
// every endpoint operation) wraps each handler in a `{resource}.{operation}` span through `traceAs`.
// Both run only when the project sets `telemetry`: otherwise no line mentions it.

import { type BuildContext, ImportCollector, StaticFile, operation, prefixImport } from "../../../../codegen/index.js";
import type { ProjectConfig, TelemetryConfig } from "../../config/schema.js";
import { resourceFiles } from "../../modules/files.js";
import { ENDPOINT, RouteHandler } from "../../modules/handler.js";
import { PythonModule } from "../../modules/python-module.js";
import { pythonLiteral, pythonString } from "../../python/literals.js";
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
  for (const key of ["traces", "metrics", "logs", "instrument_fastapi", "instrument_sqlalchemy"] as const) args.push(`${key}=${pythonLiteral(telemetry[key])}`);
  if (Object.keys(telemetry.resource_attributes).length > 0) args.push(`resource_attributes=${pythonLiteral(telemetry.resource_attributes)}`);
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
    // kiln's `trace`: the entry's, else its resource's, else the project's switch for its kind.
    const own = (ctx.instance as { trace?: boolean }).trace ?? view.config.trace;
    for (const handler of ctx.store.outputsUnder(ctx.instanceId, RouteHandler)) {
      if (own ?? (handler.action ? telemetry.span_per_action : telemetry.span_per_handler)) handler.traceAs(spanOf(ctx, view, handler));
    }
    return [];
  }
}

function spanOf(ctx: BuildContext<ProjectConfig>, view: ResourceView, handler: RouteHandler) {
  return {
    decorator: `@traced(${pythonString(view.name)}, ${pythonString(handler.entry.name)})`,
    imports: new ImportCollector().addFrom(prefixImport(ctx.packagePrefix, "runtime", "telemetry"), "traced"),
  };
}
