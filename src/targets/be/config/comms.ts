// `comms` of a project: named message types (a context model, subject and body templates)
// and where they are delivered (SMTP e-mail, signed HTTP webhooks). Unset, the generated
// tree has no comms code and no dependency for it (docs/comms.md).

import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { z } from "zod";
import type { ConfigIssue } from "../../../codegen/index.js";
import { findDuplicates } from "./duplicates.js";
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

/**
 * `comms` with every `TemplateSource` replaced by its file's text, read relative to
 * `configFile`, and the files read; a file that cannot be read is an issue at its config path.
 */
export function readTemplateFiles(comms: CommsConfig, configFile: string): { comms: CommsConfig; issues: ConfigIssue[]; files: string[] } {
  const issues: ConfigIssue[] = [];
  const files: string[] = [];
  const read = (template: string | TemplateSource, path: string): string => {
    if (typeof template === "string") return template;
    const file = resolve(dirname(configFile), template.file);
    files.push(file);
    try {
      return readFileSync(file, "utf8");
    } catch (error) {
      const reason = (error as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : String((error as Error).message);
      issues.push({ path: `${path}.file`, message: `cannot read template "${template.file}" (${file}): ${reason}` });
      return "";
    }
  };
  const types = comms.types.map((type, index) => ({
    ...type,
    subject: read(type.subject, `comms.types[${index}].subject`),
    body: read(type.body, `comms.types[${index}].body`),
  }));
  return { comms: { ...comms, types }, issues, files };
}
