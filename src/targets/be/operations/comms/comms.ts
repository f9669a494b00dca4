// `comms_scaffold` (project) writes `comms.py` (the project's message types, `send_comm`
// and the delivery worker's factory) and its runtime helper: `runtime/comms.py` for
// codegen's shape (targets, the runtime's outbox), `runtime/kiln_comms.py` for kiln's (the
// user's models, transports, renderer and preferences). Runs only when the project sets
// `comms`: otherwise no line mentions it.

import { type BuildContext, ImportCollector, Name, StaticFile, operation, prefixImport } from "../../../../codegen/index.js";
import { type CommsConfig, type CommsTargetConfig, type KilnCommsConfig, type ProjectConfig, isKilnComms } from "../../config/schema.js";
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
    if (isKilnComms(comms)) return kilnComms(ctx, comms);
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

/** `comms.py` in kiln's shape: `COMMS`, a `CommsPlatform` of the user's models and instances. */
function kilnComms(ctx: BuildContext<ProjectConfig>, comms: KilnCommsConfig): unknown[] {
  const runtime = prefixImport(ctx.packagePrefix, "runtime");
  const database = comms.db_key ?? ctx.config.databases.find((candidate) => candidate.default)!.key;
  const imports = new ImportCollector()
    .addFrom("collections.abc", "AsyncIterator", "Mapping", "Sequence")
    .addFrom("contextlib", "asynccontextmanager")
    .addFrom("typing", "Any", ...(comms.types.length > 0 ? ["Literal"] : []))
    .add("os")
    .add("uuid")
    .addFrom("pgqueuer", "Job", "PgQueuer", "Queries")
    .addFrom("pydantic", "BaseModel")
    .addFrom("sqlalchemy.ext.asyncio", "AsyncSession")
    .addFrom(prefixImport(runtime, "kiln_comms"), "DISPATCH_ENTRYPOINT", "CommsPlatform", "CommType", "RecipientSpec")
    .addFrom(prefixImport(runtime, "queue"), "open_worker_driver")
    .addFrom(prefixImport(ctx.packagePrefix, ...sessionModulePath(ctx.config, comms.db_key)), "URL_ENV", "get_engine");
  // The user's objects by their module's name: two of them may share a name.
  const user = (path: string) => {
    const [module, name] = Name.fromDotted(path);
    imports.add(module);
    return `${module}.${name.raw}`;
  };
  // The target's readConfigFiles replaced every { path } template with its text (config/comms.ts).
  const types = comms.types.map((type) => {
    const args = [
      `name=${pythonString(type.name)}`,
      `context_schema=${user(type.context_schema)}`,
      `subject_template=${pythonString(type.subject_template as string)}`,
      `body_template=${pythonString(type.body_template as string)}`,
      `default_methods=(${type.default_methods.map(pythonString).join(", ")}${type.default_methods.length === 1 ? "," : ""})`,
    ];
    return `CommType(${args.join(", ")})`;
  });
  const transports = Object.entries(comms.transports).map(([method, path]) => `${pythonString(method)}: ${user(path)}`);
  const args = [
    `types=[${types.join(", ")}]`,
    `message_model=${user(comms.message_model)}`,
    `recipient_model=${user(comms.recipient_model)}`,
    `transports={${transports.join(", ")}}`,
    ...(comms.renderer === undefined ? [] : [`renderer=${user(comms.renderer)}`]),
    ...(comms.preferences === undefined ? [] : [`preferences=${user(comms.preferences)}`]),
  ];
  return [
    new PythonModule({
      path: "comms.py",
      template: "operations/comms/kiln-comms.py.njk",
      context: {
        module: prefixImport(ctx.packagePrefix, "comms"),
        database,
        comm_name: comms.types.length > 0 ? `Literal[${comms.types.map((type) => pythonString(type.name)).join(", ")}]` : "str",
        comms: `COMMS = CommsPlatform(${args.join(", ")})`,
      },
      imports,
    }),
    new StaticFile(runtimeHelperFile("kiln_comms")),
  ];
}
