// `comms` of a project: named message types (a context model, subject and body templates)
// and where they are delivered. Two shapes: codegen's (SMTP e-mail and signed webhooks
// targets, the runtime's own outbox) and kiln's (the user's message and recipient models,
// transports per method, renderer and preferences). Unset, the generated tree has no comms
// code and no dependency for it (docs/comms.md).

import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { z } from "zod";
import type { ConfigIssue } from "../../../codegen/index.js";
import { findDuplicates } from "./duplicates.js";
import { parseKilnForm } from "./kiln.js";
import { DottedPath, EnvVarName, PythonName } from "./primitives.js";

/** A template kept in a file of its own, read when the backend is generated. */
export const TemplateSource = z
  .strictObject({
    file: z.string().min(1, "must not be empty").meta({ description: "Path of the template file, relative to the config file." }),
  })
  .meta({ id: "TemplateSource", description: "A template read from a file at generation time.", examples: [{ file: "templates/welcome.html" }] });
export type TemplateSource = z.output<typeof TemplateSource>;

/** A subject or body template: inline Jinja2 text, or a `TemplateSource`. */
const Template = z.union([z.string(), TemplateSource], { error: "expected template text, or { file } naming a template file" });

const SmtpTarget = z
  .strictObject({
    name: PythonName.meta({ description: "The target's name, which message types list in `targets`." }),
    type: z.literal("smtp"),
    host_env: EnvVarName.default("SMTP_HOST").meta({ description: "Variable holding the SMTP server's host name." }),
    port_env: EnvVarName.default("SMTP_PORT").meta({ description: "Variable holding its port (default when unset: 587, or 465 with `ssl`)." }),
    from_env: EnvVarName.default("SMTP_FROM").meta({ description: "Variable holding the sender address (`From`)." }),
    tls_env: EnvVarName.default("SMTP_TLS").meta({
      description: "Variable saying how to secure the connection: `starttls` (the default when unset), `ssl`, or `none`.",
    }),
    username_env: EnvVarName.default("SMTP_USERNAME").meta({ description: "Variable holding the login name; no login when unset or empty." }),
    password_env: EnvVarName.default("SMTP_PASSWORD").meta({ description: "Variable holding the password." }),
  })
  .meta({ id: "SmtpTarget", description: "E-mail over SMTP; every setting is read from the environment when a message is sent." });

const WebhookTarget = z
  .strictObject({
    name: PythonName.meta({ description: "The target's name, which message types list in `targets`." }),
    type: z.literal("webhook"),
    url_env: EnvVarName.meta({ description: "Variable holding the URL the message is POSTed to." }),
    secret_env: EnvVarName.meta({ description: "Variable holding the HMAC-SHA256 signing secret." }),
  })
  .meta({
    id: "WebhookTarget",
    description: "A signed JSON POST: `Comms-Signature` is HMAC-SHA256 over `{timestamp}.{body}`, sent with `Comms-Timestamp`.",
  });

/** Where messages go. */
export const CommsTargetConfig = z
  .discriminatedUnion("type", [SmtpTarget, WebhookTarget], { error: 'expected a target with type "smtp" or "webhook"' })
  .meta({ id: "CommsTargetConfig", description: "A delivery target: SMTP e-mail or a signed HTTP webhook." });
export type CommsTargetConfig = z.output<typeof CommsTargetConfig>;

/** One kind of message. */
export const CommTypeConfig = z
  .strictObject({
    name: PythonName.meta({ description: 'The name `send_comm` is called with, e.g. `"article_published"`.' }),
    context: DottedPath.meta({
      description: "Dotted path of the Pydantic model the templates are rendered with.",
      examples: ["blog.messages.ArticlePublished"],
    }),
    subject: Template.meta({
      description: "Jinja2 text of the subject, rendered with the context (an undefined variable is an error), or `{ file }`.",
      examples: ["New on the blog: {{ title }}"],
    }),
    body: Template.meta({
      description: "Jinja2 text of the body, or `{ file }`; HTML-escaped values with `html: true`.",
      examples: ["{{ author }} has published {{ title }}.", { file: "templates/article_published.txt" }],
    }),
    html: z.boolean().default(false).meta({ description: "The body is HTML: context values are escaped, and e-mails are sent as `text/html`." }),
    targets: z.array(PythonName).min(1, "must name at least one target").meta({ description: "Names of the targets that deliver it." }),
  })
  .meta({ id: "CommTypeConfig", description: "A message type: its context model, templates and targets." });
