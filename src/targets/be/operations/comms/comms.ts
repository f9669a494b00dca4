// `comms_scaffold` (project) writes `comms.py` (the project's message types and targets,
// `send_comm` and the delivery worker's factory) and the runtime helper `runtime/comms.py`.
// Runs only when the project sets `comms`: otherwise no line mentions it.

import { type BuildContext, ImportCollector, Name, StaticFile, operation, prefixImport } from "../../../../codegen/index.js";
import type { CommsConfig, CommsTargetConfig, ProjectConfig } from "../../config/schema.js";
import { PythonModule } from "../../modules/python-module.js";
import { pythonLiteral, pythonString } from "../../python/literals.js";
import { sessionModulePath } from "../../resource.js";
import { runtimeHelperFile } from "../../runtime-source.js";

@operation("comms_scaffold", { scope: "project" })
export class CommsScaffold {
  when(ctx: BuildContext<ProjectConfig>): boolean {
    return ctx.config.comms !== undefined;
  }

  build(ctx: BuildContext<ProjectConfig>): unknown[] {
    const comms = ctx.config.comms!;
    const runtime = prefixImport(ctx.packagePrefix, "runtime");
    const targetClasses = [...new Set(comms.targets.map((target) => (target.type === "smtp" ? "SmtpTarget" : "WebhookTarget")))];
    const imports = new ImportCollector()
      .addFrom("collections.abc", "AsyncIterator", "Mapping", "Sequence")
      .addFrom("contextlib", "asynccontextmanager")
      .addFrom("typing", "Any", "Literal")
      .add("os")
      .add("uuid")
      .addFrom("pgqueuer", "PgQueuer")
      .addFrom("pydantic", "BaseModel")
      .addFrom("sqlalchemy.ext.asyncio", "AsyncSession")
      .addFrom(prefixImport(runtime, "comms"), "CommType", "Comms", ...targetClasses)
      .addFrom(prefixImport(runtime, "queue"), "open_worker_driver")
      .addFrom(prefixImport(ctx.packagePrefix, ...sessionModulePath(ctx.config, undefined)), "URL_ENV", "get_engine");
    // The target's readConfigFiles replaced every { file } template with its text (config/comms.ts).
    const types = comms.types.map((type) => {
      const [module, model] = Name.fromDotted(type.context);
      imports.addFrom(module, model.raw);
      const args = [
        `name=${pythonString(type.name)}`,
        `context=${model.raw}`,
        `subject=${pythonString(type.subject as string)}`,
        `body=${pythonString(type.body as string)}`,
        `targets=(${type.targets.map(pythonString).join(", ")}${type.targets.length === 1 ? "," : ""})`,
      ];
      if (type.html) args.push("html=True");
      return `CommType(${args.join(", ")})`;
    });
    return [
      new PythonModule({
        path: "comms.py",
        template: "operations/comms/comms.py.njk",
        context: {
          module: prefixImport(ctx.packagePrefix, "comms"),
          names: comms.types.map((type) => pythonString(type.name)).join(", "),
          comms: `COMMS = Comms(${commsArguments(comms, types)})`,
        },
        imports,
      }),
      new StaticFile(runtimeHelperFile("comms")),
    ];
  }
}

function commsArguments(comms: CommsConfig, types: string[]): string {
  return [
    `types=[${types.join(", ")}]`,
    `targets=[${comms.targets.map(targetCall).join(", ")}]`,
    `max_attempts=${pythonLiteral(comms.max_attempts)}`,
    `retry_delay=${pythonLiteral(comms.retry_delay)}`,
  ].join(", ");
}

function targetCall(target: CommsTargetConfig): string {
  if (target.type === "webhook") {
    return `WebhookTarget(${pythonString(target.name)}, url_env=${pythonString(target.url_env)}, secret_env=${pythonString(target.secret_env)})`;
  }
  const settings = (["host_env", "port_env", "from_env", "tls_env", "username_env", "password_env"] as const).map(
    (key) => `${key}=${pythonString(target[key])}`,
  );
  return `SmtpTarget(${[pythonString(target.name), ...settings].join(", ")})`;
}