export type CommTypeConfig = z.output<typeof CommTypeConfig>;

/** codegen's shape: `types` with `targets`, delivered from the runtime's own outbox. */
export const CommsConfig = z
  .strictObject({
    types: z.array(CommTypeConfig).min(1, "must list at least one message type").meta({ description: "The message types; names are unique." }),
    targets: z.array(CommsTargetConfig).min(1, "must list at least one target").meta({ description: "Where messages go; names are unique." }),
    max_attempts: z.int().min(1, "must be at least 1").default(5).meta({ description: "Delivery attempts of a message before it is marked failed." }),
    retry_delay: z.number().positive("must be a positive number of seconds").default(10).meta({
      description: "Seconds before the first retry; each later one waits twice as long.",
    }),
  })
  .superRefine((comms, ctx) => {
    for (const duplicate of findDuplicates(comms.types, (type) => type.name)) {
      ctx.addIssue({ code: "custom", path: ["types", duplicate.index, "name"], message: `duplicate message type "${duplicate.key}" (already used by types[${duplicate.first}])` });
    }
    for (const duplicate of findDuplicates(comms.targets, (target) => target.name)) {
      ctx.addIssue({ code: "custom", path: ["targets", duplicate.index, "name"], message: `duplicate target "${duplicate.key}" (already used by targets[${duplicate.first}])` });
    }
    const known = comms.targets.map((target) => target.name);
    comms.types.forEach((type, index) => {
      type.targets.forEach((name, position) => {
        if (!known.includes(name)) {
          ctx.addIssue({
            code: "custom",
            path: ["types", index, "targets", position],
            message: `unknown target "${name}"; known targets: ${known.map((target) => `"${target}"`).join(", ")}`,
          });
        }
      });
    });
  })
  .meta({ id: "CommsConfig", description: "Outgoing messages (docs/comms.md): types, targets, and delivery retries." });
export type CommsConfig = z.output<typeof CommsConfig>;

/** kiln's marker of a template kept in a file (`comms.path(p)`): read at generation time, relative to the current directory. */
export const KilnTemplatePath = z
  .strictObject({
    path: z.string().min(1, "must not be empty").meta({ description: "Path of the template file, relative to the directory codegen runs in (kiln's meaning)." }),
  })
  .meta({ id: "KilnTemplatePath", description: "kiln's template file marker, `comms.path(p)`.", examples: [{ path: "templates/order_shipped.html" }] });
export type KilnTemplatePath = z.output<typeof KilnTemplatePath>;

const KilnTemplate = z.union([z.string(), KilnTemplatePath], { error: "expected template text, or { path } naming a template file" });

/** One kind of message in kiln's shape. */
export const KilnCommTypeConfig = z
  .strictObject({
    name: PythonName.meta({ description: 'The name `send_comm` is called with, e.g. `"order_shipped"`.' }),
    context_schema: DottedPath.meta({ description: "Dotted path of the Pydantic model the templates are rendered with." }),
    subject_template: KilnTemplate.default("").meta({ description: "Template text of the subject, or `{ path }`. Default: empty (a method without subjects)." }),
    body_template: KilnTemplate.meta({ description: "Template text of the body, or `{ path }`." }),
    default_methods: z.array(PythonName).default([]).meta({
      description: "The methods `default_recipients` addresses the message on, given a user's addresses per method.",
    }),
  })
  .meta({ id: "KilnCommTypeConfig", description: "A message type in kiln's shape: its context model, templates and default methods." });
export type KilnCommTypeConfig = z.output<typeof KilnCommTypeConfig>;

/**
 * kiln's shape (`comms.platform(...)`): messages kept in the user's `message_model` and
 * `recipient_model`, each recipient delivered by the user's transport of its method.
 */
export const KilnCommsConfig = z
  .strictObject({
    message_model: DottedPath.meta({ description: "Dotted path of your SQLAlchemy model of messages (one row per send), with kiln's message columns." }),
    recipient_model: DottedPath.meta({ description: "Dotted path of your SQLAlchemy model of recipients (one row per method and address), with kiln's recipient columns." }),
    types: z.array(KilnCommTypeConfig).default([]).meta({ description: "The message types; names are unique." }),
    transports: z.record(PythonName, DottedPath).default({}).meta({
      description: "Per delivery method (`email`, `sms`…), the dotted path of your transport instance: `async send(*, message, recipient)`.",
      examples: [{ email: "shop.comms.email_transport" }],
    }),
    renderer: DottedPath.optional().meta({
      description: "Dotted path of your renderer instance, `async render(comm_type, context) -> RenderedMessage`. Default: Jinja2, an undefined variable an error.",
    }),
    preferences: DottedPath.optional().meta({
      description: "Dotted path of your preference resolver instance, `async is_enabled(*, subject_key, comm_type, method) -> bool`, asked per recipient with a `subject_key`.",
    }),
    db_key: z.string().optional().meta({ description: "The database whose session the worker opens (the recipient rows are read and updated there). Default: the default database." }),
  })
  .superRefine((comms, ctx) => {
    for (const duplicate of findDuplicates(comms.types, (type) => type.name)) {
      ctx.addIssue({ code: "custom", path: ["types", duplicate.index, "name"], message: `duplicate message type "${duplicate.key}" (already used by types[${duplicate.first}])` });
    }
  })
  .meta({
    id: "KilnCommsConfig",
    description: "Outgoing messages in kiln's shape (docs/comms.md#kilns-shape): your message and recipient models, transports per method, renderer and preferences.",
  });
export type KilnCommsConfig = z.output<typeof KilnCommsConfig>;

/** Whether `comms` is in kiln's shape. */
export function isKilnComms(comms: CommsConfig | KilnCommsConfig): comms is KilnCommsConfig {
  return "message_model" in comms;
}

/**
 * kiln's object as a union option: any object with a `message_model`, so that codegen's
 * object is reported against codegen's form; `ProjectComms` then parses it with
 * `KilnCommsConfig`, each problem at its key.
 */
const KilnCommsShape = z
  .looseObject({ message_model: z.unknown().optional() })
  .superRefine((value, ctx) => {
    if (value.message_model === undefined) ctx.addIssue({ code: "invalid_type", expected: "object", input: value, message: "not kiln's object (no message_model)", continue: false });
  })
  .meta({ title: "kiln's comms", description: "kiln's object: `message_model`, `recipient_model`, `types`, `transports`, `renderer`, `preferences`, `db_key`." });

/** The project's `comms`: codegen's object (types and targets), or kiln's (with `message_model`). */
export const ProjectComms = z
  // zod's own message: a bad object is then reported against the one form it is (config-path.ts).
  .union([CommsConfig, KilnCommsShape])
  .transform((value, ctx): CommsConfig | KilnCommsConfig => {
    if (!("message_model" in value)) return value as CommsConfig;
    return parseKilnForm(KilnCommsConfig, value, ctx);
  })
  .meta({
    description:
      "Outgoing messages (docs/comms.md): codegen's `{ types, targets }` (SMTP and webhooks from the runtime's outbox), or kiln's " +
      "`{ message_model, recipient_model, types, transports, renderer?, preferences?, db_key? }`. Default: none, and no comms code.",
  });

/**
 * `comms` with every template file replaced by its text, and the files read: codegen's
 * `{ file }` relative to `configFile`, kiln's `{ path }` relative to `cwd` (kiln's meaning).
 * A file that cannot be read is an issue at its config path.
 */
export function readTemplateFiles<C extends CommsConfig | KilnCommsConfig>(
  comms: C,
  configFile: string,
  cwd: string = process.cwd(),
): { comms: C; issues: ConfigIssue[]; files: string[] } {
  const issues: ConfigIssue[] = [];
  const files: string[] = [];
  const read = (template: string | TemplateSource | KilnTemplatePath, path: string): string => {
    if (typeof template === "string") return template;
    const [key, name, base] = "file" in template ? ["file", template.file, dirname(configFile)] : ["path", template.path, cwd];
    const file = resolve(base, name);
    files.push(file);
    try {
      return readFileSync(file, "utf8");
    } catch (error) {
      const reason = (error as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : String((error as Error).message);
      issues.push({ path: `${path}.${key}`, message: `cannot read template "${name}" (${file}): ${reason}` });
      return "";
    }
  };
  if (isKilnComms(comms)) {
    const types = comms.types.map((type, index) => ({
      ...type,
      subject_template: read(type.subject_template, `comms.types[${index}].subject_template`),
      body_template: read(type.body_template, `comms.types[${index}].body_template`),
    }));
    return { comms: { ...comms, types }, issues, files };
  }
  const types = (comms as CommsConfig).types.map((type, index) => ({
    ...type,
    subject: read(type.subject, `comms.types[${index}].subject`),
    body: read(type.body, `comms.types[${index}].body`),
  }));
  return { comms: { ...comms, types }, issues, files };
}
